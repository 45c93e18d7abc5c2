"""Values made by MXNet's symbol and Module API, and what a program does with them (Note [symbol and
Module values]). Read off names.Analysis's kinds (kinds.py); the converter asks at each method call."""
from __future__ import annotations

import ast
import re
from typing import Optional

import libcst as cst

from xlate.convert import kinds as _kinds

LEFT_VALUE = "MX921"

# Note [symbol and Module values]
# The symbol/Module API has no translation: `mx.sym.var`, `mx.sym.Convolution(...)` and
# `mx.mod.Module(sym, ...)` are reported where they are called (MX900, MX616). What the program
# then does with the values they make was not: `mod.bind(...)`, `mod.fit(...)`, `mod.forward(batch)`,
# `mod.get_outputs()`, `sym.list_arguments()`. Those lines came out unreported, and the ones whose
# method shares a name with an NDArray's were "translated" as arrays: `modD.backward()` became
# `_mx_array_backward(modD)`, silently wrong. Where every binding of the receiver is made by the
# symbol/Module API (in this file, or by a function of the tree that returns it, alone or at a
# place of a returned tuple: `modD, modG = modules.get_cgan_mods()`, Note [namespace in a returned
# tuple] in unpacking.py), the method call is left as it is and reported at its line (MX921).
# A symbol call that a rule translates (`mx.sym.zeros` in an RNN's begin_state) makes no such value.
PREFIXES = ("mxnet.symbol.", "mxnet.sym.", "mxnet.module.", "mxnet.mod.", "mxnet.model.", "mxnet.executor.")
_WHAT = {"mxnet.symbol.": "Symbol", "mxnet.sym.": "Symbol", "mxnet.module.": "Module", "mxnet.mod.": "Module",
         "mxnet.model.": "model", "mxnet.executor.": "Executor"}


def is_legacy(kinds) -> bool:
    """Every kind is made by the symbol/Module API (the package pass's test: no rules there)."""
    return bool(kinds) and all(k.startswith(PREFIXES) for k in kinds)


def _left_kind(conv, kinds) -> Optional[str]:
    """The kind to name, when every kind is a symbol/Module API value no rule translates."""
    if not is_legacy(kinds):
        return None
    for kind in sorted(kinds):
        rule = conv.rules.calls.get(kind)
        if rule is not None and rule.applicability != "manual" and conv.rules.enabled(rule.code):
            return None
    return sorted(kinds)[0]


def left_method(conv, original: cst.Call, updated: cst.Call) -> Optional[cst.Call]:
    """`mod.fit(...)` on a symbol/Module API value: left and reported (None: not such a value)."""
    receiver = original.func.value
    if not isinstance(receiver, (cst.Name, cst.Attribute)) or not conv.rules.enabled(LEFT_VALUE):
        return None
    return _left(conv, original, updated, receiver, f"`.{original.func.attr.value}(...)` on `{conv.code_for(receiver)}`")


def left_attribute(conv, original: cst.Attribute, updated: cst.Attribute) -> Optional[cst.Attribute]:
    """`mod._exec_group`, `mod.data_shapes` read off a name bound to a symbol/Module API value: left and
    reported (None: not such a name)."""
    receiver = original.value
    if not isinstance(receiver, cst.Name) or receiver.value not in names_of(conv.analysis) \
            or not conv.rules.enabled(LEFT_VALUE):
        return None
    return _left(conv, original, updated, receiver, f"`.{original.attr.value}` of `{receiver.value}`")


def _left(conv, original, updated, receiver, what_is_used: str):
    """Report the use on a symbol/Module API value and leave it (None: the receiver is no such value)."""
    kind = _left_kind(conv, conv.kinds_of(receiver))
    if kind is None:
        return None
    what = next(w for p, w in _WHAT.items() if kind.startswith(p))
    conv.report(original, LEFT_VALUE, "manual",
                f"{what_is_used}, an MXNet {what} (made by `{kind}`): the symbol/Module API has no translation; "
                "port the network to an nn.Module and this step to a torch loop")
    conv.mark_left(updated, len(conv.found) - 1, array=False, head=None)
    return updated


def names_of(analysis, source: Optional[str] = None) -> set:
    """The names bound to symbol/Module API values in any scope of the file (computed once; `source`, the
    file's text, makes the first test cheaper)."""
    found = getattr(analysis, "_mx_legacy_names", None)
    if found is None:
        found = set()
        if analysis.mx_imports and _may_use(analysis, source):
            for scope in analysis.scopes.values():
                found |= bound_names(analysis, scope)
        analysis._mx_legacy_names = found
    return found


# the attributes through which code reaches the symbol/Module API (`mx.sym.var`, `mx.mod.Module`, `mxnet.model`)
_HEADS = frozenset({"sym", "symbol", "mod", "module", "model", "executor"})


_HEAD_WORDS = re.compile(r"\.\s*(?:" + "|".join(sorted(_HEADS)) + r")\s*\.")  # `mx.sym.var`, `mxnet.model.x`


def _may_use(analysis, source: Optional[str]) -> bool:
    """A cheap test before following every name: the file names the API, imports from it, or calls a
    function of the tree that returns its values."""
    if any(is_legacy(v) for v in analysis.facts.values() if isinstance(v, frozenset)):
        return True
    if any(t.startswith(PREFIXES) or t + "." in PREFIXES for scope in analysis.scopes.values()
           for t in scope.imports.values() if isinstance(t, str)):  # `from mxnet import sym`, `from mxnet.module import Module`
        return True
    if source is not None:
        return _HEAD_WORDS.search(source) is not None
    return any(isinstance(n, ast.Attribute) and n.attr in _HEADS for n in ast.walk(analysis.tree))


def bound_names(analysis, scope) -> set:
    """The names of `scope` bound to symbol/Module API values (hot words for cold.py: a statement
    that only calls `gen.get_outputs()` must be walked)."""
    found = set()
    for name, values in scope.values.items():
        if _made(values) and is_legacy(_kinds.kinds_of(analysis, scope.key, ast.Name(id=name, ctx=ast.Load()))):
            found.add(name)
    if scope.is_class:  # `self._curr_module = Module(...)`: its attribute's name (the word makes a statement hot)
        for attr, values in scope.attrs.items():
            self_attr = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=attr, ctx=ast.Load())
            if _made(values) and is_legacy(_kinds.kinds_of(analysis, scope.key, self_attr)):
                found.add(attr)
    return found


def _made(values) -> bool:
    """Some binding is made by an expression that may be a call (not a constant or another name), or is a
    parameter (None: what the file's callers pass it)."""
    return any(v is None or not isinstance(v, (ast.Constant, ast.Name, ast.Attribute)) for v in values)
