"""Conversion does work linear in the size of a construct (issue 24 item 7), counted, not timed.

The unit is the number of Python function calls made in xlate's own code while one file
converts (LibCST's parser and renderer are not counted: their cost is the floor every LibCST
tool pays). A shape converted at size n and at 4n must cost at most about 4 times as much;
a path that walks a chain once per link (classifying each receiver again) costs 16 times.
bench/shape_speed.py times the same shapes against LibCST's floor.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from xlate.convert import engine, parsing

_XLATE = str(Path(engine.__file__).resolve().parent.parent)
_HEAD = "import mxnet as mx\nfrom mxnet import nd\n"

SHAPES = {
    "copy chain": (100, lambda n: _HEAD + "x = nd.zeros((2, 3))\ny = x" + ".copy()" * n + "\n"),
    "method chain": (100, lambda n: _HEAD + "y = nd.zeros((2, 3))" + ".relu()" * n + "\n"),
    "attribute chain": (200, lambda n: _HEAD + "y = nd.zeros(3)" + ".T" * n + "\n"),
    # 50, not 100: each link nests the tree one level deeper, and the profiler's cost per call grows
    # with the stack's depth (400 links took 5.5 s to count; the count itself stays linear)
    "subscript chain": (50, lambda n: _HEAD + "x = nd.zeros((2, 3))\ny = x" + "[0]" * n + ".copy()\n"),
    "binary operators": (200, lambda n: _HEAD + "x = nd.zeros(3)\ny = (" + " + ".join(["x"] * n) + ").copy()\n"),
    "nested calls": (10, lambda n: _HEAD + "y = " + "nd.relu(" * n + "nd.zeros(3)" + ")" * n + "\n"),
    "one block": (50, lambda n: _HEAD + "def f(x):\n" + "".join(
        f"    y{i} = nd.relu(x).reshape((0, -1)) + {i}\n" for i in range(n)) + "    return x\n"),
    "many functions": (20, lambda n: _HEAD + "".join(
        f"def f{i}(x):\n    y = nd.relu(x)\n    return y.reshape((0, -1))\n\n" for i in range(n))),
}


def work(source: str) -> int:
    """Calls of xlate's functions while `source` converts (on the conversion thread)."""
    count = [0]
    tree = parsing.parse_python(source, "<work>")

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.startswith(_XLATE):
            count[0] += 1

    def run():
        sys.setprofile(profile)
        try:
            engine._convert(source, tree, path="<work>", select=None, ignore=None, options=None)
        finally:
            sys.setprofile(None)

    parsing.deep(run)
    return count[0]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_work_grows_linearly_with_the_size_of_a_construct(shape):
    n, make = SHAPES[shape]
    work(make(2))  # the catalogue and the transforms load once
    small, large = work(make(n)), work(make(4 * n))
    assert large <= 5 * small, f"{shape}: {small} calls at n={n}, {large} at 4n ({large / small:.1f}x)"
