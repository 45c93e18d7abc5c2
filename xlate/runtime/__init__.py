"""The run-time side of a translation: torch code that converted programs use.

Where no plain torch expression or module computes MXNet's numbers, a rewrite calls a
helper (`_mx_reshape`, `_mx_Dense`, `_mx_BatchNorm`, `_mx_initialize`, ...). The helpers are
defined as top-level `_mx_*` functions and classes in this package's modules and use `torch`
and each other, nothing else, so converted code depends on torch alone.

The converter never imports these modules (it must run without torch): it reads their text
through `sources()` and copies what a converted file needs. The tests and the checker import
them and compare each helper with live MXNet.
"""
from __future__ import annotations

import ast
import functools
from pathlib import Path

# Modules whose top-level `_mx_*` definitions are helpers, in the order they are read.
MODULES = ("helpers", "layers", "norms", "init", "blocks")


@functools.lru_cache(maxsize=None)
def sources() -> dict[str, str]:
    """Helper name -> its source text (read, never imported)."""
    found: dict[str, str] = {}
    here = Path(__file__).parent
    for module in MODULES:
        text = (here / f"{module}.py").read_text(encoding="utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name.startswith("_mx_"):
                if node.name in found:
                    raise ValueError(f"helper {node.name} is defined twice")
                found[node.name] = ast.get_source_segment(text, node, padded=False)
    return found
