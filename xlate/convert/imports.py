"""Import bookkeeping after the rewrite: drop dead MXNet imports, add the torch ones used,
and place any helper functions the rewrites called."""
from __future__ import annotations

import functools
import re
import textwrap
import symtable
from collections import Counter
from typing import Callable, Optional

import libcst as cst

from xlate.convert import export_list, names
from xlate.convert.context import LENT, LOCAL
from xlate.convert.placement import HelperImport, inline_position
from xlate.convert.visiting import NODES, FastTransformer, children, derives
from xlate.runtime import HELPER_RE, closure, sources as helper_sources

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
    def __init__(self, survivors: Counter, enabled: Callable[[str], bool], local_roots: frozenset = frozenset(),
                 context=None):
        super().__init__()
        self.survivors = survivors
        self.local_roots = local_roots
        self.context = context  # resolves relative imports that leave the tree (FileContext.beyond)
        self.enabled = enabled
        self.notes: list[tuple] = []
        self.kept: dict[int, list[tuple[str, str]]] = {}  # import node -> (bound name, MXNet name) kept
        self.kept_lines: dict[int, list[tuple[str, str]]] = {}  # the same by statement line
        # Pass nodes standing in for removed imports, by id (kept alive here: a freed node's
        # id is reused by the next node made)
        self.dropped: dict[int, cst.Pass] = {}
        self.gone: dict[str, cst.CSTNode] = {}  # name -> the import it was removed from (Note [__all__ of removed imports])

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

    def _keep(self, node, aliases, module: str | None, own=None):
        kept, dropped = [], []
        for alias in aliases:
            if own is not None and own(alias):  # Note [a tree of MXNet's own package]
                module = own(alias).rsplit(".", 1)[0]
            elif own is not None:
                kept.append(alias)
                continue
            if not _is_mx_alias(alias, module, self.local_roots):
                kept.append(alias)
                continue
            name = _bound_name(alias)
            if self.survivors[name] or not self.enabled("MX001"):
                kept.append(alias)
                self.notes.append((node, "MX002", "manual",
                                   f"MXNet import `{name}` kept: it is still used by code left to translate"))
                full = names.ident(cst.helpers.get_full_name_for_node(alias.name) or "")
                target = f"{module}.{full}" if module else (full if alias.asname else name)
                self.kept.setdefault(id(node), []).append((name, target))
            else:
                dropped.append(name)
                self.gone.setdefault(name, node)
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
        if updated.relative and self.context is not None:
            beyond = self.context.beyond(len(updated.relative), module.lstrip(".") if module else None)
            module = beyond or module
        if isinstance(updated.names, cst.ImportStar):
            if module and names.is_mxnet(module) and module.split(".", 1)[0] not in self.local_roots:
                self.notes.append((original, "MX003", "manual",
                                   f"`from {module} import *`: the names it brings in are not tracked"))
                self.kept.setdefault(id(original), []).append(("*", module))  # guarded too: binds nothing then
            return updated
        own = None
        if updated.relative and self.context is not None and not names.is_mxnet(module):
            level, inner = len(updated.relative), module.lstrip(".") or None if module else None
            own = lambda alias: self.context.own_mxnet(  # noqa: E731
                level, inner, names.ident(cst.helpers.get_full_name_for_node(alias.name) or ""), names.canonical)
        if self.context is not None and module and not names.is_mxnet(module):  # Note [re-exported MXNet names]
            level, inner = len(updated.relative), module.lstrip(".") or None
            mine = own or (lambda alias: None)
            own = lambda alias: mine(alias) or self.context.reexported(  # noqa: E731
                level, inner, names.ident(cst.helpers.get_full_name_for_node(alias.name) or ""))
        kept, dropped = self._keep(original, updated.names, module, own)
        if not dropped:
            return updated
        if not kept:
            return self._marker()
        return updated.with_changes(names=_fix_commas(kept), rpar=updated.rpar, lpar=updated.lpar)

    def leave_SimpleStatementLine(self, original, updated):
        kept = [k for stmt in original.body for k in self.kept.get(id(stmt), ())]
        updated = self._leave_line(updated)
        if kept:
            self.kept_lines[id(updated)] = kept
        return updated

    def _leave_line(self, updated):
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
                helper_import: Optional[HelperImport] = None, unnamed: frozenset = frozenset()):
    """Drop the MXNet imports nothing left uses (`survivors` counts the uses left per bound
    name), add the torch imports `torch_uses` needs (spelled out for `long_names`), and paste
    the `helpers` the rewrites called, with the helpers they call, or import them from the
    tree's helper module (Note [helper placement] in xlate/convert/placement.py), all but the
    `unnamed` ones, which the code does not name (see `unnamed_helpers`)."""
    fixer = _ImportFixer(survivors, enabled, analysis.context.local_roots, analysis.context)
    fixed = module.visit(fixer)
    root = analysis.scopes[()]
    kept = {name for pairs in fixer.kept.values() for name, _ in pairs}
    fixed, struck = export_list.prune(fixed, {n for n in fixer.gone.keys() - kept if n not in root.other})
    fixer.notes += [(fixer.gone[n], "MX001", "fixed", f"removed `{n}` from `__all__` with its MXNet import")
                    for n in struck]
    uses = set(torch_uses)
    helpers = [h for h in helpers if h not in root.other and h not in root.imports]
    # a tree's file outside any package may be a namespace package's module (Note [kept MXNet imports])
    context = analysis.context
    lent = bool(context.module) and bool(context.facts.get(LOCAL + context.module + LENT))
    in_package = helper_import is not None and (helper_import.level is None or not helper_import.script or lent
                                                or helper_import.namespace) \
        or helper_import is not None and _test_module(context.module)
    guarded = _guarded(fixed, fixer.kept_lines) if in_package and enabled("MX002") else fixed
    if guarded is not fixed:
        fixed = guarded
        if "_mx_missing(" in fixed.code:  # a guarded `import *` alone binds no stand-in
            helpers = helpers if "_mx_missing" in helpers else [*helpers, "_mx_missing"]
    if helpers and helper_import is None:
        uses.add("torch")  # the pasted helpers use it
    if uses & long_names:
        uses = (uses - long_names) | {"torch"}
    bound = _imported_for_the_module(module.body)
    new_imports = [_statement(line) for short, mod, line in _TORCH_IMPORTS
                   if short in uses and bound.get(short) != mod]
    if helper_import is None:
        helpers = [h for h in closure(helpers) if h not in root.other]

    # New imports go where the first top-level MXNet import was, with its comments.
    first_mx = next((i for i, s in enumerate(module.body) if _has_mx_import(s)), None)
    if first_mx is None or first_mx < _header_end(module.body):  # Note [module header]
        first_mx = _header_end(module.body)
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
        named = [h for h in helpers if h not in unnamed]
        if named:
            at = _after_imports(body, named)
            body[at:at] = helper_import.statements(sorted(named))
    elif helpers:
        at = inline_position(body, _header_end(body), _after_imports(body, helpers))
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


