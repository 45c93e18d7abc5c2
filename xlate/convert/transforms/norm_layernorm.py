"""Gluon `LayerNorm` -> `nn.LayerNorm(C, eps=...)` on the last axis with a known size and both
parameters learned; any other axis, a frozen gamma/beta (scale/center=False) or a size left
to the first input -> `_mx_LayerNorm` / `_mx_LazyLayerNorm` (torch has no LazyLayerNorm)."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import norm_args


def transform(site: Site):
    norm_args.common(site)
    axis = norm_args.axis(site, -1)
    keywords = []
    norm_args.epsilon(site, keywords)
    plain = axis == -1
    if axis != -1:
        keywords.append(("axis", axis))
    for name in ("center", "scale"):
        if not norm_args.flag(site, name, True):
            keywords.append((name, False))
            plain = False
    inits = norm_args.initializers(site)

    def eager(size):
        return norm_args.call(site, "nn.LayerNorm" if plain else "_mx_LayerNorm", [size], keywords, inits)

    size = norm_args.channels(site)
    node = eager(size) if size is not None else norm_args.call(site, "_mx_LazyLayerNorm", [], keywords, inits)
    return norm_args.record(site, node, axis_=axis, eager=eager if size is None else None)
