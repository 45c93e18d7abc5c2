"""nd.Pooling -> F.max_pool{n}d / F.avg_pool{n}d where torch's op is exact, else `_mx_pooling`."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa

_TYPES = ("max", "avg", "sum")


def transform(site: Site):
    oa.channel_first(site)
    x = oa.required(site, "data")
    kind = site.literal("pool_type", "max")
    if kind == "lp" or site.has("p_value"):
        raise Manual("pool_type='lp': torch's lp_pool has no padding and no |x|; translate by hand")
    if kind not in _TYPES + (NOT_LITERAL,):
        raise Manual(f"pool_type={kind!r} is not one of MXNet's")
    convention = site.literal("pooling_convention", "valid")
    if convention == "same":
        raise Manual("pooling_convention='same' is not translated")
    kernel, stride, pad = oa.ints(site, "kernel"), oa.ints(site, "stride"), oa.ints(site, "pad")
    rank = len(kernel) if kernel else 0
    idiomatic = (site.literal("global_pool", False) is False and convention == "valid" and kind in ("max", "avg")
                 and 1 <= rank <= 3 and (stride is not None or not site.has("stride"))
                 and (not site.has("pad") or pad == () or pad is not None and len(pad) == rank
                      and all(p <= k // 2 for p, k in zip(pad, kernel))))  # torch refuses wider padding
    if idiomatic:
        # MXNet's stride defaults to 1, torch's to the kernel: always written
        args = [(None, x), (None, site.value("kernel")), ("stride", site.value("stride") if stride else "1")]
        args += oa.passed(site, ("pad", "padding"))
        if kind == "avg":
            if site.literal("count_include_pad", True) is not True:  # True is the default in both
                args += oa.passed(site, "count_include_pad")
            return oa.call(site, f"F.avg_pool{rank}d", args)
        return oa.call(site, f"F.max_pool{rank}d", args)
    if kind in ("avg", NOT_LITERAL) and convention in ("full", NOT_LITERAL) \
            and site.literal("global_pool", False) is not True:
        site.review("average Pooling with pooling_convention='full': MXNet 1.9.1's CPU backend differs from its "
                    "own forward pass in some configurations (gradients through the last window with "
                    "count_include_pad, NaN from 3-D windows past the input); the translation follows the forward "
                    "definition")
    names = ["kernel", "pool_type", "global_pool", "pooling_convention", "stride", "pad", "count_include_pad"]
    return oa.call(site, "_mx_pooling", [(None, x)] + oa.passed(site, *names))
