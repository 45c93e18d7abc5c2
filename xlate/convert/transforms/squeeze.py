"""nd.squeeze: MXNet has no 0-d arrays, so squeezing every axis away leaves shape (1,)."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    holes = {"x": site.value("data")}
    if site.has("axis") and site.literal("axis") is not None:
        holes["axis"] = site.value("axis")
        return site.emit("torch.atleast_1d(torch.squeeze({x}, {axis}))", **holes)
    return site.emit("torch.atleast_1d(torch.squeeze({x}))", **holes)
