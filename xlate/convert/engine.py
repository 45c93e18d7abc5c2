"""The conversion pipeline for one file: parse, resolve names, rewrite, fix imports, report."""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable, Iterable, Optional

import libcst as cst

from xlate.convert import astwalk, bindings, catalogue, cold, names
from xlate.convert.catalogue import RuleSet
from xlate.convert.collect import ARRAY_ONLY
from xlate.convert.context import LOCAL
from xlate.convert.converter import Converter
from xlate.convert.imports import fix_imports, unimported_torch, unnamed_helpers
from xlate.convert.submodules import import_submodules
from xlate.convert.parsing import InputError, deep, parse_cst, parse_python
from xlate.convert.positions import locate
from xlate.convert.realign import realign
from xlate.convert.report import Diagnostic, FileResult
from xlate.runtime import closure


def _enabled(select: Optional[Iterable[str]], ignore: Optional[Iterable[str]]) -> Callable[[str], bool]:
    sel = tuple(select or ())
    ign = tuple(ignore or ())

    def enabled(code: str) -> bool:
        if any(code.startswith(i) for i in ign):
            return False
        return not sel or any(code.startswith(s) for s in sel)

    return enabled


def convert_source(
    source: str,
    *,
    path: str = "<string>",
    select: Optional[Iterable[str]] = None,
    ignore: Optional[Iterable[str]] = None,
    options: Optional[dict] = None,
    analysis: Optional[names.Analysis] = None,
) -> FileResult:
    """Convert one file's text. Raises InputError when it does not parse. `analysis`: the
    file's, made by the package pass from this very text (Note [one analysis per file])."""
    # first, in the caller's thread (Note [deep nesting])
    tree = analysis.tree if analysis is not None else parse_python(source, path)
    try:
        return deep(_convert, source, tree, path=path, select=select, ignore=ignore, options=options,
                    analysis=analysis)
    except (RecursionError, MemoryError):
        raise InputError(path, 1, 1, "expressions nested too deeply for xlate") from None


