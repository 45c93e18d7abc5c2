"""The kinds of a value: the MXNet Gluon classes it is, or is made by, one of (Note [package
facts] in xlate/convert/package.py). Read off names.Analysis (passed in, never imported)."""
from __future__ import annotations

import ast
from typing import Optional

from xlate.convert import astwalk
from xlate.convert.context import AMBIGUOUS, GLUON_ROOTS as GLUON, LOCAL, is_mxnet

# MXNet's operator namespaces, each as the one whose rules translate its calls (Note [namespace
# aliases] in names.py): a value of one of these kinds is the namespace itself (`mx.nd`, the `F`
# of hybrid_forward, what `getF(x)` returns)
NAMESPACES = {"mxnet.ndarray": "mxnet.ndarray", "mxnet.symbol": "mxnet.ndarray", "mxnet.numpy": "mxnet.numpy",
              "mxnet.numpy_extension": "mxnet.numpy_extension"}


# MXNet's packages as values: a lazy-import helper returns one (`def try_import_gluonnlp(): import
# gluonnlp; return gluonnlp`) and its callers bind it (`nlp = try_import_gluonnlp()`): Note [a package
# returned by a helper] in names.py
PACKAGES = frozenset({"mxnet", "gluonnlp", "gluoncv"})


def package_of(kinds: Optional[frozenset]) -> Optional[str]:
    """The MXNet package a value of these kinds always is (None: not always the same one)."""
    return next(iter(kinds)) if kinds and len(kinds) == 1 and kinds <= PACKAGES else None


def namespace_of(kinds: Optional[frozenset]) -> Optional[str]:
    """The namespace a value of these kinds always is (None: not always one, or two)."""
    if not kinds or not kinds <= NAMESPACES.keys():
        return None
    targets = {NAMESPACES[k] for k in kinds}
    return targets.pop() if len(targets) == 1 else None


# a class deriving from an MXNet initializer is one too (a custom Initializer, MX519): its
# instances are no torch init function
INITIALIZER = "mxnet.initializer."


def local_modules(analysis) -> set[str]:
    """The tree modules a file imports from (a `from pkg import name` may name a module)."""
    found = set()
    for scope in analysis.scopes.values():
        for target in scope.imports.values():
            if target.startswith(LOCAL):
                dotted = target[len(LOCAL):]
                found.add(dotted)
                found.add(dotted.rsplit(".", 1)[0])
    found.update(m[len(LOCAL):] for m in getattr(analysis, "dotted_imports", ()))  # `import pkg.mod`
    found.update(m[len(LOCAL):] for m in analysis.scopes[()].star_local)  # `from common import *`
    return found


def top_level_kinds(analysis) -> dict[str, frozenset]:
    """Kinds of the file's top-level classes and functions (those that are or give blocks)."""
    out = {}
    for key, scope in analysis.scopes.items():
        if len(key) == 1 and scope.node is not None:
            kinds = _scope_kinds(analysis, scope, frozenset())
            if kinds:
                out[key[0][0]] = kinds
    return out


def kinds_of(analysis, key: tuple, expr: ast.expr, seen: frozenset = frozenset()) -> Optional[frozenset]:
    """The canonical MXNet names of what may have made `expr` (a call, a name, `self.attr`, a
    conditional of those), a class or factory of the tree counting as the Gluon classes it is
    or returns; None when something else may have (or it cannot be told)."""
    memo = (key, id(expr))
    known = analysis._kinds.get(memo)
    if known is not None and known[0] is expr:
        return known[1]
    if memo in seen:
        return None
    seen = seen | {memo}
    result = _kinds(analysis, key, expr, seen)
    # the expression is kept with its answer: a rule's throw-away `ast` node (converter._shape)
    # freed after the call would otherwise leave its id to the next one, which got its answer
    analysis._kinds[memo] = (expr, result)
    return result


