"""broadcast_to/like/axis -> expand: a 0 in MXNet's shape keeps that dimension (-1 in torch)."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    data = site.value("data")
    if op == "broadcast_like":
        # MXNet names its operands lhs and rhs (`F.broadcast_like(lhs=e, rhs=q, ...)`, GluonNLP's XLNet)
        data, other = data or site.value("lhs"), site.value("shape") or site.value("rhs")
        # broadcast_like(lhs, rhs, lhs_axes, rhs_axes): the third and fourth positional ones bind as size/axis
        lhs_axes, rhs_axes = site.value("lhs_axes") or site.value("size"), site.value("rhs_axes") or site.value("axis")
        if data is None or other is None or site.has("data") and site.has("lhs") \
                or site.has("shape") and site.has("rhs") \
                or set(site.args) - {"data", "shape", "lhs_axes", "rhs_axes", "size", "axis", "lhs", "rhs"} \
                or (lhs_axes is None) != (rhs_axes is None) or site.has("lhs_axes") and site.has("size") \
                or site.has("rhs_axes") and site.has("axis"):
            raise Manual("broadcast_like takes lhs, rhs and optionally both lhs_axes and rhs_axes")
        if lhs_axes is None:
            return site.emit("{x}.expand_as({y})", x=data, y=other)
        return site.emit("_mx_broadcast_like({x}, {y}, lhs_axes={a}, rhs_axes={b})", x=data, y=other, a=lhs_axes,
                         b=rhs_axes)
    if site.has("lhs_axes") or site.has("rhs_axes") or site.has("lhs") or site.has("rhs"):
        raise Manual("`lhs=`/`rhs=`/`lhs_axes=`/`rhs_axes=` belong to broadcast_like alone")
    if site.has("axis") and (op not in ("broadcast_axis", "broadcast_axes") or site.has("shape")):
        raise Manual("`axis=` belongs to broadcast_axis alone")
    if op in ("broadcast_axis", "broadcast_axes"):
        axis = site.literal("axis") if site.has("axis") else site.literal("shape")
        size = site.literal("size")
        if axis is None or size is None:
            raise Manual("broadcast_axis needs its axis and size")
        if NOT_LITERAL in (axis, size) or not isinstance(data, (cst.Name, cst.Attribute)) \
                or any(a < 0 for a in ([axis] if isinstance(axis, int) else list(axis))):
            # known at run time, or on an expression: the helper takes MXNet's own signature
            site.fixed("`broadcast_axis(x, axis, size)` with values known at run time -> `_mx_broadcast_axis(...)`")
            return site.emit("_mx_broadcast_axis({x}, axis={a}, size={s})", x=data,
                             a=site.value("axis") or site.value("shape"), s=site.value("size"))
        axes = [axis] if isinstance(axis, int) else list(axis)
        sizes = [size] if isinstance(size, int) else list(size)
        top = max(axes)
        dims = ["-1"] * (top + 1)
        for a, s in zip(axes, sizes):
            dims[a] = str(s)
        return site.emit("{x}.expand(" + ", ".join(dims) + ", *{x}.shape[" + str(top + 1) + ":])", x=data)
    shape = site.literal("shape")
    if shape is NOT_LITERAL:
        site.review("a shape held in a variable may contain 0 (keep this dimension), which expand spells -1")
        return site.emit("{x}.expand({shape})", x=data, shape=site.value("shape"))
    dims = [-1 if d == 0 else d for d in (shape if isinstance(shape, (tuple, list)) else (shape,))]
    return site.emit("{x}.expand(" + ", ".join(str(d) for d in dims) + ")", x=data)
