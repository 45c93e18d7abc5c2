"""nd.random.uniform_like / normal_like -> torch.rand_like / randn_like, scaled and shifted."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    x = oa.required(site, "data")
    op = site.matched.rsplit(".", 1)[1]
    # positional arguments bind to low/high for both samplers (normal_like's are loc/scale)
    lo = site.value("low") or site.value("loc")
    hi = site.value("high") or site.value("scale")
    if op == "uniform_like":
        if lo is None and hi is None:
            return site.emit("torch.rand_like({x})", x=x)
        return site.emit("torch.rand_like({x}) * ({hi} - {lo}) + {lo}", x=x, lo=lo or "0.0", hi=hi or "1.0")
    if lo is None and hi is None:
        return site.emit("torch.randn_like({x})", x=x)
    return site.emit("torch.randn_like({x}) * {scale} + {loc}", x=x, loc=lo or "0.0", scale=hi or "1.0")
