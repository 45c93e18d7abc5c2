"""Gluon `GroupNorm(G)` -> `_mx_GroupNorm(G)` with the call's own arguments: MXNet 1.9.1 learns
one gamma and one beta per group, torch's `nn.GroupNorm(G, C)` one per channel."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import norm_args


def transform(site: Site):
    groups = site.literal("num_groups", 1)
    if groups is not NOT_LITERAL and (isinstance(groups, bool) or not isinstance(groups, int)):
        raise Manual(f"num_groups={site.code(site.value('num_groups'))} is not a number of groups")
    return norm_args.helper(site, None)
