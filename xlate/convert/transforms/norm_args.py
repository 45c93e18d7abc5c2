"""What the norm rules (norm_*.py) share: reading Gluon's arguments, building the torch call,
attaching initializers and recording the layer's shape (Note [deferred input sizes])."""
from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from xlate.convert import layerinfo
from xlate.convert.layerinfo import LayerInfo, Shape
from xlate.convert.rulectx import NOT_LITERAL, Dynamic, Manual, Site, parse_source

# Gluon initializer argument -> the torch tensor it fills
INITIALIZERS = {"gamma_initializer": ("weight", "ones"), "beta_initializer": ("bias", "zeros"),
                "running_mean_initializer": ("running_mean", "zeros"),
                "running_variance_initializer": ("running_var", "ones")}
_BY_NAME = {"zeros": "torch.nn.init.zeros_", "ones": "torch.nn.init.ones_"}
_RUNTIME_NAMES = ("zeros", "zero", "ones", "one", "uniform", "normal")  # `_mx_initializer` knows them


def flag(site: Site, name: str, default: bool) -> bool:
    value = site.literal(name, default)
    if value is NOT_LITERAL:
        raise Dynamic(f"`{name}=` is known at run time")
    if value not in (True, False):
        raise Manual(f"`{name}={value!r}` is not True/False")
    return bool(value)


def axis(site: Site, default: int) -> int:
    value = site.literal("axis", default)
    if value is NOT_LITERAL:
        raise Dynamic("`axis=` is known at run time")
    if isinstance(value, bool) or not isinstance(value, int):
        raise Manual(f"`axis={value!r}` is not an axis")
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
    params = site.literal("params")
    if params is NOT_LITERAL and isinstance(site.value("params"), cst.Name):  # a constructor's own params=None
        raise Dynamic("`params=` is known at run time; the helper refuses anything but None")
    if params is not None:
        # the layer's own translation, then `_mx_shared(layer, params)` around it (the converter)
        site.shared = site.value("params")


def helper(site: Site, axis_default: int) -> cst.BaseExpression:
    """The Gluon-signature helper with the call's own arguments, recorded as a layer that
    keeps its input's shape (its size resolved from the previous layers when deferred)."""
    common(site)
    for arg in INITIALIZERS:
        value = site.literal(arg)
        if isinstance(value, str) and value.lower() not in _RUNTIME_NAMES:
            raise Manual(f"{arg}={value!r}: pass `mx.init.<Class>()` (translated to a torch init function); "
                         f"xlate knows only {', '.join(map(repr, _RUNTIME_NAMES))} by name")
    value = site.literal("axis", axis_default)
    known_axis = value if isinstance(value, int) and not isinstance(value, bool) else None
    size = site.literal("in_channels", 0)
    deferred = size == 0 and not isinstance(size, bool)
    eager = (lambda n: site.verbatim(in_channels=n)) if deferred and known_axis is not None else None
    return record(site, site.verbatim(), axis_=known_axis, eager=eager)


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
            if value.lower() in _RUNTIME_NAMES and value not in _BY_NAME:
                raise Dynamic(f"initializer {value!r}: the helper draws Gluon's named initializer")
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


def record(site: Site, node: cst.BaseExpression, *, axis_: Optional[int],
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
