"""Gluon Block methods torch's nn.Module lacks (`summary`, `infer_shape`, `optimize_for`) ->
`_mx_<method>(net, ...)`, which does it for a torch module and calls the value's own method
otherwise (a receiver xlate cannot type is decided at run time); `register_op_hook` and
`infer_type` are left
with what to do. Left unmatched, each stayed as written with no report at its line and failed
on the torch module (`'Generator' object has no attribute 'summary'`)."""
from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms import param_evidence

HELPERS = {".summary": "_mx_summary", ".infer_shape": "_mx_infer_shape", ".optimize_for": "_mx_optimize_for"}


def transform(site: Site):
    original = param_evidence.receiver(site)
    kind = param_evidence.block_kind(site, original) if original is not None else "unknown"
    if kind == "no":
        raise Skip()  # `self.summary(...)` in a class of this file that is no Gluon block
    if site.matched == ".infer_type":
        raise Manual("`infer_type` sets parameter dtypes from MXNet's symbol graph; cast the module where the "
                     "inputs' dtype changes (`net.to(torch.float64)`)")
    if site.matched == ".register_op_hook":
        raise Manual("`register_op_hook` calls back on every operator of the hybridized graph; torch has no such "
                     "graph: register a forward hook on the modules whose outputs you read "
                     "(`module.register_forward_hook(fn)`), or `torch.utils.hooks` on tensors")
    if site.matched == ".summary":
        site.review("`net.summary(x)` -> `_mx_summary(net, x)`: Gluon's table, with torch's class names "
                    "(`Linear-1` for `Dense-1`)")
    return site.method_helper(site.helper(HELPERS[site.matched]))
