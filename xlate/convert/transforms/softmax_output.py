"""`nd.SoftmaxOutput(...)` -> `_mx_softmax_output(...)`, unless its function stops a gradient.

Note [loss layers behind BlockGrad]
MXNet's SoftmaxOutput ignores the head gradient: its backward writes the cross-entropy gradient
whenever the backward pass reaches its node, even with zeros, as it does through a BlockGrad
(sockeye's cross-entropy: `F.log(F.pick(F.BlockGrad(softmax_out), labels))` is the value, the
layer's own backward the gradient). torch's `.detach()` cuts the graph: a backward from such a
value never reaches the helper, and the logits would get no gradient at all. A function that
also stops a gradient (BlockGrad, stop_gradient, detach) is therefore left for a human, who
computes the loss with log_softmax instead; elsewhere the helper is exact.
"""
import libcst as cst

from xlate.convert.rulectx import Manual, Site

_STOPS = ("BlockGrad", "stop_gradient", "detach")


class _Stops(cst.CSTVisitor):
    def __init__(self):
        super().__init__()
        self.found = False

    def visit_Call(self, node):
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
        self.found = self.found or name in _STOPS


def transform(site: Site):
    fn = next((d for d in reversed(site.conv.defs) if isinstance(d, cst.FunctionDef)), None)
    if fn is not None:
        stops = _Stops()
        fn.visit(stops)
        if stops.found:
            raise Manual("SoftmaxOutput's backward runs in MXNet even behind the BlockGrad of its function "
                         "(Note [loss layers behind BlockGrad]); torch's detach cuts it, so the logits would get "
                         "no gradient: compute the loss with torch.log_softmax and the label instead")
    return site.verbatim()
