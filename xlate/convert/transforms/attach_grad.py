"""`x.attach_grad(grad_req)` -> `_mx_attach_grad(x[, grad_req])`: MXNet allocates a zero gradient
at once (`x.grad` before any backward is zeros; torch's is None until a backward reaches x)."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    if site.has("stype") and site.literal("stype") not in (None, "default"):
        raise Manual("attach_grad(stype=...): sparse gradients have no torch counterpart here; attach a dense one")
    x = site.value("data")
    if site.literal("grad_req", "write") == "write":
        return site.emit("_mx_attach_grad({x})", x=x)
    call = site.emit("_mx_attach_grad({x})", x=x)
    first = call.args[0].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return call.with_changes(args=[first, site.args["grad_req"].with_changes(comma=cst.MaybeSentinel.DEFAULT)])
