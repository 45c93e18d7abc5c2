"""Statement-level hooks of the converter: suppression comments, statements a rule replaces
or deletes, `with` blocks a rule unwraps, and the straight-line order of statements that
Sequential chains rely on (Note [deferred input sizes] in xlate.convert.layerinfo)."""
from __future__ import annotations

import re
from typing import Optional

import libcst as cst

_IGNORE_RE = re.compile(r"#\s*xlate:\s*ignore(?:\[([A-Z0-9, ]+)\])?")


class Statements:
    """Mixed into the Converter, which sets up the state these hooks keep (its __init__)."""

    # -- suppression comments -------------------------------------------------
    def _suppressed(self, code: str) -> bool:
        return any(s is not None and (not s or code in s) for s in self.suppress)

    def _push_suppress(self, comment: Optional[cst.Comment]) -> None:
        codes = None
        if comment is not None:
            m = _IGNORE_RE.search(comment.value)
            if m:
                codes = frozenset(c.strip() for c in m.group(1).split(",")) if m.group(1) else frozenset()
        self.suppress.append(codes)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._push_suppress(node.trailing_whitespace.comment)
        self.statement_stack.append(node)
        self.line_before[id(node)] = self.last_line

    def leave_SimpleStatementLine(self, original, updated):
        self.suppress.pop()
        self.statement_stack.pop()
        self.last_line = id(original)
        smalls = self.statement_rewrites.pop(id(original), None)
        if smalls is None:
            return updated
        if not smalls:
            self.removed[id(updated)] = updated
            return updated
        lines = [cst.SimpleStatementLine([small]) for small in smalls]
        lines[0] = lines[0].with_changes(leading_lines=updated.leading_lines,
                                         trailing_whitespace=updated.trailing_whitespace)
        return cst.FlattenSentinel(lines)

    def _header(self, node) -> None:
        body = getattr(node, "body", None)
        header = getattr(body, "header", None)
        self._push_suppress(header.comment if header is not None else None)

    def _header_done(self, original, updated):
        self.suppress.pop()
        return updated

    def _compound(self, node) -> None:
        self._header(node)
        self.last_line = None

    def _compound_done(self, original, updated):
        self.last_line = None
        return self._header_done(original, updated)

    visit_For = visit_While = visit_If = _compound
    leave_For = leave_While = leave_If = _compound_done

    def visit_With(self, node: cst.With) -> None:
        self._compound(node)
        self.with_stack.append(node)

    def leave_With(self, original: cst.With, updated: cst.With):
        self.with_stack.pop()
        self._compound_done(original, updated)
        if id(original) not in self.unwrap:
            return updated
        for item in updated.items:  # `self.name_scope()` goes: what was left in it is gone too
            self.dropped(item.item)
        if isinstance(updated.body, cst.SimpleStatementSuite):  # `with self.name_scope(): self.d = ...`
            suite = updated.body
            return cst.SimpleStatementLine(suite.body, leading_lines=updated.leading_lines,
                                           trailing_whitespace=suite.trailing_whitespace)
        # `with self.name_scope():` goes; its body moves out a level with the comments kept
        body = list(updated.body.body)
        lead = list(updated.leading_lines)
        for comment in (updated.body.header.comment,):
            if comment is not None:
                lead.append(cst.EmptyLine(comment=comment))
        lead += list(body[0].leading_lines)
        body[0] = body[0].with_changes(leading_lines=lead)
        return cst.FlattenSentinel(body)

    def visit_Try(self, node) -> None:
        self.last_line = None

    def leave_Try(self, original, updated):
        self.last_line = None
        return updated

    # -- statements rules deleted ------------------------------------------------
    def _drop_removed(self, body: list) -> tuple[list, list]:
        """Drop deleted statement lines; their comments go to the next statement (returned
        when nothing follows)."""
        out, carry = [], []
        for stmt in body:
            if self.removed.get(id(stmt)) is stmt:
                carry += [line for line in stmt.leading_lines if line.comment is not None]
                comment = stmt.trailing_whitespace.comment
                if comment is not None:
                    carry.append(cst.EmptyLine(comment=comment))
                continue
            if carry:
                stmt = stmt.with_changes(leading_lines=[*carry, *stmt.leading_lines])
                carry = []
            out.append(stmt)
        return out, carry

    # every block body starts a new straight line of statements (an `else:` after an `if:`)
    def visit_IndentedBlock(self, node) -> None:
        self.last_line = None

    def visit_SimpleStatementSuite(self, node) -> None:
        self.last_line = None

    def leave_SimpleStatementSuite(self, original, updated):
        self.last_line = None
        return updated

    def leave_IndentedBlock(self, original, updated):
        self.last_line = None
        if not self.removed:
            return updated
        body, carry = self._drop_removed(updated.body)
        if len(body) == len(updated.body):
            return updated
        if not body:
            body = [cst.SimpleStatementLine([cst.Pass()], leading_lines=carry)]
            carry = []
        return updated.with_changes(body=body, footer=[*carry, *updated.footer])

    def leave_Module(self, original, updated):
        if not self.removed:
            return updated
        body, carry = self._drop_removed(updated.body)
        return updated.with_changes(body=body, footer=[*carry, *updated.footer])

    def statement_of(self, call: cst.CSTNode) -> Optional[cst.SimpleStatementLine]:
        """The statement line `call` makes up on its own (`mx.random.seed(1)`), if it does."""
        if not self.statement_stack:
            return None
        stmt = self.statement_stack[-1]
        if len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr) and stmt.body[0].value is call:
            return stmt
        return None

    def replace_statement(self, stmt: cst.SimpleStatementLine, smalls: list) -> None:
        """Let a rule turn its statement into several lines (one call -> four lines), or
        none (its comments stay; a block left empty gets `pass`)."""
        self.statement_rewrites[id(stmt)] = smalls
