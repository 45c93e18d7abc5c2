"""The handwritten-text-recognition corpus (awslabs/handwritten-text-recognition-for-apache-mxnet), extracted from
its git mirror for bench/package_corpus.py (corpus `htr`, issue 21).

    .venv/bin/python bench/htr_extract.py          # MIRROR -> CORPUS/htr/

Writes the repository's .py files (`ocr/`, `ocr/utils/`, get_models.py) as they are, and each of its notebooks
as a script under notebooks/ (its code cells in order, IPython magics dropped, as bench/dope_notebooks.py
makes them; `ocr/utils/test_iam_dataset.ipynb` -> notebooks/ocr__utils__test_iam_dataset.py). The notebooks
are parsed and converted, not run: every one reads the IAM dataset (a login) or downloads pretrained
parameters (bench/README.md). Without the mirror it says so and exits 0.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from dope_notebooks import code_cells  # noqa: E402  the same cell reading as the Straight Dope's

MIRROR = Path(os.environ.get("XLATE_HTR_MIRROR",
                             "/work/.mirror/awslabs+handwritten-text-recognition-for-apache-mxnet/repo"))
CORPUS = Path(os.environ.get("XLATE_NP_CORPUS", "/work/corpus")) / "htr"


def _git(*args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(MIRROR), *args], capture_output=True, text=True,
                          check=True).stdout


def extract(dest: Path) -> dict:
    if dest.exists():
        shutil.rmtree(dest)
    names = [n for n in _git("ls-tree", "-r", "--name-only", "HEAD").split("\n") if n]
    scripts = 0
    for path in names:
        if path.endswith(".py"):
            (dest / path).parent.mkdir(parents=True, exist_ok=True)
            (dest / path).write_text(_git("show", f"HEAD:{path}"), encoding="utf-8")
        elif path.endswith(".ipynb"):
            cells = code_cells(json.loads(_git("show", f"HEAD:{path}")))
            out = dest / "notebooks" / (path.removesuffix(".ipynb").replace("/", "__") + ".py")
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(f"# {path} (HEAD {_git('rev-parse', '--short', 'HEAD').strip()}), its code cells in "
                           "order\n" + "\n\n".join(cells) + "\n", encoding="utf-8")
            scripts += 1
    return {"python_files": sum(p.endswith(".py") for p in names), "notebook_scripts": scripts}


if __name__ == "__main__":
    if not MIRROR.is_dir():
        print(f"no mirror at {MIRROR}: nothing to extract")
        sys.exit(0)
    print(extract(CORPUS))