def _kinds(analysis, key, expr, seen) -> Optional[frozenset]:
    unpacked = getattr(expr, "unpacked_kinds", None)  # `a, F = f(x)`: xlate/convert/unpacking.py's Element
    if unpacked is not None:
        return unpacked(analysis, key, seen)
    if expr is NAMESPACE_BY_NAME:
        return frozenset(["mxnet.ndarray"])
    if isinstance(expr, ast.Constant) and expr.value is None:
        return frozenset()  # `x = None` before `x = nn.HybridSequential()`: None has no methods
    if isinstance(expr, ast.IfExp):
        a, b = kinds_of(analysis, key, expr.body, seen), kinds_of(analysis, key, expr.orelse, seen)
        return a | b if a is not None and b is not None else None
    if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.Or):  # `F or getF(x)`
        found = [kinds_of(analysis, key, v, seen) for v in expr.values]
        return frozenset().union(*found) if all(k is not None for k in found) else None
    if isinstance(expr, (ast.Name, ast.Attribute)) and (dotted := ast_dotted(expr)) is not None:
        resolved = analysis.resolve(key, dotted)
        if isinstance(resolved, str) and (resolved in NAMESPACES or resolved in PACKAGES):  # `mx.nd`, F, `gluonnlp`
            return frozenset([resolved])
    if isinstance(expr, ast.Call):
        func = expr.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            method = _method(analysis, key, func.attr)  # self._make_layer(...)
            return _scope_kinds(analysis, method, seen) if method is not None else None
        dotted = ast_dotted(func)
        if dotted is None:
            return None
        resolved = analysis.resolve(key, dotted)
        if resolved is AMBIGUOUS:
            return None
        if resolved is not None:
            if is_mxnet(resolved):
                return frozenset([resolved])
            return analysis.facts.get(resolved)
        local = _defined(analysis, key, dotted)  # a class or function of this file
        return _scope_kinds(analysis, local, seen) if local is not None else None
    values = _values(analysis, key, expr)
    if not values:
        return None
    out: set = set()
    for value_key, value in values:
        kinds = kinds_of(analysis, value_key, value, seen) if value is not None else None
        if kinds is None:
            return None
        out |= kinds
    return frozenset(out)


def _values(analysis, key, expr) -> list:
    """(scope key, assigned expression) for each binding of a name or `self.attr`; a
    function's parameter is bound to what its callers in this file pass it."""
    if isinstance(expr, ast.Name):
        scope = analysis.home(key, expr.id)
        if scope is None or expr.id not in scope.values:
            return []
        values = [(scope.key, v) for v in scope.values[expr.id]]
        if any(v is None for _, v in values) and _is_parameter(scope, expr.id):
            passed = _passed(analysis, scope, expr.id)
            if passed is not None:
                values = [(k, v) for k, v in values if v is not None] + passed
        return values
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        scope = analysis.scopes.get(key)
        while scope is not None and not scope.is_class:
            scope = scope.parent
        # each value as seen from the method that assigned it (`self.F = F or getF(x)` in __init__)
        where = analysis.attr_scopes
        if scope is None:
            return []
        scope = _assigning_class(analysis, scope, expr.attr)
        if expr.attr not in scope.attrs:  # `@property def F(self): return getF(self.mu)`: what it returns
            getter = _property(analysis, scope, expr.attr)
            if getter is not None and expr.attr == "F" and _abstract(getter.node):
                # a base class's `def F(self): raise NotImplementedError()` (gluonts' Distribution): the
                # subclasses give the namespace; by its name, as a parameter `F` (Note [F by its name])
                analysis.guessed_namespaces.add(getter.key)
                return [(getter.key, NAMESPACE_BY_NAME)]
            if expr.attr == "F" and analysis.uses_mxnet and _forwarded_namespace(analysis, scope, getter):
                # Note [F from elsewhere]
                analysis.guessed_namespaces.add(getter.key if getter is not None else key)
                return [(getter.key if getter is not None else key, NAMESPACE_BY_NAME)]
            return [(getter.key, r.value) for r in _returns(getter.node) if r.value is not None] if getter else []
        return [(where.get(id(v), scope.key), v) for v in scope.attrs.get(expr.attr, [])]
    return []


# what an abstract property `F` stands for: MXNet's namespace, taken by its name
NAMESPACE_BY_NAME = ast.Name(id="F", ctx=ast.Load())


