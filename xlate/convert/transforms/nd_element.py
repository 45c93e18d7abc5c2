"""`x[i]`, `x[i, j]` read from an MXNet NDArray -> `_mx_nd_scalar(x[i, j])` (MX017): MXNet 1.x
has no 0-d arrays, and an index of integers alone that takes every axis gives shape (1,) where
torch gives a 0-d tensor (`loss[0].asnumpy()[0]`, MXNet's own examples' idiom, raised IndexError
converted; `len(x[0])` a TypeError). How many axes the index takes is known at run time only:
the helper reshapes a 0-d result and returns any other as it is (the same view).

Note [elements of untyped values]
`ident(b)[-1, 0]`, `scores[i, j]` on a function's parameter: xlate cannot type the value, and the
element was 0-d where MXNet's NDArray gives (1,). An index of two or more integers is an array's
(lists and tuples refuse one; a dict keyed by tuples gets its value back from the helper as it is),
so in code that handles MXNet arrays (untyped_compare.handles_arrays), outside the numpy dialect,
the read goes to `_mx_nd_scalar` too: a NumPy array's element, a number, stays as it is. One
integer (`x[0]`, `x[1][2]`) is left: a list, a tuple, a block's outputs take it as often as an
array, and their elements would all pass through the helper."""
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


def untyped_element(conv, subscript: cst.Subscript) -> bool:
    """An element read by two or more integers from a value xlate cannot type, in code that handles
    MXNet arrays outside the numpy dialect (Note [elements of untyped values])."""
    from xlate.convert.transforms.untyped_compare import handles_arrays

    if len(subscript.slice) < 2 or conv.analysis.array_kind != "nd" or conv.classify(subscript.value) is not None:
        return False
    if conv.resolve_expr(subscript.value) is not None or any(_type_like(conv, e.slice.value) for e in subscript.slice):
        return False  # `Union[mx.sym.Symbol, int]`, `Dict[str, Tensor]`: a type's parameters, no index
    return handles_arrays(conv)


_BUILTIN_TYPES = frozenset("int float str bool bytes complex object type list tuple dict set frozenset".split())


def _type_like(conv, index: cst.BaseExpression) -> bool:
    """An index that names a class or a module's member (`int`, `mx.sym.Symbol`, `np.float32`)."""
    if isinstance(index, cst.Name) and index.value in _BUILTIN_TYPES:
        return True
    return isinstance(index, (cst.Name, cst.Attribute)) and conv.resolve_expr(index) is not None


def transform(site: Site):
    what = site.code(site.original).strip()
    if site.conv.classify(site.original.value) is None:
        site.fixed(f"`{what[:40]}` reads an element of a value xlate could not type by integers -> "
                   "`_mx_nd_scalar(...)`, decided at run time: a tensor's (an MXNet array's) 0-d element is (1,) "
                   "as in MXNet 1.x, any other result (a NumPy array's element) is returned as it is")
        return site.emit("_mx_nd_scalar({x})", x=site.node)
    site.fixed(f"`{what[:40]}` reads an element of an NDArray -> `_mx_nd_scalar(...)`: MXNet 1.x gives shape (1,) "
               "where torch gives a 0-d tensor; other results are returned as they are")
    return site.emit("_mx_nd_scalar({x})", x=site.node)
