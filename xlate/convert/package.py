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
import functools
import re
import sys
from pathlib import Path
from typing import Optional

from xlate.convert import catalogue, names, namespace_flow, unpacking
from xlate.convert.context import ALIAS, BLOCKS_MODULE, LENT, REEXPORT, GLUON_ROOTS, LOCAL, MX_ROOTS, MXNET_MODULES, FileContext
from xlate.convert.kinds import NAMESPACES, PACKAGES, ast_dotted, local_modules, top_level_kinds
from xlate.convert.parsing import no_gc
from xlate.convert.tree import packaged, path_top

def module_names(root: Path, files: list[Path]) -> dict[Path, tuple[str, bool]]:
    """File -> (dotted module name, is a package's __init__), as Python imports it with the
    tree's root on sys.path (or its parent, when the root is itself a package); a file in a
    folder that is no package is a script, named by its stem."""
    top = path_top(root)
    out = {}
    for path in files:
        folder, parts = path.parent, []
        while folder != top and (folder == root or root in folder.parents) and packaged(folder, top):
            parts.insert(0, folder.name)
            folder = folder.parent
        is_package = path.name == "__init__.py"
        if not parts:  # a script folder: importable by its stem from its own folder
            out[path] = ("" if is_package else path.stem, False)
            continue
        out[path] = (".".join(parts if is_package else parts + [path.stem]), is_package)
    return out


def outer_packages(root: Path, tops=(), files=()) -> tuple[str, bool]:
    """The packages on disk around the tree's top (`mxnet.gluon` for a tree of MXNet's
    gluon/model_zoo): where its relative imports that climb out of the tree lead; and whether
    that is a guess (Note [a tree of MXNet's own package]). `tops`: the tree's top-level names;
    `files`: its files (one importing MXNet by name at its top level is no file of MXNet's own)."""
    root = root.resolve()
    top = path_top(root)
    chain: list = []
    while top != root and (top / "__init__.py").is_file() and top.parent != top and top.name.isidentifier():
        chain.insert(0, top.name)
        top = top.parent
    guess = [t for t in tops if t in MXNET_MODULES]
    if not chain and guess and not any(_imports_from_mxnet(f, guess) for f in files):
        return "mxnet", True
    return ".".join(chain), False


def _imports_from_mxnet(path: Path, tops: list) -> bool:
    """`path` imports one of the tree's top names from MXNet at its top level (`from mxnet import gluon` in
    a tree named `gluon`): MXNet's own modules import their siblings relatively (`from .. import ndarray`),
    so the tree is another library's backend folder, and its climbing imports lead into that library."""
    text = _text(path)
    return text is not None and any(n in tops for n in _imported_from(text, "mxnet", top_level=True))


# `from pkg import a, b` / `from pkg.a import x` / `import pkg.a`, at a line's start (or indented)
_IMPORT_FROM = re.compile(r"^([ \t]*)(?:from[ \t]+(\w+)(?:\.(\w+))?[\w.]*[ \t]+import[ \t]+\(?([\w ,\t]+)"
                          r"|import[ \t]+(\w+)\.(\w+))", re.M)
_CLIMB = re.compile(r"^[ \t]*from[ \t]+(\.+)", re.M)


def _imported_from(text: str, package: str, *, top_level: bool = False) -> list:
    """The names `text` imports from `package` or its submodules (`gluon` of `from mxnet import gluon` and of
    `from mxnet.gluon import nn`); `top_level`: only statements at the start of a line."""
    found = []
    for m in _IMPORT_FROM.finditer(text):
        if (top_level and m.group(1)) or (m.group(2) or m.group(5)) != package:
            continue
        sub = m.group(3) or m.group(6)
        found.extend([sub] if sub else [n.split(" as ")[0].strip() for n in m.group(4).split(",")])
    return [n for n in found if n.isidentifier()]


