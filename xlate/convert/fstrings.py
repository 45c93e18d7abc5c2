"""Rewrites inside f-strings stay valid Python 3.10 and 3.11.

Before Python 3.12 the expression in an f-string's `{...}` may not hold the string's own quote,
a backslash, a comment, or (in a one-line string) a line break. Rewrites emit double-quoted
strings (`torch.device("cuda", 0)`), so inside `f"..."` their strings are requoted with `'`.
Where that cannot be done, the expression is left as it was and reported once, as manual.
"""
from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from xlate.convert import names

_QUOTE = re.compile(r"""^[a-zA-Z]*('''|\"\"\"|'|")""")


class FStrings:
    """Mixed into the Converter, which sets `fstring_quotes` and `fstring_marks` up (its __init__)."""

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        self.fstring_quotes.append(_QUOTE.match(node.start).group(1))

    def leave_FormattedString(self, original, updated):
        self.fstring_quotes.pop()
        return updated

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> None:
        self.fstring_marks.append(len(self.found))

    def leave_FormattedStringExpression(self, original: cst.FormattedStringExpression,
                                        updated: cst.FormattedStringExpression):
        mark = self.fstring_marks.pop()
        if updated.expression is original.expression:
            return updated
        quotes = "".join(q[0] for q in self.fstring_quotes)
        expression = updated.expression.visit(_Requote(quotes))
        if _fits(self.code_for(expression), self.fstring_quotes):
            return updated.with_changes(expression=expression)
        return self._fstring_left(original, updated, mark)

    def _fstring_left(self, original, updated, mark: int):
        """Undo the rewrites inside `original` and report them once."""
        found = [f for f in self.found[mark:] if f is not None]
        self.found[mark:] = [None] * (len(self.found) - mark)
        self.dropped(updated.expression)
        for node in _names(original.expression):
            head = names.ident(node.value)
            if head in self.analysis.imported and names.is_mxnet(self.analysis.resolve(self.scopes[-1], head)):
                self.survivors[head] += 1
        code = found[0][1] if found else "MX900"
        self.report(original.expression, code, "manual",
                    "inside an f-string, the PyTorch code needs a quote, backslash or line break that "
                    "Python < 3.12 does not allow there: move the expression out of the f-string")
        return original


def _fits(code: str, quotes: list[str]) -> bool:
    if "\\" in code or "#" in code:
        return False
    if any(len(q) == 1 for q in quotes) and ("\n" in code or "\r" in code):
        return False
    return not any(q in code for q in quotes)


def _names(node: cst.CSTNode) -> list[cst.Name]:
    found: list[cst.Name] = []

    class Collect(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.append(n)

    node.visit(Collect())
    return found


class _Requote(cst.CSTTransformer):
    """Plain strings quoted with a character the enclosing f-strings use get the other one."""

    def __init__(self, quotes: str):
        super().__init__()
        self.quotes = quotes

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.SimpleString:
        new = _requoted(updated.value, self.quotes)
        return updated if new is None else updated.with_changes(value=new)


def _requoted(text: str, quotes: str) -> Optional[str]:
    m = _QUOTE.match(text)
    prefix, quote = text[: m.start(1)], m.group(1)
    if quote[0] not in quotes:
        return None
    other = "'" if quote[0] == '"' else '"'
    body = text[len(prefix) + len(quote): len(text) - len(quote)]
    if other in quotes or other in body or "\\" in body:
        return None
    return f"{prefix}{other * len(quote)}{body}{other * len(quote)}"
