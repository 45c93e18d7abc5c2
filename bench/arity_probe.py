"""Every rule's MXNet name called with arguments a program may get wrong (none, too many, starred, None
in place of an array, a bare keyword), in a function and at module level: the conversion must leave or
translate each one, never crash (an internal error loses the whole file's conversion).

    PYTHONPATH=. .venv/bin/python bench/arity_probe.py        # ~2 min; prints the crashes by place, exits 1 on any

Found on 2026-11-28: 7 crashes in 4 places (a template hole filled with nothing: `x.astype()`; `nd.arange()`;
`gluon.loss._apply_weighting(x)`; `x.reshape(None)`), all fixed; tests/test_reliability.py keeps them.
"""
import collections
import sys
import traceback

from xlate.convert import catalogue
from xlate.convert.engine import convert_source

VARIANTS = ["()", "(x)", "(x, y)", "(*a)", "(**k)", "(x, axis=None)", "(None)", "(x, 1, 2, 3, 4, 5, 6, 7)", "(name='n')"]
PROGRAM = ("import mxnet\nfrom mxnet import nd, gluon\nimport numpy as np\nx = nd.ones((2, 3))\ny = x\n"
           "def f(a, k):\n    return {e}\nz = {e}\n")


def main() -> int:
    names = sorted({m for r in catalogue.load() if r.kind in ("call", "reference") for m in r.matches})
    crashes, examples, tried = collections.Counter(), {}, 0
    for name in names:
        if name.startswith("."):
            spelled = f"x{name}"
        elif name.startswith("mxnet."):
            spelled = name
        else:
            continue
        for variant in VARIANTS:
            tried += 1
            try:
                convert_source(PROGRAM.format(e=spelled + variant))
            except Exception as err:  # noqa: BLE001 - every crash is a finding
                key = (type(err).__name__, traceback.extract_tb(err.__traceback__)[-1].name)
                crashes[key] += 1
                examples.setdefault(key, []).append(spelled + variant)
    print(f"{tried} calls converted, {sum(crashes.values())} crashed")
    for key, count in crashes.most_common():
        print(f"  {count} {key[0]} in {key[1]}: {', '.join(examples[key][:5])}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
