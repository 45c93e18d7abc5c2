"""Gluon `InstanceNorm` -> `_mx_InstanceNorm` (`_mx_LazyInstanceNorm` when `in_channels` is left
to the first input). torch's InstanceNormNd(affine=False) drops the beta MXNet learns and the
gamma it multiplies by even with scale=False, and takes one rank only."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import norm_args


def transform(site: Site):
    norm_args.common(site)
    axis = norm_args.axis(site, 1)
    keywords = []
    norm_args.epsilon(site, keywords)
    if axis != 1:
        keywords.append(("axis", axis))
    for name, default in (("center", True), ("scale", False)):
        if norm_args.flag(site, name, default) != default:
            keywords.append((name, not default))
    inits = norm_args.initializers(site)

    def eager(size):
        return norm_args.call(site, "_mx_InstanceNorm", [size], keywords, inits)

    size = norm_args.channels(site)
    node = eager(size) if size is not None else norm_args.call(site, "_mx_LazyInstanceNorm", [], keywords, inits)
    return norm_args.record(site, node, axis_=axis, eager=eager if size is None else None)
