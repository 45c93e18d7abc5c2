"""Statements the converter cannot change, found before it runs (Note [cold statements]).

Note [cold statements]
Most lines of a real MXNet file mention nothing MXNet: `x = self.conv1(x)`, `return out`,
argument checks, loops over lists. Walking them with LibCST's visitor costs about as much
as parsing them, so the converter would cost twice the floor before it changed anything.
Every rewrite the converter makes is triggered by one of:
  - a name bound to MXNet (or to the tree's own code) in some scope of the file (its
    imports, and hybrid_forward's `F`); a file with `from ... import *` has no cold lines,
  - an attribute named like a rule's method, reference or assignment (`.asnumpy`,
    `.grad_req = ...`; the last part of every canonical name counts too), after a dot
    (the name of an MXNet function matters only behind its module, itself a hot name),
  - a `def` or `class` (scopes are counted by the converter, and `def` rules match names),
    an import (the converter reports some, e.g. a course library's),
  - an operator some rule matches (`==` on an NDArray), when the catalogue has one.
A statement whose source text holds none of these words (comments and strings count: a
false alarm only costs the walk) is *cold*: the converter still sees the statement node
itself (its suppression comment, its place in a straight line of statements), but not its
children. The CST and `ast` bodies are paired statement by statement (a line `a; b` is two
`ast` statements); where they do not pair up, nothing is cold. `options["cold"] = False`
turns this off, and tests/test_cold.py checks that the output and report do not change.
"""
from __future__ import annotations

import ast
import bisect
import functools
import itertools
import re
import unicodedata
from typing import Optional, Sequence

import libcst as cst

from xlate.convert.context import LOCAL, is_mxnet

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ALWAYS = ("def", "class", "lambda", "import")  # scopes; imports (a course library's is reported)


class _Mismatch(Exception):
    pass


def hot_words(analysis, rules) -> Optional[tuple]:
    """The patterns of the words that may make a statement change (None: any may): the
    file's own names, and the catalogue's (compiled once per rule set)."""
    words = set(_ALWAYS)
    for scope in analysis.scopes.values():
        if scope.star_mx or scope.star_local:  # names from `import *` are not seen here
            return None
        words.update(name for name, target in scope.imports.items() if is_mxnet(target) or target.startswith(LOCAL))
        # arrays with a gradient (their in-place updates, MX545) and MXNet arrays used as an index (MX746)
        words.update(scope.grad_reads)
        words.update(name for name in scope.index_names
                     if analysis.classify(scope.key, ast.Name(id=name)) in ("nd", "mxnp"))
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words))) + r")\b"), _rule_pattern(rules)


def _rule_pattern(rules) -> re.Pattern:
    found = set()
    for table in (rules.calls, rules.references, rules.assigns, rules.defs, rules.classes):
        for key in table:
            found.add(key.rsplit(".", 1)[-1])
    found.discard("")
    return _compiled(frozenset(found), frozenset(getattr(rules, "operators", None) or ()))


@functools.lru_cache(maxsize=8)
def _compiled(words: frozenset, operators: frozenset) -> re.Pattern:
    # an attribute after its dot, also across a line break or a comment inside brackets
    alternatives = [r"\.\s*(?:#[^\n]*\s*)*(?:" + "|".join(sorted(map(re.escape, words))) + r")\b"]
    alternatives += [re.escape(op) for op in sorted(operators)]
    return re.compile("|".join(alternatives))


