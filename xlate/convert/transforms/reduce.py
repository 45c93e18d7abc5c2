"""Reductions keep MXNet's shapes: never 0-d (a full reduction is (1,)); max/min through
`_mx_amax`/`_mx_amin`, whose gradient is MXNet's where elements tie."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site, Skip, unknown_receiver

_TORCH = {"max": "amax", "min": "amin"}  # torch.max(x, dim) returns (values, indices)


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    op = op[:-len("_axis")] if op.endswith("_axis") else op  # nd.max_axis: MXNet's other name of nd.max
    method = site.receiver is not None
    axis = site.literal("axis", None)
    # MXNet's axis=() (its default) reduces every axis, with or without exclude=True
    has_axis = site.has("axis") and axis is not None and axis != ()
    keepdims = _flag(site.literal("keepdims", False))
    exclude = _flag(site.literal("exclude", False))
    if exclude is NOT_LITERAL or (keepdims not in (True, False) and not has_axis):
        return _run_time(site, op)
    if exclude is True and not has_axis:
        exclude = False
    if site.receiver_kind is None:
        if op in ("max", "min") and has_axis and method and site.receiver is not None:
            # torch's x.max(axis) gives (values, indices), NumPy's an array: decided at run time
            site.fixed(f"`.{op}(axis=...)` on a value xlate could not type -> `_mx_reduce_method(...)`, decided at "
                       f"run time: a tensor as MXNet's NDArray method, any other value its own")
            call = site.emit(f'_mx_reduce_method({{x}}, "{op}")', x=site.receiver)
            args = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in site.node.args]
            if args:
                space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                call = call.with_changes(args=[call.args[0], call.args[1].with_changes(comma=space), *args])
            return call
        if op in ("max", "min") and has_axis:
            raise Manual(unknown_receiver(site))
        if method and not has_axis and keepdims is False and not site.conv.analysis.np_mode \
                and id(site.original) not in site.conv.shaped:
            return _untyped_full(site, op)
        raise Skip()  # valid torch and numpy; only MXNet's (1,) full-reduction shape differs
    if op == "prod" and has_axis and not isinstance(axis, int) and not exclude:
        if keepdims not in (True, False):
            raise Manual("torch.prod reduces one dim at a time")
        # several axes, or an axis known at run time (gluonts' `self.axis`): one dim after another
        return site.emit(f'_mx_reduce_axes({{x}}, {{axis}}, "prod", {keepdims})', x=site.value("data"),
                         axis=site.value("axis"))
    data = site.value("data")
    if exclude is True:  # the axes left can be none at all: MXNet then reduces nothing
        holes = {"x": data, "axis": site.value("axis"), "keep": site.value("keepdims") or "False"}
        return site.emit(f'_mx_reduce_exclude({{x}}, {{axis}}, "{op}", keepdims={{keep}})', **holes)
    name = _TORCH.get(op, op) if has_axis or keepdims is True else op
    call = ("{x}." + name + "(") if method else ("torch." + name + "({x}")
    sep = "" if method else ", "
    if op in _TORCH:  # MXNet's gradient to every tied extreme (Note [extrema gradients] in runtime/helpers.py)
        call, sep = site.helper(f"_mx_{_TORCH[op]}") + "({x}", ", "
    holes = {"x": data}
    if has_axis:
        holes["axis"] = site.value("axis")
        text = call + sep + "dim={axis}"
        if keepdims is True:
            return site.emit(text + ", keepdim=True)", **holes)
        if keepdims is not False:
            holes["keep"] = site.value("keepdims")
            return site.emit(text + ", keepdim={keep})", **holes)
        # reducing every axis there is gives (1,) in MXNet, 0-d in torch
        return site.emit("torch.atleast_1d(" + text + "))", **holes)
    if keepdims is True and op in _TORCH:
        return site.emit(call + ", keepdim=True)", **holes)
    if keepdims is True:
        if not isinstance(data, (cst.Name, cst.Attribute)):
            raise Manual("a full reduction with keepdims=True on an expression: assign it to a name first")
        return site.emit(call + sep + "dim=tuple(range({x}.dim())), keepdim=True)", **holes)
    if method and id(site.original) in site.conv.shaped:
        raise Skip()  # `x.mean().reshape(1)` or `.item()` right after: exact as written (and idempotent)
    node = site.emit(call + ").reshape(1)", **holes)
    site.conv.full_reductions[id(node)] = node
    return node


# Note [untyped full reductions]
# `loss.mean()` on a value xlate cannot type (what another module's function returns, a parameter)
# is valid torch and NumPy, but a tensor's full reduction is 0-d where MXNet's NDArray gives (1,)
# (mx.np's gives (), as torch's: a file of the numpy dialect keeps the call). A model whose output
# is such a reduction had the wrong shape (gluonts' Transformer). Outside the dialect the call goes
# to `_mx_reduce_method`, which decides at run time: a tensor is reduced as NDArray's method, to
# (1,); any other value (a NumPy array, a DataFrame) calls its own method as written. A reduction
# read at once by `.item()` or reshaped to (1,) is exact as written and kept.
def _untyped_full(site: Site, op: str):
    site.fixed(f"`.{op}()` on a value xlate could not type -> `_mx_reduce_method(...)`, decided at run time: a "
               f"tensor as MXNet's NDArray method (shape (1,)), any other value its own")
    call = site.emit(f'_mx_reduce_method({{x}}, "{op}")', x=site.receiver)
    args = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in site.node.args]
    if args:  # `keepdims=False` as written
        space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        call = call.with_changes(args=[call.args[0], call.args[1].with_changes(comma=space), *args])
    return call


# Note [reduction flags known at run time]
# `F.sum(loss, axis=self._batch_axis, exclude=self._exclude)`: every Gluon loss written after gluon.loss's
# (MXNet-Detector's six LOSS.py, 20 lines) takes `exclude=` (and some `keepdims=`) from its constructor. Which
# axes go, and whether the result is (1,) or (1, ..., 1), is known only when it runs: the call goes to
# `_mx_reduce_method`, which binds MXNet's (axis, keepdims, exclude) and reduces a tensor as MXNet does.
def _run_time(site: Site, op: str):
    site.fixed(f"`{op}` with `exclude=`/`keepdims=` known only at run time -> `_mx_reduce_method(...)`: MXNet's "
               f"axes and shape, decided when it runs")
    holes = {"x": site.value("data")}
    text = f'_mx_reduce_method({{x}}, "{op}"'
    for name in ("axis", "keepdims", "exclude"):
        if site.value(name) is not None:
            holes[name] = site.value(name)
            text += f", {name}={{{name}}}"
    return site.emit(text + ")", **holes)


def _flag(value):
    """A literal flag as a bool (MXNet takes keepdims=1 too); anything else as it is."""
    return bool(value) if isinstance(value, int) and value in (0, 1) else value
