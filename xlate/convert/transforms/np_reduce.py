"""mx.np reductions, functions and methods: NumPy's results (0-d for a full reduction, int64
indices, ddof=0), torch's names (N2.1-N2.12, N8.4, N8.5, N8.7).

On a receiver xlate cannot type in a numpy-mode file, the call is left where torch spells the
same thing the same way (`x.sum(axis=1)`: torch takes NumPy's `axis`/`keepdims` too) and
reported where it does not (`x.max(axis=1)` is (values, indices) in torch, `x.std()` divides by
n - 1, `x.cumsum()` needs an axis).
"""

from xlate.convert.rulectx import Manual, Site, Skip, unknown_receiver
from xlate.convert.table import convert_dtype
from xlate.convert.transforms.op_args import method_at_run_time

_SIGNATURES = {
    "sum": ("a", "axis", "dtype", "keepdims", "initial", "out"),
    "prod": ("a", "axis", "dtype", "out", "keepdims"),
    "mean": ("a", "axis", "dtype", "out", "keepdims"),
    "max": ("a", "axis", "keepdims", "out"), "min": ("a", "axis", "keepdims", "out"),
    "amax": ("a", "axis", "keepdims", "out"), "amin": ("a", "axis", "keepdims", "out"),
    "std": ("a", "axis", "dtype", "out", "ddof", "keepdims"),
    "var": ("a", "axis", "dtype", "out", "ddof", "keepdims"),
    "argmax": ("a", "axis", "out"), "argmin": ("a", "axis", "out"),
    "cumsum": ("a", "axis", "dtype", "out"),
}
# the method forms (NumPy's ndarray.sum(axis, dtype, out, keepdims)), after the receiver
_METHODS = {
    "sum": ("a", "axis", "dtype", "out", "keepdims"), "mean": ("a", "axis", "dtype", "out", "keepdims"),
    "prod": ("a", "axis", "dtype", "out", "keepdims"),
    "max": ("a", "axis", "out", "keepdims"), "min": ("a", "axis", "out", "keepdims"),
    "std": ("a", "axis", "dtype", "out", "ddof", "keepdims"), "var": ("a", "axis", "dtype", "out", "ddof", "keepdims"),
    "argmax": ("a", "axis", "out"), "argmin": ("a", "axis", "out"), "cumsum": ("a", "axis", "dtype", "out"),
}
_SAME_SPELLING = ("sum", "mean", "prod", "argmax", "argmin")  # torch takes axis=/keepdims= for these
_AT_RUN_TIME = ("std", "var", "cumsum", "max", "min")  # on an untyped receiver: _mx_np_method


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    method = site.receiver is not None
    site.bind(*(_METHODS.get(op) if method and op in _METHODS else _SIGNATURES[op]))
    for name in ("out", "initial"):
        if site.has(name) and site.literal(name) is not None:
            raise Manual(f"`{name}=` is not translated")
    if method and site.receiver_kind is None:
        if op in _SAME_SPELLING and not site.has("dtype"):
            raise Skip()
        if op in _AT_RUN_TIME and site.matched.startswith("mxnet.numpy."):
            return _at_run_time(site, op)
        raise Manual(unknown_receiver(site))
    x = site.value("a")
    has_axis = site.has("axis") and site.literal("axis") is not None
    keep = site.literal("keepdims", False)
    args, holes = [], {"x": x}
    if has_axis:
        holes["axis"] = site.value("axis")
        args.append("dim={axis}")
    elif op == "cumsum":  # no axis: over the flattened array
        holes["x"] = site.emit("{x}.flatten()", x=x)
        args.append("0")
    if op in ("std", "var"):
        holes["ddof"] = site.value("ddof") if site.has("ddof") else "0"
        args.append("correction={ddof}")
    if keep is not False and op not in ("argmax", "argmin", "cumsum"):
        holes["keep"] = site.value("keepdims")
        args.append("keepdim={keep}")
        if not has_axis and op not in ("std", "var", "sum", "mean", "prod"):
            holes["axis"] = "()"  # amax/amin over every axis
            args.insert(0, "dim={axis}")
        elif not has_axis and op not in ("std", "var"):
            raise Manual("a full reduction with keepdims=True: pass the axes (torch's sum/mean/prod take dim=)")
    if site.has("dtype") and site.literal("dtype") is not None:
        holes["dtype"] = convert_dtype(site, site.value("dtype"))
        args.append("dtype={dtype}")
    name = {"max": "amax", "min": "amin"}.get(op, op) if has_axis or "keep" in holes else op
    if op in ("max", "min") and not has_axis and "keep" not in holes:
        name = op  # a full max/min is 0-d in torch as in MXNet
    if op in ("max", "min", "amax", "amin"):  # MXNet's gradient to every tied extreme (Note [extrema gradients])
        helper = site.helper("_mx_amax" if op in ("max", "amax") else "_mx_amin")
        return site.emit(helper + "(" + ", ".join(["{x}"] + args) + ")", **holes)
    if method:
        return site.emit("{x}." + name + "(" + ", ".join(args) + ")", **holes)
    return site.emit("torch." + name + "(" + ", ".join(["{x}"] + args) + ")", **holes)


def _at_run_time(site: Site, op: str):
    """`_mx_np_method(x, "std", ...)` with the call's own arguments: a tensor (an mx.np array,
    converted) gets MXNet's results, anything else (a NumPy array) keeps its own method."""
    return method_at_run_time(site, op, "a tensor (an mx.np array, converted) gives MXNet's result (ddof=0, cumsum "
                                        "over the flattened array, max/min over axes), anything else (a NumPy "
                                        "array) keeps its own method")
