"""Line and column of a few original nodes, without PositionProvider.

PositionProvider records a range for every node and costs about 1.6x parse + render on
MXNet code; a report needs positions for a handful of nodes. This renders the original
module once and notes where the wanted nodes start.
"""
from __future__ import annotations

from dataclasses import dataclass, field

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


def locate(module: cst.Module, nodes) -> dict[int, tuple[int, int]]:
    """Map id(node) -> (line, column), both 1-based, for nodes of `module`."""
    wanted = frozenset(id(n) for n in nodes)
    if not wanted:
        return {}
    state = _Locator(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        wanted=wanted,
    )
    module._codegen(state)
    return state.found
