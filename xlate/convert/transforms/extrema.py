"""nd.maximum/minimum accept a Python number on either side; torch.maximum does not, and it splits
the gradient of a tie between the two sides, where MXNet gives it all to lhs."""
from xlate.convert.rulectx import NOT_LITERAL, Site


def _number(site: Site, name: str) -> bool:
    value = site.literal(name)
    return (isinstance(value, (int, float)) and value is not NOT_LITERAL) or site.conv.is_number(site.value(name))


def _original(site: Site) -> list:
    """The two arguments as written (the classifier reads MXNet code, not the rewrite)."""
    args = getattr(site.original, "args", ())
    named = {a.keyword.value: a.value for a in args if a.keyword is not None}
    plain = [a.value for a in args if a.keyword is None and not a.star]
    out = plain[:2] + [named[k] for k in ("lhs", "rhs")[len(plain):] if k in named]
    return out if len(out) == 2 else [None, None]


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    bound = "min" if op == "maximum" else "max"
    a, b = site.value("lhs"), site.value("rhs")
    if _number(site, "rhs"):
        return site.emit("torch.clamp({x}, " + bound + "={v})", x=a, v=b)
    if _number(site, "lhs"):
        return site.emit("torch.clamp({x}, " + bound + "={v})", x=b, v=a)
    # two arrays: MXNet's gradient at ties (Note [tied extrema] in xlate/runtime/operators.py); a side
    # xlate cannot type may hold a number (`F.maximum(d, self.cutoff)`): both decided at run time
    return site.emit("_mx_" + op + "({a}, {b})", a=a, b=b)
