"""MXNet 1.9.1's own Python tutorials (docs/python_docs/python/tutorials) as scripts, a corpus nobody tuned
xlate to: the code MXNet users read and copied (issue 21).

    .venv/bin/python bench/mx_tutorials.py                      # MIRROR -> CORPUS/mx-tutorials/
    .venv/bin/python bench/dope_notebooks.py run --corpus /work/corpus/mx-tutorials -j 2 --json /tmp/tut.json
    .venv/bin/python bench/dope_notebooks.py models --corpus /work/corpus/mx-tutorials -j 2

This script only extracts: one script per tutorial (packages/gluon/blocks/naming.md ->
packages__gluon__blocks__naming.py), its Python code blocks (```python and ```{.python .input}) in
order, IPython magics and shell escapes dropped, epochs cut as bench/dope_notebooks.py cuts the book's
(Note [epochs cut] there: the same text on both sides). bench/dope_notebooks.py's `run` and `models`
then convert the folder as a user would, run each script against MXNet and converted, compare what
both print, and check every model a script builds. Tutorials that download data or need a GPU,
TensorRT or ONNX fail in MXNet here and are counted as such. Without the mirror it says so and exits 0.
"""
from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from dope_notebooks import MAGIC, as_script, cut  # noqa: E402  the same cut and layout as the book's

MIRROR = Path(os.environ.get("XLATE_MXNET_MIRROR", "/work/.mirror/apache+mxnet/repo"))
CORPUS = Path(os.environ.get("XLATE_NP_CORPUS", "/work/corpus")) / "mx-tutorials"
TAG = "1.9.1"
ROOT = "docs/python_docs/python/tutorials/"
CELL = re.compile(r"^```(?:python|\{\.python \.input[^}]*\})[ \t]*\n(.*?)^```", re.S | re.M)


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(MIRROR), *args], capture_output=True, text=True, check=True).stdout


def script_name(path: str) -> str:
    return path[len(ROOT):].removesuffix(".md").replace("-", "_").replace("/", "__") + ".py"


def extract(dest: Path) -> dict:
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    pages = [p for p in _git("ls-tree", "-r", "--name-only", TAG, ROOT).split("\n") if p.endswith(".md")]
    written, cells, unparsable = 0, 0, []
    for path in pages:
        code = []
        for block in CELL.findall(_git("show", f"{TAG}:{path}")):
            lines = [cut(ln) for ln in block.splitlines() if not MAGIC.match(ln)]
            if "\n".join(lines).strip():
                code.append("\n".join(lines).strip("\n"))
        if not code:
            continue
        text = as_script(f"# {path} (apache/mxnet {TAG}), its Python blocks in order", code)
        try:
            ast.parse(text)
        except SyntaxError:
            unparsable.append(path)
            continue
        (dest / script_name(path)).write_text(text, encoding="utf-8")
        written, cells = written + 1, cells + len(code)
    return {"tutorials": len(pages), "scripts": written, "code_cells": cells, "unparsable": unparsable}


def main() -> int:
    if not (MIRROR / "HEAD").exists():
        print(f"mx_tutorials: no mirror at {MIRROR}; nothing to do")
        return 0
    print(extract(CORPUS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
