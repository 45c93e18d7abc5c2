"""`x[i]`, `x[i, j]` read from an MXNet NDArray -> `_mx_nd_scalar(x[i, j])` (MX017): MXNet 1.x
has no 0-d arrays, and an index of integers alone that takes every axis gives shape (1,) where
torch gives a 0-d tensor (`loss[0].asnumpy()[0]`, MXNet's own examples' idiom, raised IndexError
converted; `len(x[0])` a TypeError). How many axes the index takes is known at run time only:
the helper reshapes a 0-d result and returns any other as it is (the same view)."""
from __future__ import annotations

import libcst as cst

from xlate.convert.rulectx import Site

_MASKS = (cst.Comparison, cst.BooleanOperation, cst.UnaryOperation)  # `x[x > 0]`, `x[~m]`: 1-D results


def integers_only(subscript: cst.Subscript) -> bool:
    """Every element an index (no slice, None or Ellipsis, which keep or add an axis) that may be
    an integer: a literal, a name, an attribute, a call or arithmetic. A negative literal is one."""
    for element in subscript.slice:
        index = element.slice
        if not isinstance(index, cst.Index) or element.slice.star is not None:
            return False
        value = index.value
        if isinstance(value, (cst.Ellipsis, cst.Float, cst.SimpleString, cst.Tuple, cst.List)) \
                or (isinstance(value, cst.Name) and value.value == "None"):
            return False
        if isinstance(value, _MASKS) and not (isinstance(value, cst.UnaryOperation)
                                              and isinstance(value.operator, cst.Minus)):
            return False
    return True


def transform(site: Site):
    what = site.code(site.original).strip()
    site.fixed(f"`{what[:40]}` reads an element of an NDArray -> `_mx_nd_scalar(...)`: MXNet 1.x gives shape (1,) "
               "where torch gives a 0-d tensor; other results are returned as they are")
    return site.emit("_mx_nd_scalar({x})", x=site.node)
