"""nd.slice_like(x, like, axes) -> `x[:, :like.shape[1], ...]` on the listed axes; every axis, a
negative one or an expression for `like` -> `_mx_slice_like`."""
import libcst as cst

from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    x, like = oa.required(site, "data"), oa.required(site, "shape_like")
    axes = site.literal("axes", ())
    axes = (axes,) if isinstance(axes, int) and not isinstance(axes, bool) else axes
    simple = isinstance(like, (cst.Name, cst.Attribute))
    if not (simple and isinstance(axes, tuple) and axes and all(isinstance(a, int) and a >= 0 for a in axes)):
        return oa.run_time(site, "_mx_slice_like", ("data", "shape_like"))
    parts = [":" if a not in axes else ":{like}.shape[%d]" % a for a in range(max(axes) + 1)]
    return site.emit("{x}[" + ", ".join(parts) + "]", x=x, like=like)
