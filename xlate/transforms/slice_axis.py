"""nd.slice_axis(x, axis, begin, end) -> an index expression on that axis."""
import libcst as cst

from xlate.rulectx import NOT_LITERAL, Manual, Site


def transform(site: Site):
    axis = site.literal("axis")
    if not isinstance(axis, int) or axis is NOT_LITERAL:
        raise Manual("slice_axis needs a literal axis")
    begin = site.code(site.value("begin")) if site.has("begin") else ""
    end = site.literal("end")
    stop = "" if end is None else site.code(site.value("end"))
    if begin == "None":
        begin = ""
    index = f"{begin}:{stop}"
    if axis >= 0:
        return site.emit("{x}[" + ", ".join([":"] * axis + [index]) + "]", x=_atom(site))
    return site.emit("{x}[" + ", ".join(["..."] + [index] + [":"] * (-axis - 1)) + "]", x=_atom(site))


def _atom(site: Site):
    data = site.value("data")
    loose = (cst.BinaryOperation, cst.UnaryOperation, cst.BooleanOperation, cst.Comparison, cst.IfExp)
    if isinstance(data, loose) and not data.lpar:
        return data.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return data
