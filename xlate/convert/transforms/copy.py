"""x.copy() -> x.clone(); x.copyto(ctx) -> x.to(ctx, copy=True); x.copyto(y) -> y.copy_(x)."""
from xlate.convert.rulectx import Manual, Site, unknown_receiver

_DEVICES = ("mxnet.context.cpu", "mxnet.context.gpu", "mxnet.context.Context")


def transform(site: Site):
    if site.receiver_kind is None:
        raise Manual(unknown_receiver(site))
    if site.matched == ".copy":
        return site.emit("{x}.clone()", x=site.value("data"))
    other = site.value("other")
    original = site.original.args[0].value if site.original.args else None
    if original is not None and isinstance(original, __import__("libcst").Call):
        if site.conv.resolve_expr(original.func) in _DEVICES:
            return site.emit("{x}.to({d}, copy=True)", x=site.value("data"), d=other)
    if original is not None and site.conv.classify(original) == "nd":
        return site.emit("{y}.copy_({x})", x=site.value("data"), y=other)
    raise Manual("copyto target is neither a context nor a known array: use `.to(device)` or `y.copy_(x)`")
