"""`p.grad_req = 'null' | 'write'` -> `p.requires_grad = False | True`; reading `p.grad_req`."""
import ast
from typing import Optional

import libcst as cst

from xlate.convert.rulectx import Manual, Site

_REQ = {"null": "False", "write": "True"}


def transform(site: Site):
    param = site.value("target")
    if site.rule.kind == "reference":
        return site.emit("'write' if {p}.requires_grad else 'null'", p=param)
    req = site.literal("value")
    if req == "add":
        raise Manual("grad_req='add' accumulates gradients across backward passes: in PyTorch every gradient "
                     "accumulates until zeroed, so keep `requires_grad = True` and drop the `zero_grad()` "
                     "calls for these parameters in the training loop")
    if req not in _REQ:
        raise Manual("a grad_req that is not a literal: write `p.requires_grad = (req != 'null')` if it is "
                     "never 'add'")
    return cst.Assign(targets=[cst.AssignTarget(site.emit("{p}.requires_grad", p=param))],
                      value=cst.Name(_REQ[req]))


def fold(updated: cst.Comparison) -> Optional[cst.BaseExpression]:
    """`p.grad_req == 'null'`, read as `('write' if p.requires_grad else 'null') == 'null'`, is
    `not p.requires_grad` (`== 'write'` / `!= 'null'`: `p.requires_grad`); None for any other
    comparison. The read gives only these two strings, so the fold is exact."""
    if len(updated.comparisons) != 1 or not isinstance(updated.comparisons[0].operator, (cst.Equal, cst.NotEqual)):
        return None
    target = updated.comparisons[0]
    for read, literal in ((updated.left, target.comparator), (target.comparator, updated.left)):
        flag, value = _read(read), _string(literal)
        if flag is not None and value in _REQ:
            trainable = (value == "write") == isinstance(target.operator, cst.Equal)
            folded = flag.with_changes(lpar=[], rpar=[])
            if not trainable:
                folded = cst.UnaryOperation(operator=cst.Not(), expression=folded)
            return folded.with_changes(lpar=updated.lpar, rpar=updated.rpar)
    return None


def _read(node: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """`p.requires_grad` of the read this rule writes, `'write' if p.requires_grad else 'null'`."""
    if isinstance(node, cst.IfExp) and _string(node.body) == "write" and _string(node.orelse) == "null" \
            and isinstance(node.test, cst.Attribute) and node.test.attr.value == "requires_grad":
        return node.test
    return None


def _string(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.SimpleString):
        value = ast.literal_eval(node.value)
        return value if isinstance(value, str) else None
    return None
