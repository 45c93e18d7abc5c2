"""`super().hybrid_forward(F, x)` in a Gluon block -> `super().forward(x)`: the parent's
hybrid_forward became its forward, which takes no namespace."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms.forward_params import layer_params
from xlate.convert.transforms.hybrid_forward import keeps_namespace


def transform(site: Site):
    call, conv = site.node, site.conv
    receiver = site.receiver
    is_super = isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name) and receiver.func.value == "super"
    is_self = isinstance(receiver, cst.Name) and receiver.value == "self"
    if not (is_super or is_self) or conv.analysis.gluon_class(conv.scopes[-1]) is None:
        raise Skip()
    args = list(call.args)
    first = site.original.args[0].value if site.original.args else None
    if first is None or conv.resolve_expr(first) not in ("mxnet.ndarray", "mxnet.symbol"):
        raise Manual("hybrid_forward called without MXNet's namespace first: call `forward` with the inputs")
    cls = conv.analysis.gluon_class(conv.scopes[-1])
    registered = set(conv.analysis.block_params(cls)) | layer_params(conv, cls)
    rest = _without_own_parameters(site.original.args[1:], args[1:], registered)
    if rest:
        rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if is_self and "forward" in cls.values and "hybrid_forward" in cls.values:
        # Note [explicit base calls]: beside the class's forward, hybrid_forward keeps its name
        if keeps_namespace(cls):  # Note [hybrid_forward called with something else than F]
            site.fixed("`self.hybrid_forward(F, ...)` -> `self.hybrid_forward(_mx_F, ...)`: the class's hybrid_forward "
                       "keeps its F, which it is also called with other values for")
            return call.with_changes(args=[args[0].with_changes(value=cst.Name(site.helper("_mx_F"))), *args[1:]])
        site.fixed("`self.hybrid_forward(F, ...)` -> `self.hybrid_forward(...)` (the class's forward is its own)")
        return call.with_changes(args=rest)
    site.fixed("`hybrid_forward(F, ...)` of a Gluon block -> `forward(...)`")
    return call.with_changes(func=call.func.with_changes(attr=cst.Name("forward")), args=rest)


def _without_own_parameters(original: list, updated: list, registered: set) -> list:
    """The arguments less the block's own parameters handed on (`super().hybrid_forward(F, x, states,
    i2h_weight, ...)` in a subclass of a Gluon cell): hybrid_forward received them from the block, and
    the converted method reads them as `self.<name>` (the names hybrid_forward's own rewrite moves); the base's forward reads the same tensors itself
    and takes the inputs alone. Only a trailing run of them (or keywords) goes, so no input moves."""
    def own(o: cst.Arg, u: cst.Arg) -> bool:
        return isinstance(o.value, cst.Name) and o.value.value in registered and not o.star
    kept = [u for o, u in zip(original, updated) if not (o.keyword is not None and own(o, u))]
    positional = [(o, u) for o, u in zip(original, updated) if o.keyword is None]
    end = len(positional)
    while end and own(*positional[end - 1]):
        end -= 1
    dropped = {id(u) for _, u in positional[end:]}
    return [u for u in kept if id(u) not in dropped]