# Note [F from elsewhere]
# gluonts' distributions read `F = self.F` where F comes from outside the file: a property of a base
# class imported from another module (`class InflatedBeta(MixtureDistribution)`), or a property that
# hands on another object's (`def F(self): return self.base_distribution.F`). Neither can be followed
# here. In a module that uses MXNet, `self.F` of such a class is taken as MXNet's namespace by its
# name, as a parameter `F` is (Note [F by its name]), and reported at the method (MX174, review):
# left alone, every `F.op` line of the method stayed MXNet with no report at its line.
def _forwarded_namespace(analysis, cls, getter) -> bool:
    """`self.F` is no attribute of the class: a base from another module may give it, or its
    property returns another object's `.F`."""
    if getter is not None:
        returns = [r.value for r in _returns(getter.node)]
        return bool(returns) and all(isinstance(v, ast.Attribute) and v.attr == "F" for v in returns)
    bases = [ast_dotted(b) for b in cls.node.bases] if isinstance(cls.node, ast.ClassDef) else []
    return any(b and _defined(analysis, cls.parent.key, b) is None and b != "object" for b in bases)


def _abstract(node) -> bool:
    """A function whose body (past its docstring) only raises."""
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return len(body) == 1 and isinstance(body[0], ast.Raise)


def _assigning_class(analysis, cls, attr: str):
    """The class whose methods assign `self.attr`: `cls` itself, else the nearest base class of this
    file that does (`self.F = getF(x)` in a base's __init__, `F = self.F` in the subclass's methods)."""
    seen, here = set(), cls
    while here is not None and id(here) not in seen:
        seen.add(id(here))
        if attr in here.attrs:
            return here
        bases = [ast_dotted(b) for b in here.node.bases] if isinstance(here.node, ast.ClassDef) else []
        local = [_defined(analysis, here.parent.key, b) for b in bases if b]
        here = next((s for s in local if s is not None and s.is_class), None)
    return cls


def _property(analysis, cls, name: str):
    """The scope of the property `name` of class scope `cls` (its own, else a base class's of this file)."""
    seen = set()
    while cls is not None and id(cls) not in seen:
        seen.add(id(cls))
        for child_key, child in analysis.scopes.items():
            if child.parent is cls and child_key[-1][0] == name and isinstance(child.node, ast.FunctionDef) \
                    and any(ast_dotted(d) == "property" for d in child.node.decorator_list):
                return child
        bases = [ast_dotted(b) for b in cls.node.bases] if isinstance(cls.node, ast.ClassDef) else []
        local = [_defined(analysis, cls.parent.key, b) for b in bases if b]
        cls = next((s for s in local if s is not None and s.is_class), None)
    return None


def _defined(analysis, key, name: str):
    """The scope of the class or function `name` defined in this file, seen from `key` (or at
    its top level through the module's own reference: `d2l.Module`, Note [module aliases])."""
    if "." in name:
        head, _, rest = name.partition(".")
        if "." in rest or not analysis._own_module(key, head):
            return None
        return _defined(analysis, (), rest)
    scope = analysis.scopes.get(key)
    while scope is not None:
        for child_key, child in analysis.scopes.items():
            if child.parent is scope and child_key[-1][0] == name and child.node is not None:
                return child
        scope = scope.parent
    return None


def _method(analysis, key, name: str):
    scope = analysis.scopes.get(key)
    while scope is not None and not scope.is_class:
        scope = scope.parent
    if scope is None:
        return None
    for child_key, child in analysis.scopes.items():
        if child.parent is scope and child_key[-1][0] == name and isinstance(child.node, ast.FunctionDef):
            return child
    return None


def _scope_kinds(analysis, scope, seen) -> Optional[frozenset]:
    """A class's Gluon kinds (from its bases), or what a function returns."""
    node = scope.node
    if isinstance(node, ast.ClassDef):
        kinds: set = set()
        parent = scope.parent.key
        for base in node.bases:
            dotted = ast_dotted(base)
            if dotted is None:
                continue
            resolved = analysis.resolve(parent, dotted)
            if resolved is AMBIGUOUS:
                continue
            if resolved is not None:
                if is_mxnet(resolved) and resolved.startswith(GLUON + (INITIALIZER,)):
                    kinds.add(resolved)
                kinds |= analysis.facts.get(resolved, frozenset())
            else:
                local = _defined(analysis, parent, dotted)
                if local is not None and (id(local), "class") not in seen:
                    kinds |= _scope_kinds(analysis, local, seen | {(id(local), "class")}) or frozenset()
        return frozenset(k for k in kinds if k.startswith(GLUON + (INITIALIZER,))) or None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        returns = [r.value for r in _returns(node) if r.value is not None]
        if not returns:
            return None
        out: set = set()
        for value in returns:
            kinds = kinds_of(analysis, scope.key, value, seen)
            if not kinds:
                return None
            out |= kinds
        return frozenset(out)
    return None


