"""broadcast_*/elemwise_* functions become Python operators (same broadcasting)."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site

_ARITH = {"add": "+", "plus": "+", "sub": "-", "minus": "-", "subtract": "-", "mul": "*", "multiply": "*",
          "div": "/", "divide": "/", "power": "**"}
_COMPARE = {"equal": "==", "not_equal": "!=", "greater": ">", "greater_equal": ">=", "lesser": "<",
            "lesser_equal": "<="}


def transform(site: Site):
    name = site.matched.rsplit(".", 1)[1]
    op = name.split("_", 1)[1] if name.startswith(("broadcast_", "elemwise_")) else name.lstrip("_").lower()
    holes = {"a": site.value("lhs"), "b": site.value("rhs")}
    if site.varargs:
        raise Manual("a third positional argument is MXNet's `out=`: write the result to it by hand")
    if holes["a"] is None or holes["b"] is None:
        raise Manual("needs both operands")
    if op in ("div", "divide", "true_divide"):  # MXNet 1.x: true_divide is divide
        site.fixed(f"`{name}(a, b)` -> `_mx_broadcast_div(a, b)`: arrays of an integer dtype divide as integers in "
                   "MXNet, truncated toward zero (-7 / 2 is -3), where torch's `/` gives floats; others as `/`")
        return site.emit("_mx_broadcast_div({a}, {b})", **holes)
    if op in _ARITH:
        return site.emit("{a} " + _ARITH[op] + " {b}", **holes)
    if op in ("maximum", "minimum"):  # MXNet's gradient at ties (Note [tied extrema] in runtime/operators.py)
        return site.emit("_mx_" + op + "({a}, {b})", **holes)
    if op in _COMPARE:
        # broadcast_*: both operands are arrays of one dtype (MXNet refuses two), which its 0/1 keeps;
        # `nd.greater(x, 0.5)` also takes a number, which a plain name might be
        plain = next((holes[k] for k in ("a", "b") if _plain(holes[k])), None) if name.startswith("broadcast_") else None
        if plain is not None:
            site.fixed(f"`{name}(a, b)` -> `(a {_COMPARE[op]} b).to(<an operand>.dtype)`: MXNet's 0/1 in the "
                       "inputs' dtype (float16, float64 and int32 measured), where torch gives bool")
            return site.emit("({a} " + _COMPARE[op] + " {b}).to({like}.dtype)", like=plain.deep_clone(), **holes)
        site.review("MXNet returns 0/1 in the input dtype; `.float()` assumes float32 inputs")
        return site.emit("({a} " + _COMPARE[op] + " {b}).float()", **holes)
    raise Manual(f"`{name}` is not translated")


def _plain(node) -> bool:
    """A name or an attribute chain of names: read twice, it is the same value at no cost."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)
