"""The package's shape (README, Layout): which part may import which, and no import cycles.

Read from the source with `ast`, imports under `if TYPE_CHECKING:` and inside functions
included, so a cycle cannot hide in a type annotation or a late import.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "xlate"

# part -> the parts of xlate it may import (besides itself), and the outside packages it may use
ALLOWED = {
    "convert": ({"runtime"}, {"libcst", "tomli", "tomllib"}),
    # OpenCV only inside the image helpers' bodies, imported when first used (Note [OpenCV images])
    "runtime": (set(), {"torch", "cv2"}),
    "check": ({"convert", "runtime"}, {"torch", "numpy", "mxnet", "gluonnlp", "hypothesis", "tomli", "tomllib"}),
    "weights": ({"check", "convert", "runtime"}, {"torch", "numpy", "mxnet"}),
    # the commands that run models import the frameworks late, to say what is missing
    "cli": ({"convert", "check", "weights", "runtime"}, {"torch", "mxnet"}),
}
STDLIB = set(__import__("sys").stdlib_module_names)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, *, top_only: bool = False) -> set[str]:
    """The modules `path` imports; with top_only, those imported outside every function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _module_name(path).split(".")
    is_pkg = path.name == "__init__.py"
    found = set()
    for node in (_outside_functions(tree) if top_only else ast.walk(tree)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here if is_pkg else here[:-1]
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            # `from xlate.convert import names` imports the module xlate.convert.names
            found.update(f"{module}.{a.name}" for a in node.names)
    return found


def _outside_functions(tree: ast.AST):
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(c for c in ast.iter_child_nodes(node)
                    if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


@pytest.mark.parametrize("module", sorted(m for m in _modules() if _part(m) in ALLOWED))
def test_each_part_imports_only_what_the_layout_allows(module):
    path = _modules()[module]
    part = _part(module)
    inner, outer = ALLOWED[part]
    known = _modules()
    bad = []
    for name in _imports(path):
        top = name.split(".")[0]
        if top == "xlate":
            other = _part(name)
            if other and other != part and other not in inner and (name in known or other in ALLOWED):
                bad.append(name)
        elif top not in STDLIB and top not in outer and top != "__future__":
            bad.append(name)
    if part == "runtime" and path.name != "__init__.py":
        # helper text is copied into converted files: torch and nothing else at the top, and
        # the standard library only inside a function, where the import is part of the helper
        bad += [n for n in _imports(path, top_only=True) if n.split(".")[0] not in ("torch", "__future__")]
        bad += [n for n in _imports(path) if n.split(".")[0] not in {"torch", "__future__", "cv2"} | STDLIB]
    assert not bad, f"{module} imports {sorted(set(bad))}, outside what README's Layout allows for {part}"


def test_convert_reads_the_runtime_as_text_only():
    helper_modules = {m for m in _modules() if m.startswith("xlate.runtime.")}
    for module, path in _modules().items():
        if _part(module) == "convert":
            runtime = {n for n in _imports(path) if n in helper_modules}
            assert not runtime, f"{module} imports runtime modules {runtime}: it must read them as text"


def test_no_import_cycles():
    known = _modules()
    graph = {m: {n for n in _imports(p) if n in known and n != m and not m.startswith(n + ".")}
             for m, p in known.items()}
    # a package's __init__ importing its own submodules is not a cycle worth failing on
    graph = {m: {n for n in deps if not n.startswith(m + ".")} for m, deps in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycle = stack[stack.index(n):] + [n]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_the_cycle_check_can_fail(tmp_path):
    pkg = tmp_path / "xlate"
    (pkg / "convert").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "convert" / "__init__.py").write_text("")
    (pkg / "convert" / "a.py").write_text("from xlate.convert import b\n")
    (pkg / "convert" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                          "    from xlate.convert.a import X\n")
    globals()["PACKAGE"] = pkg
    try:
        with pytest.raises(AssertionError, match="import cycle"):
            test_no_import_cycles()
    finally:
        globals()["PACKAGE"] = Path(__file__).resolve().parent.parent / "xlate"
