"""An MXNet function passed as a value (`func=nd.relu`, `ctx_fn=mx.gpu`), not called.

The rule for its calls translates a call with MXNet's own parameter names as arguments;
wrapped in a lambda with those parameters, that is the function. It is exact only where no
caller can pass anything the lambda does not take: a function of one parameter (or none), with
MXNet's default where it has one (`mx.gpu()` is device 0). A function of more parameters
(`nd.zeros(shape, ctx, dtype)`) is left and reported: which arguments its callers pass is not
known here.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

import libcst as cst

from xlate.convert import types
from xlate.convert.catalogue import Rule
from xlate.convert.rulectx import Manual, Site, Skip, bind

STATUS = {"safe": "fixed", "review": "review", "manual": "manual"}

_DEFAULTS = {"device_id": "0"}  # MXNet's default for a parameter a caller may leave out
# The numpy dialect's unary ufuncs (`exp = np.exp` in d2l's library): the one array is all a
# caller passes; one passing NumPy's `out=`/`where=` gets a TypeError from the lambda, never
# another value.
ONE_ARRAY = frozenset({"MX710"})


def _enclosed(node):
    """A lambda put where an operand stands gets parentheses: `lambda a, b: a ** b if c else g`
    reads as one lambda whose body is the whole conditional."""
    if isinstance(node, cst.Lambda) and not node.lpar:
        return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node


# Note [functions compared as values]
# xfer serialises the device function a repurposer keeps: `if context_function == mx.cpu: return 'cpu'`,
# and gives it back as `mx.cpu`. A function value translated as a lambda is a new function at each
# place, so every such comparison was False, and the lambda, put as an operand of `==`, did not even
# parse (`fn == lambda device_id=0: ...`). A lambda put anywhere is parenthesised as an operand, and
# the parentheses go where its parent cannot change how it binds. The device functions, which
# programs keep, compare and store, are run-time helpers with MXNet's signature (`_mx_cpu`, `_mx_gpu`,
# `as_value` of MX501/MX502): one function each, found again wherever the program compares it. Any
# other function value that is a lambda and is compared by `==`, `!=`, `is`, `is not`, `in` or
# `not in` is reviewed at its line. MX542 leaves a comparison with an MXNet name that is not called
# (a function, class or module, never an array).
_IDENTITY = (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot, cst.In, cst.NotIn)


class FunctionValues:
    """Mixed into the Converter (its `rewrite` applies a bound rule)."""

    # Note [a function value as an operand]: box-cox's `self._power = F.power if F == mx.nd else F.pow`
    # became `lambda base, exp: base ** exp if ... else lambda ...`, a lambda returning the conditional
    def leave_IfExp(self, original: cst.IfExp, updated: cst.IfExp):
        return updated.with_changes(test=_enclosed(updated.test), body=_enclosed(updated.body),
                                    orelse=_enclosed(updated.orelse))

    def leave_BooleanOperation(self, original, updated):
        updated = updated.with_changes(left=_enclosed(updated.left), right=_enclosed(updated.right))
        return types.merged_or(original, updated)  # Note [tests the translation made one]

    def function_value(self, original, updated, head: str, resolved: str, rule: Rule):
        """`func=nd.relu`: a function the catalogue converts calls of, passed as a value."""
        if self._suppressed(rule.code) or not self.rules.enabled(rule.code):
            return self._apply(Site(self, rule, original, updated, matched=resolved), head=head)
        new, message = translate(self, rule, original, updated, resolved, self.rewrite)
        if new is None:
            self.survivors[head] += 1
            self.report(original, rule.code, "manual", message)
            self.mark_left(updated, len(self.found) - 1, array=False, head=head)
            return updated
        self.report(original, rule.code, STATUS[rule.applicability], message)
        if isinstance(new, cst.Lambda) and not new.lpar:
            # Note [functions compared as values]: parenthesised as an operand (`fn == (lambda ...)`); where
            # the parent cannot change how it binds (an argument, a right-hand side), `_unwrap` drops them
            new = new.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            self.loose[id(new)] = new
            self.value_lambdas[id(new)] = (new, rule.code)
        return new

    def compared_lambdas(self, original: cst.Comparison, updated: cst.Comparison) -> None:
        """Note [functions compared as values]: a function value made a lambda, compared by `==`, `is`
        or `in`, is never another value's: review."""
        table = self.value_lambdas
        if not table:
            return
        sides = [updated.left] + [c.comparator for c in updated.comparisons]
        if not any(isinstance(c.operator, _IDENTITY) for c in updated.comparisons):
            return
        for side in sides:
            entry = table.get(id(side))
            if entry is not None and entry[0] is side:
                self.report(original, entry[1], "review",
                            "an MXNet function compared as a value: its translation here is a new lambda, so the "
                            "comparison is False (`!=`, `not in`: True) wherever MXNet compared the function with "
                            "itself; compare something the program keeps instead (a name, a flag)")
                return


