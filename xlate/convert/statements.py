"""Statement-level hooks of the converter: suppression comments, statements a rule replaces
or deletes, `with` blocks a rule unwraps, and the straight-line order of statements that
Sequential chains rely on (Note [deferred input sizes] in xlate.convert.layerinfo)."""
from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from xlate.convert.transforms import untyped_compare

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
        smalls = self._rewritten(original, updated)
        if smalls is None:
            return self._inserted(original, updated)
        if not smalls:
            self.removed[id(updated)] = updated
            return updated
        lines = [cst.SimpleStatementLine([small.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)]) for small in smalls]
        lines[0] = lines[0].with_changes(leading_lines=updated.leading_lines,
                                         trailing_whitespace=updated.trailing_whitespace)
        return self._inserted(original, cst.FlattenSentinel(lines))

    def _rewritten(self, original, updated) -> Optional[list]:
        """The small statements of a line or one-line block body once rules replaced theirs
        (None when none did)."""
        self.rewrite_at.pop(id(original), None)
        rewrites = self.statement_rewrites.pop(id(original), None)
        if rewrites is None:
            return None
        smalls = []
        for i, small in enumerate(updated.body):
            smalls.extend(rewrites.get(i, [small]))
        if smalls:
            smalls[-1] = smalls[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return smalls

    # -- statements rules add before a statement still being visited -------------------
    def insert_before(self, stmt: cst.CSTNode, smalls: list) -> None:
        """Let a rule put statements before `stmt`, an open statement (the one being visited or
        one that contains it: `trainer.zero_grad()` before the `for` whose body calls
        backward); each small statement is added once."""
        pending = self.insertions.setdefault(id(stmt), [])
        known = {cst.Module([]).code_for_node(s) for s in pending}
        pending.extend(s for s in smalls if cst.Module([]).code_for_node(s) not in known)

    def _inserted(self, original, result):
        smalls = self.insertions.pop(id(original), None)
        if not smalls:
            return result
        lines = list(result.nodes) if isinstance(result, cst.FlattenSentinel) else [result]
        added = [cst.SimpleStatementLine([small]) for small in smalls]
        first = lines[0]
        added[0] = added[0].with_changes(leading_lines=first.leading_lines)
        lines[0] = first.with_changes(leading_lines=[])
        return cst.FlattenSentinel(added + lines)

    def _header(self, node) -> None:
        body = getattr(node, "body", None)
        header = getattr(body, "header", None)
        self._push_suppress(header.comment if header is not None else None)

    def _header_done(self, original, updated):
        self.suppress.pop()
        return updated

    def _compound(self, node) -> None:
        self._header(node)
        if isinstance(node, (cst.If, cst.While)):
            untyped_compare.note_truth_value(self, node.test)  # Note [comparisons of untyped values]
        self.last_line = None
        self.compound_stack.append(node)

    def _compound_done(self, original, updated):
        self.last_line = None
        self.compound_stack.pop()
        return self._inserted(original, self._header_done(original, updated))

    visit_For = visit_While = visit_If = _compound
    leave_For = leave_While = leave_If = _compound_done

    def visit_With(self, node: cst.With) -> None:
        self._compound(node)
        self.with_stack.append(node)

    def leave_With(self, original: cst.With, updated: cst.With):
        self.with_stack.pop()
        self.compound_stack.pop()
        self.last_line = None
        self._header_done(original, updated)
        before, after = self.around.pop(id(original), ([], []))
        if id(original) in self.unwrap:
            for item in updated.items:  # `self.name_scope()` goes: what was left in it is gone too
                self.dropped(item.item)
        if id(original) not in self.unwrap:
            body = [updated]
        elif isinstance(updated.body, cst.IndentedBlock):
            # `with self.name_scope():` goes; its body moves out a level with the comments kept
            body = list(updated.body.body)
            comment = updated.body.header.comment
            if comment is not None:
                body[0] = body[0].with_changes(leading_lines=[cst.EmptyLine(comment=comment),
                                                              *body[0].leading_lines])
        else:  # `with autograd.record(): y = f(x)` on one line
            body = [cst.SimpleStatementLine(list(updated.body.body), trailing_whitespace=updated.body.trailing_whitespace)]
        lines = [cst.SimpleStatementLine([small]) for small in before] + body + \
            [cst.SimpleStatementLine([small]) for small in after]
        if len(lines) == 1 and lines[0] is updated:
            return self._inserted(original, updated)
        lead = list(updated.leading_lines) + list(lines[0].leading_lines)
        lines[0] = lines[0].with_changes(leading_lines=lead)
        if id(original) in self.unwrap and id(updated.body) in self.emptied:
            # `with self.name_scope(): net.hybridize()`: nothing stays (the comments do)
            index = len(before)
            self.removed[id(lines[index])] = lines[index]
        return self._inserted(original, cst.FlattenSentinel(lines))

    def visit_Try(self, node) -> None:
        self.last_line = None
        self.compound_stack.append(node)

    def leave_Try(self, original, updated):
        self.last_line = None
        self.compound_stack.pop()
        return self._inserted(original, updated)

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
        self.block_stack.append(node.body)

    def visit_Module(self, node) -> None:
        self.block_stack.append(node.body)

    def visit_SimpleStatementSuite(self, node) -> None:
        self.last_line = None
        self.suites.append(node)

    def leave_SimpleStatementSuite(self, original, updated):
        self.last_line = None
        self.suites.pop()
        smalls = self._rewritten(original, updated)
        if smalls is None:
            return updated
        if smalls:
            return updated.with_changes(body=smalls)
        emptied = updated.with_changes(body=[cst.Pass()])  # `if flag: net.hybridize()` -> `if flag: pass`
        self.emptied.add(id(emptied))
        return emptied

    def leave_IndentedBlock(self, original, updated):
        self.last_line = None
        self.block_stack.pop()
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
        self.block_stack.pop()
        if not self.removed:
            return updated
        body, carry = self._drop_removed(updated.body)
        return updated.with_changes(body=body, footer=[*carry, *updated.footer])

    def statement_of(self, call: cst.CSTNode):
        """The statement line, or one-line block body (`with self.name_scope(): net.hybridize()`),
        in which `call` is a statement of its own (`mx.random.seed(1)`, also after a `;`), if it is."""
        stmt = self.suites[-1] if self.suites else self.statement_stack[-1] if self.statement_stack else None
        if stmt is None:  # (a line never holds a one-line block body, nor one a line: one is open at most)
            return None
        for i, small in enumerate(stmt.body):
            if isinstance(small, cst.Expr) and small.value is call:
                self.rewrite_at[id(stmt)] = i
                return stmt
        return None

    def replace_statement(self, stmt, smalls: list) -> None:
        """Let a rule turn its statement (the one statement_of found in `stmt`, else a line's
        only one) into several (one call -> four lines), or none (its comments stay; a block
        left empty gets `pass`)."""
        self.statement_rewrites.setdefault(id(stmt), {})[self.rewrite_at.get(id(stmt), 0)] = smalls
