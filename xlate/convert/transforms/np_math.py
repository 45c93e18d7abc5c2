"""mx.np's element-wise functions -> torch's (N1.21-N1.25, N8.15, N8.28, N8.29).

torch's functions take tensors where mx.np takes Python numbers too (it falls back to NumPy for
them): an argument not known to be an MXNet array is passed through `torch.as_tensor`, which
leaves a tensor as it is. A number on one side of maximum/minimum is a clamp.
"""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import np_args

# mx.np name -> torch function (the same name where absent)
UNARY = {
    "abs": "abs", "absolute": "abs", "fabs": "abs", "sign": "sign", "exp": "exp", "expm1": "expm1",
    "log": "log", "log2": "log2", "log10": "log10", "log1p": "log1p", "sqrt": "sqrt", "square": "square",
    "reciprocal": "reciprocal", "negative": "neg", "sin": "sin", "cos": "cos", "tan": "tan",
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
    "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "floor": "floor", "ceil": "ceil",
    "trunc": "trunc", "fix": "fix", "rint": "round", "degrees": "rad2deg", "radians": "deg2rad",
    "rad2deg": "rad2deg", "deg2rad": "deg2rad", "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite",
    "logical_not": "logical_not", "cbrt": None,
}
# binary functions; True: torch's takes a Python number as its second argument
BINARY = {
    "add": ("add", True), "subtract": ("sub", True), "multiply": ("mul", True), "divide": ("true_divide", True),
    "true_divide": ("true_divide", True), "floor_divide": ("floor_divide", True), "power": ("pow", True),
    "mod": ("remainder", True), "remainder": ("remainder", True), "fmod": ("fmod", True),
    "equal": ("eq", True), "not_equal": ("ne", True), "greater": ("gt", True), "greater_equal": ("ge", True),
    "less": ("lt", True), "less_equal": ("le", True), "maximum": ("maximum", False), "minimum": ("minimum", False),
    "fmax": ("fmax", False), "fmin": ("fmin", False), "arctan2": ("atan2", False), "hypot": ("hypot", False),
    "logical_and": ("logical_and", False), "logical_or": ("logical_or", False), "logical_xor": ("logical_xor", False),
    "copysign": ("copysign", False),
}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op in BINARY:
        return _binary(site, op)
    if op in ("round", "around"):
        site.bind("x", "decimals", "out")
    else:
        site.bind("x", "out")
    if site.has("out") and site.literal("out") is not None:
        raise Manual("`out=` is not translated")
    target = UNARY.get(op, "round" if op in ("round", "around") else None)
    if target is None:
        raise Manual(f"np.{op} has no exact torch function")
    x = np_args.tensor(site, "x", *_SIG[op in ("round", "around")])
    if op in ("round", "around") and site.has("decimals") and site.literal("decimals") != 0:
        return site.emit("torch.round({x}, decimals={d})", x=x, d=site.value("decimals"))
    return site.emit(f"torch.{target}({{x}})", x=x)


_SIG = {False: ("x", "out"), True: ("x", "decimals", "out")}


def _binary(site: Site, op: str):
    site.bind("x1", "x2", "out")
    if site.has("out") and site.literal("out") is not None:
        raise Manual("`out=` is not translated")
    target, number_ok = BINARY[op]
    sig = ("x1", "x2", "out")
    if op in ("maximum", "minimum"):  # a number on either side is a bound
        bound = "min" if op == "maximum" else "max"
        for arr, num in (("x1", "x2"), ("x2", "x1")):
            if np_args.number(site, num):
                return site.emit("torch.clamp({x}, " + bound + "={v})", x=np_args.tensor(site, arr, *sig),
                                 v=site.value(num))
    a = np_args.tensor(site, "x1", *sig)
    b = site.value("x2")
    if b is None:
        raise Manual("`x2` is required here")
    if not (number_ok and np_args.number(site, "x2")):
        b = np_args.tensor(site, "x2", *sig)
    return site.emit(f"torch.{target}({{a}}, {{b}})", a=a, b=b)
