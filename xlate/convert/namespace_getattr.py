"""`getattr(F, name)`: an operator of MXNet's namespace looked up by name (Note [operators by name]).

Note [operators by name]
A block that takes its activation as a string calls it through the namespace: `getattr(F,
self._act)(x)`, `getattr(mx.nd, 'relu')`. F is no namespace once converted (MX113 passes `None`),
so the lookup raised AttributeError on `None`, and the line was reported as fixed. A literal name
is the operator itself, passed as a value: its calls' rule gives the function (`torch.tanh`;
func_values.py). A name known only at run time is looked up in a table of the operators this
file names in its string literals (`act='tanh'` as a default, `'sigmoid'` in a call), each
translated as a value the same way; `_mx_operator` picks the one named, and raises naming any
other. MXNet has no other source for those names than strings, and the ones a configuration in
another file holds fail loudly at the lookup, never in silence.
"""
from __future__ import annotations

import ast
from typing import Optional

import libcst as cst

from xlate.convert.func_values import STATUS, translate

NAMESPACES = ("mxnet.ndarray", "mxnet.symbol")
CODE = "MX113"


def namespace_of(conv, call: cst.Call) -> Optional[str]:
    """MXNet's namespace `getattr(<it>, name[, default])` reads from, where this is that call."""
    if not (isinstance(call.func, cst.Name) and call.func.value == "getattr" and len(call.args) in (2, 3)) \
            or any(a.keyword is not None or a.star for a in call.args) \
            or conv.analysis.lookup(conv.scopes[-1], "getattr") is not None:
        return None
    resolved = conv.resolve_expr(call.args[0].value)
    return resolved if resolved in NAMESPACES else None


def rewrite(conv, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
    name = original.args[1].value
    literal = _string(name)
    if literal is not None:
        function, message = translated(conv, original, literal)
        if function is None:
            conv.report(original, CODE, "manual", f"`getattr(..., '{literal}')`: {message}")
            return updated.with_changes(args=[updated.args[0].with_changes(value=cst.Name(_helper(conv, "_mx_F"))),
                                              *updated.args[1:]])
        conv.report(original, CODE, "fixed", f"MXNet's operator looked up by name: {message}")
        return function
    table = operator_table(conv, original)
    helper = _helper(conv, "_mx_operator")
    known = ", ".join(conv.code_for(e.key) for e in table.elements) or "none"
    conv.report(original, CODE, "review",
                f"MXNet's operator looked up by a name known at run time -> `{helper}(name, {{...}})`: the operators "
                f"this file names in its strings ({known}), translated as values; any other name raises, naming itself")
    args = [cst.Arg(updated.args[1].value), cst.Arg(table)]
    return cst.Call(cst.Name(helper), args=[a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                                            for a in args[:-1]] + args[-1:])


def operator_table(conv, original: cst.CSTNode) -> cst.Dict:
    """{name: the operator as a value} for the operators the file names in its string literals."""
    table = []
    for candidate in _named_in_strings(conv.analysis.tree):
        function, _ = translated(conv, original, candidate)
        if function is not None:
            table.append(cst.DictElement(cst.SimpleString(repr(candidate)), function))
    return cst.Dict(table)


def _helper(conv, name: str) -> str:
    conv.use_helper(name)
    return name


def translated(conv, original: cst.CSTNode, name: str):
    """(MXNet's operator `name` as a function, a message), or (None, why not); the symbol namespace's
    operators are the ndarray namespace's."""
    resolved = f"mxnet.ndarray.{name}"
    rule = conv.rules.calls.get(resolved)
    if rule is None or not conv.rules.enabled(rule.code):
        return None, "no rule translates this operator"
    value = cst.Attribute(cst.Name("F"), cst.Name(name))
    function, message = translate(conv, rule, original, value, resolved, conv.rewrite)
    if function is not None and STATUS[rule.applicability] == "manual":
        return None, message
    return function, message


def _string(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) and value.isidentifier() else None
    return None


def _named_in_strings(tree: ast.Module) -> list[str]:
    """The identifiers the module's string literals hold, each once, in sorted order."""
    return sorted({n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and n.value.isidentifier() and not n.value.startswith("_")})
