"""The seed documents' ASTGCN (Davidham3/ASTGCN-2019-mxnet, model/), converted as a package and
compared with MXNet: deferred-shape attention parameters, Chebyshev convolutions, sub-modules
in Python lists with register_child.

    .venv/bin/python bench/astgcn.py /work/corpus/astgcn/model     # or XLATE_ASTGCN=...

Prints the conversion's report summary and the checker's comparison (inference, training,
every gradient). Exits 0 and says why when the corpus or a framework is missing; the corpus is
fetched by hand and never committed.
"""
from __future__ import annotations

import io
import os
import sys
import tempfile
import warnings
from contextlib import redirect_stderr
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))


def main() -> int:
    src = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("XLATE_ASTGCN", "/work/corpus/astgcn/model"))
    if not (src / "astgcn.py").is_file():
        print(f"bench/astgcn.py: no ASTGCN model package at {src}; skipped")
        return 0
    try:
        import mxnet as mx  # noqa: F401
        import numpy as np
        import torch
    except ImportError as e:
        print(f"bench/astgcn.py: {e}; skipped")
        return 0
    from test_fixture_packages import load_package

    from xlate.check.inputs import parse
    from xlate.check.pair import check_models
    from xlate.cli import main as xlate

    out = Path(tempfile.mkdtemp()) / "astgcn_pt"
    report = io.StringIO()
    with redirect_stderr(report):
        code = xlate(["convert", str(src), "-o", str(out)])
    print("\n".join(line for line in report.getvalue().splitlines() if "[fixed]" not in line).strip())
    print(f"exit code {code}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        load_package(src, "astgcn_mx")
        load_package(out, "astgcn_pt")
        from astgcn_mx.astgcn import ASTGCN as MXASTGCN
        from astgcn_pt.astgcn import ASTGCN as PTASTGCN

        vertices, order = 5, 3
        rng = np.random.RandomState(0)
        cheb = [rng.uniform(-1, 1, (vertices, vertices)).astype("float32") for _ in range(order)]

        def backbones(array):
            block = {"K": order, "num_of_chev_filters": 4, "num_of_time_filters": 4, "time_conv_strides": 1,
                     "cheb_polynomials": [array(c) for c in cheb]}
            return [[block, block], [block, block]]  # two sub-modules (e.g. hour, day) of two blocks

        class Inputs(mx.gluon.Block):  # ASTGCN takes a list of inputs; the checker passes arrays
            def __init__(self, net):
                super().__init__()
                with self.name_scope():
                    self.net = net

            def forward(self, recent, daily):
                return self.net([recent, daily])

        class TorchInputs(torch.nn.Module):
            def __init__(self, net):
                super().__init__()
                self.net = net

            def forward(self, recent, daily):
                return self.net([recent, daily])

        specs = [parse("recent:float32[2,5,3,6]"), parse("daily:float32[2,5,3,6]")]
        result = check_models(Inputs(MXASTGCN(3, backbones(mx.nd.array))),
                              TorchInputs(PTASTGCN(3, backbones(torch.tensor))), specs, seed=1)
    failed = [c for c in result.checks if not c.ok]
    print(f"ASTGCN against MXNet: {len(result.checks) - len(failed)} of {len(result.checks)} checks equal "
          f"(inference and training outputs, every gradient)")
    for c in failed:
        print("  " + c.mismatch.format())
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
