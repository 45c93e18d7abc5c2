"""When is an expression evidently a Gluon Parameter, ParameterDict or Block? (shared by the
parameter, initialisation and io rules; not a transform itself).

Note [parameter evidence]
`.data()`, `.items()`, `.values()`, `.save()`, `.setattr()`, `.initialize()` are everyday
Python methods too, so these rules rewrite only receivers that are evidently Gluon's: a
`collect_params()` call or a name assigned from one (a ParameterDict); a layer attribute with
a Gluon parameter name (`net.dense.weight`), an attribute assigned from `params.get(...)`
anywhere in the file, a `params.get(...)` call, an element of a ParameterDict (`params[k]`),
or a name bound by a loop over a ParameterDict's `.values()` / `.items()` (or over a name assigned
`d.values()`, `list(d.values())`) or assigned from
one of those (a Parameter), or a name annotated as one (`p: gluon.Parameter`, `params:
gluon.ParameterDict`, as an argument or a variable). A Block is a name or attribute assigned a Gluon (gluoncv,
gluonnlp) call or an instance of a class of this file deriving from a Gluon block, anything
reached from one (`net.features[0]`), or `self` in such a class; `self` in any other class of
the file is no Block. A call that does not fit the MXNet method's parameters is left alone
unless its receiver is evident. Names are collected per file, not per scope: a name that is a
parameter loop variable in one function is taken to be one everywhere, which can only make a
rule fire on a non-Gluon receiver that shares a Gluon receiver's name (rare in MXNet code).
"""
from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from xlate.convert import astwalk, kinds, names

# parameters of Gluon's own layers, as attributes of the layer
GLUON_PARAMS = frozenset(("weight", "bias", "gamma", "beta", "alpha", "running_mean", "running_var"))


@dataclass
class Facts:
    dict_names: set = field(default_factory=set)
    param_attrs: set = field(default_factory=lambda: set(GLUON_PARAMS))
    param_names: set = field(default_factory=set)
    gluon_classes: set = field(default_factory=set)  # classes of this file deriving from a Gluon block
    other_classes: set = field(default_factory=set)
    block_names: set = field(default_factory=set)  # names and attributes assigned a Gluon block
    block_attrs: set = field(default_factory=set)


def gluon_file(analysis) -> bool:
    """The file builds Gluon blocks: it imports from mxnet.gluon (not just `import mxnet`, which a
    file may keep unused) or defines a block class. Run-time dispatch of the parameter API on
    receivers xlate cannot type (MX162, MX176) is limited to such files."""
    return any(c.startswith("mxnet.gluon") for _, c in analysis.mx_imports) \
        or any(scope.gluon for scope in analysis.scopes.values())


def mxnet_file(analysis) -> bool:
    """The file imports MXNet at all (`import mxnet as mx`; xfer's tests read `params[k][0].data()` in
    a file that imports only `mxnet` and `nd`). The run-time helper of `p.data()` (MX162) is exact on
    any value, a tensor's `.data` or the value's own `data()`, so this is evidence enough for it."""
    return bool(analysis.mx_imports) or gluon_file(analysis)


def is_collect_call(node: cst.CSTNode, *, bare: bool = False) -> bool:
    """`X.collect_params(...)` (bare: without a selection)."""
    return (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "collect_params" and (not bare or not node.args))


def _params_get(node: cst.CSTNode) -> bool:
    return (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in ("get", "get_constant")  # a constant is a Parameter too
            and isinstance(node.func.value, cst.Attribute) and node.func.value.attr.value == "params")


@dataclass
class _Scan:
    """Assignments, loops and classes of the whole file, from the `ast` tree names.Analysis
    already parsed (a LibCST visitor over the module cost 0.7x parse + render)."""
    assigns: list = field(default_factory=list)  # (target, value) ast nodes
    loops: list = field(default_factory=list)  # (target, iter)
    classes: list = field(default_factory=list)  # (name, [dotted base names])
    annotated: list = field(default_factory=list)  # (name, annotation): a function's argument, `x: T = ...`
    functions: dict = field(default_factory=dict)  # name -> [the defs of that name]
    calls: dict = field(default_factory=dict)  # name -> [`name(...)` calls]
    loads: Counter = field(default_factory=Counter)  # name -> reads of it (a call's own name is one)
    methods: set = field(default_factory=set)  # names some class of the file defines a method by

    @classmethod
    def of(cls, tree: ast.Module) -> "_Scan":
        scan = cls()
        for node in astwalk.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                scan.loads[node.id] += 1
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                scan.calls.setdefault(node.func.id, []).append(node)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scan.functions.setdefault(node.name, []).append(node)
            if isinstance(node, ast.ClassDef):
                scan.classes.append((node.name, [names._dotted(b) for b in node.bases]))
                scan.methods.update(n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
            elif isinstance(node, ast.Assign):
                scan.assigns.extend((t, node.value) for t in node.targets)
            elif isinstance(node, ast.AnnAssign):
                if node.value is not None:
                    scan.assigns.append((node.target, node.value))
                if isinstance(node.target, ast.Name):
                    scan.annotated.append((node.target.id, node.annotation))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                scan.annotated.extend((arg.arg, arg.annotation) for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs)
                                      if arg.annotation is not None)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                scan.loops.append((node.target, node.iter))
        return scan


