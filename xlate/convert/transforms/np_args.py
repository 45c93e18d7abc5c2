"""What the numpy-dialect transforms (rules/7xx_numpy.toml) share: the kinds of the call's own
arguments (Note [numpy dialect] in xlate/convert/names.py), and arrays torch needs as tensors.

Not a transform itself (it has no `transform`); the `np_*` transforms import it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

import libcst as cst

from xlate.convert.rulectx import Manual, Site, bind

ARRAYS = ("nd", "mxnp")


def originals(site: Site, *signature: str) -> dict:
    """MXNet parameter name -> the argument as written (before any rule rewrote it inside), for
    `classify`; `signature` for a transform that binds the call itself."""
    call = site.original
    if not isinstance(call, cst.Call):
        return {}
    receiver = call.func.value if site.receiver is not None and isinstance(call.func, cst.Attribute) else None
    rule = replace(site.rule, signature=signature) if signature else site.rule
    try:
        args, _ = bind(rule, call, receiver)
    except Manual:
        return {}
    return {name: arg.value for name, arg in args.items()}


def kind(site: Site, name: str, *signature: str) -> Optional[str]:
    """'nd', 'mxnp', 'np' or None for the argument `name` as written."""
    node = originals(site, *signature).get(name)
    return site.conv.classify(node) if node is not None else None


def is_array(site: Site, name: str, *signature: str) -> bool:
    return kind(site, name, *signature) in ARRAYS


def tensor(site: Site, name: str, *signature: str) -> cst.BaseExpression:
    """The argument as a tensor: itself when it is a known MXNet array, else `torch.as_tensor(v)`.
    mx.np functions take Python numbers (and fall back to NumPy for them, N1.25); torch's take
    tensors, and `as_tensor` returns a tensor unchanged (no copy, its graph kept)."""
    value = site.value(name)
    if value is None:
        raise Manual(f"`{name}` is required here")
    if kind(site, name, *signature) in ARRAYS + ("pt",):  # a torch value already: as_tensor gives it back
        return value
    return site.emit("torch.as_tensor({v})", v=value)


def number(site: Site, name: str) -> bool:
    """The argument is a literal int or float (not a bool)."""
    value = site.literal(name)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def condition(site: Site, name: str, *signature: str) -> cst.BaseExpression:
    """A condition as torch.where takes it: a boolean tensor. A comparison is one already; other
    arrays (float 0/1 masks, which mx.np reads as non-zero = true) are compared with 0."""
    value = site.value(name)
    if value is None:
        raise Manual(f"`{name}` is required here")
    node = originals(site, *signature).get(name)
    if isinstance(node, (cst.Comparison, cst.BooleanOperation)) or (
            isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not)):
        return value
    return site.emit("{c} != 0", c=tensor(site, name, *signature))
