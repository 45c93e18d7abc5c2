"""Reductions keep MXNet's shapes: (1,) for a full reduction, amax/amin over axes."""
import libcst as cst

from xlate.rulectx import NOT_LITERAL, Manual, Site, Skip, unknown_receiver

_TORCH = {"max": "amax", "min": "amin"}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    method = site.receiver is not None
    axis = site.literal("axis", None)
    has_axis = site.has("axis") and axis is not None
    keepdims = site.literal("keepdims", False)
    exclude = site.literal("exclude", False)
    if NOT_LITERAL in (keepdims, exclude) and not isinstance(keepdims, bool):
        raise Manual("`keepdims=`/`exclude=` are not literals")
    if site.receiver_kind is None:
        if op in ("max", "min") and has_axis:
            raise Manual(unknown_receiver(site))
        raise Skip()  # valid torch and numpy; only MXNet's (1,) full-reduction shape differs
    name = _TORCH.get(op, op) if has_axis or exclude else op
    if op == "prod" and has_axis and not isinstance(axis, int):
        raise Manual("torch.prod reduces one dim at a time")
    data = site.value("data")
    call = ("{x}." + name + "(") if method else ("torch." + name + "({x}")
    sep = "" if method else ", "
    holes = {"x": data}
    if exclude is True:
        if not isinstance(data, (cst.Name, cst.Attribute)):
            raise Manual("exclude=True on an expression: assign it to a name first")
        holes["axis"] = site.value("axis")
        text = call + sep + "dim=_mx_other_axes({x}, {axis})"
    elif has_axis:
        holes["axis"] = site.value("axis")
        text = call + sep + "dim={axis}"
    else:
        if keepdims is True:
            if not isinstance(data, (cst.Name, cst.Attribute)):
                raise Manual("a full reduction with keepdims=True on an expression: assign it to a name first")
            text = call + sep + "dim=tuple(range({x}.dim()))"
        else:
            text = call
        if keepdims is not True:
            node = site.emit(text + ").reshape(1)", **holes)
            site.conv.full_reductions.add(id(node))
            return node
    if keepdims is True:
        text += ", keepdim=True"
    elif keepdims is not False:
        holes["keep"] = site.value("keepdims")
        text += ", keepdim={keep}"
    return site.emit(text + ")", **holes)
