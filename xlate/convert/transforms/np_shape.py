"""mx.np shape functions -> torch's (N6.8, N8.12, N8.21-N8.26): NumPy's parameter names become
torch's, `transpose` with no axes reverses them all, `repeat` repeats elements (torch's
`repeat` tiles), `pad` lists its pairs from the first axis."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import op_args as oa
from xlate.convert.transforms.np_copies import as_mxnet_copies

_SIGNATURES = {
    "reshape": ("a", "newshape", "order", "out"), "transpose": ("a", "axes"), "swapaxes": ("a", "axis1", "axis2"),
    "expand_dims": ("a", "axis"), "squeeze": ("a", "axis", "out"), "ravel": ("x", "order"),
    "flip": ("m", "axis", "out"), "tile": ("A", "reps"), "repeat": ("a", "repeats", "axis"),
    "broadcast_to": ("array", "shape"), "pad": ("x", "pad_width", "mode", "constant_values"),
    "moveaxis": ("a", "source", "destination"),
}


_VIEWS = ("reshape", "transpose", "swapaxes", "expand_dims", "squeeze", "ravel", "broadcast_to", "moveaxis")


def transform(site: Site):
    out = _translate(site)
    op = site.matched.rsplit(".", 1)[1]
    if op in _VIEWS:  # torch's are views, MXNet's copies (Note [the dialect's shape copies])
        return as_mxnet_copies(site, site.value(_SIGNATURES[op][0]), out)
    return out


def _translate(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    site.bind(*_SIGNATURES[op])
    if site.has("out") and site.literal("out") is not None:
        raise Manual("`out=` is not translated")
    if site.has("order") and site.literal("order") not in ("C", None):
        raise Manual("only order='C' is translated")
    x = oa.required(site, _SIGNATURES[op][0])
    if op == "reshape":
        return site.emit("torch.reshape({x}, {s})", x=x, s=oa.required(site, "newshape"))
    if op == "transpose":
        if not site.has("axes") or site.literal("axes") is None:
            return site.emit("_mx_permute_axes({x})", x=x)
        return site.emit("{x}.permute({a})", x=x, a=site.value("axes"))
    if op == "swapaxes":
        return site.emit("torch.swapaxes({x}, {a}, {b})", x=x, a=oa.required(site, "axis1"),
                         b=oa.required(site, "axis2"))
    if op == "moveaxis":  # one axis or a sequence of them, as torch.movedim takes
        return site.emit("torch.movedim({x}, {s}, {d})", x=x, s=oa.required(site, "source"),
                         d=oa.required(site, "destination"))
    if op == "expand_dims":
        if isinstance(site.literal("axis"), (tuple, list)):
            raise Manual("expand_dims with a tuple of axes raises in MXNet 1.9.1")
        return site.emit("torch.unsqueeze({x}, {a})", x=x, a=oa.required(site, "axis"))
    if op == "squeeze":
        if site.has("axis") and site.literal("axis") is not None:
            return site.emit("torch.squeeze({x}, {a})", x=x, a=site.value("axis"))
        return site.emit("torch.squeeze({x})", x=x)
    if op == "ravel":
        return site.emit("torch.ravel({x})", x=x)
    if op == "flip":
        if site.has("axis") and site.literal("axis") is not None:
            axis = site.literal("axis")
            dims = site.value("axis") if isinstance(axis, (tuple, list)) else site.emit("({a},)", a=site.value("axis"))
            if not isinstance(axis, (int, tuple, list)):
                raise Manual("flip with an axis known at run time: torch.flip takes a tuple of dims")
            return site.emit("torch.flip({x}, {d})", x=x, d=dims)
        if not _simple(x):
            raise Manual("flip of an expression over every axis: assign it to a name first")
        return site.emit("torch.flip({x}, tuple(range({x}.dim())))", x=x)
    if op == "tile":
        return site.emit("torch.tile({x}, {r})", x=x, r=oa.required(site, "reps"))
    if op == "repeat":
        args = [(None, x), (None, oa.required(site, "repeats"))]
        if site.has("axis") and site.literal("axis") is not None:
            args.append(("dim", site.value("axis")))
        return oa.call(site, "torch.repeat_interleave", args)
    if op == "broadcast_to":
        return site.emit("torch.broadcast_to({x}, {s})", x=x, s=oa.required(site, "shape"))
    # pad
    mode = site.literal("mode", "constant")
    if mode != "constant":
        raise Manual(f"np.pad mode={mode!r} is not translated (constant only)")
    return oa.run_time(site, "_mx_np_pad", arrays=("x",))


def _simple(node) -> bool:
    import libcst as cst
    return isinstance(node, (cst.Name, cst.Attribute))
