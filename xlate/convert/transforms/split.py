"""nd.split(x, num_outputs, axis=1): a count of pieces, not a piece size; a count or squeeze_axis
only known at run time -> `_mx_split`, which also returns the array itself for one output."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    data = site.value("data")
    count = site.value("num_outputs")
    axis = site.value("axis") if site.has("axis") else "1"
    squeeze = site.literal("squeeze_axis", False)
    n = site.literal("num_outputs")
    if count is None:
        raise Manual("split without num_outputs")
    if squeeze is NOT_LITERAL or n is NOT_LITERAL:
        return oa.run_time(site, "_mx_split")
    if n == 1:
        piece = "{x}.squeeze({axis})" if squeeze else "{x}.clone()"
        return site.emit(piece, x=data, axis=axis)
    if squeeze:
        return site.emit("list(torch.unbind({x}, dim={axis}))", x=data, axis=axis)
    return site.emit("list(torch.chunk({x}, {n}, dim={axis}))", x=data, n=count, axis=axis)
