"""How a hybrid_forward's body reads the block's parameters once it is a forward: Gluon passed
each as an argument (or in **kwargs), the converted module holds it as an attribute."""
import ast

import libcst as cst

from xlate.convert import kinds
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


def ToSelf(names: set, me: str, optional: dict | None = None) -> _Loads:
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
def assigned_always(cls, name: str) -> bool:
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


# Note [parameters in **kwargs]
# Gluon 1.x calls hybrid_forward with every parameter and constant in the block's `_reg_params`
# as a keyword argument named after the attribute that holds it (measured: a parameter named
# 'crf_transition_matrix' held as `self.transitions` arrives as `transitions`), also one set with
# `setattr(self, 'factor%d_weight' % i, p)`, whose names no static reading knows. A literal read
# (`kwargs['gamma']`) of a parameter the class is seen to register becomes `self.gamma`; where the
# body uses the dict any other way (a computed key, `**kwargs` handed on, a loop over it), the
# forward first fills it as Gluon would, from the module's own parameters and buffers
# (`kwargs.update(_mx_reg_params(self, <the names the signature lists>))`).
def Rename(name: str, new: str) -> _Loads:
    """Loads of `name` become `new`."""
    return _Loads({name}, lambda _: cst.Name(new))


class FromKwargs(cst.CSTTransformer):
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
LAYER_PARAMS = {
    "BatchNorm": ("gamma", "beta", "running_mean", "running_var"),
    "SyncBatchNorm": ("gamma", "beta", "running_mean", "running_var"),
    "LayerNorm": ("gamma", "beta"), "InstanceNorm": ("gamma", "beta"), "GroupNorm": ("gamma", "beta"),
    "Dense": ("weight", "bias"), "Embedding": ("weight",), "PReLU": ("alpha",),
    # recurrent cells (their helpers read Gluon's names as properties of torch's tensors)
    "RNNCell": _CELL, "LSTMCell": _CELL, "GRUCell": _CELL, "LSTMPCell": _CELL + ("h2r_weight",),
}


def layer_params(conv, cls) -> set:
    """Parameters of the Gluon layer a class derives from (`class BNExtra(nn.BatchNorm)` with its
    own `hybrid_forward(self, F, x, gamma, beta, running_mean, running_var)`)."""
    found = set()
    for kind in kinds.kinds_of_class(conv.analysis, cls) or ():
        short = kind.rsplit(".", 1)[-1]
        found.update(LAYER_PARAMS.get(short, ("weight", "bias") if short.startswith("Conv") else ()))
    return found


def reads_name(body: cst.CSTNode, name: str) -> bool:
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


def bind_first(body: cst.IndentedBlock, lines: list[str]) -> cst.IndentedBlock:
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
