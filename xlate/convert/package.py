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

from xlate.convert import names
from xlate.convert.context import LOCAL, FileContext
from xlate.convert.kinds import local_modules, top_level_kinds

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


def tree_contexts(root: Path, files: list[Path], read) -> dict[Path, FileContext]:
    """A FileContext for every file of the tree under `root`; `read(path)` gives its bytes (or
    text, or None when it cannot be read: the conversion reports that)."""
    modules = module_names(root, files)
    by_module = {name: path for path, (name, _) in modules.items() if name}
    roots = frozenset(name.split(".", 1)[0] for name in by_module)
    analyses = {}
    for path in files:
        try:
            tree = ast.parse(read(path))
        except (SyntaxError, ValueError, TypeError, OSError, UnicodeDecodeError, RecursionError, MemoryError):
            continue  # the conversion reports it
        name, is_package = modules[path]
        analyses[path] = names.Analysis(tree, context=FileContext(name, is_package, roots))
    facts = _fixed_point(analyses, modules)
    contexts = {}
    for path, analysis in analyses.items():
        name, is_package = modules[path]
        reach = {m for m in local_modules(analysis) if m in by_module}
        mine = {key: kinds for key, kinds in facts.items() if key[len(LOCAL):].rsplit(".", 1)[0] in reach}
        contexts[path] = FileContext(name, is_package, roots, mine)
    return contexts


def _fixed_point(analyses: dict, modules: dict) -> dict[str, frozenset]:
    """LOCAL + qualified name -> kinds, for every top-level class and function of the tree that
    is, or returns, a Gluon block; each round lets one more module's knowledge through."""
    facts: dict[str, frozenset] = {}
    for _ in range(12):
        changed = False
        for path, analysis in analyses.items():
            module = modules[path][0]
            if not module:
                continue
            analysis.facts = facts
            analysis._kinds.clear()
            found = dict(top_level_kinds(analysis))
            root = analysis.scopes[()]
            for name, target in root.imports.items():  # re-exports: `from .rcnn import RCNN`
                if target.startswith(LOCAL) and facts.get(target):
                    found.setdefault(name, facts[target])
            for star in root.star_local:  # `from .faster_rcnn import *`
                for key, kinds in list(facts.items()):
                    name = key[len(star) + 1:]
                    if key.startswith(star + ".") and "." not in name and not name.startswith("_"):
                        found.setdefault(name, kinds)
            for name, kinds in found.items():
                key = f"{LOCAL}{module}.{name}"
                if kinds and facts.get(key) != kinds:
                    facts[key] = kinds
                    changed = True
        if not changed:
            break
    return facts


