"""Import bookkeeping after the rewrite: drop dead MXNet imports, add the torch ones used,
and place any helper functions the rewrites called."""
from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Callable, Optional

import libcst as cst

from xlate.convert import names
from xlate.convert.placement import HelperImport, inline_position
from xlate.convert.visiting import NODES, FastTransformer, children, derives
from xlate.runtime import closure, sources as helper_sources

_TORCH_IMPORTS = (
    ("torch", "torch", "import torch"),
    ("nn", "torch.nn", "from torch import nn"),
    ("F", "torch.nn.functional", "import torch.nn.functional as F"),
)


def _is_mx_alias(alias: cst.ImportAlias, module: str | None, local_roots: frozenset = frozenset()) -> bool:
    full = names.ident(cst.helpers.get_full_name_for_node(alias.name) or "")
    dotted = f"{module}.{full}" if module else full
    return names.is_mxnet(dotted) and dotted.split(".", 1)[0] not in local_roots  # the tree's own code stays


def _bound_name(alias: cst.ImportAlias) -> str:
    if alias.asname is not None:
        return names.ident(alias.asname.name.value)  # type: ignore[union-attr]
    full = cst.helpers.get_full_name_for_node(alias.name) or ""
    return names.ident(full.split(".", 1)[0])


# Only statements can hold imports: the fixer never walks into an expression.
_STATEMENT_LEVEL = (cst.Module, cst.SimpleStatementLine, cst.BaseCompoundStatement, cst.BaseSuite,
                    cst.Else, cst.ExceptHandler, cst.Finally, cst.Import, cst.ImportFrom) + (
    (cst.ExceptStarHandler,) if hasattr(cst, "ExceptStarHandler") else ())


# by type: isinstance of LibCST's abstract bases is a Python call (ABCMeta.__instancecheck__)
_WALKED = frozenset(t for t in NODES if derives(t, _STATEMENT_LEVEL))
_COMPOUND = frozenset(t for t in NODES if derives(t, (cst.BaseCompoundStatement,)))
_BLOCKS = _WALKED - {cst.Module, cst.Import, cst.ImportFrom}
_IMPORTS = (cst.Import, cst.ImportFrom)


def _holds_import(node: cst.CSTNode) -> bool:
    """Whether an import statement is somewhere in this statement's blocks."""
    if type(node) is cst.SimpleStatementLine or type(node) is cst.SimpleStatementSuite:
        return any(type(s) in _IMPORTS for s in node.body)
    return any(_holds_import(child) for child in children(node) if type(child) in _BLOCKS)


@functools.lru_cache(maxsize=None)
def _statement(text: str) -> cst.BaseStatement:
    return cst.parse_statement(text)


class _ImportFixer(FastTransformer):
    def __init__(self, survivors: Counter, enabled: Callable[[str], bool], local_roots: frozenset = frozenset()):
        super().__init__()
        self.survivors = survivors
        self.local_roots = local_roots
        self.enabled = enabled
        self.notes: list[tuple] = []
        # Pass nodes standing in for removed imports, by id (kept alive here: a freed node's
        # id is reused by the next node made)
        self.dropped: dict[int, cst.Pass] = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        kind = type(node)
        if kind in _COMPOUND and not _holds_import(node):
            return False  # walked, it would be rebuilt with all it holds
        return kind in _WALKED and super().on_visit(node)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return any(type(s) in _IMPORTS for s in node.body)

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def _keep(self, node, aliases, module: str | None):
        kept, dropped = [], []
        for alias in aliases:
            if not _is_mx_alias(alias, module, self.local_roots):
                kept.append(alias)
                continue
            name = _bound_name(alias)
            if self.survivors[name] or not self.enabled("MX001"):
                kept.append(alias)
                self.notes.append((node, "MX002", "manual",
                                   f"MXNet import `{name}` kept: it is still used by code left to translate"))
            else:
                dropped.append(name)
        if dropped:
            self.notes.append((node, "MX001", "fixed", "removed MXNet import of " +
                               ", ".join(f"`{d}`" for d in dropped)))
        return kept, dropped

    def leave_Import(self, original: cst.Import, updated: cst.Import):
        kept, dropped = self._keep(original, updated.names, None)
        if not dropped:
            return updated
        if not kept:
            return self._marker()
        return updated.with_changes(names=_fix_commas(kept))

    def _marker(self) -> cst.Pass:
        # LibCST drops a statement line whose body empties, comments included; a marked
        # `pass` keeps the line until its block decides where the comments go.
        node = cst.Pass()
        self.dropped[id(node)] = node
        return node

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom):
        module = ("." * len(updated.relative)) + names.ident(cst.helpers.get_full_name_for_node(updated.module) or "") \
            if updated.module is not None else None
        if isinstance(updated.names, cst.ImportStar):
            if module and names.is_mxnet(module) and module.split(".", 1)[0] not in self.local_roots:
                self.notes.append((original, "MX003", "manual",
                                   f"`from {module} import *`: the names it brings in are not tracked"))
            return updated
        kept, dropped = self._keep(original, updated.names, module)
        if not dropped:
            return updated
        if not kept:
            return self._marker()
        return updated.with_changes(names=_fix_commas(kept), rpar=updated.rpar, lpar=updated.lpar)

    def leave_SimpleStatementLine(self, original, updated):
        body = [s for s in updated.body if self.dropped.get(id(s)) is not s]
        if len(body) == len(updated.body):
            return updated
        if not body:  # the whole line goes; keep one marker so the block can move its comments
            return updated.with_changes(body=[updated.body[0]])
        last = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(body=body[:-1] + [last])

    def leave_IndentedBlock(self, original, updated):
        body = _drop_empty(updated.body, self.dropped)
        if not body:  # every statement was an MXNet import: keep the block valid
            body = [cst.SimpleStatementLine([cst.Pass()])]
        return updated.with_changes(body=body)


