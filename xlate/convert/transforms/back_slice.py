"""`x[::-1]` on an MXNet array -> `_mx_back_slice(x, (slice(None, None, -1),))` (MX007): NumPy's
and MXNet's slices take a negative step (the elements in reverse order); torch's refuse one
("step must be greater than zero")."""
from __future__ import annotations

import libcst as cst

from xlate.convert import names
from xlate.convert.rulectx import Site


def negative(element: cst.SubscriptElement) -> bool:
    """A slice whose step is a negative literal (`::-1`, `5:0:-2`)."""
    step = element.slice.step if isinstance(element.slice, cst.Slice) else None
    return isinstance(step, cst.UnaryOperation) and isinstance(step.operator, cst.Minus) \
        and isinstance(step.expression, (cst.Integer, cst.Float))


def array_like(conv, node: cst.BaseExpression) -> bool:
    """An MXNet array, or what an NDArray method returns (`scores.argsort()` on a value xlate
    cannot type: a NumPy array's method gives a NumPy array, which the helper indexes as it is)."""
    kind = conv.classify(node)
    if kind in ("nd", "mxnp"):
        return True
    return kind is None and isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
        and node.func.attr.value in names.ND_METHODS


def _as_call(element: cst.SubscriptElement, code) -> str:
    if not isinstance(element.slice, cst.Slice):
        return code(element.slice.value).strip()
    parts = [element.slice.lower, element.slice.upper, element.slice.step]
    return "slice(" + ", ".join("None" if p is None else code(p).strip() for p in parts) + ")"


def transform(site: Site):
    updated = site.node
    key = ", ".join(_as_call(e, site.code) for e in updated.slice)
    what = site.code(site.original).strip()
    site.fixed(f"`{what[:40]}`: a negative step -> `_mx_back_slice(...)`, the elements in reverse order as MXNet "
               "and NumPy give them (torch's slices refuse a negative step)")
    return site.emit(f"_mx_back_slice({{x}}, ({key},))", x=updated.value)
