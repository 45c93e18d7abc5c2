"""mx.np.array: Python data make float32; NumPy data and arrays keep their dtype (N1.2-N1.7)."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.table import convert_dtype
from xlate.convert.transforms import np_args, op_args as oa


def transform(site: Site):
    data = oa.required(site, "object")
    dtype = convert_dtype(site, site.value("dtype")) if site.has("dtype") and site.literal("dtype") is not None \
        else None
    device = site.value("ctx") if site.has("ctx") and site.literal("ctx") is not None else None
    kind = np_args.kind(site, "object")
    if site.evaluate(data) is not NOT_LITERAL:  # Python numbers, bools and lists of them
        args = [(None, data), ("dtype", dtype if dtype is not None else "torch.float32")]
        return oa.call(site, "torch.tensor", args + ([("device", device)] if device is not None else []))
    if kind in np_args.ARRAYS:  # a copy, in the graph, with its own dtype unless told
        out = site.emit("{x}.to({d}, copy=True)", x=data, d=dtype) if dtype is not None \
            else site.emit("{x}.clone()", x=data)
        return site.emit("{x}.to({dev})", x=out, dev=device) if device is not None else out
    if kind == "np":  # NumPy data keep their dtype
        args = [(None, data)] + ([("dtype", dtype)] if dtype is not None else [])
        return oa.call(site, "torch.tensor", args + ([("device", device)] if device is not None else []))
    if site.has("dtype") and dtype is None and site.literal("dtype") is not None:
        raise Manual("`dtype=` is not a literal dtype")
    return oa.run_time(site, "_mx_np_array", arrays=("object",))
