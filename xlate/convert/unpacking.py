"""MXNet's namespace returned among other values and unpacked by the caller (Note [namespace in
a returned tuple]): the kinds of one place of the tuples a function returns. Read off
names.Analysis (passed in, never imported)."""
from __future__ import annotations

import ast
from typing import Optional

from xlate.convert import kinds, legacy_values
from xlate.convert.context import AMBIGUOUS, LOCAL

# Note [namespace in a returned tuple]
# MXNet's own rnn_cell.py takes its namespace from a helper that returns it among other values,
# `inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)`, where the
# helper binds `F = symbol` or `F = ndarray` and ends `return inputs, axis, F, batch_size`. A name
# bound by unpacking a call is bound to an Element (the call and its place): its kinds are those
# of that place of every tuple the called function returns (a function of the file, a method on
# self, or, one hop across modules, the fact `@pkg.mod.f#[2]` its own module gives). A return
# that is no tuple of that length, or a call left to follow, makes it unknown: the name stays a
# plain value. Where some return has the namespace at that place (and another something else),
# the caller's `F.op` calls are reported where they are left, in the file and across modules.
class Element(ast.expr):
    """Place `index` of the `count` values unpacked from `call` (`a, F, b = f(x)`)."""
    _fields = ()  # its call is walked where it stands; this marker adds nothing to walk

    def __init__(self, call: ast.Call, index: int, count: int):
        super().__init__()
        self.call, self.index, self.count = call, index, count

    def unpacked_kinds(self, analysis, key, seen) -> Optional[frozenset]:
        """What kinds.kinds_of answers for it (kinds.py asks this method: it imports nothing of here)."""
        return element_kinds(analysis, key, self, seen)


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
ELEMENT_FACT = "#[{}]"  # `@pkg.mod.f#[2]`: the kinds of place 2 of the tuples f returns
RETURNS_NAMESPACE = "#[]"  # `@pkg.mod.f#[]`: some place of what f returns may be MXNet's namespace


def element_kinds(analysis, key, expr: "Element", seen) -> Optional[frozenset]:
    dotted = kinds.ast_dotted(expr.call.func)
    resolved = analysis.resolve(key, dotted) if dotted is not None else None
    if isinstance(resolved, str) and legacy_values.is_legacy({resolved}):
        # `sym, args, aux = mx.model.load_checkpoint(...)`: the symbol API's values (Note [symbol and Module values])
        return frozenset({resolved})
    target = _unpacked_from(analysis, key, expr)
    if isinstance(target, str):  # a function of another module: what its module says
        return analysis.facts.get(target + ELEMENT_FACT.format(expr.index))
    return returned_place(analysis, target, expr.index, expr.count, seen) if target is not None else None


def _unpacked_from(analysis, key, expr: "Element"):
    """The scope of the function of this file an Element's call calls, the fact key of one of
    another module of the tree, or None."""
    func = expr.call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        return kinds._method(analysis, key, func.attr)
    dotted = kinds.ast_dotted(func)
    if dotted is None:
        return None
    resolved = analysis.resolve(key, dotted)
    if resolved is AMBIGUOUS or (resolved is not None and not resolved.startswith(LOCAL)):
        return None
    return resolved if resolved is not None else kinds._defined(analysis, key, dotted)


def _places(value, index: int, count: int) -> list:
    """What place `index` of a returned `count`-tuple may be: the element of a tuple, of either
    branch of a conditional, the place of a call's tuple (an Element); None where it cannot be told."""
    if isinstance(value, ast.Tuple) and len(value.elts) == count and not any(isinstance(e, ast.Starred)
                                                                              for e in value.elts):
        return [value.elts[index]]
    if isinstance(value, ast.IfExp):
        return _places(value.body, index, count) + _places(value.orelse, index, count)
    if isinstance(value, ast.Call):  # `return _format(x)`: that function's place
        return [Element(value, index, count)]
    return [None]


