"""`Base.__init__(self, ...)`, `Base.forward(self, x)`, `Base.hybrid_forward(self, F, x, w, b)` with a
Gluon class as `Base`, and `super().forward(x)` in a block defining both forward and hybrid_forward.

Note [explicit base calls]
The class statement's Gluon base became a torch class (Block/HybridBlock `nn.Module`, Sequential
`nn.Sequential`, a layer its Gluon-signature helper `_mx_Dense`), so an explicit call must name
the same class. `Block.__init__` takes only naming arguments (prefix, params), dropped as MX101
drops them; a helper takes Gluon's own arguments, so a layer's call keeps them. Gluon's
`HybridBlock.forward(self, x)` calls `self.hybrid_forward(F, x, **params)`: in a class that
defines both methods, hybrid_forward keeps its name (without F, its parameters read as
`self.<name>`, MX103), so that is `self.hybrid_forward(x)`. A layer's
`Dense.hybrid_forward(self, F, x, weight, bias)` with its own parameters passed on is the
helper's `forward(self, x)`, which reads them from `self`.
"""
import ast

import libcst as cst

from xlate.convert import names
from xlate.convert.context import is_mxnet
from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms.block_init import NAMING_ONLY
from xlate.convert.transforms.forward_params import LAYER_PARAMS
from xlate.convert.transforms.hybrid_forward import class_scope, keeps_namespace

METHODS = ("__init__", "forward", "hybrid_forward", "__call__", "add")
_SEQUENTIAL = ("mxnet.gluon.nn.Sequential", "mxnet.gluon.nn.HybridSequential")
HYBRID = ("mxnet.gluon.HybridBlock",)


def base_rule(rules, resolved: str):
    """The rule for `C.method(self, ...)` with a Gluon layer `C` (blocks are in its matches)."""
    owner, _, method = resolved.rpartition(".")
    rule = rules.all.get("MX151")
    if method in METHODS and owner in rules.classes and rule is not None:
        return rule
    return None


def _target(conv, owner: str) -> str:
    if owner in _SEQUENTIAL:
        return "nn.Sequential"
    if owner in NAMING_ONLY:
        return "nn.Module"
    return conv.rules.classes[owner].runtime_for(owner)