def translate(conv, rule: Rule, original: cst.CSTNode, updated: cst.BaseExpression, resolved: str,
              apply: Callable[[Site], cst.BaseExpression]) -> tuple[Optional[cst.BaseExpression], str]:
    """(the function's translation, a message), or (None, why not)."""
    short = resolved.rsplit(".", 1)[-1]
    params = [p for p in rule.signature if not p.startswith("*")]
    if short in rule.as_value:
        return _with_signature(conv, rule, original, updated, resolved, apply)
    if rule.code in ONE_ARRAY and short not in ("round", "around"):
        params = ["x"]
    elif rule.signature == ("...",) or len(params) != len(rule.signature) or len(params) > 1:
        spelled = conv.code_for(original)
        return None, (f"`{spelled}` is passed as a value, not called: its calls convert ({rule.code}), but which "
                      f"arguments its callers pass is not known here; wrap it in a lambda that takes those "
                      f"(`lambda {params[0] if params else 'x'}: {spelled}({params[0] if params else 'x'})`) "
                      f"and convert again")
    call = cst.Call(func=updated, args=[cst.Arg(cst.Name(p)) for p in params])
    site = Site(conv, rule, original, call, matched=resolved, receiver_kind="nd")
    try:
        site.args, site.varargs = bind(rule, call)
        new = apply(site)
    except (Manual, Skip) as why:
        return None, f"`{short}` is passed as a value, not called, and cannot be translated as one: {why}"
    function = _bare(new, params, conv.code_for)
    if function is None:
        args = ", ".join(f"{p}={_DEFAULTS[p]}" if p in _DEFAULTS else p for p in params)
        function = cst.Lambda(params=cst.parse_expression(f"lambda {args}: 0").params, body=new)
    return function, f"`{short}` passed as a value -> `{conv.code_for(function)}`"


# Note [functions as values]
# d2l's library binds MXNet functions of several parameters to its own names (`zeros = np.zeros`,
# `matmul = np.dot`, `normal = np.random.normal`) and its notebooks call them as `d2l.zeros((2, 3))`
# from other modules, with any of the function's arguments. Where the catalogue gives the
# function's parameters as a value (`as_value`: MXNet's names, order and defaults), the value is
# a lambda with those parameters over the rule's translation of a call that passes each one by
# name: every call of the lambda is a call of the MXNet function with the same bound arguments,
# defaults included. The rule sees names, never literals, so its translation is the one for
# values known only at run time (`dtype=_mx_dtype(dtype)`). Where a default itself decides the
# result (arange's `stop=None`), `as_value` names a run-time helper with MXNet's signature
# instead. A parameter the translation cannot take (`out=`) is left out of the list: a caller
# passing it gets a TypeError from the lambda, never another value. A translation that is a call
# of an `_mx_` helper with the parameters in order is the helper itself (helpers take MXNet's
# signature); a torch function stays behind the lambda, whose keywords are MXNet's.
def _with_signature(conv, rule: Rule, original, updated, resolved: str, apply) -> tuple[Optional[cst.BaseExpression], str]:
    short, spec = resolved.rsplit(".", 1)[-1], rule.as_value[resolved.rsplit(".", 1)[-1]]
    if spec.startswith("_mx_"):  # a run-time helper with MXNet's signature is the function
        function = Site(conv, rule, original, updated, matched=resolved).emit(spec)
        return function, f"`{short}` passed as a value -> `{spec}`, with MXNet's parameters"
    params = cst.parse_expression(f"lambda {spec}: 0").params
    args = [cst.Arg(cst.Name(p.name.value)) for p in params.params]
    if isinstance(params.star_arg, cst.Param):
        args.append(cst.Arg(cst.Name(params.star_arg.name.value), star="*"))
    args += [cst.Arg(cst.Name(p.name.value), keyword=cst.Name(p.name.value)) for p in params.kwonly_params]
    site = Site(conv, rule, original, cst.Call(func=updated, args=args), matched=resolved, receiver_kind="nd")
    try:
        site.args, site.varargs = bind(rule, site.node)
        new = apply(site)
    except (Manual, Skip) as why:
        return None, f"`{short}` is passed as a value, not called, and cannot be translated as one: {why}"
    positional = [p.name.value for p in params.params]
    bare = _bare(new, positional, conv.code_for) if not args[len(positional):] else None
    if bare is not None and conv.code_for(bare).startswith("_mx_"):
        function = bare
    else:
        function = cst.Lambda(params=params, body=new)
    return function, f"`{short}` passed as a value -> `{conv.code_for(function)}`, with MXNet's parameters"


def _bare(new: cst.BaseExpression, params: list[str], code_for) -> Optional[cst.BaseExpression]:
    """`torch.relu` for `torch.relu(data)`: the translation is the call of a function on the
    parameters, in order, with nothing else."""
    if not isinstance(new, cst.Call) or len(new.args) != len(params) or any(p in _DEFAULTS for p in params):
        return None
    for arg, p in zip(new.args, params):
        if arg.keyword is not None or arg.star or not isinstance(arg.value, cst.Name) or arg.value.value != p:
            return None
    if any(re.search(rf"\b{p}\b", code_for(new.func)) for p in params):  # `data.flatten` is no function
        return None
    return new.func
