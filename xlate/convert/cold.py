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
from typing import NamedTuple, Optional, Sequence

import libcst as cst

from xlate.convert import array_methods, legacy_values
from xlate.convert.context import LOCAL, is_mxnet
from xlate.convert.converter import (ARRAY_INDEX, BACK_SLICE, BLOCK_WITHOUT_INIT, DTYPE_EQUAL, FEATURE_PROBE,
                                     GRAD_WRITE, ITEM_WRITE, ND_ELEMENT, NP_DTYPE_ARG, UNTYPED_COMPARE)
from xlate.convert.names import ident
from xlate.convert.rebinding import REBIND_KEY
from xlate.convert.transforms import untyped_compare
from xlate.convert.visiting import children, freeze_cold

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ALWAYS = ("def", "class", "lambda", "import")  # scopes; imports (a course library's is reported)


class _Mismatch(Exception):
    pass


class Hot(NamedTuple):
    """What makes a statement hot: the file's hot names, the rules' members (an attribute after
    its dot) and operators, as patterns for its text and as sets for its expressions (Note
    [cold expressions]); `compare_ops` None: an operator rule of a kind the expression scan
    does not know, which turns that scan off."""
    patterns: tuple  # the names, the operators (the members are _MEMBER's words found in `members`)
    names: frozenset
    members: frozenset
    compare_ops: Optional[frozenset]


def hot_words(analysis, rules, source: Optional[str] = None) -> Optional[Hot]:
    """The words that may make a statement change (None: any may): the file's own names, and
    the catalogue's."""
    words = set(_ALWAYS) | analysis.module_aliases  # Note [module aliases]
    for scope in analysis.scopes.values():
        if scope.star_mx or scope.star_local:  # names from `import *` are not seen here
            return None
        words.update(name for name, target in scope.imports.items() if is_mxnet(target) or target.startswith(LOCAL))
        # arrays with a gradient (their in-place updates, MX545) and MXNet arrays used as an index (MX746)
        words.update(scope.grad_reads)
        words.update(name for name in scope.index_names | scope.item_writes
                     if analysis.classify(scope.key, ast.Name(id=name)) in ("nd", "mxnp"))
        # an element of a value xlate cannot type in code that handles arrays (Note [elements of untyped values])
        if scope.element_reads and analysis.array_kind == "nd" and untyped_compare.evidence(analysis, scope.key):
            words.update(name for name in scope.element_reads - words
                         if analysis.classify(scope.key, ast.Name(id=name)) is None)
        # a method of an NDArray that no rule names (Note [array methods without a method rule])
        words.update(name for name in scope.method_receivers - words
                     if analysis.classify(scope.key, ast.Name(id=name)) == "nd")
        if analysis.mx_imports and "range" in scope.index_names:  # d2l's pick `y_hat[range(n), y]` (MX085)
            words.add("range")
    if rules.enabled(legacy_values.LEFT_VALUE):  # Note [symbol and Module values]
        words.update(legacy_values.names_of(analysis, source))
    if analysis.mx_imports and rules.enabled("MX158"):  # `type(m)` where layer classes are values (MX158)
        words.add("type")
    if analysis.mx_imports and rules.enabled("MX191"):  # `hasattr(x, 'asnumpy')`, a probe of NDArray's API (MX191)
        words.add("hasattr")
    if analysis.mx_imports and rules.enabled("MX809"):  # `np.issubdtype(x.dtype, ...)` (MX809)
        words.add("dtype")
    members, operators = _rule_words(rules)
    members |= array_methods.MXNET_ONLY  # an untyped receiver's MXNet-only method (the same Note)
    patterns = (re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words))) + r")\b"), _operators(operators))
    return Hot(patterns, frozenset(words), members, _compare_ops(operators))


# an attribute after its dot, also across a line break or a comment inside brackets: its word is
# looked up in a set (an alternation of the rules' 500 members cost the regex engine 4x as much)
_MEMBER = re.compile(r"\.\s*(?:#[^\n]*\s*)*([A-Za-z_]\w*)")


def _rule_words(rules) -> tuple[frozenset, frozenset]:
    found = set()
    for table in (rules.calls, rules.references, rules.assigns, rules.defs, rules.classes):
        for key in table:
            found.add(key.rsplit(".", 1)[-1])
    found.discard("")
    return frozenset(found), frozenset(getattr(rules, "operators", None) or ())


@functools.lru_cache(maxsize=8)
def _operators(operators: frozenset) -> Optional[re.Pattern]:
    if not operators:
        return None
    return re.compile("|".join(re.escape(op) for op in sorted(operators, key=lambda op: (-len(op), op))))


# Operator rules whose trigger is a name, not the operator: `x[idx]` with idx an MXNet array
# (its name is hot: index_names), an in-place write to an array with a gradient (grad_reads),
# a write through an index into an MXNet array, a negative-step slice of one and an element read
# from one by integers (item_writes; the slice of what an NDArray method returns has that method's
# name); a dtype comparison (MX806) is an `==`, hot through MX540's operators; an MXNet module given
# its own submodule (MX837) is two MXNet names; a `.dtype` handed to NumPy (MX809) is hot through `dtype`;
# a block class without __init__ (MX177) is a class, always visited; a probe of MXNet's API (MX191) is hot through `hasattr`;
# a comparison of untyped values (MX542) is hot through MX540's operators
_NAME_TRIGGERED = frozenset({ARRAY_INDEX, GRAD_WRITE, ITEM_WRITE, BACK_SLICE, ND_ELEMENT, DTYPE_EQUAL, NP_DTYPE_ARG,
                             BLOCK_WITHOUT_INIT, REBIND_KEY, FEATURE_PROBE, UNTYPED_COMPARE})
