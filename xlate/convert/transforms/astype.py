"""x.astype(dtype) -> x.to(dtype, copy=True): MXNet's astype always copies by default. On a value
xlate cannot type (numpy has astype too), `_mx_astype(x, dtype)` decides at run time; a dtype
known only at run time maps through `_mx_dtype`."""
import ast
import re

import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site, unknown_receiver
from xlate.convert.table import convert_dtype

_EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def transform(site: Site):
    copy = site.literal("copy", True)
    if copy is NOT_LITERAL:
        raise Manual("`copy=` is not a literal")
    if site.receiver_kind is None:
        if site.matched != ".astype" and not site.matched.endswith(".ndarray.astype"):
            raise Manual(unknown_receiver(site))
        return _at_run_time(site, copy)
    try:
        dtype = convert_dtype(site, site.value("dtype"))
    except Manual:
        if site.evaluate(site.value("dtype")) is not NOT_LITERAL:
            raise  # a literal torch has no dtype for
        dtype = site.emit("_mx_dtype({d})", d=site.value("dtype"))  # known only at run time
    if _through_an_integer(site, dtype):
        return _round_trip(site, dtype)
    if _held_integer_cast(site, dtype):
        site.review(_ROUND_TRIP)
    if copy is True:
        return site.emit("{x}.to({dtype}, copy=True)", x=site.value("data"), dtype=dtype)
    return site.emit("{x}.to({dtype})", x=site.value("data"), dtype=dtype)


_ROUND_TRIP = ("a float cast of a value an integer cast made on another line: MXNet passes the gradient back through "
               "both casts, itself cast to the integer type (measured: a head gradient of 2.5 arrives as 2, one below 1 "
               "as 0), torch's integer tensors carry none, so no gradient reaches the input here; where one must, cast "
               "in one expression (`x.astype('int32').astype('float32')`), which xlate translates with MXNet's gradient "
               "(Note [gradients through integer casts])")


# Note [gradients through integer casts]
# MXNet's Cast passes the head gradient back cast to the cast's input type: through a float array
# cast to int32 and back to float32, the gradient arrives cast to int32, truncated toward zero
# (measured: 2.5 arrives as 2, a gradient below 1 as 0). Fake quantization relies on it
# (Quantization.MXNet's STE, 48 of the quantized MobileNet's 140 gradient checks). torch's integer
# tensors carry no gradient, so the same round trip stops it. In one expression the round trip is
# `_mx_cast_round_trip(x, int_type, float_type)`, a torch.autograd.Function with both casts' values
# and MXNet's gradient. A float cast of a name an integer cast was assigned to cannot be: the
# integer tensor between them holds no gradient, so it is reviewed.
def _through_an_integer(site: Site, dtype) -> bool:
    """The cast is to a floating type and its input is, as a whole, a cast to an integer type
    (`x.to(torch.int32, copy=True)`, or `_mx_astype(x, 'int32')` decided at run time)."""
    if not _FLOAT.search(site.code(dtype)):
        return False
    return bool(_INT_CAST.search(site.code(site.value("data")).strip()))


def _round_trip(site: Site, dtype):
    """`_mx_cast_round_trip(x, int_type, float_type)` for a float cast whose input is an integer cast
    (`x.to(torch.int32, copy=True)` or `_mx_astype(x, 'int32')`, already translated)."""
    inner = _unparenthesised(site.value("data"))
    if isinstance(inner.func, cst.Attribute):  # x.to(torch.int32, copy=True)
        x, through = inner.func.value, inner.args[0].value
    else:  # _mx_astype(x, 'int32')
        x, through = inner.args[0].value, inner.args[1].value
    site.fixed("a float cast of an integer cast -> `_mx_cast_round_trip(x, int_type, float_type)`: both casts' values, "
               "and MXNet's gradient, which arrives cast to the integer type (torch's integer tensors carry none; "
               "Note [gradients through integer casts])")
    return site.emit("_mx_cast_round_trip({x}, {through}, {to})", x=x, through=through, to=dtype)


def _unparenthesised(node):
    return node.with_changes(lpar=[], rpar=[]) if getattr(node, "lpar", None) else node


def _held_integer_cast(site: Site, dtype) -> bool:
    """The cast is to a floating type and its input is a name every assignment of which, in its
    scope, is an integer cast (`q = (x * 127).astype('int8')` on a line before)."""
    if site.matched.startswith("."):
        data = site.original.func.value if isinstance(site.original.func, cst.Attribute) else None
    else:  # nd.cast(q, 'float32')
        data = site.original.args[0].value if site.original.args and site.original.args[0].keyword is None else None
    if not isinstance(data, cst.Name) or not _FLOAT.search(site.code(dtype)):
        return False
    conv = site.conv
    scope = conv.analysis.home(conv.scopes[-1], data.value)
    values = scope.values.get(data.value) if scope is not None else None
    return bool(values) and all(_integer_cast_ast(v) for v in values)


def _integer_cast_ast(value: ast.AST) -> bool:
    """`e.astype(<integer type>)` or `nd.cast(e, <integer type>)`, as the program wrote it."""
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute) \
            or value.func.attr not in ("astype", "cast", "Cast"):
        return False
    given = [k.value for k in value.keywords if k.arg == "dtype"]
    given += value.args[1:2] if value.func.attr != "astype" else value.args[:1]
    return bool(given) and bool(_INT_NAME.search(ast.unparse(given[0])))


_INT_NAME = re.compile(r"^(['\"]u?int\d*['\"]|(np|numpy|onp)\.u?int\d*|int)$")
_FLOAT = re.compile(r"float|half|double|bfloat")
_INT_CAST = re.compile(r"(\.to\(torch\.(u?int\d+|long|int)\b[^()]*\)|^_mx_astype\(.*,\s*(['\"]u?int\d+['\"]|"
                       r"(np|numpy|torch)\.u?int\d+)\))$", re.S)


def _at_run_time(site: Site, copy: bool):
    """`_mx_astype(x, dtype)`: an MXNet array (a tensor, once converted) is copied to the dtype as
    MXNet's astype does, anything else (a NumPy array) calls its own astype."""
    call = site.emit("_mx_astype({x}, {d})", x=site.value("data"), d=site.value("dtype"))
    if copy is False:
        call = call.with_changes(args=[*call.args[:-1], call.args[-1].with_changes(
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
            cst.Arg(cst.Name("False"), keyword=cst.Name("copy"), equal=_EQ)])
    what = site.code(site.receiver).strip()
    site.fixed(f"`{what[:40]}.astype(...)` on a value xlate could not type -> `_mx_astype(...)`, decided at run time: "
               "a tensor (an MXNet array, converted) is copied to the dtype as MXNet's astype does, anything else "
               "(a NumPy array) keeps its own astype")
    if _through_an_integer(site, site.value("dtype")):
        return _round_trip(site, site.value("dtype"))
    if _held_integer_cast(site, site.value("dtype")):
        site.review(_ROUND_TRIP)
    return call
