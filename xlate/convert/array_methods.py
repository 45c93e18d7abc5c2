"""A method called on a value proven an MXNet NDArray that no method rule matches.

Note [array methods without a method rule]
The catalogue matches array methods by name (`.reshape`, `.tile`), and a method it does not
list used to stay as written: on a converted value, a torch tensor, it then either failed
(`x.cbrt()`, `x.softmin()`, BMXNet's `x.det_sign()`: torch has no such method), or, worse,
ran with another meaning, silently: `x.sort(axis=0)` returns torch's (values, indices) pair,
`x.clip(a_min=0, a_max=1)` and `x.flip(axis=1)` take other keywords. On a receiver proven an
NDArray, every method now ends in one of four places:
- NDArray's fluent methods are `op.name(self, *args, **kwargs)` in MXNet's source (read by
  xlate.check.api_inventory), and three more (`squeeze`, `diag`, `split_v2`) take the operator's
  arguments after the array: the call goes to the operator's rule with the receiver as its
  data, as `x.sum(axis=1)` and `nd.sum(x, axis=1)` already did;
- a method torch's tensor has with MXNet's meaning, called without arguments (`x.exp()`,
  `x.sign()`; compared with MXNet in the rule-case table), stays;
- a method MXNet 1.9.1's NDArray does not have is MX917 (Note [MXNet's own names]);
- any other is MX900 at its line.
A receiver xlate cannot type may be a NumPy array, a torch tensor or a string: it is left, unless
the method is one that no NumPy array, torch tensor or builtin value has (`x.cbrt()`,
`x.split_v2(...)`, `x.depth_to_space(2)`: MXNET_ONLY) and the module defines no function of that
name, so that only an MXNet array can take the call, which then goes where an NDArray's goes; or
the call passes a keyword that only MXNet's method of that name takes (`x.flip(axis=0)`: torch's
flip takes `dims`, NumPy arrays have no flip method; `swapaxes(dim1=, dim2=)`, `sort(is_ascend=)`,
`clip(a_min=, a_max=)`); then `_mx_fluent_method` decides at run time: a tensor as MXNet's method,
any other value its own (Note [untyped receivers]). gluonts and gluon-nlp's scripts call these on
function parameters, where torch raised a TypeError no report foretold.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from xlate.convert import mx_api, names
from xlate.convert.rulectx import Site

# methods that are no fluent method in MXNet's source but take the operator's arguments after the array
OPERATOR_METHODS = {"squeeze": "squeeze", "diag": "diag", "split_v2": "split_v2"}
# torch.Tensor's method of the same name computes what MXNet's does, for a call without arguments
SAME_WITHOUT_ARGUMENTS = frozenset(
    "abs arccos arccosh arcsin arcsinh arctan arctanh ceil cos cosh exp expm1 fix floor log log10 log1p log2 "
    "reciprocal relu rsqrt sigmoid sign sin sinh sqrt square tan tanh trunc".split())
_NO_RULE, _NOT_IN_MXNET = "MX900", "MX917"


# NDArray's fluent methods that neither NumPy's ndarray nor torch's Tensor nor a list, tuple, dict, set or str has
# (measured on MXNet 1.9.1, NumPy 1.23, torch 2.13; tests/test_names.py checks it); those with method rules of their
# own (`pick`, `slice_axis`, ...) are reported there
MXNET_ONLY = frozenset("argmax_channel cbrt degrees depth_to_space nanprod radians rcbrt rint softmin space_to_depth "
                       "split_v2 size_array slice_assign slice_assign_scalar".split())


# keywords no other type's method of that name takes (NumPy's, torch's, a string's): they show an MXNet array
MXNET_KEYWORDS = {"flip": {"axis"}, "swapaxes": {"dim1", "dim2"}, "sort": {"is_ascend"}, "argsort": {"is_ascend"},
                  "clip": {"a_min", "a_max"}}


def _untyped(conv, original: cst.Call, updated: cst.Call) -> Optional[cst.BaseExpression]:
    """`x.flip(axis=0)` on a value xlate cannot type, with MXNet's own keywords: `_mx_fluent_method`
    decides at run time (Note [untyped receivers] in untyped.py)."""
    method = names.ident(original.func.attr.value)
    keywords = {a.keyword.value for a in original.args if a.keyword is not None}
    if not keywords & MXNET_KEYWORDS.get(method, set()) or any(a.star for a in original.args):
        return None
    rule = conv.rules.calls.get(f"mxnet.ndarray.{mx_api.fluent_op(method) or method}")
    if rule is None or conv._suppressed(rule.code) or not conv.rules.enabled(rule.code):
        return None
    site = Site(conv, rule, original, updated)
    call = site.emit(f'_mx_fluent_method({{x}}, "{method}")', x=updated.func.value)
    space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    args = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in updated.args]
    call = call.with_changes(args=[call.args[0], call.args[1].with_changes(comma=space), *args])
    conv.report(original, rule.code, "fixed", f"`.{method}(...)` with MXNet's keywords on a value xlate could not "
                f"type -> `_mx_fluent_method(x, \"{method}\", ...)`, decided at run time: a tensor (an MXNet array, "
                f"converted) as MXNet's `{method}`, any other value its own")
    return call


def _assumed_array(conv, receiver) -> bool:
    """A name only ever bound as an input of a block's forward: taken for an array by that place
    alone (sockeye's `restrict_lexicon`, a lexicon object handed to a Block's forward)."""
    if not isinstance(receiver, cst.Name):
        return False
    scope = conv.analysis.home(conv.scopes[-1], receiver.value)
    values = scope.values.get(receiver.value) if scope is not None else None
    return bool(values) and all(v is names.ARRAY_ARGUMENT for v in values)


def leave_method(conv, original: cst.Call, updated: cst.Call) -> Optional[cst.BaseExpression]:
    """The translation of `x.method(...)` with no method rule, on an NDArray `x`; None: not such a call."""
    func = original.func
    if not isinstance(func, cst.Attribute):
        return None
    kind = conv.classify(func.value)
    method = names.ident(func.attr.value)
    if kind is None and method in MXNET_ONLY and not _defined(conv, method):
        kind = "nd"  # nothing but an MXNet array takes the call
    elif kind is None:
        return _untyped(conv, original, updated)
    if kind != "nd":
        return None
    if method.startswith("_"):
        return None
    op = mx_api.fluent_op(method) or OPERATOR_METHODS.get(method)
    rule = conv.rules.calls.get(f"mxnet.ndarray.{op}") if op else None
    if method in SAME_WITHOUT_ARGUMENTS and not original.args:
        return None
    if rule is not None and (rule.signature == ("...",) or conv.classify(func.value) is None):
        # its transform reads the call's own arguments; or an untyped receiver of an MXNet-only method: the
        # operator's call with the receiver as its data
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if updated.args else cst.MaybeSentinel.DEFAULT
        call = updated.with_changes(args=[cst.Arg(updated.func.value, comma=comma), *updated.args])
        return conv._bound(Site(conv, rule, original, call, matched=f"mxnet.ndarray.{op}", receiver_kind="nd"))
    if rule is not None:
        site = Site(conv, rule, original, updated, matched=f"mxnet.ndarray.{op}", receiver=updated.func.value)
        return conv._bound(site, receiver_node=func.value)
    code = _NOT_IN_MXNET if not mx_api.array_method(method) else _NO_RULE
    if conv._suppressed(code):
        return None
    if code == _NOT_IN_MXNET and _assumed_array(conv, func.value):
        # on a block's input only taken for an array: said, but nothing downstream is held back as MXNet's
        conv.report(original, code, "review", f"`.{method}(...)` on `{func.value.value}`, an input of a block's "
                    f"forward: if it is an NDArray, {mx_api.not_in_mxnet(f'NDArray.{method}')}; any other object "
                    "keeps its own method")
        return updated
    message = (mx_api.not_in_mxnet(f"NDArray.{method}") if code == _NOT_IN_MXNET else
               f"`NDArray.{method}` has no rule yet, and torch's tensor has no method of that name and meaning: "
               "translate it by hand")
    conv.report(original, code, "manual", message)
    conv.mark_left(updated, len(conv.found) - 1, array=True, head=None)
    return updated


def _defined(conv, method: str) -> bool:
    """The module defines a function or method named `method` (a class of its own may take the call)."""
    defined = conv.defined_functions
    if defined is None:
        import ast
        defined = conv.defined_functions = frozenset(
            n.name for n in ast.walk(conv.analysis.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return method in defined
