"""npx.topk: as nd.topk (MX036's transform: indices as float32 by default, k=1, last axis), and
ret_typ='both' (a list [values, indices]) or 'mask' -> `_mx_npx_topk` (N7.14-N7.17)."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa, ordering


def transform(site: Site):
    if site.literal("ret_typ", "indices") in ("indices", "value"):
        return ordering.transform(site)
    return oa.run_time(site, "_mx_npx_topk")
