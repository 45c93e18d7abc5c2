"""`def hybrid_forward(self, F, x, weight)` -> `def forward(self, x)` using `self.weight`.

Gluon calls hybrid_forward with its operator namespace F (already resolved to MXNet's
ndarray namespace, so `F.xxx` calls go through the NDArray rules) and with every parameter
the block holds as an attribute, as a keyword argument named after that attribute (Note
[parameters in **kwargs]).
"""
import ast

import libcst as cst

from xlate.convert import kinds
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms.forward_device import on_input_device
from xlate.convert.visiting import FastVisitor


class _Loads(cst.CSTTransformer):
    """Loads of `names` become `replace(name)` (an attribute's name, a keyword and a parameter
    are no loads); records the names the body stores."""

    def __init__(self, names: set, replace):
        super().__init__()
        self.names, self.replace = names, replace
        self.skip: set = set()
        self.stored: set = set()

    def visit_Attribute(self, node):
        self.skip.add(id(node.attr))

    def visit_Arg(self, node):
        if node.keyword is not None:
            self.skip.add(id(node.keyword))

    def visit_Param(self, node):
        self.skip.add(id(node.name))
        if node.name.value in self.names:
            self.stored.add(node.name.value)

    def visit_AssignTarget(self, node):
        for n in _names_in(node.target):
            self.stored.add(n)

    def visit_For(self, node):
        self.stored.update(_names_in(node.target))

    def leave_Name(self, original, updated):
        if original.value in self.names and id(original) not in self.skip:
            return self.replace(original.value)
        return updated


def _ToSelf(names: set, me: str, optional: dict | None = None) -> _Loads:
    """Loads of the parameter names become `self.<name>`; of those in `optional` (a name -> its
    default in the signature), `getattr(self, '<name>', <default>)` (Note [optional parameters])."""
    optional = optional or {}

    def read(name):
        if name in optional:
            return cst.Call(cst.Name("getattr"), [cst.Arg(cst.Name(me)), cst.Arg(cst.SimpleString(repr(name))),
                                                  cst.Arg(optional[name])])
        return cst.Attribute(cst.Name(me), cst.Name(name))
    return _Loads(names, read)


# Note [optional parameters]
# Gluon passes hybrid_forward the parameters the block holds when it is called, and a parameter the
# block may not hold has a default in the signature: gluonts' SelfAttention registers
# `_ctt_bias_weight` only `if self.dist_enc == "add"` and reads `_ctt_bias_weight=None` otherwise.
# `self._ctt_bias_weight` raised AttributeError in the converted module whenever the branch was not
# taken. A parameter with a default that __init__ does not assign on every path (a statement of its
# own, not under an `if`, a loop or a `try`) is read as `getattr(self, name, default)`: the
# parameter when the block holds one, the default when it holds none (`self.bias = None` too).
def _assigned_always(cls, name: str) -> bool:
    """`self.<name> = ...` is a statement of __init__ at its top level (or in a `with` block)."""
    init = next((n for n in getattr(cls.node, "body", ()) if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
                None)
    stack = list(init.body) if init is not None else []
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.With):
            stack.extend(stmt.body)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Attribute) and t.attr == name and isinstance(t.value, ast.Name)
                   and t.value.id == "self" for t in targets):
                return True
    return False


