"""Whether conversion time grows linearly with the size of a construct (issue 24 item 7).

    .venv/bin/python bench/shape_speed.py              # every shape at its three sizes
    .venv/bin/python bench/shape_speed.py --shape copy-chain --repeats 3

For each shape (a chain of methods, of attributes, of subscripts, of binary operators, nested
calls, many statements in one block, many functions, a whole file) it converts the source at
three sizes and prints the time of `convert_source` over LibCST's floor
(`libcst.parse_module(src).code`) measured in the same process on the same source: a linear
conversion keeps that ratio flat as the size grows; a quadratic one doubles it with the size.
Always exits 0: it reports, it does not gate (tests/test_reliability.py counts the work).
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import libcst  # noqa: E402

from xlate.convert.engine import convert_source  # noqa: E402

HEAD = "import mxnet as mx\nfrom mxnet import nd\n"

# name -> (sizes, size -> source)
SHAPES = {
    "copy-chain": ((250, 500, 1000), lambda n: HEAD + "x = nd.zeros((2, 3))\ny = x" + ".copy()" * n + "\n"),
    "method-chain": ((250, 500, 1000), lambda n: HEAD + "y = nd.zeros((2, 3))" + ".relu()" * n + "\n"),
    "attribute-chain": ((500, 1000, 2000), lambda n: HEAD + "y = a" + ".b" * n + "\n"),
    "subscript-chain": ((250, 500, 1000), lambda n: HEAD + "x = nd.zeros((2, 3))\ny = x" + "[0]" * n + "\n"),
    "binop-chain": ((500, 1000, 2000), lambda n: HEAD + "x = nd.zeros(3)\ny = " + " + ".join(["x"] * n) + "\n"),
    "nested-calls": ((25, 50, 100), lambda n: HEAD + "y = " + "nd.relu(" * n + "nd.zeros(3)" + ")" * n + "\n"),
    "one-block": ((500, 1000, 2000), lambda n: HEAD + "def f(x):\n" + "".join(
        f"    y{i} = nd.relu(x).reshape((0, -1)) + {i}\n" for i in range(n)) + "    return x\n"),
    "many-functions": ((200, 400, 800), lambda n: HEAD + "".join(
        f"def f{i}(x):\n    y = nd.relu(x)\n    return y.reshape((0, -1))\n\n" for i in range(n))),
    "file-size": ((1, 2, 4), None),  # the generated corpus of bench/make_corpus.py, n copies
}


def _corpus(n: int) -> str:
    sys.path.insert(0, str(REPO / "bench"))
    from make_corpus import generate
    body = generate()
    return body + "".join("\n" + body.replace("import ", "import ") for _ in range(n - 1))


def best(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        gc.collect()  # (also with the collector off: what the last run dropped)
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def measure(src: str, repeats: int) -> tuple[float, float]:
    # xlate converts with the cyclic GC off (Note [no cyclic GC while converting]); the floor
    # is measured the same way, or its collections make it noisy and grow faster than it
    gc.disable()
    try:
        floor = best(lambda: libcst.parse_module(src).code, repeats)
    finally:
        gc.enable()
    conv = best(lambda: convert_source(src), repeats)
    return floor, conv


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES))
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    print(f"{'shape':<18}{'size':>7}{'floor s':>10}{'xlate s':>10}{'ratio':>8}")
    for name in args.shape or SHAPES:
        sizes, make = SHAPES[name]
        ratios = []
        for n in sizes:
            src = _corpus(n) if make is None else make(n)
            floor, conv = measure(src, args.repeats)
            ratios.append(conv / floor)
            print(f"{name:<18}{n:>7}{floor:>10.3f}{conv:>10.3f}{conv / floor:>8.1f}")
        growth = ratios[-1] / ratios[0]
        print(f"{'':<18}{'':>7}  ratio grows {growth:.1f}x over a {sizes[-1] // sizes[0]}x size "
              f"({'flat: linear' if growth < 1.6 else 'growing: worse than linear'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
