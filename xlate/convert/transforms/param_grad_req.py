"""`p.grad_req = 'null' | 'write'` -> `p.requires_grad = False | True`; reading `p.grad_req`."""
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
