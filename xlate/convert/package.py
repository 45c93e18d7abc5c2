"""Whole-package analysis: what the classes and functions of a converted tree are, known to
every file of it (Note [package facts]).

Note [package facts]
Real model code spreads one model over many modules: a `common.py` of building blocks, a
Sequential subclass used with `.add` elsewhere, a class derived from a block of another
module, factory functions (`conv1x1_block(...)`) returning Gluon blocks. Converting one file
at a time, xlate would not know that `DualPathSequential(...)` is a Gluon container or that
`AlexConv(ConvBlock)` is a Gluon block whose `hybrid_forward` must become `forward`. Before a
tree is converted, one `ast` pass per file (names.Analysis) finds each file's imports, classes
and functions; a fixed point over the tree then gives every class and factory its *kinds*:
the MXNet Gluon classes it is, or returns, one of (`mxnet.gluon.nn.HybridSequential` for a
Sequential subclass, `mxnet.gluon.HybridBlock` for any block, the layer class for a subclass
of a layer). Each file gets the kinds of the names it can import (`FileContext.facts`), keyed
by their absolute dotted names behind `LOCAL` ('@pkg.common.ConvBlock'): the tree's own
modules are local code, never MXNet, even when the package is called gluoncv.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

from xlate.convert import names
from xlate.convert.context import GLUON_ROOTS, LOCAL, FileContext
from xlate.convert.kinds import local_modules, top_level_kinds
from xlate.convert.parsing import no_gc

def module_names(root: Path, files: list[Path]) -> dict[Path, tuple[str, bool]]:
    """File -> (dotted module name, is a package's __init__), as Python imports it with the
    tree's root on sys.path (or its parent, when the root is itself a package); a file in a
    folder that is no package is a script, named by its stem."""
    top = root.parent if (root / "__init__.py").is_file() else root
    out = {}
    for path in files:
        folder, parts = path.parent, []
        while (folder / "__init__.py").is_file() and folder != top and (folder == root or root in folder.parents):
            parts.insert(0, folder.name)
            folder = folder.parent
        is_package = path.name == "__init__.py"
        if not parts:  # a script folder: importable by its stem from its own folder
            out[path] = ("" if is_package else path.stem, False)
            continue
        out[path] = (".".join(parts if is_package else parts + [path.stem]), is_package)
    return out


def tree_contexts(root: Path, files: list[Path], read, *, keep: Optional[dict] = None) -> dict[Path, FileContext]:
    """A FileContext for every file of the tree under `root`; `read(path)` gives its bytes (or
    text, or None when it cannot be read: the conversion reports that).

    With `keep`, each file's analysis is kept for its conversion (Note [one analysis per
    file]): keep[path] = (what read gave, names.Analysis under the file's final context)."""
    modules = module_names(root, files)
    by_module = {name: path for path, (name, _) in modules.items() if name}
    roots = frozenset(name.split(".", 1)[0] for name in by_module)
    analyses, read_first, data = {}, {}, {}
    with no_gc():  # Note [no cyclic GC while converting]
        for path in files:
            try:
                data[path] = read(path)
                tree = ast.parse(data[path])
            except (SyntaxError, ValueError, TypeError, OSError, UnicodeDecodeError, RecursionError, MemoryError):
                continue  # the conversion reports it
            name, is_package = modules[path]
            reads = read_first[path] = _Reads({})
            analyses[path] = names.Analysis(tree, context=FileContext(name, is_package, roots, reads))
        facts = _fixed_point(analyses, modules)
        by_home: dict[str, dict] = {}  # module -> its facts
        for key, kinds in facts.items():
            by_home.setdefault(key[len(LOCAL):].rsplit(".", 1)[0], {})[key] = kinds
        contexts = {}
        for path, analysis in analyses.items():
            name, is_package = modules[path]
            mine = {}
            for m in sorted(m for m in local_modules(analysis) if m in by_module):
                mine.update(by_home.get(m, ()))
            contexts[path] = context = FileContext(name, is_package, roots, mine)
            if keep is not None:
                keep[path] = (data[path], _final(analysis, context, read_first[path].keys))
    return contexts


# Note [one analysis per file]
# The package pass parses every file with `ast` and analyses it (names.Analysis) before the
# tree's facts are known; the conversion of the file needs the same analysis under its final
# context. Parsing and analysing it twice was a third of the package's conversion time. The
# analysis is kept and handed to the conversion: it is the one a fresh Analysis under the
# final context would give unless the collector read a fact that now says Gluon (a class
# deriving from a Gluon block of another module, an import of one), and then it is made
# again from the kept `ast` tree. The conversion uses it only when the file's bytes are the
# ones analysed.
def _final(analysis, context: FileContext, read_keys: set):
    facts = context.facts
    if any(any(k.startswith(GLUON_ROOTS) for k in facts.get(key, ())) for key in read_keys):
        return names.Analysis(analysis.tree, context=context)
    analysis.context, analysis.facts, analysis._kinds = context, facts, {}
    return analysis


class _Reads:
    """A view of the tree's facts that records the keys read through it (`get` is all the
    analysis calls)."""

    def __init__(self, facts: dict):
        self.facts, self.keys = facts, set()

    def get(self, key, default=None):
        self.keys.add(key)
        return self.facts.get(key, default)


def _fixed_point(analyses: dict, modules: dict) -> dict[str, frozenset]:
    """LOCAL + qualified name -> kinds, for every top-level class and function of the tree that
    is, or returns, a Gluon block; each round lets one more module's knowledge through.

    A file's kinds are a function of its text and of the facts it reads, so a file none of
    whose facts changed since it was last analysed gives what it gave then, and is not
    analysed again: the answer is the one analysing every file in every round gives."""
    facts: dict[str, frozenset] = {}
    by_module: dict[str, dict] = {}  # LOCAL + module -> {name: kinds}: what `import *` takes
    readers: dict[str, list] = {}  # fact key, or LOCAL + module for `import *` -> files that read it
    stale: set = set()  # files that read a fact changed since they were last analysed
    last: dict = {}  # path -> kinds found when it was last analysed
    for _ in range(12):
        changed = False
        for path, analysis in analyses.items():
            module = modules[path][0]
            if not module:
                continue
            if path in stale or path not in last:
                stale.discard(path)
                last[path], read = _kinds_found(analysis, facts, by_module)
                for key in read:
                    readers.setdefault(key, []).append(path)
            for name, kinds in last[path].items():
                key = f"{LOCAL}{module}.{name}"
                if kinds and facts.get(key) != kinds:
                    facts[key] = kinds
                    by_module.setdefault(f"{LOCAL}{module}", {})[name] = kinds
                    stale.update(readers.get(key, ()))
                    stale.update(readers.get(f"{LOCAL}{module}", ()))
                    changed = True
        if not changed:
            break
    return facts


def _kinds_found(analysis, facts: dict, by_module: dict) -> tuple[dict, set]:
    """The kinds of a file's top-level names under `facts`, and what it read: fact keys, and
    the modules it imports `*` from (LOCAL + module)."""
    view = _Reads(facts)
    analysis.facts = view
    analysis._kinds.clear()
    found = dict(top_level_kinds(analysis))
    root = analysis.scopes[()]
    for name, target in root.imports.items():  # re-exports: `from .rcnn import RCNN`
        if target.startswith(LOCAL) and view.get(target):
            found.setdefault(name, facts[target])
    for star in root.star_local:  # `from .faster_rcnn import *`
        for name, kinds in list(by_module.get(star, {}).items()):
            if not name.startswith("_"):
                found.setdefault(name, kinds)
    return found, view.keys | set(root.star_local)
