"""`autograd.backward(...)` / `autograd.grad(...)` -> `_mx_backward(...)` / `_mx_grad(...)`
with the call's own arguments (the helpers take MXNet's signatures); a backward that feeds
a trainer step gets `trainer.zero_grad()` before it, as `y.backward()` does (MX536)."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import grad_zeroing
from xlate.convert.transforms.autograd_backward import _WRITE

_HELPERS = {"backward": "_mx_backward", "grad": "_mx_grad"}


def transform(site: Site):
    name = site.matched.rsplit(".", 1)[-1]
    what = f"`autograd.{name}(...)` -> `{_HELPERS[name]}(...)`: MXNet's lists of heads, head gradients of ones"
    if name == "backward":
        trainer, _ = grad_zeroing.place(site)
        if trainer is not None:
            site.fixed(f"{what}, after `{trainer}.zero_grad()` ({_WRITE})")
        elif grad_zeroing.in_loop(site) or grad_zeroing.uses_trainer(site):
            site.review(f"{what}; no trainer step follows it in this function, so nothing zeroes the gradients: "
                        f"{_WRITE}. Zero them before this backward unless the code accumulates them on purpose")
    return site.node.with_changes(func=site.emit(_HELPERS[name]))
