"""Line and column of a few original nodes, without PositionProvider.

PositionProvider records a range for every node and costs about 1.6x parse + render on
MXNet code; a report needs positions for a handful of nodes. Rendering the original module
once more and noting where the wanted nodes start costs a fifth of the floor on its own, so
a node reported inside a statement line is looked for in that line alone, rendered with its
own indentation from the line `ast` gives it (xlate.convert.cold.Pairing). A node that is not
found there (reported from outside any line, or from another line) is found by rendering the
whole module.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import libcst as cst
from libcst._nodes.internal import CodegenState


@dataclass
class _Locator(CodegenState):
    wanted: frozenset = frozenset()
    found: dict = field(default_factory=dict)
    _done: int = 0
    _line: int = 1
    _col: int = 0

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.wanted:
            chunk = "".join(self.tokens[self._done:])
            self._done = len(self.tokens)
            # lines end as Python's do: \n, \r\n or a lone \r
            newlines = chunk.count("\n") + chunk.count("\r") - chunk.count("\r\n")
            if newlines:
                self._line += newlines
                self._col = len(chunk) - max(chunk.rfind("\n"), chunk.rfind("\r")) - 1
            else:
                self._col += len(chunk)
            self.found.setdefault(id(node), (self._line, self._col + 1))
            if len(self.found) == len(self.wanted):
                raise _AllFound()  # the rest of the render is not needed


class _AllFound(Exception):
    pass


def _render(node: cst.CSTNode, state: _Locator) -> None:
    try:
        node._codegen(state)
    except _AllFound:
        pass


def locate(module: cst.Module, nodes, anchors: Optional[dict] = None, pairing=None) -> dict[int, tuple[int, int]]:
    """Map id(node) -> (line, column), both 1-based, for nodes of `module`. `anchors` maps a
    node's id to the statement line, def or class it was reported in; `pairing`
    (xlate.convert.cold.Pairing) says where those begin in the source."""
    wanted = frozenset(id(n) for n in nodes)
    found: dict[int, tuple[int, int]] = {}
    by_stmt: dict[int, tuple] = {}
    starts = pairing.starts if pairing is not None else {}
    for key in wanted:
        stmt = (anchors or {}).get(key) or (pairing.lines_of.get(key) if pairing is not None else None)
        if stmt is not None and id(stmt) in starts:
            by_stmt.setdefault(id(stmt), (stmt, set()))[1].add(key)
    for stmt, keys in by_stmt.values():
        found.update(_within(module, stmt, keys, *starts[id(stmt)]))
    rest = wanted - found.keys()  # reported elsewhere than where they sit
    if rest:
        state = _Locator(default_indent=module.default_indent, default_newline=module.default_newline, wanted=rest)
        _render(module, state)
        found.update(state.found)
    return found


def _within(module: cst.Module, stmt: cst.CSTNode, keys: set, first: int, indent: str) -> dict:
    """Positions of the nodes `keys` inside `stmt`, which begins at line `first` (its first
    statement; a def's or class's keyword) with indentation `indent`. A def is rendered
    whole (its rule reports on the body it rewrote), a class only down to its colon."""
    header = isinstance(stmt, (cst.FunctionDef, cst.ClassDef))
    if isinstance(stmt, cst.ClassDef):  # only its header: the same decorators, name and bases
        stmt = stmt.with_changes(body=cst.SimpleStatementSuite(body=[cst.Pass()]))
    state = _Locator(default_indent=module.default_indent, default_newline=module.default_newline,
                     wanted=frozenset(keys | {id(stmt.name)}) if header else frozenset(keys))
    state.indent_tokens = [indent] if indent else []
    _render(stmt, state)
    if header:  # `def`/`class` and its name share a line (a backslash between them: not found)
        name_line = state.found.get(id(stmt.name), (None,))[0]
        if name_line is None:
            return {}
        offset = first - name_line
    else:  # the render's first line is the statement's first leading line
        offset = first - 1 - len(stmt.leading_lines)
    return {key: (row + offset, col) for key, (row, col) in state.found.items() if key in keys}
