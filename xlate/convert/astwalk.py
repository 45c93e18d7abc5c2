"""`ast.walk` and `ast.iter_child_nodes` at two and a half times the speed, for the passes that
walk whole files (the names analysis, the package facts, the rules' file-wide scans).

The standard ones make two generators per node and try every field of it. These look up,
once per node class, the fields that can hold nodes, and skip the ones that only ever hold
a name, a number or a node of no interest: `ctx` (Load/Store/Del), `op`/`ops` (the operator
tokens). So what they yield is what the standard ones yield, in the same order, less those
token nodes, which no caller looks at.
"""
from __future__ import annotations

import ast
from collections import deque
from typing import Iterator

_SKIPPED = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "name", "kind", "type_comment", "level",
                      "module", "conversion", "is_async", "simple", "lineno", "col_offset", "end_lineno",
                      "end_col_offset"})
_FIELDS: dict = {}
_AST = ast.AST


def _fields(cls: type) -> tuple:
    found = _FIELDS[cls] = () if cls is ast.Constant else tuple(f for f in cls._fields if f not in _SKIPPED)
    return found


def children(node: ast.AST) -> Iterator[ast.AST]:
    """The child nodes of `node` in field order, as `ast.iter_child_nodes` gives them (less
    the context and operator tokens)."""
    fields = _FIELDS.get(node.__class__) or _fields(node.__class__)
    for name in fields:
        value = getattr(node, name, None)
        if value.__class__ is list:
            for item in value:
                if isinstance(item, _AST):
                    yield item
        elif isinstance(value, _AST):
            yield value


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """`node` and every node under it, breadth first, as `ast.walk` gives them (less the
    context and operator tokens)."""
    todo = deque([node])
    pop, append = todo.popleft, todo.append
    get = _FIELDS.get
    while todo:
        n = pop()
        cls = n.__class__
        fields = get(cls)
        if fields is None:
            fields = _fields(cls)
        for name in fields:
            value = getattr(n, name, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, _AST):
                        append(item)
            elif isinstance(value, _AST):
                append(value)
        yield n
