"""Cheaper hook dispatch for LibCST transformers.

LibCST finds `visit_<Node>` / `leave_<Node>_<field>` by building the name and calling
getattr for every node and field it walks (~300k times on a 3000-line file). The hooks of a
class never change, so look each one up once per (class, node type, field).
"""
from __future__ import annotations

from typing import Any

import libcst as cst

_CACHE: dict[tuple, Any] = {}


def _hook(cls: type, kind: str, node_type: type, field: str = "") -> Any:
    key = (cls, kind, node_type, field)
    try:
        return _CACHE[key]
    except KeyError:
        name = f"{kind}_{node_type.__name__}" + (f"_{field}" if field else "")
        fn = _CACHE[key] = getattr(cls, name, None)
        return fn


class FastTransformer(cst.CSTTransformer):
    def on_visit(self, node: cst.CSTNode) -> bool:
        fn = _hook(type(self), "visit", type(node))
        return fn is None or fn(self, node) is not False

    def on_leave(self, original_node, updated_node):
        fn = _hook(type(self), "leave", type(original_node))
        return updated_node if fn is None else fn(self, original_node, updated_node)

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        fn = _hook(type(self), "visit", type(node), attribute)
        if fn is not None:
            fn(self, node)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        fn = _hook(type(self), "leave", type(original_node), attribute)
        if fn is not None:
            fn(self, original_node)
