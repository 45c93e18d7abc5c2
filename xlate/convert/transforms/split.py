"""nd.split(x, num_outputs, axis=1): a count of pieces, not a piece size."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site


def transform(site: Site):
    data = site.value("data")
    count = site.value("num_outputs")
    axis = site.value("axis") if site.has("axis") else "1"
    squeeze = site.literal("squeeze_axis", False)
    n = site.literal("num_outputs")
    if count is None:
        raise Manual("split without num_outputs")
    if squeeze is NOT_LITERAL:
        raise Manual("`squeeze_axis=` is not a literal")
    if n == 1:
        piece = "{x}.squeeze({axis})" if squeeze else "{x}.clone()"
        return site.emit(piece, x=data, axis=axis)
    if n is NOT_LITERAL:
        site.review("num_outputs is only known at run time: with 1 output MXNet returns the array itself, "
                    "not a list")
    if squeeze:
        return site.emit("list(torch.unbind({x}, dim={axis}))", x=data, axis=axis)
    return site.emit("list(torch.chunk({x}, {n}, dim={axis}))", x=data, n=count, axis=axis)
