"""autograd.is_training() in a Gluon block's forward -> `self.training` (the model follows
MXNet's flag: Note [MXNet's mode] in xlate/runtime/autograd.py); elsewhere, and inside a
`with autograd.train_mode():`-style block, `_mx_is_training()`, MXNet's flag itself."""
import ast
from typing import Iterator, Optional

from xlate.convert import astwalk
from xlate.convert.rulectx import Manual, Site

_FORWARDS = ("forward", "hybrid_forward")


def transform(site: Site):
    if site.args or site.varargs:
        raise Manual("is_training() takes no arguments")
    flag = training_flag(site)
    if flag == "_mx_is_training()":
        site.fixed("`autograd.is_training()` -> `_mx_is_training()`: MXNet's global training flag at run time")
    return site.emit(flag)


def training_flag(site: Site) -> str:
    """`self.training` (with the forward's own name for self) inside a Gluon block's forward,
    outside any autograd block of its own; `_mx_is_training()` elsewhere (the helper is pasted or
    imported: the BatchNorm and Dropout operators write the flag into their own code)."""
    flag = _flag(site)
    if flag == "_mx_is_training()":
        site.helper("_mx_is_training")
    return flag


def _flag(site: Site) -> str:
    from xlate.convert.transforms import train_models

    if any(train_models.autograd_call(site, w) for w in site.conv.with_stack):
        return "_mx_is_training()"  # `with autograd.train_mode():` inside a forward sets the flag there
    key = site.conv.scopes[-1]
    if key and key[-1][0] in _FORWARDS and site.conv.analysis.gluon_class(key) is not None:
        fn = _function(site.conv.analysis.tree, key)
        params = (fn.args.posonlyargs + fn.args.args) if fn is not None else []
        if params:
            return params[0].arg + ".training"
    return "_mx_is_training()"


def _function(tree: ast.Module, key: tuple) -> Optional[ast.AST]:
    """The def/class a scope key names (Note [name resolution]: names with occurrence counts)."""
    node: ast.AST = tree
    for name, n in key:
        found = [d for d in _defs(node) if d.name == name]
        if n >= len(found):
            return None
        node = found[n]
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _defs(node: ast.AST) -> Iterator[ast.AST]:
    """Defs and classes directly in this scope (inside if/for/with/try too), in source order."""
    for child in astwalk.children(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield child
        elif isinstance(child, (ast.stmt, ast.excepthandler)) or type(child).__name__ == "match_case":
            yield from _defs(child)
