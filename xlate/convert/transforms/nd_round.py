"""`nd.round(x)` / `x.round()` -> `_mx_round(x)`, `nd.rint(x)` -> `_mx_rint(x)`: MXNet's ties (halves away from
zero; rint toward minus infinity), where torch's round gives the even neighbour."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    helper = "_mx_rint" if site.matched.endswith("rint") else "_mx_round"
    return site.emit(site.helper(helper) + "({x})", x=site.value("data"))
