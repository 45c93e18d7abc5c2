"""Gluon `GroupNorm(G)` -> `_mx_GroupNorm(G)`: MXNet 1.9.1 learns one gamma and one beta per
group, torch's `nn.GroupNorm(G, C)` one per channel."""
from xlate.convert.layerinfo import LayerInfo, keeps, record
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import norm_args


def transform(site: Site):
    norm_args.common(site)
    groups = site.literal("num_groups", 1)
    if groups is not NOT_LITERAL and (isinstance(groups, bool) or not isinstance(groups, int)):
        raise Manual(f"num_groups={site.code(site.value('num_groups'))} is not a number of groups")
    keywords = []
    norm_args.epsilon(site, keywords)
    for name in ("center", "scale"):
        if not norm_args.flag(site, name, True):
            keywords.append((name, False))
    given = site.value("num_groups")
    node = norm_args.call(site, "_mx_GroupNorm", ["1" if given is None else given], keywords,
                          norm_args.initializers(site))
    return record(site, node, LayerInfo(out=keeps))
