"""`net.cast(dtype)` of a Gluon block -> `_mx_cast(net, dtype)`: BatchNorm stays float32 under
float16, as in Gluon; a receiver xlate cannot type is decided at run time by the helper."""
from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms import param_evidence


def transform(site: Site):
    original = param_evidence.receiver(site)
    kind = param_evidence.block_kind(site, original) if original is not None else "unknown"
    if kind == "no":
        raise Skip()  # `self.cast(...)` in a class of this file that is no Gluon block
    site.bind("block", "dtype", evident=kind == "yes")
    return site.emit("_mx_cast({b}, {d})", b=site.value("block"), d=site.value("dtype"))
