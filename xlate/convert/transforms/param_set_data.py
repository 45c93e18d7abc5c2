"""`p.set_data(v)` of a Gluon Parameter -> `_mx_set_data(p, v)` (a deferred parameter keeps the
value for its deferred initialisation, as in Gluon)."""
from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms import param_evidence


def transform(site: Site):
    evident = param_evidence.is_param(param_evidence.receiver(site), param_evidence.facts(site.conv))
    site.bind("param", "data", evident=evident)  # matplotlib's `line.set_data(x, y)`: skipped
    if not site.has("data"):
        raise Skip()
    param = site.value("param")
    if not evident:
        what = site.code(param).strip()
        raise Manual(f"could not tell whether `{what}` is a Gluon Parameter; if it is: `_mx_set_data({what}, value)`")
    site.fixed("`set_data(v)` -> `_mx_set_data(p, v)`: copied in place (broadcast, cast to the parameter's dtype "
               "and device) like MXNet's `arr[:] = v`; before a deferred size is known, kept for the deferred "
               "initialisation as Gluon does")
    return site.emit("_mx_set_data({p}, {v})", p=param, v=site.value("data"))
