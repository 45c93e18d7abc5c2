"""nd.random.*: same distributions, different generators (reported for review)."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site, dotted_name
from xlate.convert.table import convert_dtype

# MXNet parameter names differ per sampler; the signature binds them positionally.
_NAMES = {
    "uniform": ("low", "high", 0.0, 1.0),
    "normal": ("loc", "scale", 0.0, 1.0),
    "randint": ("low", "high", None, None),
}


def transform(site: Site):
    helper = _array_valued(site)
    if helper is not None:
        return helper
    out = site.value("out") if site.literal("out") is not None else None
    if out is None:
        return _draw(site, None)
    if not dotted_name(out) and not (site.has("shape") and site.literal("shape") is not None):
        raise Manual(f"`out={site.code(out)}` without `shape=`: assign the array to a name first (it is written "
                     f"and its shape read)")
    return site.emit("{out}.copy_({draw})", out=out, draw=_draw(site, out))


def _draw(site: Site, out):
    """The draw itself; with `out=` MXNet writes into that array (its shape when none is given,
    its dtype) and returns it: `out.copy_(draw)`."""
    op = site.matched.rsplit(".", 1)[1]
    op = op[len("random_"):] if op.startswith("random_") else op  # nd.random_uniform, MXNet's older name
    if op == "shuffle":
        data = site.value("low") or site.value("data")
        if data is None:
            raise Manual("shuffle needs its data argument")
        if not isinstance(data, (cst.Name, cst.Attribute)):  # it is used twice
            raise Manual("shuffle of an expression: assign it to a name first")
        return site.emit("{x}[torch.randperm({x}.shape[0])]", x=data)
    lo_name, hi_name, lo_default, hi_default = _NAMES[op]
    lo = site.value("low") or site.value(lo_name)
    hi = site.value("high") or site.value(hi_name)
    for node in (lo, hi):
        if node is not None and site.evaluate(node) is NOT_LITERAL and not site.conv.is_number(node):
            raise Manual(f"could not tell whether `{site.code(node)}` is a number or an NDArray")
    if site.has("shape") and site.literal("shape") is not None:
        shape = site.code(site.value("shape"))
    else:
        shape = f"{site.code(out)}.shape" if out is not None else "(1,)"
    if isinstance(site.literal("shape"), int):  # torch.normal/randint take a tuple only
        shape = f"({shape},)"
    elif site.has("shape") and site.literal("shape") is NOT_LITERAL \
            and not isinstance(site.value("shape"), (cst.Tuple, cst.List)):
        # `shape=n` with n an int at run time is MXNet's (n,); a tuple stays what it is
        shape = f"({shape},)" if site.conv.is_number(site.value("shape")) else \
            f"{site.helper('_mx_shape_tuple')}({shape})"
    extra = ""
    holes = {}
    if site.has("dtype"):
        holes["dtype"] = convert_dtype(site, site.value("dtype"))
        extra += ", dtype={dtype}"
    if site.has("ctx"):
        holes["device"] = site.value("ctx")
        extra += ", device={device}"
    lo_s = site.code(lo) if lo is not None else repr(lo_default)
    hi_s = site.code(hi) if hi is not None else repr(hi_default)
    if op == "uniform":
        # literal bounds read as a person writes them: [0, 1) is torch.rand itself, [0, h) a product
        lo_v = site.evaluate(lo) if lo is not None else lo_default
        hi_v = site.evaluate(hi) if hi is not None else hi_default
        if lo_v == 0 and lo_v is not NOT_LITERAL and hi_v == 1 and hi_v is not NOT_LITERAL:
            return site.emit(f"torch.rand({shape}{extra})", **holes)
        if lo_v == 0 and lo_v is not NOT_LITERAL:
            return site.emit(f"torch.rand({shape}{extra}) * {hi_s}", **holes)
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lo_v, hi_v)) \
                and len(repr(hi_v - lo_v)) <= 8:  # [-1, 1): `* 2 - 1`, not `* (1 - -1) + -1`
            offset = f"- {-lo_v!r}" if lo_v < 0 else f"+ {lo_s}"
            return site.emit(f"torch.rand({shape}{extra}) * {hi_v - lo_v!r} {offset}", **holes)
        return site.emit(f"torch.rand({shape}{extra}) * ({hi_s} - {lo_s}) + {lo_s}", **holes)
    if op == "normal":
        return site.emit(f"torch.normal({lo_s}, {hi_s}, size={shape}{extra})", **holes)
    if lo is None or hi is None:
        raise Manual("randint needs low and high")
    if "dtype" not in holes:
        holes["dtype"] = site.emit("torch.int32")
        extra = ", dtype={dtype}" + extra
    return site.emit(f"torch.randint({lo_s}, {hi_s}, {shape}{extra})", **holes)



def _array_valued(site: Site):
    """Where uniform/normal's parameters are arrays, or may be, MXNet draws `shape` values per
    element (MX800): `_mx_random_uniform/normal(...)` decides at run time, as MXNet does, with the
    arguments by name (MX016's positional order differs from MX015's)."""
    op = site.matched.rsplit(".", 1)[1]
    op = op[len("random_"):] if op.startswith("random_") else op
    if op not in ("uniform", "normal"):
        return None
    lo_name, hi_name = _NAMES[op][:2]
    lo = site.value("low") or site.value(lo_name)
    hi = site.value("high") or site.value(hi_name)
    if all(node is None or site.evaluate(node) is not NOT_LITERAL or site.conv.is_number(node) for node in (lo, hi)):
        return None
    args, holes = [], {}
    for key, node in ((lo_name, lo), (hi_name, hi), ("shape", site.value("shape")), ("dtype", site.value("dtype")),
                      ("ctx", site.value("ctx")), ("out", site.value("out"))):
        if node is not None:
            holes[key] = node
            args.append(f"{key}={{{key}}}")
    return site.emit(f"_mx_random_{op}({', '.join(args)})", **holes)
