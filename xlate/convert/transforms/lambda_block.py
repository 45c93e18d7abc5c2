"""`nn.Lambda(fn)` / `nn.HybridLambda(fn)` -> `_mx_Lambda(fn)` (torch has no Lambda module)."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site

# elementwise operators Gluon accepts by name
_BY_NAME = {"relu": "torch.relu", "sigmoid": "torch.sigmoid", "tanh": "torch.tanh", "exp": "torch.exp",
            "log": "torch.log", "abs": "torch.abs", "sqrt": "torch.sqrt", "square": "torch.square",
            "negative": "torch.neg", "softsign": "torch.nn.functional.softsign", "erf": "torch.erf"}


def transform(site: Site):
    fn = site.value("function")
    hybrid = site.matched.endswith("HybridLambda")
    name = site.literal("function")
    if isinstance(name, str):
        if name not in _BY_NAME:
            raise Manual(f"operator name {name!r}: pass the PyTorch function to `_mx_Lambda` by hand")
        return site.emit("_mx_Lambda({fn})", fn=_BY_NAME[name])
    if hybrid:
        raise Manual("a HybridLambda function takes `F` first: rewrite it as a function of the inputs only "
                     "(F's operators as torch calls) and wrap it in `_mx_Lambda`")
    if isinstance(fn, cst.Lambda) or site.literal("function") is not None:
        return site.emit("_mx_Lambda({fn})", fn=fn)
    raise Manual("no function given")
