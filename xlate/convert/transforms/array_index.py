"""`x[idx]` with an MXNet array `idx` -> `x[_mx_index(idx)]` (MX085): MXNet reads a float
index array as integers (`np.array([0, 2])` and `nd.array(...)` make float32); torch refuses
one."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip

_MASKS = (cst.Comparison, cst.BooleanOperation, cst.UnaryOperation)  # `x[x > 0]`, `x[~m]`: bool masks


def mxnet_index(site: Site, node: cst.BaseExpression) -> bool:
    """An element of the index that is an MXNet array (of any dtype: the helper decides)."""
    return not isinstance(node, _MASKS) and site.conv.classify(node) in ("nd", "mxnp")


def transform(site: Site):
    original, updated = site.original, site.node
    elements, wrapped = [], []
    for before, after in zip(original.slice, updated.slice):
        if isinstance(before.slice, cst.Index) and mxnet_index(site, before.slice.value):
            value = site.emit("_mx_index({i})", i=after.slice.value)
            after = after.with_changes(slice=after.slice.with_changes(value=value))
            wrapped.append(site.code(before.slice.value).strip())
        elements.append(after)
    if not wrapped:
        raise Skip()
    site.fixed(f"`{', '.join(wrapped)}` (an MXNet array) as an index -> `_mx_index(...)`: MXNet reads float "
               "indices as integers, truncated (mx.np.array / nd.array of Python numbers is float32); torch "
               "takes only integer or bool index tensors (IndexError)")
    return updated.with_changes(slice=elements)
