"""What the gluon.nn layer rules (MX120-MX139) share: reading Gluon's constructor arguments,
building the torch constructor call, per-layer initializers and the shape record.

Not a transform itself (it has no `transform`); the `layer_*` transforms import it.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Union

import libcst as cst

from xlate.convert import kinds, layerinfo
from xlate.convert.visiting import holds
from xlate.convert.layerinfo import LayerInfo, Shape
from xlate.convert.transforms import init_callables
from xlate.convert.rulectx import NOT_LITERAL, Dynamic, Manual, Site, parse_source
from xlate.convert.table import EQ, commas, convert_dtype

Value = Union[cst.BaseExpression, str]
_EFFECTS = frozenset({cst.Call, cst.Await, cst.Yield, cst.NamedExpr})  # what may differ when evaluated twice
Args = list  # of (keyword or None, Value)

# Gluon's Activation(act_type) names; `activation=` of Dense/Conv takes the same.
ACTIVATIONS = {"relu": "nn.ReLU()", "sigmoid": "nn.Sigmoid()", "tanh": "nn.Tanh()", "softrelu": "nn.Softplus()",
               "softsign": "nn.Softsign()"}



def naming(site: Site) -> None:
    """`prefix=` only names parameters in Gluon and is dropped; `params=` shares them."""
    params = site.literal("params")
    if params is NOT_LITERAL and isinstance(site.value("params"), cst.Name):  # a constructor's own params=None
        raise Dynamic("`params=` is known at run time; the helper refuses anything but None")
    if params is not None:
        # the layer's own translation, then `_mx_shared(layer, params)` around it (the converter)
        site.shared = site.value("params")


def choice(site: Site, name: str, default: Any, allowed: Sequence, decide: str) -> Any:
    """The literal value of an argument the translation depends on: Dynamic when it is only
    known at run time, Manual when no translation takes it."""
    value = site.literal(name, default)
    if value is NOT_LITERAL:
        raise Dynamic(f"`{name}=` is known at run time")
    if not any(value == a and type(value) is type(a) for a in allowed):
        raise Manual(f"`{name}={value!r}` is not translated: {decide}")
    return value


def activation(site: Site, name: str = "activation") -> Optional[str]:
    return choice(site, name, None, (None, *ACTIVATIONS),
                  f"write one of {', '.join(map(repr, ACTIVATIONS))} (or None) so xlate can pick the torch activation")


def layout(site: Site, default: str) -> None:
    value = site.literal("layout", default)
    if value is NOT_LITERAL:
        raise Dynamic("`layout=` is known at run time; the helper refuses all but the channel-first one")
    if value != default:
        raise Manual(f"layout={site.code(site.value('layout'))}: torch layers are channel-first ({default}); "
                     f"permute the input and output around the layer by hand")


def dtype(site: Site) -> Args:
    if not site.has("dtype") or site.literal("dtype") == "float32":
        return []
    try:
        return [("dtype", convert_dtype(site, site.value("dtype")))]
    except Manual as why:
        raise Dynamic(str(why)) from None


# initializer names the Gluon-signature helpers know (`_mx_initializer` in xlate/runtime/layers.py)
RUNTIME_INIT_NAMES = ("zeros", "zero", "ones", "one", "uniform", "normal")


def passed(site: Site, *names: tuple[str, Optional[str]]) -> Args:
    """(torch keyword, value) for each (Gluon name, torch keyword) the call gave."""
    return [(pt, site.value(mx)) for mx, pt in names if site.has(mx)]


def call(site: Site, func: str, args: Args) -> cst.Call:
    out = []
    for keyword, value in args:
        # a value may appear twice (both branches of `A if n else B`): each use gets its own copy
        node = (parse_source(value) if isinstance(value, str) else value).deep_clone()
        out.append(cst.Arg(node, keyword=cst.Name(keyword), equal=EQ) if keyword else cst.Arg(node))
    return cst.Call(site.emit(func), args=commas(out))


def in_size(site: Site, name: str) -> Any:
    """0 when Gluon infers the input size, else its literal value or NOT_LITERAL."""
    value = site.literal(name, 0)
    if value is not NOT_LITERAL and not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        raise Manual(f"`{name}={value!r}` is not a size")
    return value


def eager_or_lazy(site: Site, name: str, eager: Callable[[cst.BaseExpression], cst.BaseExpression],
                  lazy: Callable[[], cst.BaseExpression]) -> tuple[cst.BaseExpression, bool]:
    """The constructor for the input size argument `name`, and whether it was deferred.

    A size only known at run time may be Gluon's 0 ("infer it"): the translation picks the
    lazy module then (`A if n else B`), unless evaluating the expression twice could differ.
    """
    size = in_size(site, name)
    if size == 0:
        return lazy(), True
    node = site.value(name)
    if size is not NOT_LITERAL:
        return eager(node), False
    if holds(node, _EFFECTS):
        site.review(f"`{name}={site.code(node)}` is computed at run time; if it can be 0 (Gluon: infer the size) "
                    f"use the Lazy module")
        return eager(node), False
    return cst.IfExp(test=node.deep_clone(), body=eager(node), orelse=lazy()), False


def init_fn(site: Site, name: str, default: Optional[str] = None) -> Optional[cst.BaseExpression]:
    """The torch init callable for a Gluon initializer argument (None: nothing to attach)."""
    if not site.has(name):
        return None
    value = site.literal(name)
    if value is None or value == default:
        return None
    if isinstance(value, str):
        named = {"zeros": "nn.init.zeros_", "ones": "nn.init.ones_"}.get(value)
        if named is None and value.lower() in RUNTIME_INIT_NAMES:
            raise Dynamic(f"{name}={value!r}: the helper draws Gluon's named initializer")
        if named is None and value.lower() in init_callables.BY_NAME:  # 'Xavier': what MXNet's registry creates
            return init_callables.from_string(site, value)
        if named is None:
            raise Manual(f"{name}={value!r}: pass the torch init function it stands for (xlate maps MXNet's "
                         f"registered names only: {', '.join(sorted(init_callables.BY_NAME))})")
        return site.emit(named)
    if value is not NOT_LITERAL:
        raise Manual(f"{name}={value!r} is not an initializer")
    node = site.value(name)  # already translated by the initializer rules
    custom = custom_initializer(site, node)
    if custom is not None:
        site.review(f"`{name}={custom}(...)`: {custom} derives from a built-in MXNet initializer, which xlate "
                    f"leaves (MX900 at its class); the layer calls it with the tensor: rewrite it as a function "
                    f"that fills the tensor in place")
    return node


def custom_initializer(site: Site, node: cst.BaseExpression) -> Optional[str]:
    """The class `node` makes (`MyXavier()`) when it is a class of this file or tree deriving from
    a built-in MXNet initializer (`mx.init.Xavier`), which stays MXNet's; one deriving from
    `mx.init.Initializer` alone is a translated `_mx_Initializer` (MX522), callable with a tensor."""
    if not isinstance(node, cst.Call):
        return None
    dotted = cst.helpers.get_full_name_for_node(node.func)
    if dotted is None:
        return None
    conv = site.conv
    resolved = conv.resolve_expr(node.func)
    if resolved is not None:
        found = conv.analysis.facts.get(resolved)  # a class of another module (Note [package facts])
    else:
        scope = kinds._defined(conv.analysis, conv.scopes[-1], dotted)
        found = kinds.kinds_of_class(conv.analysis, scope) if scope is not None and scope.is_class else None
    return dotted if found and any(k.startswith(kinds.INITIALIZER) and k != _BASE for k in found) else None


_BASE = kinds.INITIALIZER + "Initializer"


def named_inits(site: Site, *names: str) -> None:
    """For a Gluon-signature helper: an initializer given by a name it does not know is left
    for a human (the helper would refuse it only when the program runs)."""
    for name in names:
        value = site.literal(name)
        if isinstance(value, str) and value.lower() not in RUNTIME_INIT_NAMES and value.lower() in init_callables.BY_NAME:
            # 'Xavier': MXNet's registry creates it by name; the helper takes its translation
            args = site.node.args
            found = [i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == name]
            if found:
                made = init_callables.from_string(site, value)
                site.node = site.node.with_changes(args=[a.with_changes(value=made) if i == found[0] else a
                                                         for i, a in enumerate(args)])
                continue
        if isinstance(value, str) and value.lower() not in RUNTIME_INIT_NAMES:
            raise Manual(f"{name}={value!r}: pass `mx.init.<Class>()` (translated to a torch init function); "
                         f"xlate knows only {', '.join(map(repr, RUNTIME_INIT_NAMES))} by name")


def with_inits(site: Site, node: cst.BaseExpression, inits: dict[str, Optional[cst.BaseExpression]]) -> cst.BaseExpression:
    """`_mx_init_params(module, weight=..., bias=...)` when the layer names its initializers."""
    given = [(k, v) for k, v in inits.items() if v is not None]
    if not given:
        return node
    return call(site, "_mx_init_params", [(None, node), *given])


def record(site: Site, node: cst.BaseExpression, out: Callable[[Optional[Shape]], Optional[Shape]],
           resolve: Optional[Callable[[Shape], Optional[cst.BaseExpression]]] = None) -> cst.BaseExpression:
    return layerinfo.record(site, node, LayerInfo(out=out, resolve=resolve))


def keeps_channels(shape: Optional[Shape]) -> Optional[Shape]:
    """Pooling: axis 1 keeps its size, the tensor has spatial axes after it."""
    return None if shape is None else Shape(shape.channels)
