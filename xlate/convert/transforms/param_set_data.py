"""`p.set_data(v)` of a Gluon Parameter -> `p.data.copy_(v)`."""
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
        raise Manual(f"could not tell whether `{what}` is a Gluon Parameter; if it is: `{what}.data.copy_(value)`")
    value = site.value("data")
    original = site.original.args[0].value if site.original.args else None
    if original is not None and site.conv.classify(original) in ("nd", "mxnp", "pt"):  # a tensor already
        return site.emit("{p}.data.copy_({v})", p=param, v=value)
    site.fixed("`set_data(v)` -> `.data.copy_(torch.as_tensor(v))`: copied in place (broadcast, cast to the "
               "parameter's dtype and device) like MXNet's `arr[:] = v`")
    return site.emit("{p}.data.copy_(torch.as_tensor({v}))", p=param, v=value)
