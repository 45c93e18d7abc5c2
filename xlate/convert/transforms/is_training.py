"""autograd.is_training() in a Gluon block's forward -> `self.training`; inside a `with
autograd.record()/train_mode()/predict_mode()/pause():` block, the flag that block sets."""
import ast
from typing import Iterator, Optional

from xlate.convert import astwalk
from xlate.convert.rulectx import Manual, Site

_FORWARDS = ("forward", "hybrid_forward")


GLOBAL_FLAG = ("outside a Gluon block's forward, MXNet's training flag is global (set by "
               "autograd.record(train_mode=...)/train_mode()): pass the mode in by hand, "
               "e.g. from the module's `self.training`")


def transform(site: Site):
    if site.args or site.varargs:
        raise Manual("is_training() takes no arguments")
    return site.emit(training_flag(site))


def training_flag(site: Site) -> str:
    """`self.training` (with the forward's own name for self) inside a Gluon block's forward,
    where it is MXNet's autograd.is_training(); Manual elsewhere."""
    from xlate.convert.transforms import train_models

    if any(train_models.autograd_call(site, w) for w in site.conv.with_stack):
        return _lexical(site)  # `with autograd.train_mode():` inside a forward sets the flag there
    key = site.conv.scopes[-1]
    me = None
    if key and key[-1][0] in _FORWARDS and site.conv.analysis.gluon_class(key) is not None:
        fn = _function(site.conv.analysis.tree, key)
        params = (fn.args.posonlyargs + fn.args.args) if fn is not None else []
        me = params[0].arg if params else None
    if me is None:
        return _lexical(site)
    return me + ".training"


def _lexical(site: Site) -> str:
    """Inside a `with autograd.record():` (or pause / train_mode / predict_mode) block the
    flag is known: the literal."""
    from xlate.convert.transforms import train_models

    if not any(train_models.autograd_call(site, w) for w in site.conv.with_stack):
        raise Manual(GLOBAL_FLAG)
    training = train_models.state(site, site.conv.with_stack)[1]
    if not isinstance(training, bool):
        return f"bool({training})"
    site.fixed(f"`autograd.is_training()` inside this autograd block -> `{training}`")
    return str(training)


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
