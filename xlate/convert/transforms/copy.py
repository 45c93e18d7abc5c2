"""x.copy() -> x.clone(); x.copyto(ctx) -> x.to(ctx, copy=True); x.copyto(y) -> y.copy_(x); where
the receiver or the target is of a kind xlate cannot tell, `_mx_copyto` decides at run time."""
from xlate.convert.rulectx import Site, Skip

_DEVICES = ("mxnet.context.cpu", "mxnet.context.gpu", "mxnet.context.Context")


def transform(site: Site):
    if site.receiver_kind is None and site.matched == ".copy":
        raise Skip()  # dicts, lists and NumPy arrays have copy() too
    if site.receiver_kind is None:  # copyto is MXNet's alone, but the value may not be converted code's
        return _at_run_time(site, "`x.copyto(...)` on a value xlate could not type")
    if site.matched == ".copy":
        return site.emit("{x}.clone()", x=site.value("data"))
    other = site.value("other")
    original = site.original.args[0].value if site.original.args else None
    if original is not None and isinstance(original, __import__("libcst").Call):
        if site.conv.resolve_expr(original.func) in _DEVICES:
            return site.emit("{x}.to({d}, copy=True)", x=site.value("data"), d=other)
    if original is not None and site.conv.classify(original) in ("nd", "mxnp"):
        return site.emit("{y}.copy_({x})", x=site.value("data"), y=other)
    return _at_run_time(site, "`x.copyto(target)` with a target xlate could not tell a context from an array")


def _at_run_time(site: Site, what: str):
    site.fixed(f"{what} -> `_mx_copyto(x, target)`, decided at run time: into an array, to a device (a new "
               "array), or the value's own copyto")
    return site.emit("_mx_copyto({x}, {y})", x=site.value("data"), y=site.value("other"))
