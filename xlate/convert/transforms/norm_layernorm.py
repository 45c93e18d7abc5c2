"""Gluon `LayerNorm` -> `nn.LayerNorm(C, eps=...)` on the last axis with both parameters learned
and a known size; any other axis, a frozen gamma/beta (scale/center=False), a size left to the
first input or values known only at run time -> `_mx_LayerNorm` with the call's own arguments."""
from xlate.convert.rulectx import Dynamic, Site
from xlate.convert.transforms import norm_args


def transform(site: Site):
    norm_args.common(site)
    try:
        plain = norm_args.axis(site, -1) == -1 and all(norm_args.flag(site, n, True) for n in ("center", "scale"))
        keywords: list = []
        norm_args.epsilon(site, keywords)
        inits = norm_args.initializers(site) if plain else []
    except Dynamic:
        plain = False
    if not plain:
        return norm_args.helper(site, -1)

    def eager(size):
        return norm_args.call(site, "nn.LayerNorm", [size], keywords, inits)

    size = norm_args.channels(site)
    if size is not None:
        return norm_args.record(site, eager(size), axis_=-1, eager=None)
    return norm_args.record(site, site.verbatim(), axis_=-1, eager=eager)
