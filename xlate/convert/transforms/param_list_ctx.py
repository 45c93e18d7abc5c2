"""`x.list_ctx()` of a Gluon Parameter or ParameterDict -> `_mx_list_ctx(x)`: the devices its
tensors live on (a torch tensor has one device)."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import param_evidence


def transform(site: Site):
    site.bind("param")
    original = param_evidence.receiver(site)
    known = param_evidence.facts(site.conv)
    if not (param_evidence.is_param(original, known) or param_evidence.is_param_dict(original, known)):
        site.review(f"`.list_ctx()` -> `_mx_list_ctx(...)`, on a value xlate could not trace to a Gluon "
                    f"Parameter: it takes tensors, dicts of them and modules")
    return site.emit("_mx_list_ctx({p})", p=site.value("param"))
