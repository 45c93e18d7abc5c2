"""`x[idx] = v` into an MXNet array x, with an index that may be an array -> `x[idx] =
_mx_item_value(x, v)` (MX747): MXNet casts the value to x's dtype for every index; torch's
index_put (an index tensor) refuses another dtype ("Index put requires the source and
destination dtypes match")."""
import libcst as cst

from xlate.convert.converter import PLAIN_INDEX
from xlate.convert.rulectx import Site, Skip

def _basic(element: cst.SubscriptElement) -> bool:
    """A slice or a literal: torch writes through `copy_`, which casts already."""
    return isinstance(element.slice, cst.Slice) or isinstance(element.slice.value, PLAIN_INDEX) or (
        isinstance(element.slice.value, cst.Name) and element.slice.value.value in ("None", "Ellipsis"))


def transform(site: Site):
    stmt = site.node
    target = stmt.targets[0].target
    value = stmt.value
    if all(_basic(e) for e in target.slice) or site.conv.is_number(site.original.value) \
            or isinstance(value, (cst.Integer, cst.Float)):
        raise Skip()  # a Python number is written in the array's dtype by both
    array = site.code(target.value).strip()
    site.fixed(f"`{array}[...] = value` -> the value cast to `{array}`'s dtype (`_mx_item_value`): MXNet casts it "
               "for any index; torch's write through an index tensor refuses another dtype")
    return stmt.with_changes(value=site.emit("_mx_item_value({x}, {v})", x=target.value.deep_clone(), v=value))
