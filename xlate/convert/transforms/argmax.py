"""argmax/argmin: MXNet returns float32 indices, and never a 0-d array ((1,) for a flat index)."""
from xlate.convert.rulectx import Manual, Site, Skip


def transform(site: Site):
    if site.receiver_kind is None:
        raise Skip()  # valid torch and numpy; only the index dtype differs
    op = site.matched.rsplit(".", 1)[1]
    keepdims = site.literal("keepdims", False)
    if keepdims not in (True, False):
        raise Manual("`keepdims=` is not a literal")
    holes = {"x": site.value("data")}
    head = ("{x}." + op + "(") if site.receiver is not None else ("torch." + op + "({x}, ")
    if site.literal("axis") is None:
        if keepdims:
            raise Manual("argmax over all axes with keepdims=True")
        head = head.rstrip(", ") if site.receiver is None else head
        return site.emit(head + ").reshape(1).float()", **holes)
    holes["axis"] = site.value("axis")
    if keepdims:
        return site.emit(head + "dim={axis}, keepdim=True).float()", **holes)
    # over the only axis of a vector MXNet gives (1,), torch a 0-d index
    return site.emit("torch.atleast_1d(" + head + "dim={axis})).float()", **holes)
