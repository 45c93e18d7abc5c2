"""What the NDArray operator transforms (F.Convolution, F.Pooling, F.pad, ...) share: reading
MXNet's operator arguments and building the torch call or the `_mx_*` helper call.

Not a transform itself (it has no `transform`); the operator transforms import it.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Dynamic, Manual, Site, parse_source
from xlate.convert.table import EQ, commas

Value = Union[cst.BaseExpression, str]
Args = list  # of (keyword or None, Value)

CHANNEL_FIRST = (None, "NCW", "NCHW", "NCDHW")


def call(site: Site, func: str, args: Args) -> cst.Call:
    out = []
    for keyword, value in args:
        node = (parse_source(value) if isinstance(value, str) else value).deep_clone()
        out.append(cst.Arg(node, keyword=cst.Name(keyword), equal=EQ) if keyword else cst.Arg(node))
    return cst.Call(site.emit(func), args=commas(out))


def passed(site: Site, *names: Union[str, tuple[str, str]]) -> Args:
    """(torch keyword, value) for each MXNet argument the call gave: a name keeps its own
    keyword, an (mxnet, torch) pair is renamed. A literal `()` (MXNet's "default") is left out."""
    out = []
    for item in names:
        mx, pt = (item, item) if isinstance(item, str) else item
        if site.has(mx) and site.literal(mx) != ():
            out.append((pt, site.value(mx)))
    return out


def choice(site: Site, name: str, default: Any, allowed: Sequence, decide: str) -> Any:
    """The literal value of an argument the translation depends on: Dynamic when it is only
    known at run time (the rule's operator helper decides then), Manual when it is not one of
    `allowed`."""
    value = site.literal(name, default)
    if value is NOT_LITERAL:
        raise Dynamic(f"`{name}=` is known at run time")
    if value not in allowed:
        raise Manual(f"`{name}={value!r}` is not translated: {decide}")
    return value


def channel_first(site: Site) -> None:
    choice(site, "layout", None, CHANNEL_FIRST,
           "torch's functional ops are channel-first (NCW/NCHW/NCDHW); permute around the call by hand")


def ints(site: Site, name: str) -> Optional[tuple]:
    """A literal tuple of ints (the form MXNet's shape arguments take), else None."""
    value = site.literal(name)
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    return None


def required(site: Site, name: str) -> cst.BaseExpression:
    value = site.value(name)
    if value is None:
        raise Manual(f"`{name}` is required here")
    return value


def run_time(site: Site, helper: str, arrays: Sequence[str] = ("data",)) -> cst.Call:
    """The operator's helper (Note [operator helpers] in xlate/runtime/operators.py) with the
    bound arguments: the leading `arrays` (the first is a method call's receiver) positionally,
    the others by keyword under MXNet's names, so it decides at run time what a literal would
    have decided."""
    return call(site, helper, [(None, required(site, name)) for name in arrays] +
                [(name, arg.value) for name, arg in site.args.items() if name not in arrays])


def method_at_run_time(site: Site, op: str, how: str):
    """`x.op(args)` -> `_mx_np_method(x, "op", args)`, reported fixed: `how` it decides."""
    what = " ".join(site.code(site.original.func.value).split())  # the receiver as written
    what = what if len(what) <= 40 else what[:37] + "..."
    site.fixed(f"`{what}.{op}(...)` on a value xlate could not type -> `_mx_np_method(...)`, "
               f"decided at run time: {how}")
    call = site.node
    receiver = call.func.value
    head = site.emit(f'_mx_np_method({{x}}, "{op}")', x=receiver)
    args = [head.args[0], head.args[1], *call.args]
    args = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for a in args[:-1]] + \
        [args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
    return head.with_changes(args=args)
