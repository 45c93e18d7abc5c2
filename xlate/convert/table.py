"""Table-driven rewrites: a call or method renamed, its arguments mapped by the catalogue."""
from __future__ import annotations

from typing import Callable

import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site

_DTYPES = {
    "float16", "float32", "float64", "bfloat16", "uint8", "int8", "int16", "int32", "int64", "bool",
}
_DTYPE_ALIASES = {"float": "float64", "int": "int64", "double": "float64", "half": "float16"}


def convert_dtype(site: Site, node: cst.BaseExpression) -> cst.BaseExpression:
    """'float32', np.float32, numpy.float32 or torch.float32 -> torch.float32."""
    text = site.code(node)
    value = site.evaluate(node)
    name = None
    if isinstance(value, str):
        name = _DTYPE_ALIASES.get(value, value)
    else:
        resolved = site.conv.resolve_expr(node)
        if resolved and (resolved.split(".")[0] in ("numpy", "torch") or resolved.startswith("mxnet.numpy.")):
            name = resolved.rsplit(".", 1)[1]
        elif text.startswith("torch.") and text.count(".") == 1:  # mx.np's `np.float32`, already rewritten (MX717)
            name = text[len("torch."):]
        elif text in ("float", "int", "bool"):
            name = _DTYPE_ALIASES.get(text, text)
    if name not in _DTYPES and value is NOT_LITERAL:
        # a dtype known only at run time (`dtype=x.dtype`, `self.dtype`, a parameter): mapped then,
        # from what MXNet takes (a name, a NumPy type or dtype) or a torch dtype (a converted array's)
        return site.emit(f"{site.helper('_mx_dtype')}({{d}})", d=node)
    if name not in _DTYPES:
        raise Manual(f"dtype `{text}` is not a literal dtype xlate can map; pass a torch dtype")
    return site.emit(f"torch.{name}")


def convert_shape(site: Site, node: cst.BaseExpression) -> cst.BaseExpression:
    """A shape or repetition count as MXNet takes it (an int n is (n,)) -> the tuple torch needs:
    a tuple or list written out stays, an integer literal is wrapped, anything known only at run
    time (`df.tile(num_data_points)`: an int, a NumPy integer, a tuple) goes through `_mx_shape_tuple`."""
    if isinstance(node, (cst.Tuple, cst.List)):
        return node
    if isinstance(node, cst.Integer):
        return site.emit("({n},)", n=node)
    return site.emit(f"{site.helper('_mx_shape_tuple')}({{s}})", s=node)


CONVERTERS: dict[str, Callable[[Site, cst.BaseExpression], cst.BaseExpression]] = {
    "dtype": convert_dtype,
    "shape": convert_shape,
}


def mapped_args(site: Site) -> list[cst.Arg]:
    """The PyTorch argument list for a table rule (Note [argument mapping])."""
    rule = site.rule
    positional: dict[int, cst.BaseExpression] = {}
    keywords: list[tuple[str, cst.BaseExpression]] = []
    star = next((s[1:] for s in rule.signature if s.startswith("*")), None)
    for name in (s.lstrip("*") for s in rule.signature):
        if "{" + name + "}" in (rule.target or ""):
            continue
        param = rule.params.get(name)
        if name == star and site.varargs:
            value: cst.BaseExpression | None = site.vararg_list()
        else:
            value = site.value(name)
        if value is None:
            if param is not None and param.default is not None:
                value = site.emit(param.default)
            else:
                continue
        elif param is None:
            raise Manual(f"argument `{name}` has no PyTorch mapping")
        elif param.manual:
            raise Manual(f"argument `{name}=` changes the meaning in a way xlate cannot translate")
        elif site.code(value) in param.drop_if:
            continue
        elif param.convert:
            value = CONVERTERS[param.convert](site, value)
        if param is None or param.to is None:
            continue
        if isinstance(param.to, int):
            positional[param.to] = value
        else:
            keywords.append((param.to, value))
    if sorted(positional) != list(range(len(positional))):
        raise Manual("a required positional argument is missing")
    out = [cst.Arg(positional[i]) for i in sorted(positional)]
    out += [cst.Arg(v, keyword=cst.Name(k), equal=EQ) for k, v in keywords]
    return out


EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def apply(site: Site) -> cst.BaseExpression:
    target = site.rule.target
    assert target is not None
    if "(" in target or "{" in target.replace("{name}", ""):  # a template: holes are MXNet parameter names, {name} the matched name
        holes = {}
        for p in site.rule.signature:
            p = p.lstrip("*")
            value = site.value(p)
            param = site.rule.params.get(p)
            if value is None and param is not None and param.default is not None:
                value = site.emit(param.default)
            if value is not None and param is not None and param.convert:
                value = CONVERTERS[param.convert](site, value)
            if "{" + p + "}" in target:
                if value is None:
                    raise Manual(f"argument `{p}` is required here")
                holes[p] = value
            elif value is not None and (param is None or param.to is not None):
                raise Manual(f"argument `{p}` has no PyTorch mapping")
        return site.emit(target.replace("{name}", site.matched.rsplit(".", 1)[-1]), **holes)
    if site.rule.kind in ("reference", "type"):
        return site.emit(target.replace("{name}", site.matched.rsplit(".", 1)[-1]))
    args = mapped_args(site)
    func = site.emit(target.replace("{name}", site.matched.rsplit(".", 1)[-1]))
    return cst.Call(func, args=commas(args))


def commas(args: list[cst.Arg]) -> list[cst.Arg]:
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    return [a.with_changes(comma=comma) for a in args[:-1]] + args[-1:]