def _without_comma(args):
    args = list(args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return args


def transform(site: Site):
    if site.receiver is not None:
        return _super_forward(site)
    conv, call = site.conv, site.node
    owner, _, method = site.matched.rpartition(".")
    args = list(call.args)
    if not args or args[0].keyword is not None or args[0].star or not isinstance(args[0].value, cst.Name):
        raise Manual(f"`{method}` of a Gluon class called without the instance first")
    me, rest = args[0], args[1:]
    cls = conv.analysis.gluon_class(conv.scopes[-1])
    own = set(cls.values) if cls is not None else set()
    target = _target(conv, owner)
    if method == "__init__":
        if target in ("nn.Module", "nn.Sequential"):
            if any(a.keyword is None and not a.star for a in rest):
                raise Manual(f"`{owner}.__init__` takes only naming arguments (prefix, params)")
            for a in rest:
                conv.dropped(a)
            site.fixed(f"`{owner.rsplit('.', 1)[-1]}.__init__(self, ...)` -> `{target}.__init__(self)`: Gluon's "
                       "prefix/params naming has no nn.Module counterpart")
            rest = []
        return call.with_changes(func=site.emit(f"{target}.__init__"), args=_without_comma([me, *rest]))
    if method == "__call__":  # every translated block is an nn.Module, whose __call__ runs its forward
        site.fixed(f"`{owner.rsplit('.', 1)[-1]}.__call__(self, ...)` -> `nn.Module.__call__(self, ...)`: both run "
                   "the block's forward with its hooks")
        return call.with_changes(func=site.emit("nn.Module.__call__"), args=args)
    if method == "add" and owner in _SEQUENTIAL:
        site.fixed(f"`{owner.rsplit('.', 1)[-1]}.add(self, *blocks)` -> `_mx_sequential_add(self, *blocks)`: each "
                   "block appended to the torch Sequential in order")
        return call.with_changes(func=cst.Name(site.helper("_mx_sequential_add")), args=args)
    if method == "add":
        raise Manual(f"`{owner.rsplit('.', 1)[-1]}.{method}` called on the class: call the translated base's")
    if method == "forward":
        if "hybrid_forward" in own and "forward" in own and owner not in ("mxnet.gluon.Block",):
            site.fixed(f"`{owner.rsplit('.', 1)[-1]}.forward(self, ...)` runs the class's hybrid_forward with "
                       "its parameters -> `self.hybrid_forward(...)`")
            if keeps_namespace(cls):  # Note [hybrid_forward called with something else than F]
                rest = [cst.Arg(cst.Name(site.helper("_mx_F"))), *rest]
            return call.with_changes(func=cst.Attribute(me.value, cst.Name("hybrid_forward")), args=_without_comma(rest))
        if owner in HYBRID and cls is not None and not cls.derived_base and "hybrid_forward" not in own \
                and all(b in NAMING_ONLY for b in cls.mx_bases):
            # an abstract base (sockeye's `Encoder(ABC, HybridBlock)`): Gluon's forward runs the
            # hybrid_forward of the subclass. One that defines hybrid_forward alone has it as its
            # forward, which overrides this one; one that also defines forward keeps the name
            site.fixed("`HybridBlock.forward(self, ...)` in a class with no hybrid_forward of its own -> "
                       "`self.hybrid_forward(...)`, the subclass's (one whose hybrid_forward became its forward "
                       "never reaches this method)")
            return call.with_changes(func=cst.Attribute(me.value, cst.Name("hybrid_forward")), args=_without_comma(rest))
        if owner in HYBRID:
            raise Manual("`HybridBlock.forward` runs the hybrid_forward this class inherits: call that block's forward")
        return call.with_changes(func=site.emit(f"{target}.forward"), args=args)
    # hybrid_forward of a layer: its own parameters passed on are what the helper's forward reads
    names = LAYER_PARAMS.get(owner.rsplit(".", 1)[-1], ("weight", "bias") if "Conv" in owner else None)
    original = site.original.args
    passed = [a.value.value if isinstance(a.value, cst.Name) else None for a in original[3:] if a.keyword is None]
    kw = {a.keyword.value: a.value for a in original[3:] if a.keyword is not None}
    star = [a for a in original[3:] if a.star]
    if owner in NAMING_ONLY or names is None or len(original) < 3 or original[2].keyword or original[2].star \
            or conv.resolve_expr(original[1].value) not in ("mxnet.ndarray", "mxnet.symbol"):
        raise Manual(f"`{owner.rsplit('.', 1)[-1]}.hybrid_forward` has no torch counterpart here: call the "
                     "layer's forward with its inputs")
    same = all(p == n for p, n in zip(passed, names)) and all(
        isinstance(v, cst.Name) and v.value == k for k, v in kw.items()) and all(k in names for k in kw)
    if not same or (star and star[0].star != "**"):
        raise Manual("the layer's hybrid_forward is called with other parameters than its own: compute the "
                     "layer's operator on them by hand")
    namespace = original[1].value  # dropped: what another rule said of it goes too (MX113's `F` -> None)
    conv.retract(namespace)
    site.fixed(f"`{owner.rsplit('.', 1)[-1]}.hybrid_forward(self, F, x, <its parameters>)` -> "
               f"`{target}.forward(self, x)`: the helper reads them from self")
    return call.with_changes(func=site.emit(f"{target}.forward"), args=_without_comma([me, args[2]]))


def _super_forward(site: Site):
    """`super().forward(x)` in a block defining forward and hybrid_forward, deriving from
    HybridBlock itself: Gluon's forward runs hybrid_forward -> `self.hybrid_forward(x)`."""
    conv, call, receiver = site.conv, site.node, site.receiver
    if not (isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name) and receiver.func.value == "super"):
        raise Skip()
    cls = conv.analysis.gluon_class(conv.scopes[-1])
    if cls is None or not {"forward", "hybrid_forward"} <= set(cls.values) or conv.scopes[-1][-1][0] != "forward":
        raise Skip()
    if not (_bases_define_no_forward(conv, cls) and (cls.mx_bases or _reaches_hybrid(conv, cls))) \
            if cls.derived_base else not cls.mx_bases:
        raise Skip()  # a base's own forward answers, or no HybridBlock's
    if any(b in NAMING_ONLY and b not in HYBRID for b in cls.mx_bases):
        raise Skip()
    fn = next(d for d in reversed(conv.defs) if isinstance(d, cst.FunctionDef))
    if not fn.params.params:
        raise Skip()
    site.fixed("`super().forward(...)` of a HybridBlock runs the class's hybrid_forward -> `self.hybrid_forward(...)`")
    args = list(call.args)
    if keeps_namespace(cls):  # Note [hybrid_forward called with something else than F]
        args = [cst.Arg(cst.Name(site.helper("_mx_F"))), *args]
        args = [a if i < len(args) - 1 else a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for i, a in enumerate(args)]
        args[0] = args[0].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) \
            if len(args) > 1 else args[0]
    return call.with_changes(func=cst.Attribute(cst.Name(fn.params.params[0].name.value), cst.Name("hybrid_forward")),
                             args=args)


