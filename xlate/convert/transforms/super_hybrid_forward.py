"""`super().hybrid_forward(F, x)` in a Gluon block -> `super().forward(x)`: the parent's
hybrid_forward became its forward, which takes no namespace.

Note [a base class's hybrid_forward by name]
A subclass may name its base to run the base's hybrid_forward (`y = Base.hybrid_forward(self, F, x,
mask)`), the explicit spelling of `super().hybrid_forward(F, x, mask)`. The base's hybrid_forward became
its `forward` (or kept its name, without F, beside a forward of its own: Note [explicit base calls]), so
the call names what the class that defines it became, with F dropped (or `_mx_F` where that class keeps
its F: Note [hybrid_forward called with something else than F]). Only a class of this file can be read
that far (its own methods, then its bases of this file, as Python looks them up); a base of another
module, or a block called with MXNet's namespace some other way (`self.body.hybrid_forward(F, x)`) is
reported at its line: left as it was, it raised AttributeError, with nothing said.
"""
import ast

import libcst as cst

from xlate.convert.context import is_mxnet
from xlate.convert.kinds import ast_dotted
from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms.forward_params import layer_params
from xlate.convert.transforms.hybrid_forward import class_scope, keeps_name, keeps_namespace


def transform(site: Site):
    call, conv = site.node, site.conv
    receiver = site.receiver
    is_super = isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name) and receiver.func.value == "super"
    is_self = isinstance(receiver, cst.Name) and receiver.value == "self"
    if conv.analysis.gluon_class(conv.scopes[-1]) is None:
        raise Skip()
    if not (is_super or is_self):
        return _named_class(site)
    args = list(call.args)
    first = site.original.args[0].value if site.original.args else None
    if first is None or conv.resolve_expr(first) not in ("mxnet.ndarray", "mxnet.symbol"):
        raise Manual("hybrid_forward called without MXNet's namespace first: call `forward` with the inputs")
    cls = conv.analysis.gluon_class(conv.scopes[-1])
    registered = set(conv.analysis.block_params(cls)) | layer_params(conv, cls)
    rest = _without_own_parameters(site.original.args[1:], args[1:], registered)
    conv.retract(first, "MX113")  # F is dropped (or `_mx_F`), not passed on as None: this rule says which
    if rest:
        rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if is_super:
        definer = _lookup(conv, [b.id for b in cls.node.bases if isinstance(b, ast.Name)]) \
            if isinstance(cls.node, ast.ClassDef) else None
        if definer is not None and keeps_name(conv.analysis, definer):  # Note [a forward above hybrid_forward]
            site.fixed("`super().hybrid_forward(F, ...)` -> `super().hybrid_forward(...)`: the base's hybrid_forward "
                       "keeps its name beside the forward above it")
            return call.with_changes(args=rest)
    if is_self and keeps_name(conv.analysis, cls):
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


def _named_class(site: Site):
    """`Base.hybrid_forward(self, F, x, ...)`, Base a Gluon class of this file (Note [a base class's
    hybrid_forward by name])."""
    call, conv = site.node, site.conv
    original = site.original.args
    if not any(not a.star and conv.resolve_expr(a.value) in ("mxnet.ndarray", "mxnet.symbol") for a in original):
        raise Skip()  # no namespace handed over: some other object's own hybrid_forward
    receiver = site.original.func.value
    definer = _lookup(conv, [receiver.value]) if isinstance(receiver, cst.Name) else None
    me = original[0].value if original and original[0].keyword is None and not original[0].star else None
    if definer is None or not isinstance(me, cst.Name) or len(original) < 2 or original[1].keyword is not None \
            or original[1].star or conv.resolve_expr(original[1].value) not in ("mxnet.ndarray", "mxnet.symbol"):
        raise Manual("a block's hybrid_forward called with MXNet's namespace: it is that block's `forward(x, ...)` "
                     "now (or, in a class with a forward of its own, `hybrid_forward(x, ...)` without F)")
    cls = conv.analysis.gluon_class(conv.scopes[-1])
    registered = set(conv.analysis.block_params(cls)) | layer_params(conv, cls)
    args = list(call.args)
    rest = _without_own_parameters(original[2:], args[2:], registered)
    own = keeps_name(conv.analysis, definer)
    if keeps_namespace(definer):
        rest = [args[1].with_changes(value=cst.Name(site.helper("_mx_F"))), *rest]
    conv.retract(original[1].value, "MX113")  # F is dropped or `_mx_F` now: this rule says which
    first = args[0].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) if rest \
        else args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if rest:
        rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    method = "hybrid_forward" if own else "forward"
    name = receiver.value
    site.fixed(f"`{name}.hybrid_forward(self, F, ...)` -> `{name}.{method}(self, ...)`: the hybrid_forward "
               f"`{name}` runs became {'its hybrid_forward without F, beside its own forward' if own else 'its forward'}")
    return call.with_changes(func=call.func.with_changes(attr=cst.Name(method)), args=[first, *rest])


def _lookup(conv, names: list):
    """The first class of this file on the chain from `names` (one class; its bases after it) that
    defines hybrid_forward; None where the chain forks or leaves the file."""
    seen = set()
    while len(names) == 1 and names[0] not in seen:
        name = names[0]
        seen.add(name)
        scope = class_scope(conv.analysis, name)
        if scope is None or not scope.gluon or not isinstance(scope.node, ast.ClassDef):
            return None
        if "hybrid_forward" in scope.values:
            return scope
        bases = [b for b in scope.node.bases if not _names_mxnet(conv, b)]
        if not all(isinstance(b, ast.Name) for b in bases):
            return None
        names = [b.id for b in bases]
    return None


def _names_mxnet(conv, base: ast.expr) -> bool:
    dotted = ast_dotted(base)
    return dotted is not None and is_mxnet(conv.analysis.resolve((), dotted))
