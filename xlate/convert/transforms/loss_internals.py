"""`gluon.loss._apply_weighting(F, loss, weight, sample_weight)` -> `_mx_apply_weighting(loss,
weight, sample_weight)`; `gluon.loss._reshape_like(F, x, y)` -> `x.reshape(y.shape)`."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    name = site.matched.rsplit(".", 1)[-1]
    if site.varargs or any(a.keyword is not None and a.keyword.value not in ("F", "x", "y", "z")
                           for a in site.node.args):
        raise Manual(f"{name}() with keyword arguments: write the weighting by hand")
    if name == "_reshape_like":
        if site.value("y") is None or site.value("z") is not None:
            raise Manual("_reshape_like takes (F, x, y)")
        return site.emit("{x}.reshape({y}.shape)", x=site.value("x"), y=site.value("y"))
    args = [site.args[k] for k in ("x", "y", "z") if k in site.args]
    if not args:
        raise Manual("_apply_weighting takes (F, loss, weight, sample_weight)")
    call = site.emit("_mx_apply_weighting()")
    args = [a.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT,
                           comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for a in args]
    args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return call.with_changes(args=args)
