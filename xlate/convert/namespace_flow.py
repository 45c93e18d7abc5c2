"""MXNet's operator namespace handed to a function of the same file under any name (Note
[namespace by flow]).

Note [namespace by flow]
hybrid_forward gives its `F` to helpers, and a helper's parameter is not always called `F`:
`squash(ops, x, axis)`, `def _attend(backend, q, k)`, `self._tail(F, y)` with `def _tail(self, G,
y)`. Taken by its name only, such a parameter kept its `ops.broadcast_mul(...)` calls as MXNet,
unreported, while the call site handed it `None` (MX113): a crash with no report. A call in this
file whose callee is a function of the file (a name bound once by a `def`, or `self.method` of
the enclosing class), and which passes MXNet's namespace (hybrid_forward's F, a name bound to it,
`mx.nd`), makes the parameter it lands on the namespace too, positional or keyword; what that
function passes on flows further, to a fixed point. A parameter some call gives anything else
as well stays a plain name: its calls are left and reported where MXNet's are meant.

Across the modules of a tree the package pass carries it one hop (Note [package facts]): a call
of a module-level function of another module of the tree (`from .ops import squash`) that passes
the namespace says so as a fact keyed by the function and the argument's place
(`@pkg.ops.squash#0`, `@pkg.ops.squash#ops` for a keyword), and the function's own module reads
its facts and takes that parameter as the namespace.
"""
from __future__ import annotations

import ast
from typing import Iterator, Optional

from xlate.convert import astwalk
from xlate.convert.context import LOCAL
from xlate.convert.kinds import NAMESPACES

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def propagate(analysis) -> bool:
    """Mark the parameters the namespace flows into; whether any was marked."""
    calls = [(key, call) for key, scope in analysis.scopes.items() if not scope.is_class
             for call in _calls(analysis, scope)]
    marked = False
    changed = True
    while changed:
        changed = False
        for scope, param, namespace in _offered(analysis, calls):
            if param in scope.mx_params or param in scope.declared or not _only_namespace(analysis, calls, scope, param):
                continue
            scope.other.discard(param)
            scope.values.pop(param, None)
            scope.imports[param] = namespace
            scope.mx_params.add(param)
            changed = marked = True
    return marked


def _offered(analysis, calls) -> Iterator[tuple]:
    """(function scope, parameter, namespace) for each parameter some call fills with the namespace,
    or whose default it is."""
    for key, call in calls:
        target = callee(analysis, key, call.func)
        if target is not None:
            for param, arg in _bound(target[0].node.args, call, target[1]):
                namespace = _namespace(analysis, key, arg)
                if namespace:
                    yield target[0], param, namespace
    module = analysis.context.module
    for key, scope in analysis.scopes.items():
        if isinstance(scope.node, _DEFS) and len(key) == 1 and module:  # what callers in other modules pass
            params = scope.node.args.posonlyargs + scope.node.args.args
            for i, a in enumerate(params):
                for place in (str(i), a.arg):
                    namespace = NAMESPACES.get(next(iter(analysis.facts.get(f"{LOCAL}{module}.{key[0][0]}#{place}")
                                                         or ("",))))
                    if namespace:
                        yield scope, a.arg, namespace
        if isinstance(scope.node, _DEFS):
            args = scope.node.args
            for a in args.posonlyargs + args.args + args.kwonlyargs:
                default = _default(args, a.arg)
                namespace = _namespace(analysis, scope.parent.key, default) if default is not None else None
                if namespace:
                    yield scope, a.arg, namespace


def passed_out(analysis) -> dict:
    """Facts for the package pass: `@module.function#place` -> the namespace, for each call of a
    module-level function of another module of the tree that passes the namespace there."""
    found: dict = {}
    for key, scope in analysis.scopes.items():
        if scope.is_class:
            continue
        for call in _calls(analysis, scope):
            if not (call.args or call.keywords) or not isinstance(call.func, (ast.Name, ast.Attribute)):
                continue
            places = [(str(i), a) for i, a in enumerate(call.args) if not isinstance(a, ast.Starred)]
            places += [(kw.arg, kw.value) for kw in call.keywords if kw.arg]
            namespaces = [(place, _namespace(analysis, key, arg)) for place, arg in places]
            if not any(n for _, n in namespaces):
                continue
            try:
                target = analysis.resolve(key, ast.unparse(call.func))
            except ValueError:
                continue
            if not target or not target.startswith(LOCAL) or target.startswith(f"{LOCAL}{analysis.context.module}."):
                continue
            for place, namespace in namespaces:
                if namespace:
                    found[f"{target}#{place}"] = frozenset({namespace})
    return found


