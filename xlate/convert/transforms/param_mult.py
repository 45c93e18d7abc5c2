"""`p.lr_mult = x` / `p.wd_mult = x` on a Gluon parameter -> `p._mx_lr_mult = x` / `p._mx_wd_mult = x`,
the per-parameter multipliers `_mx_Trainer` reads."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import param_evidence


def transform(site: Site):
    param = site.value("target")
    original = site.original.targets[0].target.value  # the parameter, as written
    if not param_evidence.is_param(original, param_evidence.facts(site.conv)):
        raise Manual(f"`{site.matched[1:]}` of a value xlate cannot tell is a Gluon parameter: if it is, set "
                     f"`p._mx_{site.matched[1:]}` for `_mx_Trainer` (or give it an optimizer parameter group)")
    site.fixed(f"`p{site.matched} = x` -> `p._mx_{site.matched[1:]} = x`, which `_mx_Trainer`'s optimizer reads as "
               "Gluon's reads the Parameter's (a torch.optim optimizer would ignore it)")
    # built by hand: an `_mx_` name in a template is taken for a helper
    target = cst.Attribute(value=param, attr=cst.Name(f"_mx_{site.matched[1:]}"))
    return cst.Assign(targets=[cst.AssignTarget(target)], value=site.value("value"))
