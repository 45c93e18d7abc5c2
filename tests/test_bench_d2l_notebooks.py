"""bench/d2l_notebooks.py: d2lbook's mxnet notebook of a markdown page, the comparison of events,
and a clean exit without its corpus."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import d2l_notebooks as nb  # noqa: E402

FENCE = "```"
PAGE = f"""# A section

{FENCE}{{.python .input}}
%load_ext d2lbook.tab
tab.interact_select(['mxnet', 'pytorch'])
{FENCE}

Text with code in it: `x = 1`.

{FENCE}{{.python .input  n=3}}
%matplotlib inline
from mxnet import np, npx
npx.set_np()
{FENCE}

{FENCE}{{.python .input}}
%%tab pytorch
import torch
{FENCE}

{FENCE}{{.python .input}}
%%tab all
def f(x):
    if tab.selected('mxnet'):
        y = np.ones(3)
    if tab.selected('pytorch', 'jax'):
        y = torch.ones(3)
    return x + y
{FENCE}

{FENCE}{{.python .input}}
#@tab mxnet, pytorch
!ls -lh
f(np.zeros(3))
{FENCE}
"""


def test_the_mxnet_notebook_is_d2lbooks():
    # v0.17: a cell without a tab is MXNet's (the default tab); the magics and the other tabs go
    cells = nb.mxnet_cells(PAGE, "mxnet")
    assert cells == ["from mxnet import np, npx\nnpx.set_np()",
                     "def f(x):\n    y = np.ones(3)\n    return x + y", "f(np.zeros(3))"]
    # v1.0: the default tab is pytorch's, so the untagged cell is not MXNet's
    assert nb.mxnet_cells(PAGE, "pytorch") == cells[1:]


def test_script_names_follow_the_page():
    assert nb.script_name("chapter_linear-regression/linear-regression-scratch.md") == \
        "chapter_linear_regression__linear_regression_scratch.py"


def test_only_deterministic_events_are_compared():
    mx1 = [["display", [1.0, 2.0]], ["print", [0.31]], ["display", [5.0]]]
    mx2 = [["display", [1.0, 2.0]], ["print", [0.77]], ["display", [5.0]]]  # the second is random
    assert nb.agreement(mx1, mx2, [["display", [1.0, 2.00001]], ["print", [9.0]], ["display", [5.0]]])[:2] == (2, 2)
    compared, equal, first = nb.agreement(mx1, mx2, [["display", [1.0, 2.5]], ["print", [9.0]]])
    assert (compared, equal) == (1, 0) and "event 0" in first
    # a value shown on one side only (`x.requires_grad_()` returns x) does not shift the rest
    extra = [["display", [7.0]], ["display", [1.0, 2.0]], ["print", [0.5]], ["display", [5.0]]]
    assert nb.agreement(mx1, mx2, extra)[:2] == (2, 2)


def test_without_a_corpus_it_says_so_and_exits_0(tmp_path, capsys):
    assert nb.main(["run", "--corpus", str(tmp_path)]) == 0
    assert "nothing to do" in capsys.readouterr().out
