"""Gluon layers that only move values: contrib PixelShuffle{1,2,3}D and ReflectionPad2D ->
torch's module where it is the same (`nn.PixelShuffle(f)` for 2-D with one factor,
`nn.ReflectionPad2d(p)` for one int), the Gluon-signature helper otherwise."""
from xlate.convert.layerinfo import keeps
from xlate.convert.rulectx import NOT_LITERAL, Dynamic, Site
from xlate.convert.transforms import layer_args as la


def transform(site: Site):
    name = site.matched.rsplit(".", 1)[1]
    if name.startswith("PixelShuffle"):
        factor = site.literal("factor")
        if name == "PixelShuffle2D" and isinstance(factor, int) and not isinstance(factor, bool):
            return la.record(site, la.call(site, "nn.PixelShuffle", [(None, site.value("factor"))]), lambda s: None)
        return la.record(site, site.verbatim(), lambda s: None)
    la.naming(site)
    padding = site.literal("padding", 0)
    if padding is NOT_LITERAL:
        raise Dynamic("`padding=` is known at run time")
    if isinstance(padding, int) and not isinstance(padding, bool):
        return la.record(site, la.call(site, "nn.ReflectionPad2d", [(None, site.value("padding") or "0")]), keeps)
    return la.record(site, site.verbatim(), keeps)
