"""Where a converted file gets its helpers: pasted after the user's code where Python allows it,
or imported from the helper module of a converted tree (Note [helper placement]).

Note [helper placement]
A reviewer reads the user's code first, so helpers never stand in front of it without need.
A single file written to stdout keeps them (it must run on its own): after the user's code,
or, when a top-level statement may run one of them while the module is imported, in one block
after the opening imports, before the user's first statement (never between two of the user's
statements: the code reads top to bottom as it was written). A single file written with
`-o FILE` imports them from a `_mx_compat.py` beside it, as a tree's scripts do. Defining a function or a class runs no helper unless a decorator, a default, a base or
the class body calls one; a call at the top level runs one when it calls a helper or a name this
file defines (`main()`, `net = build()`), since those may use helpers; calls on imported names
(`logging.getLogger()`) cannot. A tree gets one helper module, `_mx_compat.py`, where its files
can import it: at the top of each package (files inside import it relatively), and beside
scripts outside any package (absolute import from the script's own folder). A package file
that also runs as a script (`if __name__ == "__main__":`) imports it either way.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from xlate.runtime import HELPER_RE
from xlate.convert.visiting import FastVisitor

MODULE_NAME = "_mx_compat"


@dataclass(frozen=True)
class HelperImport:
    """How one file of a converted tree imports the tree's helper module: `level` dots for a
    file inside a package (None for a script folder), and whether it may also run as a script."""

    level: Optional[int] = None
    script: bool = False
    # its folder has no `__init__.py` (a namespace folder inside a package, Note [namespace folders inside a
    # package]): nothing tells a module lent from a script there, so its kept imports are guarded
    namespace: bool = False

    def statements(self, names: list[str]) -> list[cst.BaseStatement]:
        if self.level is None:
            return [cst.parse_statement(_import_from(MODULE_NAME, names))]
        relative = "." * self.level + MODULE_NAME
        if not self.script:
            return [cst.parse_statement(_import_from(relative, names))]
        return [cst.parse_statement(f"if __package__:\n    {_import_from(relative, names, '    ')}\n"
                                    f"else:\n    {_import_from(MODULE_NAME, names, '    ')}\n")]


WIDTH = 120  # the widest line the helper import is written on (the project's own width)


def _import_from(module: str, names: list[str], indent: str = "") -> str:
    """`from module import a, b` on one line where it fits WIDTH at `indent`; else the names in
    parentheses, as many to a line as fit, each line indented one level more."""
    line = f"from {module} import {', '.join(names)}"
    if len(indent) + len(line) <= WIDTH:
        return line
    rows, row = [], ""
    for name in names:
        if row and len(indent) + 4 + len(row) + len(name) + 2 > WIDTH:
            rows.append(row)
            row = ""
        row = f"{row} {name}," if row else f"{name},"
    rows.append(row)
    return f"from {module} import (\n" + "".join(f"{indent}    {r}\n" for r in rows) + f"{indent})"


def inline_position(body: list, first: int, start: int) -> int:
    """The index in `body` before which pasted helpers stand: the end, or, when a statement
    (after the module's docstring and `__future__` imports, `first`) may run a helper on
    import, `start`, the end of the opening imports, unless one of them runs it sooner."""
    local = _local_names(body)
    early = next((i for i in range(first, len(body)) if _runs_helpers(body[i], local)), None)
    return len(body) if early is None else min(early, start)


def _local_names(body: list) -> set:
    found = set()
    for stmt in body:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            found.add(stmt.name.value)
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                targets = small.targets if isinstance(small, cst.Assign) else \
                    [small] if isinstance(small, (cst.AnnAssign, cst.AugAssign)) else []
                for t in targets:
                    if isinstance(t.target, cst.Name):
                        found.add(t.target.value)
    return found


_LITERALS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float, cst.List,
             cst.Tuple, cst.Dict, cst.Set)


class _Risk(FastVisitor):
    """Looks for what may run a helper when the statement executes at import time."""

    def __init__(self, local: set):
        super().__init__()
        self.local = local
        self.found = False

    def visit_Name(self, node: cst.Name) -> None:
        if HELPER_RE.fullmatch(node.value):
            self.found = True

    def visit_Call(self, node: cst.Call) -> None:
        self._calls(node.func)

    def visit_Decorator(self, node: cst.Decorator) -> None:
        self._calls(node.decorator)  # `@register` calls register(function) at definition

    def _calls(self, func: cst.BaseExpression) -> None:
        root = func
        while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
            root = root.func if isinstance(root, cst.Call) else root.value
        if isinstance(root, cst.Name):
            self.found |= root.value in self.local
        elif not isinstance(root, _LITERALS):
            self.found = True

    # a function's or lambda's body runs later, when it is called
    def visit_Lambda(self, node: cst.Lambda) -> bool:
        self.walk(node.params)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for part in (*node.decorators, node.params, node.returns):
            if part is not None:
                self.walk(part)
        return False


def _runs_helpers(stmt: cst.CSTNode, local: set) -> bool:
    if isinstance(stmt, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom, cst.Pass)) for s in stmt.body):
        return False
    risk = _Risk(local)
    risk.walk(stmt)
    return risk.found
