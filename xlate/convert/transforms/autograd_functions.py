"""`autograd.backward(...)` / `autograd.grad(...)` -> `_mx_backward(...)` / `_mx_grad(...)`
with the call's own arguments (the helpers take MXNet's signatures)."""
from xlate.convert.rulectx import Site

_HELPERS = {"backward": "_mx_backward", "grad": "_mx_grad"}


def transform(site: Site):
    name = site.matched.rsplit(".", 1)[-1]
    return site.node.with_changes(func=site.emit(_HELPERS[name]))