_CACHE: dict[int, tuple[cst.Module, Facts]] = {}


def facts(conv) -> Facts:
    module = conv.module
    hit = _CACHE.get(id(module))
    if hit is not None and hit[0] is module:
        return hit[1]
    scan = _Scan.of(conv.analysis.tree)
    found = Facts()
    _blocks(conv, scan, found)
    for name, annotation in scan.annotated:  # `p: gluon.Parameter`, `params: gluon.ParameterDict`
        kind = _annotated_kind(conv, annotation)
        if kind == "param":
            found.param_names.add(name)
        elif kind == "dict":
            found.dict_names.add(name)
    for target, value in scan.assigns:
        if isinstance(target, ast.Name) and _a_collect(value):
            found.dict_names.add(target.id)
        if isinstance(target, ast.Attribute) and _a_params_get(value):
            found.param_attrs.add(target.attr)
    for _ in range(2):  # a name assigned from a loop variable needs the loop first
        # `params = net.collect_params().values()`, then `for p in params` (autogluon's GP regression)
        lists = {t.id for t, v in scan.assigns if isinstance(t, ast.Name) and _a_values(v, found)}
        for target, it in (pair for loop in scan.loops for pair in _loop_pairs(*loop)):
            if isinstance(it, ast.Name) and it.id in lists and isinstance(target, ast.Name):
                found.param_names.add(target.id)
            if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args
                    and not it.keywords and _a_dict(it.func.value, found)):
                continue
            method = it.func.attr
            if method == "values" and isinstance(target, ast.Name):
                found.param_names.add(target.id)
            elif method == "items" and isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2:
                second = target.elts[1]
                if isinstance(second, ast.Name):
                    found.param_names.add(second.id)
        for target, value in scan.assigns:
            if isinstance(target, ast.Name) and (_a_param(value, found) or _a_parameter_made(conv, value)):
                found.param_names.add(target.id)
        _handed(conv, scan, found)
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[id(module)] = (module, found)
    return found


def _loop_pairs(target: ast.AST, it: ast.AST):
    """(target, iterable) pairs of a loop, through `zip(...)`, `enumerate(...)`, `reversed(...)` and
    `list(...)`: xfer's `for l_param, param in zip(samples, net.collect_params().values())`."""
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and not it.keywords:
        name, args = it.func.id, it.args
        if name in ("reversed", "list") and len(args) == 1:
            yield from _loop_pairs(target, args[0])
            return
        if isinstance(target, (ast.Tuple, ast.List)) and not any(isinstance(a, ast.Starred) for a in args):
            if name == "zip" and len(args) == len(target.elts):
                for t, a in zip(target.elts, args):
                    yield from _loop_pairs(t, a)
                return
            if name == "enumerate" and len(args) == 1 and len(target.elts) == 2:
                yield from _loop_pairs(target.elts[1], args[0])
                return
    yield target, it


# Note [evidence handed to a function]
# A function of the file that every call of it hands a Gluon block (or Parameter) at one position
# (`def visualize(activation_fn): ... activation_fn.name`, called `visualize(nn.Activation('relu'))`
# five times, MXNet's own activations tutorial) takes one there: its parameter is as evident as
# the arguments. Only a function called by its name alone counts, with every call seen: one
# defined twice or as a method too (a plain call of that name is another function's), read as a
# value (`map(f, nets)`, a callback), or called with `*args`/`**kwargs` may be handed anything,
# and is no evidence. A parameter with a default counts only when every
# call passes it.
def _handed(conv, scan: "_Scan", found: Facts) -> None:
    for name, defs in scan.functions.items():
        calls = scan.calls.get(name, [])
        if len(defs) != 1 or name in scan.methods or not calls or scan.loads[name] != len(calls) or any(
                isinstance(a, ast.Starred) for c in calls for a in c.args) or any(
                k.arg is None for c in calls for k in c.keywords):
            continue
        a = defs[0].args
        positional = [*a.posonlyargs, *a.args]
        for i, arg in enumerate([*positional, *a.kwonlyargs]):
            given = [_argument(c, i if i < len(positional) else None, arg.arg) for c in calls]
            if any(g is None for g in given):
                continue
            if all(_a_block(conv, g, found) for g in given):
                found.block_names.add(arg.arg)
            elif all(_a_param(g, found) for g in given):
                found.param_names.add(arg.arg)


