"""MXNet-only methods on a value xlate cannot type (Note [untyped receivers]).

Note [untyped receivers]
`x.asnumpy()`, `x.asscalar()`, `x.as_in_context(ctx)`, `x.expand_dims(axis, inplace=True)` on a
function's parameter or a value from another module: NumPy arrays have none of these methods, but
a Python object may (a user's class with its own `as_in_context`, a record with `.asnumpy()`), and
a static rewrite to torch's spelling (`x.to(ctx)`, `x.item()`) would break it in silence. A rule
that names an `untyped` helper sends such a call to it with the receiver first and the call's own
arguments, in MXNet's signature: a tensor (an MXNet array, converted) gets MXNet's meaning, any
other value its own method. Proven MXNet arrays keep the static rewrite; proven torch values and
a class's own members are left alone before this is reached. A chain that reduces a comparison
(`(pred == label).mean().asscalar()`) keeps the static rewrite: only an MXNet array's comparison
gives something with these methods, and torch's boolean one must be made float there (MX540).
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from xlate.convert.rulectx import Manual, Site, bind
from xlate.convert.transforms.compare_dtype import in_chain

_SPACE = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def dispatch(conv, site: Site) -> Optional[cst.BaseExpression]:
    """`helper(x, <args>)` for `x.method(<args>)`; None where the ordinary path decides (the rule
    is off here, or MXNet code left inside the call must be reported with it)."""
    rule = site.rule
    if conv._suppressed(rule.code) or not conv.rules.enabled(rule.code) or not isinstance(site.node, cst.Call):
        return None
    if conv.left_inside(site) is not None or conv.left_name_inside(site) is not None:
        return None
    if in_chain(site, site.receiver) is not site.receiver:
        return None
    if rule.unknown == "leave" and not _mxnet_keywords(rule, site.node):
        return None  # `s.split(",")`: other types share the method; only MXNet's keywords prove it is MXNet's
    if not any(a.star for a in site.node.args):  # forwarded `*args` bind at run time, in the helper
        try:
            bind(rule, site.node, site.receiver)
        except Manual:
            return None  # arguments MXNet's method does not take (torch's `x.flatten(1)`): not MXNet's call
    method = site.matched.rsplit(".", 1)[-1]
    helper = rule.untyped.replace("{name}", method)  # one helper per method name the rule matches
    call = site.emit(f"{helper}({{x}})", x=site.receiver)
    args = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in site.node.args]
    if args:
        call = call.with_changes(args=[call.args[0].with_changes(comma=_SPACE), *args])
    what = conv.module.code_for_node(site.receiver).strip()
    conv.report(site.original, rule.code, "fixed",
                f"`{what[:40]}.{method}({'...' if args else ''})` on a value xlate could not type -> `{helper}(...)`, decided at run "
                f"time: a tensor (an MXNet array, converted) as MXNet's `{method}`, any other value its own")
    return call


def _mxnet_keywords(rule, call: cst.Call) -> bool:
    """A method other types share (`x.split`, the rule says `unknown = "leave"`) called with a keyword
    of MXNet's signature that theirs lack (gluonts' `x.split(axis=1, num_outputs=n, squeeze_axis=True)`:
    str.split takes sep/maxsplit, torch's split_size/dim, NumPy arrays have none)."""
    own = set(rule.signature[1:]) - {"axis", "dim", "sep", "maxsplit"}
    return any(a.keyword is not None and a.keyword.value in own for a in call.args)
