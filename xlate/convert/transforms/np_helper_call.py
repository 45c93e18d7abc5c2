"""Operators of the dialect whose translation is their helper with MXNet's own signature
(np.random.multinomial, npx.smooth_l1, np.genfromtxt): the required arguments positionally,
the others by keyword."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    required = {"multinomial": ("n", "pvals"), "genfromtxt": ("fname",)}.get(site.matched.rsplit(".", 1)[1], ("data",))
    return oa.run_time(site, site.rule.runtime_for(site.matched), arrays=required)
