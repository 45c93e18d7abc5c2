"""Checker overhead: `check_pair` end to end over the raw passes it has to make.

For each model pair, in one process, best of N: (a) the raw work, with models already built
and weights already equal: MXNet inference forward + training forward/backward, PyTorch the
same; (b) `xlate.check.pair.check_pair` on the same files and inputs (loading, building,
random weights, transfer, both sides' passes, comparison). Prints (b)/(a); target < 1.5x.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from xlate.check.inputs import draw, parse  # noqa: E402
from xlate.check.mapping import transfer  # noqa: E402
from xlate.check.pair import check_pair  # noqa: E402
from xlate.check.sides import load, mx_prepare, mx_run, pt_run  # noqa: E402

CASES = [
    ("MLP 256-512-512-10, batch 256", "mlp", "x:float32[256,256]"),
    ("LSTM 2 layers, 256 hidden, batch 32 x 50 steps", "lstm", "x:float32[32,50,64]"),
]


def best(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"{'case':<48} {'raw':>9} {'checker':>9} {'ratio':>7}   (target < 1.5x)")
    for title, stem, spec_text in CASES:
        mx_ref, pt_ref = f"{HERE}/check_models/{stem}_mx.py:Net", f"{HERE}/check_models/{stem}_pt.py:Net"
        spec = parse(spec_text)
        rng = np.random.default_rng(0)
        arrays = [draw(spec, rng)]
        mx_net, pt_model = load(mx_ref, {}), load(pt_ref, {})
        mx_prepare(mx_net, arrays, rng)
        transfer(mx_net, pt_model)
        out = mx_run(mx_net, arrays, train=False)[0]
        heads = [draw(parse(f"h:float32[{','.join(map(str, o.shape))}]"), rng) for o in out]

        def raw():
            mx_run(mx_net, arrays, train=False)
            mx_run(mx_net, arrays, train=True, heads=heads)
            pt_run(pt_model, arrays, "cpu", train=False)
            pt_run(pt_model, arrays, "cpu", train=True, heads=heads)

        def checker():
            result = check_pair(mx_ref, pt_ref, [spec])
            assert result.ok, [c.mismatch.format() for c in result.checks if not c.ok]

        raw(), checker()  # warm-up: first calls pay for kernels and imports
        t_raw, t_check = best(raw, args.repeats), best(checker, args.repeats)
        print(f"{title:<48} {t_raw * 1e3:7.1f}ms {t_check * 1e3:7.1f}ms {t_check / t_raw:6.2f}x")


if __name__ == "__main__":
    main()
