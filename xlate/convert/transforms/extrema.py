"""nd.maximum/minimum accept a Python number on either side; torch.maximum does not."""
from xlate.convert.rulectx import NOT_LITERAL, Site


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    bound = "min" if op == "maximum" else "max"
    a, b = site.value("lhs"), site.value("rhs")
    if isinstance(site.literal("rhs"), (int, float)) and site.literal("rhs") is not NOT_LITERAL:
        return site.emit("torch.clamp({x}, " + bound + "={v})", x=a, v=b)
    if isinstance(site.literal("lhs"), (int, float)) and site.literal("lhs") is not NOT_LITERAL:
        return site.emit("torch.clamp({x}, " + bound + "={v})", x=b, v=a)
    return site.emit("torch." + op + "({a}, {b})", a=a, b=b)
