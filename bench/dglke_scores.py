"""dgl-ke's MXNet backend (awslabs/dgl-ke, python/dglke/models/mxnet/), converted as a user would give it
(the backend folder as the tree) and its score functions run on both sides: each score class's edge_func
(with a stand-in for DGL's edge batch), infer and create_neg for heads and tails, and the tensor helpers
(bench/dglke/probe.py). DGL itself is not needed: nothing here builds a graph.

    PYTHONPATH=. .venv/bin/python bench/dglke_scores.py [CORPUS]   # CORPUS: the folder holding python/dglke

CORPUS defaults to /work/corpus/dglke or $XLATE_DGLKE; absent, the script says so and exits 0. The converted
side runs with `import mxnet` raising ImportError. Prints the probes that differ or fail and the count that match.
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
BLOCK = "import sys\nclass _B:\n    def find_spec(self, name, path=None, target=None):\n" \
        "        if name == 'mxnet' or name.startswith('mxnet.'):\n            raise ImportError('blocked')\n" \
        "sys.meta_path.insert(0, _B())\n"


def main() -> int:
    corpus = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("XLATE_DGLKE", "/work/corpus/dglke"))
    backend = corpus / "python/dglke/models/mxnet"
    if not backend.is_dir():
        print(f"no dgl-ke corpus at {corpus}: skipped")
        return 0
    with tempfile.TemporaryDirectory() as work:
        out, block = Path(work) / "out", Path(work) / "block"
        block.mkdir()
        (block / "sitecustomize.py").write_text(BLOCK)
        convert = subprocess.run([sys.executable, "-m", "xlate", "convert", str(backend), "-o", str(out), "--exit-zero",
                                  "-j", "1"], capture_output=True, text=True)
        print(convert.stderr.split("\n\n")[-2] if "\n\n" in convert.stderr else convert.stderr[-400:])
        sides = {}
        for side, root, path in (("mx", backend, ""), ("pt", out, str(block))):
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (path, os.environ.get("PYTHONPATH", "")) if p))
            dump = Path(work) / f"{side}.json"
            run = subprocess.run([sys.executable, str(HERE / "dglke/probe.py"), side, str(root), str(dump)], env=env,
                                 capture_output=True, text=True)
            if run.returncode:
                print(f"{side}: the probe failed\n{run.stderr[-1500:]}")
                return 1
            sides[side] = json.loads(dump.read_text())
    match = 0
    for key, want in sides["mx"].items():
        got = sides["pt"].get(key)
        if isinstance(want, str) or isinstance(got, str):
            print(f"  {key}: MXNet {want if isinstance(want, str) else 'ok'}; converted {got if isinstance(got, str) else 'ok'}")
            continue
        w, g = np.array(want), np.array(got)
        if w.shape != g.shape or not np.allclose(w, g, rtol=1e-5, atol=1e-6):
            print(f"  {key}: differs, shapes {w.shape} / {g.shape}" + (f", at most {np.abs(w - g).max():.3g}" if w.shape == g.shape else ""))
            continue
        match += 1
    print(f"{match} of {len(sides['mx'])} probes give MXNet's numbers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