def _convert(source: str, tree: ast.Module, *, path: str, select, ignore, options, analysis=None) -> FileResult:
    if analysis is None:
        analysis = names.Analysis(tree, context=(options or {}).get("context"))
    found_bindings = _bindings(tree, path, select, ignore, analysis)  # Note [MXNet bindings of other libraries]
    if not analysis.uses_mxnet:  # never parsed by LibCST: LibCST's limits do not matter here
        return FileResult(path, source, source, found_bindings)
    module = _plain_indent(parse_cst(source, path))
    rules = RuleSet(catalogue.load(), _enabled(select, ignore))
    # torch.nn / torch.nn.functional are spelled `nn` / `F` unless the file binds those
    # names otherwise; an MXNet import of that name still in use is only known afterwards,
    # which costs a second pass in that (rare) case.
    long_names = frozenset(short for short in _SHORT if _bound_elsewhere(analysis, short))
    fast = (options or {}).get("cold", True)  # Note [cold statements]
    pairing = cold.Pairing(source, module, tree, cold.hot_words(analysis, rules, source) if fast else None)
    cold_ids, frozen_ids = frozenset(pairing.cold), frozenset(pairing.frozen)
    conv = Converter(module, analysis, rules, long_names=long_names, options=options)
    conv.cold, conv.frozen = cold_ids, frozen_ids
    out = module.visit(conv)
    kept = frozenset(s for s in (conv.torch_uses & set(_SHORT)) - long_names if _mx_import_kept(analysis, conv, s))
    if kept:
        conv.__dict__.clear()  # see the end
        conv = Converter(module, analysis, rules, long_names=long_names | kept, options=options)
        conv.cold, conv.frozen = cold_ids, frozen_ids
        out = module.visit(conv)
    # a helper a later rewrite replaced (a lazy layer made eager by Sequential.add) is not pasted
    helpers = [h for h in conv.helpers if conv.helper_uses[h] > 0]
    helper_import = (options or {}).get("helper_import")
    if helper_import is not None and helper_import.level is not None and _runs_as_script(tree):
        helper_import = replace(helper_import, script=True)
    fixed, import_notes = fix_imports(out, analysis, survivors=conv.survivors, torch_uses=conv.torch_uses,
                                      long_names=conv.long_names, helpers=helpers, enabled=rules.enabled,
                                      helper_import=helper_import)
    output = _final_newline(source, fixed)
    if "_mx_missing(" in output and "_mx_missing" not in helpers:  # Note [kept MXNet imports]
        helpers = [*helpers, "_mx_missing"]
    # Note [torch names the rewrites write]; a helper import names only what the code uses
    missing = unimported_torch(output, source, conv.torch_uses, conv.long_names, analysis)
    unnamed = unnamed_helpers(output, helpers, helper_import)
    if missing or unnamed:
        fixed, import_notes = fix_imports(out, analysis, survivors=conv.survivors,
                                          torch_uses=conv.torch_uses | missing, long_names=conv.long_names,
                                          helpers=helpers, enabled=rules.enabled, helper_import=helper_import,
                                          unnamed=unnamed)
        output = _final_newline(source, fixed)
    if analysis.mx_imports:  # Note [submodules MXNet imported]
        output = import_submodules(output)
    output = realign(source, output)  # Note [visual indents]
    found = [f for f in conv.found if f is not None] + import_notes  # None: a report taken back
    positions = locate(module, [f[0] for f in found], conv.anchors, pairing) if fast else locate(module, [f[0] for f in found])
    diagnostics = [
        Diagnostic(path, *positions.get(id(node), (1, 1)), code, status, message, counts=code not in _UNCOUNTED)
        for node, code, status, message in found
    ]
    if analysis.context.shadows and analysis.mx_imports and rules.enabled(SHADOWED_MXNET):
        diagnostics.append(Diagnostic(  # Note [a package named mxnet] in package.py
            path, analysis.mx_imports[0][0], 1, SHADOWED_MXNET, "review",
            f"the tree holds a package or module named like MXNet's ({', '.join(analysis.context.shadows)}) that is "
            f"another library's backend (below a folder that is no package, or its files climb out of it or import "
            f"MXNet modules it lacks): `import mxnet` here is taken as MXNet itself, as Python resolves it; convert "
            f"that folder's parent as the tree if it is what this file imports", counts=False))
    call = analysis.mxnet_value_call
    if call is not None and rules.enabled(ARRAY_METHOD_OUTSIDE):  # Note [modules that receive MXNet values]
        diagnostics.append(Diagnostic(
            path, call.lineno, call.col_offset + 1, ARRAY_METHOD_OUTSIDE, "fixed",
            f"this module imports nothing of MXNet, but `.{call.func.attr}()` is a method of MXNet's "
            f"{'arrays' if call.func.attr in ARRAY_ONLY else 'Gluon blocks'} alone: it receives MXNet values from "
            f"the modules that call it, which are torch tensors and modules once those are converted, so it is "
            f"converted as MXNet code", counts=False))
    if analysis.guessed_outer and rules.enabled(GUESSED_MXNET_TREE):  # Note [a tree of MXNet's own package]
        diagnostics += [Diagnostic(
            path, line, 1, GUESSED_MXNET_TREE, "review",
            f"this import climbs out of the tree, whose top `{analysis.context.module.split('.')[0]}` is named like "
            f"one of MXNet's modules and sits in no package: it is taken as reaching into MXNet's own `mxnet` "
            f"package (a guess; convert the tree from inside its real parent package if it is another)",
            counts=False) for line in sorted(set(analysis.guessed_outer))]
    diagnostics += found_bindings
    diagnostics.sort(key=lambda d: (d.line, d.col, d.code))
    result = FileResult(path, source, output, diagnostics, helpers=tuple(closure(helpers)),
                        helper_import=helper_import if helpers else None)
    # The converter is in reference cycles (rules keep sites and closures that point back to
    # it): emptied, it and the file's trees go now, by reference counting, rather than
    # waiting for a cyclic collection, which is off while a tree converts (Note [no cyclic GC
    # while converting]) and would keep every file's trees alive until the last.
    conv.__dict__.clear()
    return result


