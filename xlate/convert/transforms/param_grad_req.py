"""`p.grad_req = 'null' | 'write'` -> `p.requires_grad = False | True` ('add', or a value known
at run time: `_mx_set_param_attr`); reading `p.grad_req`."""
import ast
from typing import Optional

import libcst as cst

from xlate.convert.rulectx import Site

_REQ = {"null": "False", "write": "True"}


def transform(site: Site):
    param = site.value("target")
    if site.rule.kind == "reference":
        return site.emit("'write' if {p}.requires_grad else 'null'", p=param)
    req = site.literal("value")
    if req not in _REQ or _accumulates(site.conv.analysis):
        # 'add', or a value known at run time: the helper marks the tensor, and the Trainer's
        # zeroing before backward (MX536) skips it, so its gradient accumulates as in MXNet
        site.fixed("`p.grad_req = v` -> `_mx_set_param_attr(p, \"grad_req\", v)`: 'add' accumulates across "
                   "backward passes (the inserted `trainer.zero_grad()` leaves it), 'null' freezes, 'write' trains")
        call = site.emit(site.helper("_mx_set_param_attr") + '({p}, "grad_req", {v})', p=param, v=site.value("value"))
        return cst.Expr(call)
    return cst.Assign(targets=[cst.AssignTarget(site.emit("{p}.requires_grad", p=param))],
                      value=cst.Name(_REQ[req]))


def _accumulates(analysis) -> bool:
    """Whether the file may set some grad_req to 'add' (a literal 'add', or a value known at run
    time, assigned, passed as `grad_req=` or to `setattr`): then a later `'write'` or `'null'` must
    clear that mark too, so every grad_req assignment of the file goes to the helper."""
    found = getattr(analysis, "_grad_req_add", None)
    if found is None:
        found = False
        for node in ast.walk(analysis.tree):
            value = None
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "grad_req"
                                                    for t in node.targets):
                value = node.value
            elif isinstance(node, ast.keyword) and node.arg == "grad_req":
                value = node.value
            elif isinstance(node, ast.Call) and len(node.args) == 2 and isinstance(node.args[0], ast.Constant) \
                    and node.args[0].value == "grad_req":
                value = node.args[1]
            if value is not None and not (isinstance(value, ast.Constant) and value.value in _REQ):
                found = True
                break
        analysis._grad_req_add = found
    return found


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
