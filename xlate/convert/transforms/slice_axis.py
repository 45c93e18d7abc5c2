"""nd.slice_axis(x, axis, begin, end) -> an index expression on that axis; an axis only known at run
time -> `_mx_slice_axis`."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    axis = site.literal("axis")
    if axis is NOT_LITERAL:
        return oa.run_time(site, "_mx_slice_axis")
    if not isinstance(axis, int):
        raise Manual("slice_axis needs an integer axis")
    begin = site.code(site.value("begin")) if site.has("begin") else ""
    end = site.literal("end")
    stop = "" if end is None else site.code(site.value("end"))
    if begin == "None":
        begin = ""
    index = f"{begin}:{stop}"
    if axis >= 0:
        return site.emit("{x}[" + ", ".join([":"] * axis + [index]) + "]", x=site.value("data"))
    return site.emit("{x}[" + ", ".join(["..."] + [index] + [":"] * (-axis - 1)) + "]", x=site.value("data"))
