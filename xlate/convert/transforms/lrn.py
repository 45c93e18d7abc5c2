"""nd.LRN(x, alpha, beta, knorm, nsize) -> F.local_response_norm with MXNet's knorm=2 written out."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    x, nsize = oa.required(site, "data"), oa.required(site, "nsize")
    n = site.literal("nsize")
    if isinstance(n, int) and n % 2 == 1:  # an odd window is torch's window
        args = [(None, x), (None, nsize), *oa.passed(site, "alpha", "beta"),
                ("k", site.value("knorm") if site.has("knorm") else "2.0")]
        return oa.call(site, "F.local_response_norm", args)
    return oa.call(site, "_mx_lrn", [(None, x), ("nsize", nsize), *oa.passed(site, "alpha", "beta", "knorm")])
