"""Gluon Dropout(rate, axes) -> nn.Dropout(rate), or _mx_Dropout when the mask is shared."""
from xlate.convert.layerinfo import keeps
from xlate.convert.rulectx import NOT_LITERAL, Dynamic, Manual, Site
from xlate.convert.transforms import layer_args as la


def transform(site: Site):
    la.naming(site)
    if not site.has("rate"):
        raise Manual("Dropout needs `rate`")
    axes = site.literal("axes", ())
    if axes is NOT_LITERAL:
        raise Dynamic("`axes=` is known at run time")
    if not isinstance(axes, (tuple, list)) \
            or not all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
        raise Manual("`axes=` is not a literal tuple of ints: write the axes the mask is shared along "
                     "(or leave them out for plain dropout)")
    if any(a < 0 for a in axes):
        raise Manual(f"axes={axes!r}: MXNet rejects negative axes; write them counted from 0")
    rate = site.value("rate")
    if not axes:
        return la.record(site, la.call(site, "nn.Dropout", [(None, rate)]), keeps)
    return la.record(site, site.verbatim(), keeps)
