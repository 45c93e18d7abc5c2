"""nd.slice_axis(x, axis, begin, end) -> an index expression on that axis."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site


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
        return site.emit("{x}[" + ", ".join([":"] * axis + [index]) + "]", x=site.value("data"))
    return site.emit("{x}[" + ", ".join(["..."] + [index] + [":"] * (-axis - 1)) + "]", x=site.value("data"))

