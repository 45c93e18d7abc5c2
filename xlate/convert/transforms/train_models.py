"""Helpers the training-loop rules share: dotted names of call targets, `ast` expressions
kept alive for the analysis's caches, and whether a With statement is a plain
`with autograd.<record|pause|train_mode|predict_mode>(...):` (MXNet's mode itself is kept at
run time: Note [MXNet's mode] in xlate/runtime/autograd.py)."""
from __future__ import annotations

import ast
from typing import Optional

import libcst as cst

from xlate.convert.rulectx import Site

AUTOGRAD = "mxnet.autograd."
_SCOPES = ("record", "pause", "train_mode", "predict_mode")

def dotted(node) -> Optional[str]:
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def _ast_of(analysis, text: str) -> ast.expr:
    """An `ast` expression for `text`, kept alive on the analysis: kinds_of memoises by id()."""
    cache = analysis.__dict__.setdefault("_xlate_exprs", {})
    if text not in cache:
        cache[text] = ast.parse(text, mode="eval").body
    return cache[text]


def autograd_call(site: Site, with_node: cst.With) -> Optional[tuple[str, cst.Call]]:
    """(record | pause | train_mode | predict_mode, the call) when `with_node` is a plain
    `with autograd.X(...):` statement."""
    if len(with_node.items) != 1 or with_node.items[0].asname is not None:
        return None
    call = with_node.items[0].item
    if not isinstance(call, cst.Call):
        return None
    name = site.conv.resolve_expr(call.func)
    if name is None or not name.startswith(AUTOGRAD) or name[len(AUTOGRAD):] not in _SCOPES:
        return None
    return name[len(AUTOGRAD):], call
