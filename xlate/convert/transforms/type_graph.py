"""A class of the symbol graph (`sym.Symbol`, `SymbolBlock`) standing as a type (Note [type
positions] in xlate/convert/types.py): a tensor or a module in an annotation, and in a run-time
test where the same test names a class with the same translation (any array). A Symbol tested alone
is `_mx_Symbol`, which nothing is an instance of; a SymbolBlock tested alone is left and reported."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.types import STATIC


def transform(site: Site):
    conv = site.conv
    kind, siblings = conv.type_position(site.original)
    target = site.rule.target
    if kind != STATIC and not any(_target(conv, s) == target for s in siblings):
        if site.matched.rsplit(".", 1)[-1] == "Symbol":
            # no value of translated code is a Symbol: the test is False, its branch dead (the class
            # stays a class, so singledispatch and `except` take it)
            site.review("`Symbol` tested at run time -> `_mx_Symbol`, a class no value of translated code is an "
                        "instance of (it has no symbol graph): the test is False; delete its branch")
            return site.emit(site.helper("_mx_Symbol"))
        raise Manual(f"`{site.matched.rsplit('.', 1)[-1]}` tested at run time asks whether the value belongs to a "
                     f"symbol graph, which translated code has none of: decide what the test should do with tensors")
    return site.emit(target)


def _target(conv, node):
    resolved = conv.resolve_expr(node)
    found = conv.type_target(resolved, STATIC) if resolved else None
    return found[1] if found else None
