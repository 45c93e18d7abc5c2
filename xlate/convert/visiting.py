"""Cheaper hook dispatch for LibCST transformers.

LibCST finds `visit_<Node>` / `leave_<Node>_<field>` by building the name and calling
getattr for every node and field it walks (~300k times on a 3000-line file). A class's
hooks never change, so they are looked up once: node hooks per (class, node type), field
hooks in a table built when the class is defined.
"""
from __future__ import annotations

from typing import Any

import libcst as cst

_CACHE: dict[tuple, Any] = {}


def _hook(cls: type, kind: str, node_type: type) -> Any:
    key = (cls, kind, node_type)
    try:
        return _CACHE[key]
    except KeyError:
        fn = _CACHE[key] = getattr(cls, f"{kind}_{node_type.__name__}", None)
        return fn


class FastTransformer(cst.CSTTransformer):
    _visit_fields: dict = {}
    _leave_fields: dict = {}
    cold: frozenset = frozenset()  # ids of nodes whose children are not walked (Note [cold statements])

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._visit_fields, cls._leave_fields = {}, {}
        for name in dir(cls):
            kind, _, rest = name.partition("_")
            if kind not in ("visit", "leave") or "_" not in rest:
                continue
            node_name, _, field = rest.partition("_")
            node_type = getattr(cst, node_name, None)
            if isinstance(node_type, type) and issubclass(node_type, cst.CSTNode):
                table = cls._visit_fields if kind == "visit" else cls._leave_fields
                table.setdefault(node_type, {})[field] = getattr(cls, name)

    def on_visit(self, node: cst.CSTNode) -> bool:
        fn = _hook(type(self), "visit", type(node))
        return (fn is None or fn(self, node) is not False) and id(node) not in self.cold

    def on_leave(self, original_node, updated_node):
        fn = _hook(type(self), "leave", type(original_node))
        return updated_node if fn is None else fn(self, original_node, updated_node)

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        fields = self._visit_fields.get(type(node))
        if fields is not None and attribute in fields:
            fields[attribute](self, node)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        fields = self._leave_fields.get(type(original_node))
        if fields is not None and attribute in fields:
            fields[attribute](self, original_node)
