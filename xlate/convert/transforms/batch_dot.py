"""nd.batch_dot with its transpose flags applied to the operands.

MXNet's batch_dot takes any rank >= 3 (the leading axes are batch axes, equal on both sides),
so the product is `torch.matmul` and a flag swaps the last two axes; `torch.bmm` would
refuse 4-D input.
"""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    operands = {}
    for name, flag in (("lhs", "transpose_a"), ("rhs", "transpose_b")):
        value = site.literal(flag, False)
        if value not in (True, False):
            raise Manual(f"`{flag}=` is not a literal True/False")
        operands[name] = site.emit("{x}.transpose(-2, -1)", x=site.value(name)) if value else site.value(name)
    return site.emit("torch.matmul({a}, {b})", a=operands["lhs"], b=operands["rhs"])
