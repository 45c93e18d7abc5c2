"""x.astype(dtype) -> x.to(dtype, copy=True): MXNet's astype always copies by default. On a value
xlate cannot type (numpy has astype too), `_mx_astype(x, dtype)` decides at run time; a dtype
known only at run time maps through `_mx_dtype`."""
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
    if copy is True:
        return site.emit("{x}.to({dtype}, copy=True)", x=site.value("data"), dtype=dtype)
    return site.emit("{x}.to({dtype})", x=site.value("data"), dtype=dtype)


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
    return call
