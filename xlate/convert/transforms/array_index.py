"""`x[idx]` with an MXNet array `idx` -> `x[_mx_index(idx)]` (MX085): MXNet reads a float
index array as integers (`np.array([0, 2])` and `nd.array(...)` make float32); torch refuses
one."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip

_MASKS = (cst.Comparison, cst.BooleanOperation, cst.UnaryOperation)  # `x[x > 0]`, `x[~m]`: bool masks


def mxnet_index(site: Site, node: cst.BaseExpression) -> bool:
    """An element of the index that is an MXNet array (of any dtype: the helper decides)."""
    return not isinstance(node, _MASKS) and site.conv.classify(node) in ("nd", "mxnp")


def _row_range(element: cst.SubscriptElement) -> bool:
    return isinstance(element.slice, cst.Index) and isinstance(element.slice.value, cst.Call) \
        and isinstance(element.slice.value.func, cst.Name) and element.slice.value.func.value == "range"


def picked(site: Site, node: cst.BaseExpression) -> bool:
    """The labels of d2l's pick, `y_hat[range(len(y_hat)), y]`: a name beside a `range(...)` row
    index, in a file of MXNet arrays, whose kind xlate cannot prove (a function's parameter).
    MXNet's labels are float32 there; `_mx_index` leaves anything but a float array as it is."""
    return isinstance(node, (cst.Name, cst.Attribute)) and bool(site.conv.analysis.mx_imports) \
        and any(_row_range(e) for e in site.original.slice) and site.conv.classify(node) is None \
        and not site.conv.is_number(node)


def transform(site: Site):
    original, updated = site.original, site.node
    elements, wrapped = [], []
    for before, after in zip(original.slice, updated.slice):
        if isinstance(before.slice, cst.Index) and (mxnet_index(site, before.slice.value)
                                                    or picked(site, before.slice.value)):
            value = site.emit("_mx_index({i})", i=after.slice.value)
            after = after.with_changes(slice=after.slice.with_changes(value=value))
            wrapped.append(site.code(before.slice.value).strip())
        elements.append(after)
    if not wrapped:
        raise Skip()
    site.fixed(f"`{', '.join(wrapped)}` (an MXNet array) as an index -> `_mx_index(...)`: MXNet reads float "
               "indices as integers, truncated (mx.np.array / nd.array of Python numbers is float32); torch "
               "takes only integer or bool index tensors (IndexError)"
               + ("; beside a `range(...)` row index a name xlate cannot type goes through it too (d2l's pick: "
                  "labels), and the helper leaves anything but a float array as it is"
                  if any(picked(site, e.slice.value) for e in original.slice if isinstance(e.slice, cst.Index))
                  else ""))
    return updated.with_changes(slice=elements)
