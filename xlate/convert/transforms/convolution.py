"""nd.Convolution / nd.Deconvolution -> F.conv{n}d / F.conv_transpose{n}d (n from a literal kernel),
or the `_mx_convolution` / `_mx_deconvolution` helper, which reads n off the weight."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    transposed = site.matched.endswith("Deconvolution")
    oa.channel_first(site)
    if transposed and site.has("target_shape") and site.literal("target_shape") not in (None, ()):
        raise Manual("`target_shape=` makes MXNet choose the padding itself: compute pad/adj and pass them")
    x, weight = oa.required(site, "data"), oa.required(site, "weight")
    # MXNet takes a bias exactly when no_bias is false and rejects it otherwise, so the bias
    # given is the bias used
    head = [(None, x), (None, weight)] + ([(None, site.value("bias"))] if site.has("bias") else [])
    kernel = oa.ints(site, "kernel")
    if kernel is not None and 1 <= len(kernel) <= 3:
        names = [("stride", "stride"), ("pad", "padding")]
        names += [("adj", "output_padding")] if transposed else []
        names += [("num_group", "groups"), ("dilate", "dilation")]
        func = f"F.conv_transpose{len(kernel)}d" if transposed else f"F.conv{len(kernel)}d"
        return oa.call(site, func, head + oa.passed(site, *names))
    if site.has("kernel") and site.literal("kernel") == ():
        raise Manual("`kernel=()`: give the kernel size")
    names = ["stride", "dilate", "pad"] + (["adj"] if transposed else []) + ["num_group"]
    helper = "_mx_deconvolution" if transposed else "_mx_convolution"
    return oa.call(site, helper, head + oa.passed(site, *names))
