"""x.astype(dtype) -> x.to(dtype, copy=True): MXNet's astype always copies by default. On a value
xlate cannot type (numpy has astype too), `_mx_astype(x, dtype)` decides at run time; a dtype
known only at run time maps through `_mx_dtype`."""
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
        site.review(_ROUND_TRIP)
    if copy is True:
        return site.emit("{x}.to({dtype}, copy=True)", x=site.value("data"), dtype=dtype)
    return site.emit("{x}.to({dtype})", x=site.value("data"), dtype=dtype)


_ROUND_TRIP = ("a cast back to floating point of a cast to an integer type: MXNet passes the gradient straight "
               "through both casts (measured: d/dx of cast(cast(3x, int32), float32) * 2 is 6), torch's integer tensors "
               "carry none, so no gradient reaches the input here; where one must (fake quantization), write "
               "`x + (x.trunc() - x).detach()` for the round trip (Note [gradients through integer casts])")


# Note [gradients through integer casts]
# MXNet's Cast passes the head gradient straight through, whatever the types: a float array cast
# to int32 and back to float32 has the identity's gradient (fake quantization relies on it:
# Quantization.MXNet's STE, 48 of the quantized MobileNet's 140 gradient checks). torch's integer
# tensors carry no gradient, so the same round trip stops it. No translation keeps both the
# integer dtype and the gradient, so the float cast of an integer cast, in one expression, is
# reported for review with the straight-through spelling.
def _through_an_integer(site: Site, dtype) -> bool:
    """The cast is to a floating type and its input is, as a whole, a cast to an integer type
    (`x.to(torch.int32, copy=True)`, or `_mx_astype(x, 'int32')` decided at run time)."""
    if not _FLOAT.search(site.code(dtype)):
        return False
    return bool(_INT_CAST.search(site.code(site.value("data")).strip()))


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
        site.review(_ROUND_TRIP)
    return call