def _returns(node) -> list:
    """The return statements of a function, not of the functions and classes inside it."""
    found, todo = [], list(node.body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, ast.Return):
            found.append(stmt)
        elif not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(c for c in astwalk.children(stmt) if isinstance(c, ast.stmt) or isinstance(c, ast.excepthandler))
    return found


def ast_dotted(node) -> Optional[str]:
    """`a.b.c` for an `ast` Name/Attribute chain, None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def is_block(kinds: Optional[frozenset]) -> bool:
    return bool(kinds) and any(k.startswith(GLUON) for k in kinds)


def proven_containers(analysis, key: tuple) -> frozenset:
    """Receivers (dotted, as written) that scope `key` hands a Gluon block with `.add(...)`:
    only a Gluon container takes one, so every `.add` on them is the container's."""
    memo = ("containers", key)
    if memo in analysis._kinds:
        return analysis._kinds[memo]
    scope = analysis.scopes.get(key)
    body = scope.node.body if scope is not None and scope.node is not None else analysis.tree.body
    found = set()
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add":
            receiver = ast_dotted(node.func.value)
            if receiver and any(is_block(kinds_of(analysis, key, a)) for a in node.args
                                if not isinstance(a, ast.Starred)):
                found.add(receiver)
        todo.extend(astwalk.children(node))
    analysis._kinds[memo] = frozenset(found)
    return analysis._kinds[memo]


def kinds_of_class(analysis, scope) -> Optional[frozenset]:
    """The Gluon classes a class of this file derives from (through the tree's classes too)."""
    return _scope_kinds(analysis, scope, frozenset())


def _is_parameter(scope, name: str) -> bool:
    node = scope.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    return any(a.arg == name for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs)


def _passed(analysis, scope, name: str) -> Optional[list]:
    """(caller's scope key, argument) at every call of the function `scope` in this file that
    passes parameter `name`; None when a call passes it in a way that cannot be followed (or
    there is none)."""
    node = scope.node
    positional = [a.arg for a in node.args.posonlyargs + node.args.args]
    method = scope.parent is not None and scope.parent.is_class
    if method:
        positional = positional[1:]  # self
    calls = _calls(analysis).get((node.name, method))
    if not calls:
        return None
    found = []
    for key, call in calls:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        value = next((k.value for k in call.keywords if k.arg == name), None)
        if value is None and name in positional and positional.index(name) < len(call.args):
            value = call.args[positional.index(name)]
        if value is None:
            return None  # its default: whatever that is, it is not followed
        found.append((key, value))
    return found


def _calls(analysis) -> dict:
    """(function name, is a method call on self) -> [(scope key, call)] over the whole file."""
    memo = ("calls",)
    if memo in analysis._kinds:
        return analysis._kinds[memo]
    found: dict = {}

    def walk(node, key, counts):
        for child in astwalk.children(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                n = counts.get(child.name, 0)
                counts[child.name] = n + 1
                inner = key + ((child.name, n),)
                for part in child.decorator_list + getattr(child, "bases", []):
                    walk_expr(part, key)
                walk_body(child.body, inner)
            else:
                if isinstance(child, ast.Call):
                    record(child, key)
                walk(child, key, counts)

    def walk_body(body, key):
        counts: dict = {}
        for stmt in body:
            wrapper = ast.Module(body=[stmt], type_ignores=[])
            walk(wrapper, key, counts)

    def walk_expr(expr, key):
        for sub in astwalk.walk(expr):
            if isinstance(sub, ast.Call):
                record(sub, key)

    def record(call, key):
        func = call.func
        if isinstance(func, ast.Name):
            found.setdefault((func.id, False), []).append((key, call))
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            found.setdefault((func.attr, True), []).append((key, call))

    walk_body(analysis.tree.body, ())
    analysis._kinds[memo] = found
    return found


def may_be(analysis, key: tuple, expr: ast.expr, names: tuple) -> bool:
    """One of the bindings of `expr` (a name or `self.attr`) makes one of `names`, whatever the
    others make: `x = nn.HybridSequential()` in one branch and `x = other` in another."""
    return any(kinds_of(analysis, k, v) and kinds_of(analysis, k, v) & set(names)
               for k, v in _values(analysis, key, expr) if v is not None)
