"""nd.arange: float32 by default, and `repeat` repeats each element."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.table import convert_dtype


def transform(site: Site):
    if site.has("infer_range"):
        raise Manual("`infer_range=` has no PyTorch equivalent")
    if site.value("start") is None:
        raise Manual("arange without `start`: it fails in MXNet as written")
    args = [site.code(site.value("start"))]
    stop = site.value("stop")
    if stop is not None and site.literal("stop") is not None:
        args.append(site.code(stop))
    step = site.value("step")
    if step is not None:
        if len(args) == 1:
            raise Manual("`step=` without `stop=`: write the range out")
        args.append(site.code(step))
    dtype = convert_dtype(site, site.value("dtype")) if site.has("dtype") else site.emit("torch.float32")
    holes = {f"a{i}": a for i, a in enumerate(args)}
    template = "torch.arange(" + ", ".join("{a%d}" % i for i in range(len(args))) + ", dtype={dtype}"
    holes["dtype"] = dtype
    if site.has("ctx"):
        template += ", device={device}"
        holes["device"] = site.value("ctx")
    template += ")"
    repeat = site.literal("repeat", 1)
    if repeat is NOT_LITERAL or repeat != 1:
        template += ".repeat_interleave({repeat})"
        holes["repeat"] = site.value("repeat")
    return site.emit(template, **holes)
