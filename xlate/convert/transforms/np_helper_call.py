"""Operators of the dialect whose translation is their helper with MXNet's own signature
(np.random.multinomial, npx.smooth_l1): the required arguments positionally, the others by
keyword."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    required = ("n", "pvals") if site.matched.endswith("multinomial") else ("data",)
    return oa.run_time(site, site.rule.runtime_for(site.matched), arrays=required)
