"""`net.hybrid_forward` read as a value, not called (`inspect.signature(net.hybrid_forward)`):
converted blocks have a `forward` without `F`, so the attribute is gone -> `_mx_hybrid_forward(net)`,
which gives that forward with `F` put back first in its signature (any other object's own
attribute). A call (`super().hybrid_forward(F, x)`) is the block's own business (MX103)."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    return site.emit("_mx_hybrid_forward({x})", x=site.value("block"))