def _bases_define_no_forward(conv, cls) -> bool:
    """`super().forward` reaches Gluon's HybridBlock.forward: every base of the class before HybridBlock
    itself (in the order the class statement lists them: Python's MRO takes HybridBlock before a later
    base, gluon-nlp's `TransformerEncoder(HybridBlock, Seq2SeqEncoder)`), or every base where none is
    HybridBlock, is MXNet's or a class of this file that defines no forward, nor do its own such bases
    (sockeye's abstract `Decoder` beside HybridBlock). A base's hybrid_forward does not stop it: Gluon's
    forward runs `self.hybrid_forward`, the class's own (a base's hybrid_forward became that base's
    torch forward, which `super().forward` would reach instead, skipping the class's own)."""
    for base in cls.node.bases:
        if conv.analysis.resolve((), names._dotted(base) or "") in HYBRID:
            return True
        if not _defines_no_forward(conv, base):
            return False
    return True


def _reaches_hybrid(conv, cls) -> bool:
    """HybridBlock is among the class's bases of bases, through classes of this file (`class Own(Base)`,
    `class Base(HybridBlock)`)."""
    todo, seen = list(cls.node.bases), set()
    while todo:
        base = todo.pop()
        if conv.analysis.resolve((), names._dotted(base) or "") in HYBRID:
            return True
        if isinstance(base, ast.Name) and base.id not in seen:
            seen.add(base.id)
            scope = class_scope(conv.analysis, base.id)
            if scope is not None and isinstance(scope.node, ast.ClassDef):
                todo.extend(scope.node.bases)
    return False


def _defines_no_forward(conv, first) -> bool:
    module = conv.analysis.scopes.get(())
    todo, seen = [first], set()
    while todo:
        base = todo.pop()
        resolved = conv.analysis.resolve((), names._dotted(base) or "")
        if not isinstance(base, ast.Name):
            if is_mxnet(resolved):
                continue
            return False
        if base.id in seen:
            continue
        seen.add(base.id)
        if is_mxnet(resolved) or base.id in ("ABC", "object"):
            continue
        scope = next((s for k, s in conv.analysis.scopes.items() if len(k) == 1 and k[0][0] == base.id
                      and s.is_class and s.node is not None), None) if module is not None else None
        if scope is None or "forward" in scope.values:
            return False
        todo.extend(scope.node.bases)
    return True