def _test_module(name: str) -> bool:
    """A pytest module (`test_*.py`, `*_test.py`): imported by the runner, never run as a script
    (Note [kept MXNet imports])."""
    stem = name.rsplit(".", 1)[-1]
    return stem.startswith("test_") or stem.endswith("_test")


# Note [kept MXNet imports]
# An MXNet import that code left to translate still uses (MX002) would make the converted
# module fail to import where MXNet is not installed, and with it every module of the package
# that imports it, although the lines left are reported and may never run. In a module of a
# converted package (not a script, which runs its code rather than lending it), the import at
# the module's top level is guarded: without MXNet each name it binds is `_mx_missing(...)`, which raises
# ImportError naming the MXNet API when the code left to translate runs (a call, making an instance
# of a class derived from an MXNet one, an attribute of a value), answers False to isinstance (no
# value is an MXNet array without MXNet), and lets the rest of the module import and work. Code the
# module runs on import is guarded too (sockeye's utils and data_io): a class deriving from an MXNet
# class is defined (making one raises), an MXNet registry's decorator (`@mx.operator.register("n")`)
# gives the class back (there is no registry without MXNet, and what would look the name up is MXNet
# code that raises), and any other use raises ImportError naming the API, as the plain import would
# have raised ModuleNotFoundError. With MXNet installed nothing changes. A top-level `try` whose
# fallback imports MXNet too (`except ImportError: from mxnet.gluon.metric import EvalMetric`,
# GluonCV's metrics) is guarded whole; `from mxnet.x import *` (MX003) binds nothing without
# MXNet, and the code using its names raises NameError where it runs. A pytest module
# (`test_*.py`) is such a module wherever it lies: the runner imports it, and without MXNet only
# the tests that reach code left to translate fail, not the whole file's collection. So is a file of
# a converted tree in a folder without `__init__.py`: research code imports such folders as namespace
# packages (CenterNet's `from models.tensor_utils import _gather_feat`, from the repository's root),
# and nothing in the folder tells a module lent that way from a script; a script guarded fails at
# its first use of the code left to translate, with ImportError naming the API, where it would have
# failed at its import. A package module that also runs as a script (`if __name__ == "__main__":`)
# is a script first and stays unguarded, unless another module of the tree imports it (LENT:
# sknlp's crf.py keeps a self-test under its main guard, and the tagger importing it failed to
# import without MXNet): lent, it is a module first.
def _guarded(module: cst.Module, kept_lines: dict) -> cst.Module:
    """Note [kept MXNet imports]."""
    if not kept_lines:
        return module
    body, changed = [], False
    for stmt in module.body:
        kept = kept_lines.get(id(stmt))
        if kept and all(isinstance(s, _IMPORTS) for s in stmt.body):
            names_ = list(dict.fromkeys(kept))
            fallback = _fallback(names_)
            text = ("try:\n    " + cst.Module(body=[stmt.with_changes(leading_lines=())]).code.strip()
                    + "\nexcept ImportError:  # MXNet is not installed: the code left to translate raises when "
                      "it runs (MX002)\n" + fallback)
            stmt = cst.parse_statement(text).with_changes(leading_lines=stmt.leading_lines)
            changed = True
        elif isinstance(stmt, cst.Try) and (kept := _kept_in_try(stmt, kept_lines)):
            # `try: from mxnet.metric import X` / `except ImportError: from mxnet.gluon.metric import X`:
            # the fallback imports MXNet too, so the whole statement is guarded
            inner = textwrap.indent(cst.Module(body=[stmt.with_changes(leading_lines=())]).code.strip(), "    ")
            first = {}  # a name bound by the import and by its fallback: the first's target
            for n, t in kept:
                first.setdefault(n, t)
            fallback = _fallback(first.items())
            text = ("try:\n" + inner + "\nexcept ImportError:  # MXNet is not installed: the code left to translate "
                    "raises when it runs (MX002)\n" + fallback)
            stmt = cst.parse_statement(text).with_changes(leading_lines=stmt.leading_lines)
            changed = True
        body.append(stmt)
    return module.with_changes(body=body) if changed else module


