"""`type(m)` where Gluon layer classes are values (MX158).

# Note [exact layer types]
Gluon code picks what to do with a layer by its exact class: a table keyed by classes
(`{nn.Conv2D: convert_conv, nn.Dense: convert_dense}.get(type(m))`), `type(m) in (nn.Dense,
nn.Conv2D)`, `type(m) == nn.Activation`. A Gluon layer class used as a value becomes its
Gluon-signature helper (`_mx_Conv2D`, Note [Gluon-signature modules]), but a layer xlate built from
literal arguments is the plain torch class (`nn.Conv2d(3, 4, 3)`), and `nn.Activation('relu')` is
`nn.ReLU()`: the lookup missed and the table's conversion was skipped, in silence. In a file that uses
a Gluon layer class as a value (not a call, not an isinstance test) every builtin `type(x)` becomes
`_mx_type(x)`, which gives, for an instance of a torch class some Gluon layer translates to, that
layer's helper class when the program holds it; any other value's own type. An exact type compared
in such a file (`type(m) == nn.Conv2D`) is then the helper too, on both sides."""
from __future__ import annotations

import ast
from typing import Optional

import libcst as cst

from xlate.convert.kinds import ast_dotted

CODE = "MX158"


def in_use(conv) -> bool:
    """Whether the file uses a Gluon layer class as a value and binds no `type` of its own (cached)."""
    found = getattr(conv.analysis, "_layer_class_values", None)
    if found is None:
        found = _scan(conv) if conv.rules.enabled(CODE) else False
        conv.analysis._layer_class_values = found
    return found


def _scan(conv) -> bool:
    tree = conv.analysis.tree
    called, tested = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == "type":
            return False
        if isinstance(node, ast.arg) and node.arg == "type" or isinstance(node, ast.alias) and \
                (node.asname or node.name) == "type" or isinstance(node, ast.Name) and node.id == "type" \
                and isinstance(node.ctx, ast.Store):
            return False
        if isinstance(node, ast.Call):
            called.add(id(node.func))
            if isinstance(node.func, ast.Name) and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2:
                second = node.args[1]
                tested.update(id(e) for e in ([second] + list(getattr(second, "elts", []))))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in called and id(node) not in tested \
                and isinstance(getattr(node, "ctx", None), ast.Load):
            dotted = ast_dotted(node)
            if dotted is not None and conv.analysis.resolve((), dotted) in conv.rules.classes:
                return True
    return False


def type_call(conv, original: cst.Call, updated: cst.Call) -> Optional[cst.BaseExpression]:
    """`type(x)` -> `_mx_type(x)` in such a file; None elsewhere (and for `type(name, bases, dict)`)."""
    if len(original.args) != 1 or original.args[0].keyword is not None or original.args[0].star or not in_use(conv):
        return None
    conv.use_helper("_mx_type")
    conv.report(original, CODE, "fixed", "`type(m)` -> `_mx_type(m)`: a layer xlate built as a torch class has the "
                "type of the Gluon-signature helper its Gluon class became here, as the file's class tests expect")
    return updated.with_changes(func=cst.Name("_mx_type"))
