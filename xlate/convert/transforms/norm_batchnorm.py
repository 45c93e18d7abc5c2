"""Gluon `BatchNorm` / contrib `SyncBatchNorm` -> `_mx_BatchNorm` (or `_mx_LazyBatchNorm` when
`in_channels` is left to the first input). A plain `nn.BatchNorm2d` is never exact: it updates
the running variance with the unbiased batch variance and only accepts 4-D input on axis 1."""

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site, parse_source
from xlate.convert.transforms import norm_args


def _momentum(site: Site):
    """torch's momentum weighs the new batch, MXNet's the running value: 1 - momentum."""
    value = site.literal("momentum", 0.9)
    if value is NOT_LITERAL:
        return site.emit("1 - {m}", m=site.value("momentum"))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Manual(f"momentum={site.code(site.value('momentum'))} is not a number")
    flipped = round(1 - value, 12)
    return None if flipped == 0.1 else parse_source(repr(flipped)).deep_clone()


def transform(site: Site):
    sync = site.matched.endswith(".SyncBatchNorm")
    norm_args.common(site)
    axis = 1 if sync else norm_args.axis(site, 1)
    keywords = []
    norm_args.epsilon(site, keywords)
    momentum = _momentum(site)
    if momentum is not None:
        keywords.append(("momentum", momentum))
    if axis != 1:
        keywords.append(("axis", axis))
    for name in ("center", "scale", "use_global_stats"):
        default = name != "use_global_stats"
        if norm_args.flag(site, name, default) != default:
            keywords.append((name, not default))
    inits = norm_args.initializers(site)  # SyncBatchNorm's num_devices: see the rule's notes

    def eager(size):
        return norm_args.call(site, "_mx_BatchNorm", [size], keywords, inits)

    size = norm_args.channels(site)
    node = eager(size) if size is not None else norm_args.call(site, "_mx_LazyBatchNorm", [], keywords, inits)
    return norm_args.record(site, node, axis_=axis, eager=eager if size is None else None)
