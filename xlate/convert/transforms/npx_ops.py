"""npx's array operators that nd has too, by nd's translations (N7.22-N7.26): batch_flatten
keeps axis 0, gather_nd indexes with the index rows, shape_array is int64, arange_like counts
along one axis (or all), reshape_like / slice / stop_gradient as nd's; nonzero is an (n, ndim)
int64 array, as torch.nonzero."""
import importlib

from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa

_DELEGATES = {  # op -> (nd's transform, MXNet's signature)
    "shape_array": ("shape_array", ("data",)),
    "reshape_like": ("reshape_like", ("lhs", "rhs", "lhs_begin", "lhs_end", "rhs_begin", "rhs_end")),
    "slice": ("slice", ("data", "begin", "end", "step")),
}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op in _DELEGATES:
        name, signature = _DELEGATES[op]
        site.bind(*signature)
        return importlib.import_module(f"xlate.convert.transforms.{name}").transform(site)
    if op == "nonzero":
        site.bind("a")
        return site.emit("torch.nonzero({a})", a=oa.required(site, "a"))
    if op == "gather_nd":
        site.bind("data", "indices")
        return site.emit("{x}[tuple({i}.long())]", x=oa.required(site, "data"), i=oa.required(site, "indices"))
    if op == "arange_like":
        site.bind("data", "start", "step", "repeat", "ctx", "axis")
        return oa.run_time(site, "_mx_arange_like")
    site.bind("data")
    x = oa.required(site, "data")
    if op == "batch_flatten":
        return site.emit("{x}.flatten(1)", x=x)
    return site.emit("{x}.detach()", x=x)  # stop_gradient
