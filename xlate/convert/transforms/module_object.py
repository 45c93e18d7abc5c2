"""An MXNet module used as an object of names (`model_store._model_sha1.update(...)`,
`model_store.get_model_file(name)`) -> a helper object with the module's names.

Note [module objects]
Some MXNet modules are tables and functions of pure Python that packages use through the module
itself: they add entries at import, call its functions, or hand the module on. A rule with this
transform matches the module's name; `member` rewrites the module's part of any longer chain
(`<module>.attr.method(...)`), so each member needs no rule of its own and the members keep their
MXNet names on the helper object. The chain's tail is left as written: a member the helper lacks
raises AttributeError naming it where it runs."""
from __future__ import annotations

import libcst as cst

from xlate.convert.rulectx import Site


def transform(site: Site):
    return site.emit(site.rule.runtime_for(site.matched))


def member(conv, rules, original, updated, resolved: str):
    """The chain with its module part replaced by the rule's helper object, or None (no such rule,
    or the chain is not plain attributes down to the module)."""
    parts = resolved.split(".")
    for i in range(len(parts) - 1, 1, -1):
        rule = rules.classes.get(".".join(parts[:i]))
        if rule is None or rule.transform != "module_object" or not rules.enabled(rule.code):
            continue
        node = updated.func if isinstance(updated, cst.Call) else updated
        site = Site(conv, rule, original, updated, matched=".".join(parts[:i]))
        replaced = _replace(node, len(parts) - i, lambda: transform(site))
        if replaced is None:
            return None
        conv.report(original, rule.code, "fixed", f"`{resolved}` -> a member of `{rule.runtime_for(site.matched)}`, "
                                                  f"MXNet's module as a helper object (Note [module objects])")
        return updated.with_changes(func=replaced) if isinstance(updated, cst.Call) else replaced
    return None


def _replace(node, depth: int, make):
    if depth == 0:
        return make()
    if not isinstance(node, cst.Attribute):
        return None
    inner = _replace(node.value, depth - 1, make)
    return None if inner is None else node.with_changes(value=inner)