def _argument(call: ast.Call, position: Optional[int], name: str):
    """What `call` passes for the parameter at `position` (None: keyword-only) named `name`."""
    if position is not None and position < len(call.args):
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _a_block(conv, node, found: Facts) -> bool:
    """A Gluon block's construction, or a name or attribute evidently holding one."""
    if isinstance(node, ast.Call):
        return _gluon(conv, names._dotted(node.func), found.gluon_classes)
    if isinstance(node, ast.Name):
        return node.id in found.block_names
    return isinstance(node, ast.Attribute) and node.attr in found.block_attrs


# the predicates below on `ast` nodes, for the scan
def _a_collect(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "collect_params"


def _a_params_get(node) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "get_constant")
            and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "params")


def _a_parameter_made(conv, node) -> bool:
    """`gluon.Parameter(...)` (MX117), with the names the module imports."""
    if not isinstance(node, ast.Call):
        return False
    dotted = names._dotted(node.func)
    return dotted is not None and conv.analysis.resolve((), dotted) in names.PARAMETER_CLASSES


_PARAMETER_DICTS = ("mxnet.gluon.ParameterDict", "mxnet.gluon.parameter.ParameterDict")


def _annotated_kind(conv, annotation) -> Optional[str]:
    """'param' for an annotation naming Gluon's Parameter (`Optional[...]` of one too), 'dict' for
    its ParameterDict; a string annotation counts as what it names."""
    node = annotation
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.Subscript) and names._dotted(node.value) in ("Optional", "typing.Optional"):
        node = node.slice
    dotted = names._dotted(node)
    resolved = conv.analysis.resolve((), dotted) if dotted else None
    if resolved in names.PARAMETER_CLASSES:
        return "param"
    if resolved in _PARAMETER_DICTS:
        return "dict"
    return None