def callee(analysis, key, func: ast.expr) -> Optional[tuple]:
    """The scope of the file's function `func` names, seen from scope `key`, and how many of its
    parameters the call does not fill (1 for `self.method(...)`); None when it is not one."""
    if isinstance(func, ast.Name):
        home = analysis.home(key, func.id)
        if home is None or func.id in home.imports or len(home.values.get(func.id, ())) != 1:
            return None  # bound twice (a def and an assignment, two defs): either may be called
        scope = analysis.scopes.get(home.key + ((func.id, 0),))
        if scope is None or (home.key + ((func.id, 1),)) in analysis.scopes or not isinstance(scope.node, _DEFS):
            return None
        return scope, 1 if home.is_class else 0
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        method = analysis.scopes.get(key)
        if method is None or method.parent is None or not method.parent.is_class:
            return None
        cls = method.parent
        scope = analysis.scopes.get(cls.key + ((func.attr, 0),))
        if scope is None or (cls.key + ((func.attr, 1),)) in analysis.scopes or not isinstance(scope.node, _DEFS) \
                or func.attr in cls.attrs or _decorated(scope.node):
            return None
        return scope, 1
    return None


def _decorated(node) -> bool:
    """A staticmethod or classmethod, or any wrapper: its parameters are not the def's."""
    return bool(node.decorator_list)


def _calls(analysis, scope) -> Iterator[ast.Call]:
    """The calls of a function's body, or of the module's own statements, not of nested defs."""
    if scope.parent is None:
        todo = list(analysis.tree.body)
    elif isinstance(scope.node, _DEFS):
        todo = list(scope.node.body)
    else:
        return
    while todo:
        sub = todo.pop()
        if isinstance(sub, (*_DEFS, ast.ClassDef)):
            continue
        if isinstance(sub, ast.Call):
            yield sub
        todo.extend(astwalk.children(sub))


def _bound(args: ast.arguments, call: ast.Call, skip: int) -> Iterator[tuple]:
    """(parameter name, argument expression) for each argument the call passes by position or
    keyword; `*a` and `**k` end the positional mapping."""
    params = [a.arg for a in args.posonlyargs + args.args][skip:]
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        if i < len(params):
            yield params[i], arg
    named = {a.arg for a in args.args[skip:] + args.kwonlyargs}
    for kw in call.keywords:
        if kw.arg in named:
            yield kw.arg, kw.value


def _namespace(analysis, key, arg: ast.expr) -> Optional[str]:
    if isinstance(arg, ast.Name):
        found = analysis.lookup(key, arg.id)
    elif isinstance(arg, ast.Attribute):
        try:
            found = analysis.resolve(key, ast.unparse(arg))
        except ValueError:
            return None
    else:
        return None
    return NAMESPACES.get(found) if found else None


def _only_namespace(analysis, calls, scope, param: str) -> bool:
    """Every call of the file that fills `param` of this function gives it the namespace, and
    its default (if any) is None or the namespace."""
    default = _default(scope.node.args, param)
    if default is not None and not (isinstance(default, ast.Constant) and default.value is None) \
            and not _namespace(analysis, scope.parent.key, default):
        return False
    for key, call in calls:
        target = callee(analysis, key, call.func)
        if target is None or target[0] is not scope:
            continue
        for name, arg in _bound(scope.node.args, call, target[1]):
            if name == param and _namespace(analysis, key, arg) is None:
                return False
    return True


def _default(args: ast.arguments, param: str) -> Optional[ast.expr]:
    positional = args.posonlyargs + args.args
    for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults):
        if a.arg == param:
            return d
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        if a.arg == param:
            return d
    return None
