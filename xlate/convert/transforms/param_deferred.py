"""A deferred Gluon parameter given its shape in the forward (Note [deferred parameters] in
xlate/runtime/init.py): `param.shape = (T,)` -> `_mx_set_shape(param, (T,))`;
`param._finish_deferred_init()` -> `_mx_finish_deferred_init(param)`."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms import param_evidence


def transform(site: Site):
    if site.rule.kind == "assign":
        target = site.original.targets[0].target.value  # `X` of `X.shape = ...`
        if not param_evidence.is_param(target, param_evidence.facts(site.conv)):
            raise Skip()  # numpy's `a.shape = (2, 3)` reshapes in place
        site.fixed("`param.shape = ...` -> `_mx_set_shape(param, ...)`: materialised and initialised now")
        return cst.Expr(site.emit("_mx_set_shape({p}, {shape})", p=site.value("target"), shape=site.value("value")))
    # `_finish_deferred_init` is Gluon's alone: whatever the receiver, it is a Gluon parameter
    return site.emit("_mx_finish_deferred_init({p})", p=site.receiver)
