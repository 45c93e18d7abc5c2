"""bench/numpy_corpus.py: skips cleanly without its corpus; takes a section's definitions only."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import numpy_corpus  # noqa: E402


def test_without_a_corpus_it_says_so_and_exits_0(tmp_path, capsys):
    assert numpy_corpus.main([str(tmp_path)]) == 0
    assert "nothing to do" in capsys.readouterr().out


def test_definitions_keep_decorators_and_drop_statements():
    source = ("from mxnet import np, npx\nnpx.set_np()\nx = np.ones(3)\ntrain(x)\n\n"
              "@d2l.add_to_class(A)\ndef f(self, X):\n    return X\n\nclass B:\n    pass\n")
    out = numpy_corpus.definitions(source)
    assert "@d2l.add_to_class(A)\ndef f(self, X):" in out and "npx.set_np()" in out and "class B" in out
    assert "train(x)" not in out and "x = np.ones(3)" not in out
