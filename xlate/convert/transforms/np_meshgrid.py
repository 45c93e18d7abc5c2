"""mx.np.meshgrid(*xi, indexing='xy') -> torch.meshgrid(*xi, indexing='xy'): NumPy's default is
Cartesian ('xy'), torch's plain call is matrix ('ij') and warns; the indexing is always written."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    if site.literal("sparse", False) is not False:
        raise Manual("`sparse=True` gives broadcastable 1-sized axes: reshape the inputs by hand")
    indexing = site.literal("indexing", "xy")
    if indexing is NOT_LITERAL or indexing not in ("xy", "ij"):
        raise Manual("`indexing=` is not a literal 'xy' or 'ij'")
    call = oa.call(site, "torch.meshgrid", [(None, a.value) for a in site.varargs] + [("indexing", f"'{indexing}'")])
    stars = [a.star for a in site.varargs]  # `meshgrid(*axes)` keeps its star
    return call.with_changes(args=[a.with_changes(star=stars[i]) if i < len(stars) else a
                                   for i, a in enumerate(call.args)]) if any(stars) else call