# Note [F left]
# A hybrid_forward with one operator xlate has no rule for (an int8-only branch, a contrib
# kernel), or that uses F as a value (`print(F.__name__)`), used to be kept whole: the converted
# nn.Module then had no forward at all, and every other line of it was dead. The method becomes
# forward all the same; the reads of F that are left (each reported at its line) read `_mx_F`,
# a stand-in for MXNet's namespace whose operators raise when called, naming themselves. The
# lines that need a human fail there, and only when they run.
# Note [parameters in **kwargs]
# Gluon 1.x calls hybrid_forward with every parameter and constant in the block's `_reg_params`
# as a keyword argument named after the attribute that holds it (measured: a parameter named
# 'crf_transition_matrix' held as `self.transitions` arrives as `transitions`), also one set with
# `setattr(self, 'factor%d_weight' % i, p)`, whose names no static reading knows. A literal read
# (`kwargs['gamma']`) of a parameter the class is seen to register becomes `self.gamma`; where the
# body uses the dict any other way (a computed key, `**kwargs` handed on, a loop over it), the
# forward first fills it as Gluon would, from the module's own parameters and buffers
# (`kwargs.update(_mx_reg_params(self, <the names the signature lists>))`).
# Note [hybrid_forward called with something else than F]
# A block with a forward of its own may call its hybrid_forward itself, with something other than
# MXNet's namespace first: sockeye's LengthPenalty runs `self.hybrid_forward(None, lengths)` on
# Python numbers, and its body asks `if F is None: return 1.0`. Dropping F there would pass None
# as `lengths`, and `_mx_F is None` is never true. Such a class keeps F as hybrid_forward's first
# parameter: its operators are translated as ever (F is MXNet's namespace wherever it is one), a
# read of F as a value reads what the caller passed, and the calls Gluon made with its namespace
# (`super().forward(x)`, `self.hybrid_forward(F, x)`) pass `_mx_F`.
def keeps_namespace(cls) -> bool:
    """The class defines forward and hybrid_forward and calls `<self>.hybrid_forward(v, ...)` with
    a first argument that is no namespace (`None`, a number)."""
    if cls is None or cls.node is None or not {"forward", "hybrid_forward"} <= set(cls.values):
        return False
    for node in ast.walk(cls.node):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "hybrid_forward" and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "self" and node.args and not isinstance(node.args[0], ast.Starred) \
                and isinstance(node.args[0], ast.Constant):
            return True
    return False


def _Rename(name: str, new: str) -> _Loads:
    """Loads of `name` become `new`."""
    return _Loads({name}, lambda _: cst.Name(new))


class _FromKwargs(cst.CSTTransformer):
    """`kwargs['gamma']` / `kwargs.get('gamma')` for a parameter Gluon passes -> `self.gamma`;
    counts every other use of `kwargs`."""

    def __init__(self, star: str, names: set, me: str):
        super().__init__()
        self.star, self.names, self.me = star, names, me
        self.replaced: set = set()
        self.other_uses = 0

    def _key(self, node) -> str | None:
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == self.star \
                and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            key = node.slice[0].slice.value
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get" \
                and isinstance(node.func.value, cst.Name) and node.func.value.value == self.star and node.args:
            key = node.args[0].value
        else:
            return None
        if isinstance(key, cst.SimpleString) and key.evaluated_value in self.names:
            return key.evaluated_value
        return None

    # a pattern is seen (visit) before the name inside it, which then is no other use
    def visit_Subscript(self, node):
        if self._key(node) is not None:
            self.replaced.add(id(node.value))

    def visit_Call(self, node):
        if self._key(node) is not None:
            self.replaced.add(id(node.func.value))

    def visit_Name(self, node):
        if node.value == self.star and id(node) not in self.replaced:
            self.other_uses += 1

    def leave_Subscript(self, original, updated):
        key = self._key(original)
        return updated if key is None else cst.Attribute(cst.Name(self.me), cst.Name(key))

    def leave_Call(self, original, updated):
        key = self._key(original)
        return updated if key is None else cst.Attribute(cst.Name(self.me), cst.Name(key))


# the parameters a Gluon layer passes its hybrid_forward, by name; its Gluon-signature helper
# has them under the same names (`gamma`/`beta`/`alpha` read the torch module's weight/bias)
_CELL = ("i2h_weight", "h2h_weight", "i2h_bias", "h2h_bias")
_LAYER_PARAMS = {
    "BatchNorm": ("gamma", "beta", "running_mean", "running_var"),
    "SyncBatchNorm": ("gamma", "beta", "running_mean", "running_var"),
    "LayerNorm": ("gamma", "beta"), "InstanceNorm": ("gamma", "beta"), "GroupNorm": ("gamma", "beta"),
    "Dense": ("weight", "bias"), "Embedding": ("weight",), "PReLU": ("alpha",),
    # recurrent cells (their helpers read Gluon's names as properties of torch's tensors)
    "RNNCell": _CELL, "LSTMCell": _CELL, "GRUCell": _CELL, "LSTMPCell": _CELL + ("h2r_weight",),
}


