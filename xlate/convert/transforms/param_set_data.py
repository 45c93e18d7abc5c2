"""`p.set_data(v)` of a Gluon Parameter -> `_mx_set_data(p, v)` (a deferred parameter keeps the
value for its deferred initialisation, as in Gluon)."""
from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms import param_evidence


def transform(site: Site):
    evident = param_evidence.is_param(param_evidence.receiver(site), param_evidence.facts(site.conv))
    site.bind("param", "data", evident=evident)  # matplotlib's `line.set_data(x, y)`: skipped
    if not site.has("data"):
        raise Skip()
    param = site.value("param")
    if not evident:
        # a loop over `enumerate(net.collect_params().values())`, an item of a list of them: decided
        # at run time (an MXNet array has no set_data, so a torch tensor is a converted Parameter)
        site.fixed(f"`{site.code(param).strip()}.set_data(v)` on a value xlate could not type -> "
                   "`_mx_set_data_method(x, v)`, decided at run time: a torch tensor (a converted Gluon Parameter) is "
                   "copied into in place as MXNet does; any other value calls its own set_data")
        return site.emit("_mx_set_data_method({p}, {v})", p=param, v=site.value("data"))
    site.fixed("`set_data(v)` -> `_mx_set_data(p, v)`: copied in place (broadcast, cast to the parameter's dtype "
               "and device) like MXNet's `arr[:] = v`; before a deferred size is known, kept for the deferred "
               "initialisation as Gluon does")
    return site.emit("_mx_set_data({p}, {v})", p=param, v=site.value("data"))
