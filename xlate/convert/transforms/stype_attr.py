"""`x.stype` -> `_mx_stype(x)` (MX821): a converted array is a dense torch tensor, 'default' in MXNet's words."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    return site.emit("_mx_stype({x})", x=site.value("data"))