ARRAY_METHOD_OUTSIDE = "MX905"
SHADOWED_MXNET = "MX910"
GUESSED_MXNET_TREE = "MX190"


def _bindings(tree: ast.Module, path: str, select, ignore, analysis) -> list:
    """MX902 at each import of another library's MXNet binding (none of the tree's own modules)."""
    found = [(line, col, binding) for line, col, binding in bindings.imported_bindings(tree)
             if not analysis.context.localize(binding).startswith(LOCAL)]
    if not found or not RuleSet(catalogue.load(), _enabled(select, ignore)).enabled(bindings.CODE):
        return []
    return [Diagnostic(path, line, col, bindings.CODE, "manual", bindings.message(binding))
            for line, col, binding in found]


def _runs_as_script(tree: ast.Module) -> bool:
    """The module has an `if __name__ == "__main__":` block at its top level and no relative
    import of its own (with one, it cannot run as a plain script anyway)."""
    if any(isinstance(n, ast.ImportFrom) and n.level for n in astwalk.walk(tree)):
        return False
    for stmt in tree.body:
        test = stmt.test if isinstance(stmt, ast.If) else None
        if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" \
                and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators):
            return True
    return False


def _final_newline(source: str, module: cst.Module) -> str:
    """The output ends the way the input did.

    A file that held nothing but MXNet imports comes out empty, not as a blank line; and
    LibCST drops the final newline after a comment ending in a backslash, and the final \\r of
    a file whose lines end in \\r alone, so it is put back.
    """
    code = module.code
    if not module.body and not module.header and not module.footer:
        return ""
    if source.endswith(("\n", "\r")) and not code.endswith(("\n", "\r")):
        code += "\r\n" if source.endswith("\r\n") else source[-1]
    return code


def _plain_indent(module: cst.Module) -> cst.Module:
    """A module whose usual indentation holds a form feed: Python resets its column count at
    one, so code xlate adds (a helper's body, a block in a block) cannot repeat it. The
    source's blocks keep theirs, written out; new blocks get the same without form feeds."""
    if "\x0c" not in module.default_indent:
        return module
    module = module.visit(_ExplicitIndent(module.default_indent))
    return module.with_changes(default_indent=module.default_indent.replace("\x0c", "") or "    ")


class _ExplicitIndent(cst.CSTTransformer):
    def __init__(self, indent: str):
        super().__init__()
        self.indent = indent

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated if updated.indent is not None else updated.with_changes(indent=self.indent)


_UNCOUNTED = {"MX001", "MX002", "MX542"}  # imports; comparisons that may be of numbers (Note [comparisons of untyped values])


_SHORT = {"nn": "torch.nn", "F": "torch.nn.functional"}


def _bound_elsewhere(analysis: names.Analysis, short: str) -> bool:
    """Some scope binds `short` to something that stays: a parameter (hybrid_forward's F),
    a variable, or a non-MXNet import other than the torch module itself."""
    for scope in analysis.scopes.values():
        if short in scope.other or short in scope.mx_params:
            return True
        bound = scope.imports.get(short)
        if bound is not None and bound != _SHORT[short] and not names.is_mxnet(bound):
            return True
    return False


def _mx_import_kept(analysis: names.Analysis, conv: Converter, short: str) -> bool:
    """An MXNet import bound to `short` survives because code left for a human uses it."""
    return conv.survivors[short] > 0 and any(
        names.is_mxnet(scope.imports.get(short)) for scope in analysis.scopes.values())
