"""What converting a whole tree adds to converting its files one by one: where each file finds
the tree's helper module, and the helper modules themselves (Note [helper placement] in
xlate/convert/placement.py).

Note [one absolute helper module]
A file outside any package imports `from _mx_compat import ...` by absolute name, and Python takes
the first `_mx_compat` on sys.path, which need not be the one beside the file: research code keeps
its modules in folders without `__init__.py` (`models/`, `dataset/`) and imports them as namespace
packages from the repository's root (`from dataset.coco import COCO`), where `_mx_compat` is the
root's, written for the root's scripts, or none at all. So every helper module reached by absolute
name holds every helper such files need, and one is written in each folder above them, up to the
tree's root, that is not a package (sys.path may start there). Package files import theirs relatively
and are not affected.
"""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path
from typing import Iterable, Optional

from xlate.convert.placement import MODULE_NAME, HelperImport
from xlate.runtime import MODULE_DOC, module_text, sources

FILE_NAME = MODULE_NAME + ".py"


# Note [namespace folders inside a package]
# A folder without `__init__.py` below a package (MXNet-Detector's Center/core/utils/dataprocessing/, beside
# its siblings' regular packages) is a namespace portion of that package: Python imports
# `core.utils.dataprocessing.dataloader` from it. Named by its stem as a script, such a module imported
# its helpers as `from _mx_compat import ...`, which no sys.path entry holds where the package imports
# it; named as Python names it, it imports them as the package's other modules do. Nothing there tells a
# module the package lends from a script kept beside it (SPOS's MicroNetChallenge/inference.py, in a tree
# whose root is a package), so a kept MXNet import stays guarded in such a folder (HelperImport.namespace).
def packaged(folder: Path, top: Path) -> bool:
    """The folder is a package, or a namespace folder (an identifier) below one, below `top` (the folder
    sys.path holds: the tree's root, or its parent when the root is a package)."""
    if folder == top:  # sys.path's own folder (a root with a vestigial __init__.py: Note [a root on sys.path])
        return False
    if (folder / "__init__.py").is_file():
        return True
    return folder.name.isidentifier() and folder.parent != top and folder != top and packaged(folder.parent, top)


# Note [a root on sys.path]
# A tree's root with an `__init__.py` is a package, imported from its parent, unless its own files
# say otherwise: a federated-learning project keeps an empty `__init__.py` at its root while every
# module imports its siblings by absolute name (`from Tools.utils import ...`, `from Algorithm import
# CNN`) with the root put on sys.path. Taken as a package, its files imported their helpers with
# `from .._mx_compat import ...`, which climbs above the top-level package where the project runs:
# half its modules failed to import. So a root whose files import one of its own folders or modules
# by absolute name, and none imports the root by its own name, is the folder sys.path holds.
_IMPORTED_TOP = re.compile(r"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b|import[ \t]+([A-Za-z_]\w*))", re.M)


@functools.lru_cache(maxsize=64)
def path_top(root: Path) -> Path:
    """The folder sys.path holds for the tree at `root`: its parent when the root is a package, else
    the root itself (Note [a root on sys.path])."""
    if not (root / "__init__.py").is_file():
        return root
    children = {p.stem for p in root.iterdir() if p.stem.isidentifier() and p.stem != "__init__"
                and (p.is_dir() or p.suffix == ".py")}
    absolute = False
    for path in root.rglob("*.py"):
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for found in _IMPORTED_TOP.finditer(text):
            name = found.group(1) or found.group(2)
            if name == root.name:
                return root.parent
            absolute = absolute or name in children
    return root if absolute else root.parent


def helper_import(root: Path, path: Path) -> HelperImport:
    """How `path` (a file under `root`) imports the helper module: relatively from the top of
    its package (within the tree), or, outside any package, from its own folder."""
    folder = path.parent
    outer = path_top(root)
    if not packaged(folder, outer):
        return HelperImport(level=None)
    top, level = folder, 1
    while top != root and top.parent != top and packaged(top.parent, outer) and _within(top.parent, root):
        top, level = top.parent, level + 1
    return HelperImport(level=level, script=False, namespace=not (folder / "__init__.py").is_file())


def _within(path: Path, root: Path) -> bool:
    # by their parts: `root in path.parents` compares Path objects, 40 us each
    return path.parts[:len(root.parts)] == root.parts


def module_folders(path: Path, used: HelperImport) -> list[Path]:
    """The folders (relative to the file's tree) whose helper module `path` imports."""
    folders = []
    if used.level is not None:
        top = path.parent
        for _ in range(used.level - 1):
            top = top.parent
        folders.append(top)
    if used.level is None or used.script:
        folders.append(path.parent)
    return folders


def existing_helpers(text: str) -> Optional[set]:
    """The helpers of a helper module xlate wrote (None: the file is someone else's)."""
    if not text.startswith(MODULE_DOC.splitlines()[0]):
        return None
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in sources()}


def helper_modules(needs: Iterable[tuple[Path, HelperImport, tuple, str]], root: Optional[Path] = None,
                   packages: frozenset = frozenset()) -> dict[Path, tuple[set, str]]:
    """Folder -> (helpers, newline) for every (output file, its import, its helpers, its newline).
    Modules imported by absolute name all hold the same helpers, and so do the folders above them up
    to `root` that are not packages (Note [one absolute helper module])."""
    modules: dict[Path, tuple[set, str]] = {}
    absolute: set = set()
    for path, used, helpers, newline in needs:
        if not helpers:
            continue
        for folder in module_folders(path, used):
            names, nl = modules.get(folder, (set(), newline))
            modules[folder] = (names | set(helpers), nl)
        if used.level is None or used.script:
            absolute.add(path.parent)
    if root is not None:
        absolute |= {up for folder in absolute for up in folder.parents
                     if _within(up, root) and up not in packages}
    union = set().union(*(modules[f][0] for f in absolute if f in modules))
    newline = next((modules[f][1] for f in sorted(absolute) if f in modules), "\n")
    for folder in absolute:
        modules[folder] = (union, modules.get(folder, (union, newline))[1])
    return modules


def render(helpers: set, newline: str) -> str:
    return module_text(sorted(helpers), newline=newline)


class HelperModuleConflict(Exception):
    """A file named like the helper module exists where one must go, and xlate did not write it."""

    def __init__(self, path: Path):
        super().__init__(f"{path}: the converted files import their helpers from this file, "
                         f"but it exists and xlate did not write it; rename it")
        self.path = path


def plan_modules(entries: list[tuple[Path, object]], read, root: Optional[Path] = None, *,
                 on_path: bool = False) -> dict[Path, str]:
    """Path -> text of every helper module the converted files need. `entries` pairs each
    file's destination with its FileResult; `read(path)` gives the text already at a path (a
    file of the tree being converted, or one on disk), or None; `root`, the converted tree's
    output folder. A helper module xlate wrote before (a second conversion) keeps its helpers and
    gains the new ones."""
    needs = []
    for target, result in entries:
        if result.helper_import is not None:
            newline = "\r\n" if "\r\n" in result.output else "\n"
            needs.append((target, result.helper_import, result.helpers, newline))
    packages = frozenset(target.parent for target, _ in entries if target.name == "__init__.py"
                         and not (on_path and target.parent == root))
    planned = {}
    for folder, (helpers, newline) in sorted(helper_modules(needs, root, packages).items()):
        path = folder / FILE_NAME
        old = read(path)
        if old is not None:
            kept = existing_helpers(old)
            if kept is None:
                raise HelperModuleConflict(path)
            helpers = helpers | kept
        planned[path] = render(helpers, newline)
    return planned