_COMPARE_OPS = {"==": cst.Equal, "!=": cst.NotEqual, "<": cst.LessThan, "<=": cst.LessThanEqual,
                ">": cst.GreaterThan, ">=": cst.GreaterThanEqual}


def _compare_ops(operators: frozenset) -> Optional[frozenset]:
    if not operators <= _NAME_TRIGGERED | set(_COMPARE_OPS):
        return None
    return frozenset(_COMPARE_OPS[op] for op in operators if op in _COMPARE_OPS)


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
        self.frozen: set[int] = set()  # Note [cold expressions]
        self._scan: Optional[_Scan] = None
        if hot is not None:
            self.hot_lines = _hot_lines(self.lines, hot)
            if getattr(hot, "compare_ops", None) is not None:
                self._scan = _Scan(hot, self.frozen)
        try:
            self._body(module.body, tree.body)
        except _Mismatch:
            self.cold, self.starts, self.frozen = set(), {}, set()

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
                elif self._scan is not None:
                    for small in stmt.body:
                        self._scan.root(small)
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
        elif self._scan is not None:
            self._scan.header(stmt)
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
def _hot_lines(lines: list[str], hot_words: Hot) -> list[int]:
    """Prefix counts of the lines a hot word touches (one spanning lines marks them all)."""
    if not all(line.isascii() for line in lines):  # identifiers as Python reads them (NFKC)
        lines = [unicodedata.normalize("NFKC", line) for line in lines]
    text = "\n".join(lines)
    breaks = list(itertools.accumulate(len(line) + 1 for line in lines[:-1]))  # just after each "\n"
    breaks = [b - 1 for b in breaks]  # each "\n" itself
    hot = bytearray(len(lines))

    def mark(m: re.Match) -> None:
        first = bisect.bisect_left(breaks, m.start())
        last = bisect.bisect_left(breaks, max(m.end() - 1, m.start()))
        hot[first: last + 1] = b"\x01" * (last + 1 - first)

    for pattern in hot_words.patterns:
        if pattern is not None:
            for m in pattern.finditer(text):
                mark(m)
    members = hot_words.members
    for m in _MEMBER.finditer(text):
        if m.group(1) in members:
            mark(m)
    return [0, *itertools.accumulate(hot)]


_TRY = tuple(t for t in (cst.Try, getattr(cst, "TryStar", None)) if t is not None)


# Note [cold expressions]
# A hot statement is mostly made of expressions that hold no hot word either: in
# `x = F.Activation(self.bn1(self.conv1(x)), act_type='relu')` only `F.Activation` can change.
# The words of Note [cold statements] are looked for in the statement's own nodes: a name
# (anywhere: an attribute, a keyword) among the file's hot names, an attribute named like a
# rule's member, a lambda, a comparison an operator rule matches. An expression holding none is
# *frozen*: the converter walks neither into it nor runs its hooks, so LibCST keeps it as it
# is. Strings and comments do not count here (a rule reads a string only inside a call it
# matched, whose name is hot). Only small statements (an assignment, a return, an expression)
# and the headers of compound statements are looked into; a lambda is walked whole. The
# operator rules whose trigger is a name (an MXNet array as an index, a write to an array with
# a gradient) are found by that name; an operator rule of any other kind turns the scan off.

_ROOTS = (cst.Expr, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Return, cst.Assert, cst.Raise)


class _Scan:
    def __init__(self, hot: Hot, frozen: set):
        self.names, self.members, self.ops = hot.names, hot.members, hot.compare_ops
        self.frozen = frozen

    def root(self, small: cst.CSTNode) -> None:
        """A small statement: its children that hold no hot word are frozen."""
        if isinstance(small, _ROOTS):
            freeze_cold(children(small), self.own, self.frozen, True, self.kids)

    def header(self, stmt: cst.CSTNode) -> None:
        if isinstance(stmt, (cst.If, cst.While)):
            freeze_cold([stmt.test], self.own, self.frozen, True, self.kids)
        elif isinstance(stmt, cst.For):
            freeze_cold([stmt.target, stmt.iter], self.own, self.frozen, True, self.kids)
        elif isinstance(stmt, cst.With):
            freeze_cold(list(stmt.items), self.own, self.frozen, True, self.kids)

    @staticmethod
    def kids(node: cst.CSTNode) -> list:
        """An attribute's name is looked at as part of it (`own`), never frozen on its own."""
        return [node.value] if type(node) is cst.Attribute else children(node)

    def own(self, node: cst.CSTNode) -> Optional[bool]:
        """Whether the node itself is a hot word (None: a lambda, a scope of its own, walked whole)."""
        kind = type(node)
        if kind is cst.Name:
            return ident(node.value) in self.names
        if kind is cst.Attribute:
            attr = ident(node.attr.value)
            return attr in self.members or attr in self.names
        if kind is cst.Comparison:
            return any(type(t.operator) in self.ops for t in node.comparisons)
        return None if kind is cst.Lambda else False