def _fallback(kept) -> str:
    """The guard's handler: a stand-in for each name kept; `from mxnet.x import *` binds none, and
    the code using its names (reported, MX003) raises NameError when it runs."""
    lines = "".join(f"    {n} = _mx_missing({t!r})\n" for n, t in kept if n != "*")
    return lines or "    pass\n"


def _kept_in_try(stmt: cst.Try, kept_lines: dict) -> list:
    """The MXNet names kept by the imports of a top-level `try` that only imports (its handlers
    may bind fallbacks), or [] (Note [kept MXNet imports])."""
    if not isinstance(stmt.body, cst.IndentedBlock) or not all(
            isinstance(s, cst.SimpleStatementLine) and all(isinstance(x, (*_IMPORTS, cst.Pass)) for x in s.body)
            for s in stmt.body.body):
        return []
    def kept(blocks):
        return [k for b in blocks if isinstance(b, cst.IndentedBlock)
                for s in b.body for k in kept_lines.get(id(s), ())]

    fallbacks = kept([h.body for h in stmt.handlers] + ([stmt.orelse.body] if stmt.orelse else []))
    if fallbacks or not any(_catches_import_error(h) for h in stmt.handlers):
        return kept([stmt.body]) + fallbacks
    return []  # the handler takes MXNet's absence already (and so does the guard written before)


def _catches_import_error(handler: cst.ExceptHandler) -> bool:
    kinds = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
    return handler.type is None or any(
        isinstance(k, cst.Name) and k.value in ("ImportError", "ModuleNotFoundError", "Exception", "BaseException")
        for k in kinds)


# Note [torch names the rewrites write]
# A rewrite says which torch names its code uses (`emit` reads them off its template), and
# only those get an import. Code that reaches the output another way (a value filled into a
# template's hole: `_mx_Lambda(torch.tanh)`) would be a NameError at import: once the output
# is written, any of `torch`, `nn`, `F` that it reads as a global, that nothing binds, and that
# the input did not read unbound already, is imported too.
def unimported_torch(output: str, source: str, uses: set, long_names: frozenset,
                     analysis: names.Analysis) -> set:
    """The torch names (`torch`, `nn`, `F`) `output` reads that no import binds."""
    root = analysis.scopes[()]
    wanted = [short for short, mod, _ in _TORCH_IMPORTS
              if short not in uses and root.imports.get(short) != mod and short not in long_names
              and re.search(r"(?<![\w.])" + short + r"\s*\.", output)]
    if not wanted:
        return set()
    try:
        missing = _unbound(output, wanted)
        return missing - _unbound(source, missing) if missing else missing
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()


