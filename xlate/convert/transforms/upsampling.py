"""nd.UpSampling: one input, nearest, literal scale -> F.interpolate; anything else `_mx_upsampling`."""
from xlate.convert.rulectx import Dynamic, Manual, Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    if not site.varargs:
        raise Manual("UpSampling without its input arrays")
    if any(a.star for a in site.varargs):
        raise Dynamic("arrays passed with *: their count decides the meaning (bilinear takes data and weight)")
    oa.required(site, "scale")
    sample = oa.choice(site, "sample_type", None, ("nearest", "bilinear"), "write 'nearest' or 'bilinear'")
    scale = site.literal("scale")
    if sample == "nearest" and len(site.varargs) == 1 and isinstance(scale, int) and not isinstance(scale, bool):
        # exact for an integer factor: each pixel repeated scale x scale times
        return oa.call(site, "F.interpolate", [(None, site.varargs[0].value), ("scale_factor", site.value("scale")),
                                               ("mode", '"nearest"')])
    if sample == "bilinear" and len(site.varargs) != 2:
        raise Manual("bilinear UpSampling takes the data and its deconvolution weight")
    data = [(None, a.value) for a in site.varargs]
    return oa.call(site, "_mx_upsampling", data + oa.passed(site, "scale", "sample_type", "num_filter",
                                                             "multi_input_mode"))
