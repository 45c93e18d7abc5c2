"""mx.np.eye(N, M=None, k=0) / identity(n): float32 (N1.15); a diagonal offset -> `_mx_eye`."""
from xlate.convert.rulectx import Site
from xlate.convert.table import convert_dtype
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op == "identity":
        site.bind("n", "dtype", "ctx")
        n = oa.required(site, "n")
    else:
        site.bind("N", "M", "k", "dtype", "ctx")
        n = oa.required(site, "N")
    extra = [("dtype", convert_dtype(site, site.value("dtype")))] if site.has("dtype") \
        and site.literal("dtype") is not None else []
    if site.has("ctx") and site.literal("ctx") is not None:
        extra.append(("device", site.value("ctx")))
    m = site.literal("M")
    if site.literal("k", 0) == 0 and (m is None or isinstance(m, int)):
        return oa.call(site, "torch.eye", [(None, n)] + ([(None, site.value("M"))] if m else []) + extra)
    m_arg = [("M", site.value("M"))] if m is not None else []
    return oa.call(site, "_mx_eye", [(None, n)] + m_arg + oa.passed(site, "k") + extra)