def _unbound(code: str, wanted) -> set:
    """Those of `wanted` that `code` reads as globals and never binds at its top level."""
    top = symtable.symtable(code, "<output>", "exec")
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()}
    if "*" in bound:
        return set()
    read, tables = set(), [top]
    while tables:
        table = tables.pop()
        tables.extend(table.get_children())
        for name in wanted:
            try:
                sym = table.lookup(name)
            except KeyError:
                continue
            if sym.is_referenced() and (table is top or sym.is_global()):
                read.add(name)
            if table is not top and sym.is_declared_global() and (sym.is_assigned() or sym.is_imported()):
                bound.add(name)
    return read - bound


# Note [torch imported for the whole module]
# A torch import the input already has makes another one unnecessary only where it binds the name
# for every line that reads it: a statement of the module's own body, or of a top-level `try` (the
# guarded import). One in an `if __name__ == '__main__':` block, another `if`, a `with` or a loop
# binds it only when that block runs: the classes above a script's self-test would read `torch`
# unbound when the module is imported (a NameError at the first call, nothing said). The scope
# analysis counts every module-scope binding alike, so the test is made here, on the statements.
def _imported_for_the_module(body) -> dict[str, str]:
    """The names the module's unconditional imports bind -> the dotted name each binds to."""
    bound: dict[str, str] = {}
    lines = [s for s in body if type(s) is cst.SimpleStatementLine]
    for stmt in body:
        if type(stmt) is cst.Try:
            lines += [s for s in stmt.body.body if type(s) is cst.SimpleStatementLine]
    for line in lines:
        for small in line.body:
            if type(small) is cst.Import:
                for alias in small.names:
                    full = names.ident(cst.helpers.get_full_name_for_node(alias.name) or "")
                    bound[_bound_name(alias)] = full if alias.asname else full.split(".", 1)[0]
            elif type(small) is cst.ImportFrom and not small.relative and small.module is not None \
                    and not isinstance(small.names, cst.ImportStar):
                module = names.ident(cst.helpers.get_full_name_for_node(small.module) or "")
                for alias in small.names:
                    bound[_bound_name(alias)] = f"{module}.{names.ident(alias.name.value)}" \
                        if isinstance(alias.name, cst.Name) else module
    return bound


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


# Note [module header]
# The docstring is the module's first statement (`__doc__` is None when anything comes before
# it, an import included), and `from __future__` imports must follow it before any other
# statement. Whatever xlate adds goes after both: the torch imports, the helper import, the
# pasted helpers. The docstring's line may carry more (`"""Doc."""; import os`): the line
# stays whole, first.
def _header_end(body: list) -> int:
    """How many of the module's first statements are its docstring and `__future__` imports."""
    i = 0
    if body and isinstance(body[0], cst.SimpleStatementLine) and isinstance(body[0].body[0], cst.Expr) \
            and isinstance(body[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
        i = 1
    while i < len(body) and isinstance(body[i], cst.SimpleStatementLine) and _is_future(body[i].body[0]):
        i += 1
    return i


def _is_future(small: cst.CSTNode) -> bool:
    return isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None \
        and cst.helpers.get_full_name_for_node(small.module) == "__future__"


def unnamed_helpers(output: str, helpers: list, helper_import: Optional[HelperImport]) -> frozenset:
    """The helpers a tree's file imports but does not name: a rewrite may want one in the
    helper module without naming it (a Trainer finds `_mx_SGD` by its name at run time), and
    the file should not import what it never uses."""
    if helper_import is None or not helpers:
        return frozenset()
    imported = Counter(HELPER_RE.findall(cst.Module(body=helper_import.statements(helpers)).code))
    named = Counter(HELPER_RE.findall(output))  # one pass over the output, not one per helper
    return frozenset(h for h in helpers if named[h] <= imported[h])


def _after_imports(body: list, helpers: list) -> int:
    """After the last import of the module's opening statements (an `__all__` may come
    first), but before any of them that uses a helper, and never before the module's
    docstring and `from __future__` imports (Note [module header])."""
    start = _header_end(body)
    last = start - 1
    for i in range(start, len(body)):
        if _is_import_line(body[i]):
            last = i
        elif not isinstance(body[i], (cst.SimpleStatementLine, cst.If, cst.Try)):
            break
    if not helpers:
        return last + 1
    uses = re.compile(r"\b(" + "|".join(map(re.escape, helpers)) + r")\b")
    for i in range(start, last + 1):
        if not _is_import_line(body[i]) and uses.search(cst.Module(body=[body[i]]).code):
            return i
    return last + 1


def _is_import_line(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, (cst.Import, cst.ImportFrom))
                                                             for s in stmt.body)