def _text(path: Path) -> Optional[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


@functools.lru_cache(maxsize=None)
def translated_names() -> frozenset:
    """MXNet's names the catalogue translates (as spelt in the rules' matches and as MXNet
    documents them), and the modules they are in."""
    found = set()
    for rule in catalogue.load():
        for name in rule.matches:
            if not name.startswith("mxnet."):
                continue
            for spelt in {name, names.canonical(name)}:
                parts = spelt.split(".")
                found.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
    return frozenset(found)


# Note [a tree of MXNet's own package]
# MXNet's own `python/mxnet/gluon` copied out of its parents (a corpus, a vendored copy) is a
# tree whose files climb out of it: `from .. import ndarray`, `from ...block import HybridBlock`
# in gluon/model_zoo, `from ....context import cpu`. Nothing around the tree is a package, so
# those names resolved to nothing, and 36 of its 47 modules passed through unchanged with
# nothing said. Python runs such a file only as a subpackage of the package it climbs into;
# where the tree's top is named like one of MXNet's modules (gluon, contrib, ndarray, ...) that
# package is taken to be `mxnet`, and what the climbing imports name is MXNet's. The choice is
# a guess, said at each import that relies on it (MX190, review). A top named otherwise climbs
# into nothing, as before; so does one whose files import the top's own name from MXNet (`from
# mxnet import gluon` in a tree named `gluon`): MXNet's own modules import their siblings
# relatively, so that tree is another library's backend folder.
# Inside a tree of MXNet's own package (guessed, or `mxnet/__init__.py` above it on disk), its
# model zoo and layers derive from the tree's own `block.HybridBlock` and call the tree's `nn`:
# converted as the tree's code they stay Gluon (91 hybrid_forward methods of MXNet's gluon kept
# F). A relative import inside such a tree of a name the catalogue translates (`from ..block
# import HybridBlock`, `from ... import nn`) is taken as MXNet's name, which it is, and converted
# as a user's import of it would be; every other name (`from .resnet import *`, `from ..utils
# import _indent`) stays the tree's own code, and so does every import of a package's
# __init__.py, which re-exports the tree's modules (`from . import nn` makes `gluon.nn` the
# converted tree's nn; taken as MXNet's, the unused import went, and `gluon.nn` with it).


def tree_contexts(root: Path, files: list[Path], read, *, keep: Optional[dict] = None) -> dict[Path, FileContext]:
    """A FileContext for every file of the tree under `root`; `read(path)` gives its bytes (or
    text, or None when it cannot be read: the conversion reports that).

    With `keep`, each file's analysis is kept for its conversion (Note [one analysis per
    file]): keep[path] = (what read gave, names.Analysis under the file's final context)."""
    share = Share(root, files, files, read)
    updates: dict = {}
    for _ in range(ROUNDS):
        updates = merge([share.step(updates)])
        if not updates:
            break
    return share.finish(keep)


# Note [package pass in shares]
# The package pass parses and analyses every file before any is converted: with -j N it would
# be a serial part of the run. So the files are split into N shares, one per process, each
# parsed and analysed by the process that converts them (its analyses stay where they are
# used: Note [one analysis per file]). The fixed point goes in rounds: every share analyses
# its files that are new or read a fact changed in the last round, against the facts known
# at the round's start, and says what it found that differs; the findings of all shares,
# applied in the files' order, are the next round's facts. A file's kinds depend only on its
# text and the facts it reads, so the facts are the same however the files are split, and
# the same as one process analysing every file in every round (tests/test_package.py).
ROUNDS = 32  # a chain of modules each deriving from the last settles in one round per module


# Note [modules that make blocks]
# A module that imports nothing of MXNet may still use Gluon: sockeye's unit tests `import
# sockeye.encoder` and call `sockeye.encoder.get_transformer_encoder(...).initialize()`. A module
# of the tree whose names are (or return) Gluon blocks gets a fact of its own (LOCAL + module +
# BLOCKS_MODULE), and a file importing that module by name is converted as a Gluon file, where it
# would have come back unchanged with nothing reported.
_BLOCKS = frozenset({"mxnet.gluon.Block"})


class Share:
    """The package pass over `mine`, some of the tree's `files` (Note [package pass in shares])."""

    def __init__(self, root: Path, files: list[Path], mine: list[Path], read):
        self.modules = modules = module_names(root, files)
        self.by_module = {name: path for path, (name, _) in modules.items() if name}
        self.roots, self.shadows = _roots(root, self.by_module)
        packages = {n.split(".", 1)[0] for n, path in self.by_module.items() if path.name == "__init__.py"}
        self.outer, self.outer_guessed = outer_packages(root, packages, files)  # a script `model.py` is no package
        self.mxnet_names = translated_names() if self.outer.split(".")[0] == "mxnet" else frozenset()
        roots = self.roots
        self.bare = bare_modules(self.by_module, roots)
        self.order = {path: i for i, path in enumerate(files)}
        self.analyses, self.read_first, self.data, self.path_changed = {}, {}, {}, {}
        self.facts: dict[str, frozenset] = {}
        self.stars: dict[str, dict] = {}  # LOCAL + module -> {name: kinds}: what `import *` takes
        self.readers: dict[str, list] = {}  # fact key, or LOCAL + module for `import *` -> files that read it
        self.stale: set = set()  # files that read a fact changed since they were last analysed
        self.last: dict = {}  # path -> kinds found when it was last analysed
        with no_gc():  # Note [no cyclic GC while converting]
            for path in sorted(mine, key=self.order.__getitem__):
                try:
                    self.data[path] = read(path)
                    tree = ast.parse(self.data[path])
                except (SyntaxError, ValueError, TypeError, OSError, UnicodeDecodeError, RecursionError, MemoryError):
                    continue  # the conversion reports it
                name, is_package = modules[path]
                reads = self.read_first[path] = _Reads({})
                changed = self.path_changed[path] = _changes_sys_path(tree)
                self.analyses[path] = names.Analysis(tree, context=FileContext(name, is_package, roots, reads,
                                                                               self.shadows, self.outer,
                                                                               self.outer_guessed, self.mxnet_names,
                                                                               self.bare, changed))

    def step(self, updates: dict) -> list:
        """One round: apply the last round's findings (fact key -> kinds), analyse the files
        that are new or read a changed fact, and give what they found that differs, as
        (file's place in the tree, fact key, kinds) in the files' order.

        A file's kinds are a function of its text and of the facts it reads, so a file none
        of whose facts changed since it was last analysed gives what it gave then."""
        facts = self.facts
        for key, kinds in updates.items():
            facts[key] = kinds
            module, name = key.rsplit(".", 1)
            if "#" not in name:  # a function's argument (Note [namespace by flow]) is no name `*` takes
                self.stars.setdefault(module, {})[name] = kinds
                if module + BLOCKS_MODULE not in facts and any(str(k).startswith(GLUON_ROOTS) for k in kinds):
                    # Note [modules that make blocks]
                    facts[module + BLOCKS_MODULE] = _BLOCKS
                    self.stale.update(self.readers.get(module + BLOCKS_MODULE, ()))
            self.stale.update(self.readers.get(key, ()))
            self.stale.update(self.readers.get(module, ()))
        found = []
        with no_gc():
            for path, analysis in self.analyses.items():
                module = self.modules[path][0]
                if not module or (path in self.last and path not in self.stale):
                    continue
                self.stale.discard(path)
                self.last[path], read = _kinds_found(analysis, facts, self.stars)
                for other in local_modules(analysis) - {module}:  # Note [kept MXNet imports] in imports.py
                    if other in self.by_module:
                        self.last[path][LOCAL + other + LENT] = _LENT
                for key in read:
                    self.readers.setdefault(key, []).append(path)
                place = self.order[path]
                for name, kinds in self.last[path].items():
                    # a fact about another module's function (Note [namespace by flow]) comes keyed
                    key = name if name.startswith(LOCAL) else f"{LOCAL}{module}.{name}"
                    if kinds and facts.get(key) != kinds:
                        found.append((place, key, kinds))
        return found

    def finish(self, keep: Optional[dict] = None) -> dict[Path, FileContext]:
        """The FileContext of each of the share's files (and, with `keep`, its kept analysis)."""
        by_home: dict[str, dict] = {}  # module -> its facts
        for key, kinds in self.facts.items():
            by_home.setdefault(key[len(LOCAL):].rsplit(".", 1)[0], {})[key] = kinds
        contexts = {}
        with no_gc():
            for path, analysis in self.analyses.items():
                name, is_package = self.modules[path]
                mine = {}
                # its own module's facts too: what callers elsewhere pass its functions (Note [namespace by flow])
                for m in sorted({name} | {m for m in local_modules(analysis) if m in self.by_module}):
                    mine.update(by_home.get(m, ()))
                contexts[path] = context = FileContext(name, is_package, self.roots, mine, self.shadows,
                                                       self.outer, self.outer_guessed, self.mxnet_names,
                                                       self.bare, self.path_changed[path])
                if keep is not None:
                    keep[path] = (self.data[path], _final(analysis, context, self.read_first[path].keys))
        return contexts


_LENT = frozenset({"lent"})


def bare_modules(by_module: dict, roots: frozenset) -> dict[str, tuple]:
    """Bare name -> ((package, module), ...): the tree's modules and packages below its top,
    by the last part of their names, where no top-level name of the tree, of the standard
    library or of MXNet's side takes that name (Note [bare-name imports of the tree])."""
    out: dict[str, list] = {}
    for dotted in by_module:
        parts = dotted.split(".")
        for i in range(1, len(parts)):
            head = parts[i]
            if head in roots or head in MX_ROOTS or head in sys.stdlib_module_names:
                continue
            entry = (".".join(parts[:i]), ".".join(parts[:i + 1]))
            if entry not in out.setdefault(head, []):
                out[head].append(entry)
    return {head: tuple(found) for head, found in out.items()}


def _changes_sys_path(tree: ast.Module) -> bool:
    """The file changes sys.path (`sys.path.append(...)`, `sys.path.insert(0, ...)`, `sys.path = ...`)."""
    for node in ast.walk(tree):
        target = node.func.value if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else \
            next(iter(node.targets), None) if isinstance(node, ast.Assign) else None
        if ast_dotted(target.value if isinstance(target, ast.Subscript) else target) == "sys.path":
            return True
    return False


# Note [a package named mxnet]
# A library with one subpackage (or module) per backend (`nn/mxnet/` beside `nn/pytorch/`,
# `model/mxnet.py` beside `model/pytorch.py`), copied without its parents' __init__.py, gives the
# tree a top-level package (or module) named `mxnet`: every `import mxnet` of the tree would
# resolve to it, and the whole tree would pass through with nothing said. Python resolves `import
# mxnet` to such a folder only when its parent folder is on sys.path: the tree's own top (the tree
# is the package, as when converting MXNet's own python/mxnet, or gluoncv). A package or module
# named like MXNet's deeper down is a backend's, so `import mxnet` there is MXNet itself, and each
# file that imports it says so (MX910, review): the choice is a guess.
# The backend folder itself given as the tree (`xlate convert dglke/models/mxnet`) is a package named
# `mxnet` at the top; MXNet's own `python/mxnet` is one too. The backend's files tell them apart: they
# climb out of the package (`from .. import *`: it is a subpackage of something larger), or import
# from `mxnet`, at a line's start, a module the folder lacks (`from mxnet import gluon` beside no
# `gluon/`; MXNet's own docstrings write `from mxnet import np`, indented). Such a
# package is a backend's as well: `import mxnet` in it is MXNet itself, said at each file (MX910).
def _roots(root: Path, by_module: dict) -> tuple[frozenset, tuple]:
    """The tree's top-level import names, and the folders of packages named like MXNet's roots
    that are taken as no top-level name (Note [a package named mxnet])."""
    top = path_top(root)
    roots, shadows = set(), []
    for name, path in by_module.items():
        head = name.split(".", 1)[0]
        # a package `mxnet/`, or a module `mxnet.py` (a backend module, `model/mxnet.py` beside `model/pytorch.py`)
        folder = path.parent if path.name == "__init__.py" else path.with_suffix("")
        if head in MX_ROOTS and name == head and (folder.parent != top or _a_backend(folder, by_module)):
            shown = path.parent if folder == path.parent else path
            shadows.append(shown.relative_to(top).as_posix() if top in shown.parents else str(shown))
            continue
        roots.add(head)
    shadowed = {Path(s).stem for s in shadows}
    return frozenset(r for r in roots if r not in shadowed), tuple(sorted(shadows))


def _a_backend(folder: Path, by_module: dict) -> bool:
    """The top-level package at `folder`, named like MXNet's, is a backend's subpackage, not MXNet's own
    (Note [a package named mxnet]): a file of it climbs out of it, or imports from its name a module it lacks."""
    if not (folder / "__init__.py").is_file():
        return False
    own = {p.stem for p in folder.iterdir() if p.stem != "__init__"}
    for path in by_module.values():
        if folder not in path.parents:
            continue
        text = _text(path)
        if text is None:
            continue
        depth = len(path.relative_to(folder.parent).parts) - 1  # the package levels a relative import may climb
        if any(len(m.group(1)) > depth for m in _CLIMB.finditer(text)):
            return True
        if any(n not in own for n in _imported_from(text, folder.name, top_level=True)):
            return True
    return False


def merge(found: list[list]) -> dict:
    """The shares' findings of one round as the next round's updates, in the files' order (two
    files of one module name: the later one's, as Python's import would not tell either)."""
    return {key: kinds for _, key, kinds in sorted((f for share in found for f in share), key=lambda f: f[0])}


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
    # a fact that says Gluon, or MXNet's namespace (`getF` of another module: Note [namespace aliases])
    # or an MXNet function another module binds (Note [module aliases]), or an MXNet package a helper returns
    if any(any(k.startswith((*GLUON_ROOTS, ALIAS, REEXPORT)) or k in NAMESPACES or k in PACKAGES
               for k in facts.get(key, ()))
           for key in read_keys):
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


def _kinds_found(analysis, facts: dict, by_module: dict) -> tuple[dict, set]:
    """The kinds of a file's top-level names under `facts`, and what it read: fact keys, and
    the modules it imports `*` from (LOCAL + module)."""
    view = _Reads(facts)
    analysis.facts = view
    analysis._kinds.clear()
    found = dict(top_level_kinds(analysis))
    found.update(namespace_flow.passed_out(analysis))  # Note [namespace by flow]
    found.update(unpacking.namespace_places(analysis))  # Note [namespace in a returned tuple]
    root = analysis.scopes[()]
    for name, target in root.imports.items():  # re-exports: `from .rcnn import RCNN`
        if target.startswith(LOCAL) and view.get(target):
            found.setdefault(name, facts[target])
    for name, target in root.imports.items():  # Note [re-exported MXNet names]
        if not name.startswith("_") and names.is_mxnet(target):
            found.setdefault(name, frozenset([REEXPORT + target]))
    for star in root.star_local:  # `from .faster_rcnn import *`
        for name, kinds in list(by_module.get(star, {}).items()):
            if not name.startswith("_"):
                found.setdefault(name, kinds)
    for name in analysis.module_aliases:  # `zeros = np.zeros` (Note [module aliases])
        target = analysis.lookup((), name)
        if isinstance(target, str) and target.startswith("mxnet.numpy") and name not in found:
            found[name] = frozenset([ALIAS + target])
    return found, view.keys | set(root.star_local)
