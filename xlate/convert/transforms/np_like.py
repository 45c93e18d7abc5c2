"""mx.np.zeros_like/ones_like/empty_like/full_like -> torch's: the input's dtype unless told (N1.16)."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.table import convert_dtype
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op == "full_like":
        site.bind("a", "fill_value", "dtype", "order", "ctx", "out")
    else:
        site.bind("a", "dtype", "order", "ctx", "out")
    if site.has("out") and site.literal("out") is not None:
        raise Manual("`out=` is not translated")
    args = [(None, oa.required(site, "a"))]
    if op == "full_like":
        args.append((None, oa.required(site, "fill_value")))
    if site.has("dtype") and site.literal("dtype") is not None:
        args.append(("dtype", convert_dtype(site, site.value("dtype"))))
    if site.has("ctx") and site.literal("ctx") is not None:
        args.append(("device", site.value("ctx")))
    return oa.call(site, "torch." + op, args)
