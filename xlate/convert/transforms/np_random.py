"""mx.np.random.*: NumPy's signatures (size=, 0-d without it), MXNet's dtypes (float32; randint
int64), torch's samplers (N5.1-N5.9). The streams never match: reported for review."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.table import convert_dtype
from xlate.convert.transforms import np_args, op_args as oa

_SIGNATURES = {
    "normal": ("loc", "scale", "size", "dtype", "ctx", "out"),
    "uniform": ("low", "high", "size", "dtype", "ctx", "out"),
    "randint": ("low", "high", "size", "dtype", "ctx", "out"),
    "choice": ("a", "size", "replace", "p", "ctx", "out"),
    "shuffle": ("x",),
}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op in ("rand", "randn"):  # *size, dtype/ctx by keyword
        site.bind("*size", "dtype", "ctx")
        call = _sized(site, f"torch.{op}", [a.value for a in site.varargs] or ["()"])
        stars = [a.star for a in site.varargs]  # `rand(*shape)` keeps its star
        return call.with_changes(args=[a.with_changes(star=stars[i]) if i < len(stars) else a
                                       for i, a in enumerate(call.args)]) if any(stars) else call
    site.bind(*_SIGNATURES[op])
    if site.has("out") and site.literal("out") is not None:
        raise Manual("`out=` is not translated")
    if op == "shuffle":
        x = oa.required(site, "x")
        if not isinstance(x, (cst.Name, cst.Attribute)):  # it is used twice
            raise Manual("shuffle of an expression: assign it to a name first")
        stmt = site.conv.statement_of(site.original)
        if stmt is None:
            raise Manual("np.random.shuffle shuffles in place and returns None: use it as a statement")
        return site.emit("{x}.copy_({x}[torch.randperm({x}.shape[0], device={x}.device)])", x=x)
    size = _size(site)
    if op == "normal":
        loc = site.value("loc") if site.has("loc") else "0.0"
        scale = site.value("scale") if site.has("scale") else "1.0"
        if not (np_args.number(site, "loc") or not site.has("loc")) or \
                not (np_args.number(site, "scale") or not site.has("scale")):
            return _array_params(site, "normal", loc, scale, size)
        return _sized(site, "torch.normal", [loc, scale], size_kw=size)
    if op == "uniform":
        low = site.value("low") if site.has("low") else None
        high = site.value("high") if site.has("high") else None
        for name in ("low", "high"):
            if site.has(name) and not np_args.number(site, name):
                return _array_params(site, "uniform", low or "0.0", high or "1.0", size)
        draw = _sized(site, "torch.rand", [size])
        if low is None and high is None:
            return draw
        low, high = low or "0.0", high or "1.0"
        return site.emit("{d} * ({h} - {l}) + {l}", d=draw, h=high, l=low)
    if op == "randint":
        low, high = oa.required(site, "low"), site.value("high")
        if high is None or site.literal("high") is None:
            low, high = "0", low
        return _sized(site, "torch.randint", [low, high, size])
    # choice
    a = site.literal("a")
    if not isinstance(a, int) or isinstance(a, bool):
        raise Manual("np.random.choice from an array: index it with torch.randint / torch.multinomial by hand")
    replace = site.literal("replace", True)
    if replace is NOT_LITERAL:
        raise Manual("`replace=` is not a literal")
    if site.has("p") and site.literal("p") is not None:
        count = size if site.has("size") and site.literal("size") is not None else "1"
        draw = site.emit("torch.multinomial({p}, {n}, replacement={r})", p=site.value("p"),
                         n=_count(site, count), r=str(bool(replace)))
        return draw if site.has("size") and site.literal("size") is not None else site.emit("{d}[0]", d=draw)
    if not replace:
        return site.emit("torch.randperm({a})[:{n}]", a=site.value("a"), n=_count(site, size))
    return _sized(site, "torch.randint", [site.value("a"), size])


def _size(site: Site):
    """The size argument for torch: `()` (a 0-d draw) when there is none; an int as a 1-tuple."""
    if not site.has("size") or site.literal("size") is None:
        return "()"
    value = site.literal("size")
    if isinstance(value, int):
        return site.emit("({n},)", n=site.value("size"))
    if value is NOT_LITERAL:  # an int, a tuple or None, known only at run time
        return site.emit(f"{site.helper('_mx_np_size')}({{n}})", n=site.value("size"))
    return site.value("size")


def _count(site: Site, size):
    value = site.literal("size")
    if isinstance(value, (tuple, list)) or value is NOT_LITERAL:
        raise Manual("np.random.choice with a shape for size: reshape the draw by hand")
    return size if isinstance(size, str) else site.value("size")


def _sized(site: Site, func: str, args: list, *, size_kw=None):
    """`func(*args, size=..., dtype=..., device=...)` with the dtype MXNet gives (float32, randint int64)."""
    out = [(None, a) for a in args]
    if size_kw is not None:
        out.append(("size", size_kw))
    if site.has("dtype") and site.literal("dtype") is not None:
        out.append(("dtype", convert_dtype(site, site.value("dtype"))))
    if site.has("ctx") and site.literal("ctx") is not None:
        out.append(("device", site.value("ctx")))
    return oa.call(site, func, out)


def _array_params(site: Site, op: str, a, b, size):
    """Array-valued parameters draw one value per element (N5.9)."""
    if op != "normal" or (site.has("size") and site.literal("size") is not None):
        raise Manual(f"np.random.{op} with array parameters: draw with torch by hand (one value per element, "
                     "broadcast to `size`)")
    return site.emit("torch.normal(*torch.broadcast_tensors(torch.as_tensor({a}), torch.as_tensor({b})))", a=a, b=b)