def _layer_params(conv, cls) -> set:
    """Parameters of the Gluon layer a class derives from (`class BNExtra(nn.BatchNorm)` with its
    own `hybrid_forward(self, F, x, gamma, beta, running_mean, running_var)`)."""
    found = set()
    for kind in kinds.kinds_of_class(conv.analysis, cls) or ():
        short = kind.rsplit(".", 1)[-1]
        found.update(_LAYER_PARAMS.get(short, ("weight", "bias") if short.startswith("Conv") else ()))
    return found


def _reads(body: cst.CSTNode, name: str) -> bool:
    """Whether `name` is read in `body` (after the rewrites of its MXNet uses)."""
    reads = _Reads(name)
    reads.walk(body)
    return reads.found


class _Reads(FastVisitor):
    def __init__(self, name: str):
        super().__init__()
        self.name, self.found = name, False

    def visit_Attribute(self, node):
        self.walk(node.value)
        return False  # `x.F` is no use of F

    def visit_Arg(self, node):
        self.walk(node.value)
        return False  # nor `f(F=1)`

    def visit_Name(self, node):
        self.found = self.found or node.value == self.name


def _names_in(target) -> set:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_names_in(e.value) for e in target.elements)) if target.elements else set()
    return set()


def transform(site: Site):
    fn: cst.FunctionDef = site.node
    conv = site.conv
    cls = conv.analysis.gluon_class(conv.scopes[-1])
    # Note [explicit base calls]: beside a forward of the class's own, it keeps its name
    name = "hybrid_forward" if "forward" in cls.values else "forward"
    params = list(fn.params.params)
    star = fn.params.star_arg
    if len(params) == 1 and not fn.params.posonly_params and isinstance(star, cst.Param) \
            and not _reads(fn.body, star.name.value):
        # `def hybrid_forward(self, *args, **kwargs): raise NotImplementedError` (a stub of MXNet's own
        # SequentialRNNCell): F arrives in *args, which the body never reads, so torch's call is the same
        site.fixed(f"`hybrid_forward(self, *{star.name.value}, ...)` whose body never reads "
                   f"`{star.name.value}` -> `{name}`")
        return fn.with_changes(name=cst.Name(name))
    if fn.params.posonly_params or len(params) < 2:
        raise Manual("hybrid_forward without (self, F, ...) parameters")
    me, namespace = params[0].name.value, params[1].name.value
    left_f = ""
    kept_f = name == "hybrid_forward" and keeps_namespace(cls)
    if kept_f:  # Note [hybrid_forward called with something else than F]
        left_f = (f"; `{namespace}` stays its first parameter: the class calls it with other values there "
                  f"(`self.hybrid_forward(None, ...)`), and its own calls in Gluon's place pass `_mx_F`")
    elif _reads(fn.body, namespace):  # Note [F left]
        fn = fn.with_changes(body=fn.body.visit(_Rename(namespace, site.helper("_mx_F"))))
        left_f = (f"; `{namespace}` is still read by code left for a human (reported at its lines): "
                  f"those reads are `_mx_F`, whose operators raise naming themselves when called")
    registered = set(conv.analysis.block_params(cls)) | _layer_params(conv, cls)
    listed = [p for p in params[2:] + list(fn.params.kwonly_params) if p.name.value in registered]
    missing = registered - {p.name.value for p in listed}
    body = fn.body
    passed_in = []
    if isinstance(fn.params.star_kwarg, cst.Param):
        # `gamma = kwargs['gamma']`: Gluon passes its parameters in **kwargs
        star = fn.params.star_kwarg.name.value
        reader = _FromKwargs(star, missing, params[0].name.value)
        body = body.visit(reader)
        if reader.other_uses:  # Note [parameters in **kwargs]
            if not isinstance(body, cst.IndentedBlock):
                raise Manual(f"parameters arrive through **{star} in a one-line hybrid_forward that uses it "
                             f"otherwise: read them as `self.<name>` by hand")
            listed_names = tuple(sorted(p.name.value for p in listed))
            exclude = f", {listed_names!r}" if listed_names else ""
            passed_in = [f"{star}.update({site.helper('_mx_reg_params')}({me}{exclude}))"]
    names = {p.name.value for p in listed}
    keep = [p for p in params[2:] if p.name.value not in names]
    kwonly = [p for p in fn.params.kwonly_params if p.name.value not in names]
    if keep:
        keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if kwonly:
        kwonly[-1] = kwonly[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    star = fn.params.star_arg
    if not kwonly and isinstance(star, cst.ParamStar):
        star = cst.MaybeSentinel.DEFAULT
    if kept_f:
        keep = [params[1].with_changes(comma=cst.MaybeSentinel.DEFAULT if not keep else params[1].comma), *keep]
    new_params = fn.params.with_changes(params=[params[0], *keep], kwonly_params=kwonly, star_arg=star)
    rebound: set = set()
    optional = {p.name.value: p.default for p in listed if p.default is not None
                and not _assigned_always(cls, p.name.value)}  # Note [optional parameters]
    if names:
        renamer = _ToSelf(names, me, optional)
        renamed = body.visit(renamer)
        rebound = renamer.stored & names
        if rebound:  # `offsets = F.slice_like(offsets, ...)`: read once into the local name
            if not isinstance(body, cst.IndentedBlock):
                raise Manual(f"`{', '.join(sorted(rebound))}` is rebound inside a one-line hybrid_forward: "
                             f"read the parameter as `{me}.<name>` by hand")
            first = [f"{n} = getattr({me}, {n!r}, {cst.Module([]).code_for_node(optional[n])})" if n in optional
                     else f"{n} = {me}.{n}" for n in sorted(rebound)]
            renamed = _bind_first(body.visit(_ToSelf(names - rebound, me, optional)), first)
        body = renamed
    if passed_in:
        body = _bind_first(body, passed_in)
    placed = ""
    if not kept_f:  # Note [devices in hybrid_forward]
        inputs = [p.name.value for p in keep] + ([f"*{star.name.value}"] if isinstance(star, cst.Param) else [])
        body, placed = on_input_device(site, body, inputs, _bind_first)
    moved = f"; {', '.join(sorted(names - rebound))} -> {me}.<name>" if names - rebound else ""
    if rebound:
        moved += f"; {', '.join(sorted(rebound))} (rebound in the body) read once at its top: `<name> = {me}.<name>`"
    if optional:
        moved += (f"; {', '.join(sorted(optional))} (held on some paths only, a default in the signature) -> "
                  f"`getattr({me}, name, default)`")
    if passed_in:
        moved += f"; **{passed_in[0].split('.', 1)[0]} gets the block's own parameters as Gluon passes them (`{passed_in[0]}`)"
    site.fixed(f"`hybrid_forward({me}, {namespace}, ...)` -> `{name}({me}, ...)`{moved}{placed}{left_f}")
    return fn.with_changes(name=cst.Name(name), params=new_params, body=body)


def _bind_first(body: cst.IndentedBlock, lines: list[str]) -> cst.IndentedBlock:
    """`body` with `lines` first (after a docstring): Gluon passes each parameter's value in,
    and the body may then rebind the local name freely."""
    stmts = list(body.body)
    at = 1 if stmts and isinstance(stmts[0], cst.SimpleStatementLine) and len(stmts[0].body) == 1 \
        and isinstance(stmts[0].body[0], cst.Expr) and isinstance(stmts[0].body[0].value, (cst.SimpleString,
                                                                                           cst.ConcatenatedString)) else 0
    new = [cst.parse_statement(line + "\n") for line in lines]
    if at < len(stmts):  # the statement that was first keeps the comments above it, after the reads
        new[0] = new[0].with_changes(leading_lines=stmts[at].leading_lines)
        stmts[at] = stmts[at].with_changes(leading_lines=[])
    return body.with_changes(body=stmts[:at] + new + stmts[at:])
