"""nd.eye(N, M=0, k=0) -> torch.eye(N, M); a diagonal offset k goes through `_mx_eye`."""
from xlate.convert.rulectx import Site
from xlate.convert.table import convert_dtype
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    n = oa.required(site, "N")
    extra = [("dtype", convert_dtype(site, site.value("dtype")))] if site.has("dtype") else []
    extra += oa.passed(site, ("ctx", "device"))
    m = site.literal("M", 0)
    if site.literal("k", 0) == 0 and isinstance(m, int):  # M=0 means square in MXNet
        return oa.call(site, "torch.eye", [(None, n)] + ([(None, site.value("M"))] if m else []) + extra)
    return oa.call(site, "_mx_eye", [(None, n)] + oa.passed(site, "M", "k") + extra)
