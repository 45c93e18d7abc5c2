"""transpose(axes) -> permute(axes); no axes reverses them all."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip, unknown_receiver

_CREATION = ("zeros", "ones", "empty", "rand", "randn", "full", "tensor")


def transform(site: Site):
    data = site.value("data")
    axes = [site.value("axes")] if site.has("axes") else [a.value for a in site.varargs]
    if site.receiver_kind is None:
        if len(axes) == 2 and not any(a.star for a in site.varargs):
            raise Skip()  # x.transpose(a, b): the same swap in torch, numpy and 2-D MXNet
        if site.matched != ".transpose" and not site.matched.endswith(".ndarray.transpose"):
            raise Manual(unknown_receiver(site))
        if site.has("axes"):  # `x.transpose(axes=...)`: numpy's method takes no keyword; the axes as one tuple
            if any(a.star for a in site.varargs):
                raise Manual(unknown_receiver(site))
            return _at_run_time(site, data, [cst.Arg(site.value("axes"))])
        return _at_run_time(site, data)
    if not axes:
        return _reverse(site, data)
    if any(a.star for a in site.varargs):
        # `x.transpose(*axes)` passes MXNet one tuple of axes, which permute takes the same way
        # (an empty `axes` reverses them all in MXNet; permute() raises)
        return cst.Call(site.emit("{x}.permute", x=data), args=[a.with_changes(comma=cst.MaybeSentinel.DEFAULT)
                                                                   if i == len(site.varargs) - 1 else a
                                                                   for i, a in enumerate(site.varargs)])
    if len(axes) == 1 and not _written_out(axes[0]):
        # `F.transpose(data, axes=axes)` with `axes = axes if axes is not None else []` (MXFusion): an empty
        # value known only at run time reverses every axis in MXNet, where permute(()) raises
        return site.emit("_mx_permute_axes({x}, {axes})", x=data, axes=axes[0])
    if len(axes) == 1:
        return site.emit("{x}.permute({axes})", x=data, axes=axes[0])
    holes = {f"a{i}": a for i, a in enumerate(axes)}
    return site.emit("{x}.permute(" + ", ".join("{a%d}" % i for i in range(len(axes))) + ")", x=data, **holes)


def _reverse(site: Site, data):
    ndim = _literal_rank(site, data)
    if ndim is not None:
        return site.emit("{x}.permute(" + ", ".join(str(d) for d in reversed(range(ndim))) + ")", x=data)
    if not isinstance(data, (cst.Name, cst.Attribute)):  # evaluated once, whatever its rank
        return site.emit("_mx_permute_axes({x})", x=data)
    return site.emit("{x}.permute(*reversed(range({x}.dim())))", x=data)


def _literal_rank(site: Site, data):
    """Rank of a creation call with a literal shape, e.g. torch.ones((2, 3, 4))."""
    if isinstance(data, cst.Call) and data.args and isinstance(data.func, cst.Attribute) \
            and data.func.attr.value in _CREATION:
        shape = site.evaluate(data.args[0].value)
        if isinstance(shape, tuple) and data.func.attr.value != "tensor":
            return len(shape)
    return None


def _at_run_time(site: Site, data, axes=None):
    """`_mx_array_transpose(x, *axes)`: a tensor (an MXNet array, converted) is permuted as MXNet does,
    anything else (a NumPy array) calls its own transpose."""
    call = site.emit("_mx_array_transpose({x})", x=data)
    args = [call.args[0], *(site.varargs if axes is None else axes)]
    args = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for a in args[:-1]] + \
        [args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
    what = site.code(site.receiver).strip()
    site.fixed(f"`{what[:40]}.transpose(...)` on a value xlate could not type -> `_mx_array_transpose(...)`, decided at run "
               "time: a tensor (an MXNet array, converted) is permuted as MXNet's transpose does (no axes reverse "
               "them all), anything else (a NumPy array) keeps its own transpose")
    return call.with_changes(args=args)


def _written_out(node) -> bool:
    """Axes written in the call: a non-empty tuple or list literal, or an integer (one of several)."""
    if isinstance(node, (cst.Tuple, cst.List)):
        return bool(node.elements) and not any(isinstance(e, cst.StarredElement) for e in node.elements)
    return isinstance(node, cst.Integer)
