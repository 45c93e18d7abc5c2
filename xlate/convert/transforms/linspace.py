"""nd.linspace(start, stop, num, endpoint) -> torch.linspace (float32 unless told); endpoint=False
is num + 1 points with the last dropped (the same step, (stop - start) / num)."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.table import convert_dtype
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    args = [(None, oa.required(site, name)) for name in ("start", "stop", "num")]
    endpoint = site.literal("endpoint", True)
    if endpoint is NOT_LITERAL:
        raise Manual("`endpoint=` is not a literal: it decides the step")
    if site.has("dtype"):
        args.append(("dtype", convert_dtype(site, site.value("dtype"))))
    args += oa.passed(site, ("ctx", "device"))
    if endpoint:
        return oa.call(site, "torch.linspace", args)
    args[2] = (None, site.emit("{n} + 1", n=args[2][1]))
    return site.emit("{call}[:-1]", call=oa.call(site, "torch.linspace", args))