def _empty(stmt: cst.CSTNode, dropped: dict[int, cst.Pass]) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(dropped.get(id(s)) is s for s in stmt.body)


def _drop_empty(body, dropped: dict[int, cst.Pass], *, keep_at: int = -1, sink: list | None = None) -> list:
    """Remove emptied lines, moving their comment lines onto the next statement."""
    out, pending = [], []
    for i, stmt in enumerate(body):
        if _empty(stmt, dropped):
            if i == keep_at and sink is not None:
                sink.extend(stmt.leading_lines)
            else:
                pending.extend(line for line in stmt.leading_lines if line.comment is not None)
            continue
        if pending:
            stmt = stmt.with_changes(leading_lines=tuple(pending) + tuple(stmt.leading_lines))
            pending = []
        out.append(stmt)
    return out


def _fix_commas(aliases):
    aliases = list(aliases)
    last = aliases[-1]
    return aliases[:-1] + [last.with_changes(comma=cst.MaybeSentinel.DEFAULT)]


def fix_imports(module: cst.Module, analysis: names.Analysis, *, survivors: Counter, torch_uses: set[str],
                long_names: frozenset, helpers: list[str], enabled: Callable[[str], bool],
                helper_import: Optional[HelperImport] = None):
    """Drop the MXNet imports nothing left uses (`survivors` counts the uses left per bound
    name), add the torch imports `torch_uses` needs (spelled out for `long_names`), and paste
    the `helpers` the rewrites called, with the helpers they call, or import them from the
    tree's helper module (Note [helper placement] in xlate/convert/placement.py)."""
    fixer = _ImportFixer(survivors, enabled, analysis.context.local_roots)
    fixed = module.visit(fixer)
    root = analysis.scopes[()]
    uses = set(torch_uses)
    helpers = [h for h in helpers if h not in root.other and h not in root.imports]
    if helpers and helper_import is None:
        uses.add("torch")  # the pasted helpers use it
    if uses & long_names:
        uses = (uses - long_names) | {"torch"}
    new_imports = [_statement(line) for short, mod, line in _TORCH_IMPORTS
                   if short in uses and root.imports.get(short) != mod]
    if helper_import is None:
        helpers = [h for h in closure(helpers) if h not in root.other]

    # New imports go where the first top-level MXNet import was, with its comments.
    first_mx = next((i for i, s in enumerate(module.body) if _has_mx_import(s)), None)
    if first_mx is None:
        first_mx = 0
        while first_mx < len(module.body) and _is_header(module.body[first_mx]):
            first_mx += 1
    lead: list = []
    body = _drop_empty(fixed.body, fixer.dropped, keep_at=first_mx if new_imports else -1, sink=lead)
    anchor = first_mx  # nothing before the first MXNet import was removed
    if new_imports:
        if not lead and anchor < len(body) and not _empty(fixed.body[anchor], fixer.dropped):
            lead = list(body[anchor].leading_lines)
            body[anchor] = body[anchor].with_changes(leading_lines=())
        new_imports[0] = new_imports[0].with_changes(leading_lines=tuple(lead))
        body[anchor:anchor] = new_imports
    if helpers and helper_import is not None:
        at = _after_imports(body, [])
        body[at:at] = helper_import.statements(sorted(helpers))
    elif helpers:
        at = inline_position(body, _after_imports(body, helpers))
        blank = (cst.EmptyLine(), cst.EmptyLine())
        newline = module.default_newline  # in the helpers' docstrings too: a CRLF file stays CRLF
        defs = [_statement(helper_sources()[h].replace("\n", newline)).with_changes(leading_lines=blank)
                for h in helpers]
        if at < len(body):
            comments = tuple(line for line in body[at].leading_lines if line.comment is not None)
            body[at] = body[at].with_changes(leading_lines=blank + comments)
        body[at:at] = defs
    if body == list(fixed.body):
        return fixed, fixer.notes
    return fixed.with_changes(body=body), fixer.notes


def _has_mx_import(stmt: cst.CSTNode) -> bool:
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for s in stmt.body:
        if isinstance(s, cst.Import) and any(_is_mx_alias(a, None) for a in s.names):
            return True
        if isinstance(s, cst.ImportFrom) and s.module is not None:
            mod = names.ident(cst.helpers.get_full_name_for_node(s.module) or "")
            if names.is_mxnet(mod) and not s.relative:
                return True
    return False


def _is_header(stmt: cst.CSTNode) -> bool:
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return False
    s = stmt.body[0]
    if isinstance(s, cst.Expr) and isinstance(s.value, (cst.SimpleString, cst.ConcatenatedString)):
        return True
    return isinstance(s, cst.ImportFrom) and cst.helpers.get_full_name_for_node(s.module) == "__future__"


def _after_imports(body: list, helpers: list) -> int:
    """After the last import of the module's opening statements (an `__all__` may come
    first), but before any of them that uses a helper."""
    last = -1
    for i, stmt in enumerate(body):
        if _is_import_line(stmt):
            last = i
        elif not isinstance(stmt, (cst.SimpleStatementLine, cst.If, cst.Try)):
            break
    if not helpers:
        return last + 1
    uses = re.compile(r"\b(" + "|".join(map(re.escape, helpers)) + r")\b")
    for i, stmt in enumerate(body[:last + 1]):
        if not _is_import_line(stmt) and uses.search(cst.Module(body=[stmt]).code):
            return i
    return last + 1


def _is_import_line(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, (cst.Import, cst.ImportFrom))
                                                             for s in stmt.body)
