"""Deep Learning with MXNet Cookbook (PacktPublishing, 2023), a Gluon tutorial book nobody tuned xlate to, as
scripts for bench/package_corpus.py's `packt` corpus (issue 21):

    .venv/bin/python bench/packt_extract.py          # MIRROR -> /work/corpus/packt/src/

Each notebook with code cells becomes one script beside the book's own modules (chNN/x.ipynb -> chNN/x.py,
`-` as `_`), its code cells in order, epochs cut as bench/dope_notebooks.py cuts them. An IPython magic or
shell escape (`!wget ...`, `%matplotlib inline`) becomes `pass` at its indentation, so a block holding only a
download stays a block, and `r = %timeit ...` becomes `r = None`. Without the mirror it says so and exits 0.
"""
from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from dope_notebooks import cut  # noqa: E402  the epochs cut (Note [epochs cut] there)

MIRROR = Path(os.environ.get("XLATE_PACKT_MIRROR",
                             "/work/.mirror/PacktPublishing+Deep-Learning-with-MXNet-Cookbook/repo"))
DEST = Path(os.environ.get("XLATE_NP_CORPUS", "/work/corpus")) / "packt" / "src"
MAGIC = re.compile(r"^(\s*)(%%?|!)[A-Za-z]")
ASSIGNED_MAGIC = re.compile(r"^(\s*[\w.]+\s*=\s*)%%?[A-Za-z].*$")


def cell_lines(src: str) -> list[str]:
    out = []
    for line in src.splitlines():
        if (m := ASSIGNED_MAGIC.match(line)):
            out.append(f"{m.group(1)}None  # IPython magic dropped")
        elif (m := MAGIC.match(line)):
            out.append(f"{m.group(1)}pass  # IPython magic dropped")
        elif not line.rstrip().endswith("?"):
            out.append(cut(line))
    return out


def main() -> int:
    if not MIRROR.exists():
        print(f"no mirror at {MIRROR}: nothing extracted")
        return 0
    git = lambda *a, text=True: subprocess.run(["git", "--git-dir", str(MIRROR), *a], capture_output=True,
                                               text=text, check=True).stdout
    commit = git("rev-parse", "--short", "HEAD").strip()
    shutil.rmtree(DEST, ignore_errors=True)
    notebooks = unparsable = missing = 0
    for path in git("ls-tree", "-r", "--name-only", "HEAD").split("\n"):
        try:
            if path.endswith(".py"):
                blob = git("show", f"HEAD:{path}", text=False)
                (DEST / path).parent.mkdir(parents=True, exist_ok=True)
                (DEST / path).write_bytes(blob)
                continue
            if not path.endswith(".ipynb"):
                continue
            book = json.loads(git("show", f"HEAD:{path}"))
        except subprocess.CalledProcessError:  # an object the mirror lacks
            missing += 1
            continue
        cells = []
        for cell in book.get("cells", []):
            if cell.get("cell_type") == "code":
                src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
                text = "\n".join(cell_lines(src)).strip("\n")
                if text.strip():
                    cells.append(text)
        if not cells:
            continue
        text = f"# {path} (PacktPublishing/Deep-Learning-with-MXNet-Cookbook {commit}), its code cells in order\n" \
               + "\n\n".join(cells) + "\n"
        out = DEST / (path[:-len(".ipynb")].replace("-", "_") + ".py")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        notebooks += 1
        try:
            ast.parse(text)
        except SyntaxError:
            unparsable += 1
    print(f"{notebooks} notebooks as scripts ({unparsable} do not parse), {missing} files absent from the mirror")
    return 0


if __name__ == "__main__":
    sys.exit(main())
