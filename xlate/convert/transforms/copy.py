"""x.copy() -> x.clone(); x.copyto(ctx) -> x.to(ctx, copy=True); x.copyto(y) -> y.copy_(x); where
the receiver or the target is of a kind xlate cannot tell, `_mx_copyto` decides at run time.

Note [untyped copy]
Dicts, lists, sets and NumPy arrays have `copy()` too, so `x.copy()` on a value xlate cannot type was
left as written, and where x held an NDArray (a function's parameter, `ident(b).copy()`) torch raised
AttributeError ('Tensor' object has no attribute 'copy') with nothing reported at its line. In code
that handles MXNet arrays (untyped_compare.handles_arrays: it names an array operator, calls an
MXNet-only array method, or is a Gluon block's forward) the call goes to `_mx_copy_method`, which
clones a tensor and calls any other value's own copy, so a dict's copy stays a dict's. Elsewhere
(a config module's `cfg.copy()`), and on a receiver that is plainly a Python container (a display,
a comprehension, `dict(...)`, `**kwargs`, a name bound only to those), it stays as written.
"""
import ast

import libcst as cst

from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms.untyped_compare import handles_arrays

_DEVICES = ("mxnet.context.cpu", "mxnet.context.gpu", "mxnet.context.Context")


def transform(site: Site):
    if site.receiver_kind is None and site.matched == ".copy":
        if site.node.args or not handles_arrays(site.conv) or _container(site.conv, site.receiver):
            raise Skip()  # dicts, lists and NumPy arrays have copy() too (Note [untyped copy])
        site.fixed("`x.copy()` on a value xlate could not type, in code that handles MXNet arrays -> "
                   "`_mx_copy_method(x)`, decided at run time: a tensor (an MXNet array, converted) is cloned, any "
                   "other value (a NumPy array, a dict) uses its own copy")
        return site.emit("_mx_copy_method({x})", x=site.receiver)
    if site.receiver_kind is None:  # copyto is MXNet's alone, but the value may not be converted code's
        return _at_run_time(site, "`x.copyto(...)` on a value xlate could not type")
    if site.matched == ".copy":
        return site.emit("{x}.clone()", x=site.value("data"))
    other = site.value("other")
    original = site.original.args[0].value if site.original.args else None
    if original is not None and isinstance(original, __import__("libcst").Call):
        if site.conv.resolve_expr(original.func) in _DEVICES:
            return site.emit("{x}.to({d}, copy=True)", x=site.value("data"), d=other)
    if original is not None and site.conv.classify(original) in ("nd", "mxnp"):
        return site.emit("{y}.copy_({x})", x=site.value("data"), y=other)
    return _at_run_time(site, "`x.copyto(target)` with a target xlate could not tell a context from an array")


def _at_run_time(site: Site, what: str):
    site.fixed(f"{what} -> `_mx_copyto(x, target)`, decided at run time: into an array, to a device (a new "
               "array), or the value's own copyto")
    return site.emit("_mx_copyto({x}, {y})", x=site.value("data"), y=site.value("other"))


_CONTAINERS = (cst.Dict, cst.List, cst.Set, cst.Tuple, cst.DictComp, cst.ListComp, cst.SetComp)
_CONTAINER_CALLS = frozenset(("dict", "list", "set", "OrderedDict", "defaultdict", "Counter", "vars", "locals",
                              "globals"))


def _container(conv, receiver: cst.BaseExpression) -> bool:
    """A Python container for sure: a display or comprehension, `dict(...)`, a function's `**kwargs`,
    `x.__dict__`, or a name whose every binding in its scope is one of those."""
    if isinstance(receiver, _CONTAINERS):
        return True
    if isinstance(receiver, cst.Attribute) and receiver.attr.value == "__dict__":
        return True
    if isinstance(receiver, cst.Call):
        func = receiver.func
        name = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else ""
        return name in _CONTAINER_CALLS
    if not isinstance(receiver, cst.Name):
        return False
    scope = conv.analysis.home(conv.scopes[-1], receiver.value)
    if scope is None:
        return False
    node = scope.node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.kwarg is not None \
            and node.args.kwarg.arg == receiver.value:
        return True
    values = scope.values.get(receiver.value) or []
    return bool(values) and all(isinstance(v, (ast.Dict, ast.List, ast.Set, ast.Tuple, ast.DictComp, ast.ListComp,
                                               ast.SetComp)) or (isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                                                                 and v.func.id in _CONTAINER_CALLS) for v in values)
