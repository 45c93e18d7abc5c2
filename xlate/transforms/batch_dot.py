"""nd.batch_dot with its transpose flags applied to the operands."""
from xlate.rulectx import Manual, Site


def transform(site: Site):
    operands = {}
    for name, flag in (("lhs", "transpose_a"), ("rhs", "transpose_b")):
        value = site.literal(flag, False)
        if value not in (True, False):
            raise Manual(f"`{flag}=` is not a literal True/False")
        operands[name] = site.emit("{x}.transpose(1, 2)", x=site.value(name)) if value else site.value(name)
    return site.emit("torch.bmm({a}, {b})", a=operands["lhs"], b=operands["rhs"])