def _lengths(value, analysis=None, key=(), seen=frozenset()) -> list:
    """The lengths of the tuples a returned value may be (of either branch of a conditional; with
    `analysis`, of what a function of this file returns: `return get_lenet5_modules()`)."""
    if isinstance(value, ast.Tuple):
        return [len(value.elts)]
    if isinstance(value, ast.IfExp):
        return _lengths(value.body, analysis, key, seen) + _lengths(value.orelse, analysis, key, seen)
    if isinstance(value, ast.Call) and analysis is not None and (dotted := kinds.ast_dotted(value.func)) is not None \
            and analysis.resolve(key, dotted) is None:
        called = kinds._defined(analysis, key, dotted)
        if called is not None and isinstance(called.node, _DEFS) and id(called.node) not in seen:
            return [n for r in kinds._returns(called.node)
                    for n in _lengths(r.value, analysis, called.key, seen | {id(called.node)})]
    return []


def returned_place(analysis, scope, index: int, count: int, seen=frozenset()) -> Optional[frozenset]:
    """The kinds of place `index` of the `count`-tuples function `scope` returns; None where some
    return is no such tuple or its place cannot be told."""
    node = scope.node
    if not isinstance(node, _DEFS) or ("place", id(node), index) in seen:
        return None
    seen = seen | {("place", id(node), index)}
    places = [p for r in kinds._returns(node) for p in _places(r.value, index, count)]
    if not places:
        return None
    out: set = set()
    for place in places:
        found = kinds.kinds_of(analysis, scope.key, place, seen) if place is not None else None
        if not found:
            return None
        out |= found
    return frozenset(out)


def may_return_namespace(analysis, key, expr: "Element") -> bool:
    """Some return of the function an Element unpacks has MXNet's namespace at its place (where
    others may have something else: its `F.op` calls are reported, not translated)."""
    target = _unpacked_from(analysis, key, expr)
    if isinstance(target, str):  # another module's function: its fact says the namespace among others
        return bool((analysis.facts.get(target + ELEMENT_FACT.format(expr.index)) or frozenset())
                    & kinds.NAMESPACES.keys())
    return target is not None and _may_place(analysis, target, expr.index, expr.count)


def _may_place(analysis, scope, index: int, count: int) -> bool:
    if not isinstance(scope.node, _DEFS):
        return False
    places = [p for r in kinds._returns(scope.node) for p in _places(r.value, index, count)]
    return any(p is not None and (kinds.kinds_of(analysis, scope.key, p) or frozenset()) & kinds.NAMESPACES.keys()
               for p in places)


OTHER = "<something else>"  # beside the namespace in a fact: the place may hold either


def namespace_places(analysis) -> dict:
    """Facts for the package pass: `f#[i]` -> the namespace, for each place of the tuples a
    top-level function returns that is always MXNet's namespace (with OTHER beside it where it
    may be the namespace or something else)."""
    found: dict = {}
    for key, scope in analysis.scopes.items():
        if len(key) == 1 and isinstance(scope.node, _DEFS):
            places = _places_of(analysis, scope)
            found.update(places)
            if any(v & kinds.NAMESPACES.keys() for v in places.values()):
                # a module calling it is MXNet code, whatever else it imports
                found[key[0][0] + RETURNS_NAMESPACE] = frozenset({"mxnet.ndarray"})
    return found


def _places_of(analysis, scope) -> dict:
    counts = {n for r in kinds._returns(scope.node) for n in _lengths(r.value, analysis, scope.key)}
    if len(counts) != 1:
        return {}
    count = counts.pop()
    found = {}
    for i in range(count):
        place = returned_place(analysis, scope, i, count)
        if kinds.namespace_of(place):
            found[scope.key[0][0] + ELEMENT_FACT.format(i)] = place
        elif legacy_values.is_legacy(place):  # `modD, modG = get_mods()`: Note [symbol and Module values]
            found[scope.key[0][0] + ELEMENT_FACT.format(i)] = place
        elif _may_place(analysis, scope, i, count):  # callers report their `F.op` lines
            found[scope.key[0][0] + ELEMENT_FACT.format(i)] = frozenset({"mxnet.ndarray", OTHER})
    return found