class Pairing:
    """What pairing a file's CST statements with its `ast` statements tells.

    cold: ids of the CST statements that hold no hot word (none when `hot` is None);
    starts: id of each statement line, def and class -> (line, its indentation), where its
    first statement, or its `def`/`class` keyword, begins (xlate.convert.positions: a
    report's position is found within its own statement)."""

    def __init__(self, source: str, module: cst.Module, tree: ast.Module, hot: Optional[tuple]):
        self.lines = _LINE_BREAK.split(source)
        self.cold: set[int] = set()
        self.starts: dict[int, tuple[int, str]] = {}
        self.lines_of: dict[int, cst.SimpleStatementLine] = {}  # id(small statement) -> its line
        self.hot_lines: Optional[list[int]] = None  # prefix counts: hot lines among the first i
        if hot is not None:
            self.hot_lines = _hot_lines(self.lines, hot)
        try:
            self._body(module.body, tree.body)
        except _Mismatch:
            self.cold, self.starts = set(), {}

    def _is_hot(self, node: ast.stmt) -> bool:
        counts = self.hot_lines
        return counts is None or counts[node.end_lineno] > counts[node.lineno - 1]

    def _body(self, body: Sequence[cst.CSTNode], statements: list) -> None:
        i = 0
        for stmt in body:
            if isinstance(stmt, cst.SimpleStatementLine):
                group = statements[i: i + len(stmt.body)]
                i += len(stmt.body)
                if len(group) != len(stmt.body) or not all(isinstance(s, ast.stmt) for s in group):
                    raise _Mismatch()
                self._start(stmt, group[0])
                self.lines_of.update((id(small), stmt) for small in stmt.body)
                if not any(self._is_hot(s) for s in group):
                    self.cold.add(id(stmt))
                continue
            if i >= len(statements):
                raise _Mismatch()
            self._compound(stmt, statements[i])
            i += 1
        if i != len(statements):
            raise _Mismatch()

    def _start(self, stmt: cst.CSTNode, node: ast.stmt) -> None:
        line = self.lines[node.lineno - 1]
        indent = line[: len(line) - len(line.lstrip(" \t\x0c"))]
        if len(indent.encode("utf-8")) == node.col_offset:
            self.starts[id(stmt)] = (node.lineno, indent)

    def _block(self, block: cst.BaseSuite, statements: list) -> None:
        if isinstance(block, cst.IndentedBlock):
            self._body(block.body, statements)
        # a one-line suite (`if x: y = 1`) is walked: it is cold only as a whole

    def _compound(self, stmt: cst.CSTNode, node: ast.stmt) -> None:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                    or node.name != unicodedata.normalize("NFKC", stmt.name.value):
                raise _Mismatch()
            keyword = "class" if isinstance(stmt, cst.ClassDef) else "def"
            if re.match(rf"\s*(?:async\s+)?{keyword}\s+{re.escape(stmt.name.value)}\b",  # one line
                        self.lines[node.lineno - 1]):
                self._start(stmt, node)
            self._block(stmt.body, node.body)
            return
        if not isinstance(node, _PAIRS.get(type(stmt), ())):
            raise _Mismatch()
        if not self._is_hot(node):
            self.cold.add(id(stmt))
        if isinstance(stmt, (cst.If, cst.For, cst.While)):
            self._block(stmt.body, node.body)
            self._orelse(stmt.orelse, node.orelse)
        elif isinstance(stmt, cst.With):
            self._block(stmt.body, node.body)
        elif isinstance(stmt, _TRY):
            self._block(stmt.body, node.body)
            if len(stmt.handlers) != len(node.handlers):
                raise _Mismatch()
            for handler, h in zip(stmt.handlers, node.handlers):
                self._block(handler.body, h.body)
            self._orelse(stmt.orelse, node.orelse)
            if stmt.finalbody is not None:
                self._block(stmt.finalbody.body, node.finalbody)
        # a match statement is walked whole

    def _orelse(self, orelse: Optional[cst.CSTNode], statements: list) -> None:
        if orelse is None:
            if statements:
                raise _Mismatch()
        elif isinstance(orelse, cst.If):  # elif
            if len(statements) != 1:
                raise _Mismatch()
            self._compound(orelse, statements[0])
        else:
            self._block(orelse.body, statements)


_PAIRS = {
    cst.If: (ast.If,),
    cst.For: (ast.For, ast.AsyncFor),
    cst.While: (ast.While,),
    cst.With: (ast.With, ast.AsyncWith),
    cst.Try: (ast.Try,),
}
if hasattr(cst, "TryStar") and hasattr(ast, "TryStar"):
    _PAIRS[cst.TryStar] = (ast.TryStar,)
if hasattr(cst, "Match") and hasattr(ast, "Match"):
    _PAIRS[cst.Match] = (ast.Match,)
def _hot_lines(lines: list[str], patterns: tuple) -> list[int]:
    """Prefix counts of the lines a hot word touches (one spanning lines marks them all)."""
    if not all(line.isascii() for line in lines):  # identifiers as Python reads them (NFKC)
        lines = [unicodedata.normalize("NFKC", line) for line in lines]
    text = "\n".join(lines)
    breaks = list(itertools.accumulate(len(line) + 1 for line in lines[:-1]))  # just after each "\n"
    breaks = [b - 1 for b in breaks]  # each "\n" itself
    hot = bytearray(len(lines))
    for pattern in patterns:
        for m in pattern.finditer(text):
            first = bisect.bisect_left(breaks, m.start())
            last = bisect.bisect_left(breaks, max(m.end() - 1, m.start()))
            hot[first: last + 1] = b"\x01" * (last + 1 - first)
    counts = [0]
    for flag in hot:
        counts.append(counts[-1] + flag)
    return counts


_TRY = tuple(t for t in (cst.Try, getattr(cst, "TryStar", None)) if t is not None)