def _a_values(node, known: Facts) -> bool:
    """`d.values()` of a ParameterDict, or `list(...)` of it: the Parameters themselves."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "tuple") \
            and len(node.args) == 1:
        node = node.args[0]
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "values"
            and not node.args and _a_dict(node.func.value, known))


def _a_dict(node, known: Facts) -> bool:
    return _a_collect(node) or (isinstance(node, ast.Name) and node.id in known.dict_names)


def _a_param(node, known: Facts) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in known.param_attrs
    if isinstance(node, ast.Name):
        return node.id in known.param_names
    if isinstance(node, ast.Subscript):
        return _a_dict(node.value, known)
    return _a_params_get(node)


def _gluon(conv, dotted: Optional[str], classes: set) -> bool:
    """A class or factory of Gluon (or gluoncv / gluonnlp), or a Gluon class of this file."""
    if dotted is None:
        return False
    if dotted in classes:
        return True
    resolved = conv.analysis.resolve((), dotted)
    if resolved in (None, names.AMBIGUOUS):
        return False
    # a class or factory of the converted tree that is or gives a Gluon block (Note [package facts])
    return resolved.startswith(("mxnet.gluon", "gluoncv", "gluonnlp")) or kinds.is_block(conv.analysis.facts.get(resolved))


def _blocks(conv, scan: _Scan, found: Facts) -> None:
    for _ in range(len(scan.classes) + 1):  # a class deriving from one found later
        for name, bases in scan.classes:
            if name not in found.gluon_classes and any(_gluon(conv, b, found.gluon_classes) for b in bases):
                found.gluon_classes.add(name)
    found.other_classes = {name for name, _ in scan.classes} - found.gluon_classes
    pairs = []
    for target, value in scan.assigns:  # `a, b = Net(), Loss()`: element by element
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(value.elts):
            pairs += zip(target.elts, value.elts)
        else:
            pairs.append((target, value))
    for target, value in pairs:
        if isinstance(value, ast.Call) and _gluon(conv, names._dotted(value.func), found.gluon_classes):
            if isinstance(target, ast.Name):
                found.block_names.add(target.id)
            elif isinstance(target, ast.Attribute):
                found.block_attrs.add(target.attr)


def _enclosing_class(conv) -> Optional[str]:
    key = conv.scopes[-1]
    for end in range(len(key), 0, -1):
        scope = conv.analysis.scopes.get(key[:end])
        if scope is not None and scope.is_class:
            return key[end - 1][0]
    return None


def block_kind(site, node) -> str:
    """'yes' when `node` is evidently a Gluon block, 'no' when it is `self` of a class of this
    file that is not one, 'unknown' otherwise (a function's parameter, say)."""
    known = facts(site.conv)
    root = node
    while isinstance(root, (cst.Attribute, cst.Subscript)):
        if isinstance(root, cst.Attribute) and root.attr.value in known.block_attrs:
            return "yes"
        root = root.value
    if not isinstance(root, cst.Name):
        return "unknown"
    if root.value == "self":
        cls = _enclosing_class(site.conv)
        if cls in known.gluon_classes or site.conv.analysis.gluon_class(site.conv.scopes[-1]) is not None:
            return "yes"
        return "no" if root is node and cls in known.other_classes else "unknown"
    return "yes" if root.value in known.block_names else "unknown"


def resolves_to(site, node, prefix: str) -> bool:
    """`node` is a call of an MXNet name starting with `prefix`, or a name assigned only such calls."""
    conv = site.conv
    if isinstance(node, cst.Call):
        return (conv.resolve_expr(node.func) or "").startswith(prefix)
    if not isinstance(node, cst.Name):
        return False
    scope = conv.analysis.home(conv.scopes[-1], node.value)
    if scope is None or not scope.values.get(node.value):
        return False
    for value in scope.values[node.value]:
        func = names._dotted(value.func) if isinstance(value, ast.Call) else None
        resolved = conv.analysis.resolve(scope.key, func) if func else None
        if not (resolved or "").startswith(prefix):
            return False
    return True


def is_param_dict(node: cst.CSTNode, known: Facts) -> bool:
    return is_collect_call(node) or (isinstance(node, cst.Name) and node.value in known.dict_names)


def is_param(node: cst.CSTNode, known: Facts) -> bool:
    if isinstance(node, cst.Attribute):
        return node.attr.value in known.param_attrs
    if isinstance(node, cst.Name):
        return node.value in known.param_names
    if isinstance(node, cst.Subscript):
        return is_param_dict(node.value, known)
    return _params_get(node)


def receiver(site) -> Optional[cst.BaseExpression]:
    """The original (unconverted) receiver of the method call a rule matched."""
    func = getattr(site.original, "func", None)
    if isinstance(func, cst.Attribute):
        return func.value
    if isinstance(site.original, cst.Attribute):  # a reference or an assignment target
        return site.original.value
    return None


def block_of(site) -> Optional[cst.BaseExpression]:
    """X, converted, when the receiver was `X.collect_params()`: the rewrite MX160 made of it
    (`_mx_collect_params(X)`) or the call itself when MX160 is off."""
    if not is_collect_call(receiver(site), bare=True):
        return None
    new = site.receiver
    if isinstance(new, cst.Call) and isinstance(new.func, cst.Name) and new.func.value == "_mx_collect_params" \
            and len(new.args) == 1:
        return new.args[0].value
    if (isinstance(new, cst.Call) and isinstance(new.func, cst.Name) and new.func.value == "dict"
            and len(new.args) == 1 and isinstance(new.args[0].value, cst.Call)):
        new = new.args[0].value
    if isinstance(new, cst.Call) and isinstance(new.func, cst.Attribute) \
            and new.func.attr.value in ("collect_params", "named_parameters"):
        return new.func.value
    return None


def absorb(site, code: str = "MX160") -> None:
    """Drop the diagnostic the inner `collect_params()` rewrite reported: this rule's own
    report covers the whole expression it replaced."""
    inner = receiver(site)
    site.conv.retract(inner, code)


_DEVICE_CALLS = ("mxnet.context.cpu", "mxnet.context.gpu", "mxnet.context.cpu_pinned", "mxnet.cpu_pinned",
                 "mxnet.context.current_context", "mxnet.context.Context", "torch.device")


def single_device(site, name: str) -> str:
    """'yes' when argument `name` is one context, 'no' when it is a list of them, 'unknown'."""
    node = site.value(name)
    if isinstance(node, (cst.List, cst.Tuple, cst.ListComp, cst.Set)):
        return "no"
    if isinstance(node, cst.Call):
        return "yes" if site.conv.resolve_expr(node.func) in _DEVICE_CALLS or site.code(node.func).strip() \
            == "torch.device" else "unknown"
    if not isinstance(node, cst.Name):
        return "unknown"
    analysis, key = site.conv.analysis, site.conv.scopes[-1]
    scope = analysis.home(key, node.value)
    if scope is None or not scope.values.get(node.value):
        return "unknown"
    kinds = {_ast_kind(analysis, scope.key, v) for v in scope.values[node.value]}
    return kinds.pop() if len(kinds) == 1 else ("no" if "no" in kinds else "unknown")


def _ast_kind(analysis, key, value) -> str:
    if isinstance(value, (ast.List, ast.Tuple, ast.ListComp, ast.Set)):
        return "no"
    if isinstance(value, ast.IfExp):
        kinds = {_ast_kind(analysis, key, value.body), _ast_kind(analysis, key, value.orelse)}
        return kinds.pop() if len(kinds) == 1 else "unknown"
    if isinstance(value, ast.Call):
        func = names._dotted(value.func)
        resolved = analysis.resolve(key, func) if func else None
        return "yes" if resolved in _DEVICE_CALLS else "unknown"
    return "unknown"
