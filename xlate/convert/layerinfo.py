"""What a converted layer constructor tells the converter about shapes (deferred input sizes).

Note [deferred input sizes]
Gluon layers may leave their input size open (`Dense(10)`, `Conv2D(32, 3)`, `BatchNorm()`)
and learn it at the first forward pass. A layer rule that emits a PyTorch constructor
records a `LayerInfo` for the node it emitted: how the layer changes what is known of the
shape flowing through it (`out`), and, when its own input size was left open, how to build
the eager constructor once that size is known (`resolve`). Containers (`Sequential.add`)
walk their layers in order and replace a lazy constructor by the eager one where the
previous layers determine the size; everywhere else the lazy form stays, which is
PyTorch's own deferred initialisation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional, Union

import libcst as cst

if TYPE_CHECKING:
    from xlate.convert.rulectx import Site


@dataclass(frozen=True)
class Shape:
    """What is statically known of a tensor flowing between layers."""

    # size of axis 1: an int, or the (side-effect free) expression a layer was given, such as
    # `channels[0]` (None: unknown)
    channels: Union[int, cst.BaseExpression, None]
    rank2: bool = False  # the tensor is exactly (N, channels)


@dataclass(frozen=True)
class LayerInfo:
    # the output given the input (None when unknown); layers that keep their input's
    # shape (activations, dropout, BatchNorm) return it unchanged
    out: Callable[[Optional[Shape]], Optional[Shape]]
    # for a layer whose input size was deferred: the eager constructor for a known input,
    # or None when this input does not determine it
    resolve: Optional[Callable[[Shape], Optional[cst.BaseExpression]]] = None


def keeps(shape: Optional[Shape]) -> Optional[Shape]:
    return shape


def size(site: "Site", value) -> Union[int, cst.BaseExpression, None]:
    """A layer argument usable as a known size: an int literal, or a plain name, attribute or
    subscript of those (`units`, `self.c`, `channels[0]`, `hidden[i]`: the next layer in the
    same statement, or on the next line, reads the same value); None otherwise."""
    node = site.value(value) if isinstance(value, str) else value
    if node is None:
        return None
    literal = site.evaluate(node)
    if isinstance(literal, int) and not isinstance(literal, bool):
        return literal if literal > 0 else None
    return node if _pure(node) else None


def _pure(node) -> bool:
    if isinstance(node, cst.Name):
        return True
    if isinstance(node, cst.Attribute):
        return _pure(node.value)
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = node.slice[0].slice
        return _pure(node.value) and isinstance(index, cst.Index) and (
            isinstance(index.value, cst.Integer) or _pure(index.value))
    return False


def as_node(value: Union[int, cst.BaseExpression]) -> cst.BaseExpression:
    """A known size as an expression to put into a constructor."""
    return cst.Integer(str(value)) if isinstance(value, int) else value


def record(site: "Site", node: cst.BaseExpression, info: LayerInfo) -> cst.BaseExpression:
    """Attach `info` to the node a layer rule returns (the converter may wrap it in parentheses,
    so the record is keyed by identity of the returned node)."""
    site.conv.layers[id(node)] = (node, info)  # the node is kept alive: its id is never reused
    return node


def lookup(conv, node: cst.BaseExpression) -> Optional[LayerInfo]:
    found = conv.layers.get(id(node))
    return found[1] if found is not None and found[0] is node else None
