"""`np.float32(v)` (mx.np re-exports NumPy's scalar types; called they convert a value) ->
`_mx_np_scalar(v, torch.float32)`."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import op_args as oa
from xlate.convert.transforms.np_const import _DTYPES


def transform(site: Site):
    if site.varargs or not site.has("value"):
        raise Manual("a NumPy scalar type called without one value")
    dtype = _DTYPES[site.matched.rsplit(".", 1)[1]]
    return oa.call(site, "_mx_np_scalar", [(None, site.value("value")), (None, f"torch.{dtype}")])
