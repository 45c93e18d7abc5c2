"""nd.reverse/flip(x, axis) -> torch.flip(x, dims); an axis only known at run time -> `_mx_reverse`."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    x, axis = oa.required(site, "data"), oa.required(site, "axis")
    value = site.literal("axis")
    if isinstance(value, int) and not isinstance(value, bool):
        return site.emit("torch.flip({x}, ({axis},))", x=x, axis=axis)
    if isinstance(value, (tuple, list)) and all(isinstance(a, int) for a in value):
        return site.emit("torch.flip({x}, {axis})", x=x, axis=axis)
    return oa.run_time(site, "_mx_reverse")
