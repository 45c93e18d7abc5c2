"""npx.reshape(a, newshape, reverse): its codes are not nd.reshape's (N6.1-N6.7). Only positive
sizes and one -1 mean the same in torch; anything else goes through `_mx_npx_reshape`."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    a, shape = oa.required(site, "a"), oa.required(site, "newshape")
    if site.has("order") and site.literal("order") != "C":
        raise Manual("only order='C' is translated")
    spec = site.literal("newshape")
    reverse = site.literal("reverse", False)
    if reverse is False and isinstance(spec, int) and spec > 0 or spec == -1:
        spec = (spec,)
    plain = isinstance(spec, (tuple, list)) and all(isinstance(d, int) and (d > 0 or d == -1) for d in spec) \
        and list(spec).count(-1) <= 1
    if plain and reverse is False:
        return site.emit("torch.reshape({a}, {s})", a=a, s=shape)
    if reverse is NOT_LITERAL:
        return oa.run_time(site, "_mx_npx_reshape", arrays=("a", "newshape"))
    args = [(None, a), (None, shape)] + ([("reverse", site.value("reverse"))] if reverse is not False else [])
    return oa.call(site, "_mx_npx_reshape", args)
