"""What the norm rules (norm_*.py) share: reading Gluon's arguments, building the torch call,
attaching initializers and recording the layer's shape (Note [deferred input sizes])."""
from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from xlate.convert import layerinfo
from xlate.convert.layerinfo import LayerInfo, Shape
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site, parse_source

# Gluon initializer argument -> the torch tensor it fills
INITIALIZERS = {"gamma_initializer": ("weight", "ones"), "beta_initializer": ("bias", "zeros"),
                "running_mean_initializer": ("running_mean", "zeros"),
                "running_variance_initializer": ("running_var", "ones")}
_BY_NAME = {"zeros": "torch.nn.init.zeros_", "ones": "torch.nn.init.ones_"}


def flag(site: Site, name: str, default: bool) -> bool:
    value = site.literal(name, default)
    if value not in (True, False):
        raise Manual(f"`{name}=` is not a literal True/False: the translation depends on it")
    return bool(value)


def axis(site: Site, default: int) -> int:
    value = site.literal("axis", default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Manual("`axis=` is not a literal integer: the translation depends on it")
    return value


def channels(site: Site, name: str = "in_channels") -> Optional[cst.BaseExpression]:
    """The input size, or None when Gluon infers it from the first input (absent or 0)."""
    value = site.literal(name, 0)
    return None if value == 0 and not isinstance(value, bool) else site.value(name)


def epsilon(site: Site, keywords: list) -> None:
    if site.has("epsilon") and site.literal("epsilon") != 1e-5:
        keywords.append(("eps", site.value("epsilon")))


def common(site: Site) -> None:
    """`prefix=` only names Gluon parameters and is dropped; `params=` shares them."""
    if site.has("params") and site.literal("params") is not None:
        raise Manual("`params=` shares this layer's parameters with another block: in torch reuse that "
                     "module (or assign its weight/bias) by hand")


def initializers(site: Site) -> list[tuple[str, cst.BaseExpression]]:
    """(torch tensor name, initializer expression) for each initializer that differs from
    Gluon's default."""
    out = []
    for arg, (tensor, default) in INITIALIZERS.items():
        if not site.has(arg):
            continue
        value = site.literal(arg)
        if value == default or value is None:
            continue
        if isinstance(value, str):
            if value not in _BY_NAME:
                raise Manual(f"initializer {value!r} given by name: pass `mx.init.<Class>()` instead")
            out.append((tensor, site.emit(_BY_NAME[value])))
        elif value is NOT_LITERAL:
            out.append((tensor, site.value(arg)))
        else:
            raise Manual(f"`{arg}={site.code(site.value(arg))}` is not an initializer")
    return out


def call(site: Site, func: str, positional: list, keywords: list,
         inits: list[tuple[str, cst.BaseExpression]] = ()) -> cst.BaseExpression:
    """`func(*positional, **keywords)`, wrapped in `_mx_init_params(...)` when `inits`."""
    holes, parts = {}, []
    for i, node in enumerate(positional):  # a size may also stand in the previous layer: copies
        holes[f"p{i}"] = _node(node)
        parts.append(f"{{p{i}}}")
    for name, node in keywords:
        holes[f"k_{name}"] = _node(node)
        parts.append(f"{name}={{k_{name}}}")
    layer = site.emit(f"{func}({', '.join(parts)})", **holes)
    if not inits:
        return layer
    holes = {"layer": layer, **{f"i_{name}": _node(node) for name, node in inits}}
    fill = ", ".join(f"{name}={{i_{name}}}" for name, _ in inits)
    return site.emit(f"_mx_init_params({{layer}}, {fill})", **holes)


def _node(value) -> cst.BaseExpression:
    if isinstance(value, cst.BaseExpression):
        return value.deep_clone()
    return parse_source(value if isinstance(value, str) else repr(value)).deep_clone()


def record(site: Site, node: cst.BaseExpression, *, axis_: int,
           eager: Optional[Callable[[cst.BaseExpression], cst.BaseExpression]]) -> cst.BaseExpression:
    """Record a norm layer: it keeps its input's shape. `eager(size)` builds the eager
    constructor of a deferred layer; `axis_` is the axis whose size it needs, and a Shape
    knows axis 1 (and the last axis when the input is (N, C))."""
    size = layerinfo.size(site, "in_channels")

    def out(shape: Optional[Shape]) -> Optional[Shape]:
        if shape is None and size is not None and axis_ == 1:
            return Shape(size)  # the layer only accepts this many channels
        return shape

    def resolve(shape: Shape) -> Optional[cst.BaseExpression]:
        if shape.channels is None or not (axis_ == 1 or (axis_ == -1 and shape.rank2)):
            return None
        return eager(layerinfo.as_node(shape.channels))

    return layerinfo.record(site, node, LayerInfo(out=out, resolve=resolve if eager else None))
