"""mx.np.linspace(start, stop, num=50, endpoint=True) -> torch.linspace, float32 (N1.13, N1.14)."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.table import convert_dtype
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    if site.literal("retstep", False) is not False:
        raise Manual("`retstep=True` returns (samples, step): compute the step by hand")
    if site.literal("axis", 0) != 0:
        raise Manual("`axis=` with array start/stop is not translated")
    args = [(None, oa.required(site, "start")), (None, oa.required(site, "stop")),
            (None, site.value("num") if site.has("num") else "50")]
    endpoint = site.literal("endpoint", True)
    if endpoint is NOT_LITERAL:
        raise Manual("`endpoint=` is not a literal: it decides the step")
    if site.has("dtype") and site.literal("dtype") is not None:
        args.append(("dtype", convert_dtype(site, site.value("dtype"))))
    if site.has("ctx") and site.literal("ctx") is not None:
        args.append(("device", site.value("ctx")))
    if endpoint:
        return oa.call(site, "torch.linspace", args)
    args[2] = (None, site.emit("{n} + 1", n=args[2][1]))
    return site.emit("{call}[:-1]", call=oa.call(site, "torch.linspace", args))
