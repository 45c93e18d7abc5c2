"""Cold statements (Note [cold statements] in xlate/convert/cold.py): skipping the statements
that hold no hot word, and finding report positions within their own statement, must not
change a single character of the output or the report."""
from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings

from fuzzgen import mx_programs
from test_leftovers import dialect_programs, gluon_programs, sequence_programs, training_scripts
from xlate.convert import catalogue, cold, names
from xlate.convert.catalogue import RuleSet
from xlate.convert.engine import convert_source
from xlate.convert.parsing import InputError

ROOT = Path(__file__).resolve().parent.parent
PROFILE = dict(derandomize=True, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _same(source: str, path: str = "m.py") -> None:
    try:
        slow = convert_source(source, path=path, options={"cold": False})
    except InputError:
        with pytest.raises(InputError):
            convert_source(source, path=path)
        return
    fast = convert_source(source, path=path)
    assert fast.output == slow.output
    assert [str(d) for d in fast.diagnostics] == [str(d) for d in slow.diagnostics]


def _cold_lines(source: str) -> list[str]:
    """The text of the cold statement lines and compound statements of `source`."""
    tree = ast.parse(source)
    analysis = names.Analysis(tree)
    module = cst.parse_module(source)
    pairing = cold.Pairing(source, module, tree, cold.hot_words(analysis, RuleSet(catalogue.load(), lambda c: True)))
    found = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, node):
            if id(node) in pairing.cold:
                found.append(module.code_for_node(node).strip())
                return False
            return True

    module.visit(Collect())
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "fixtures").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_fixture_files_convert_alike(path: Path):
    _same(path.read_text(encoding="utf-8"), path.name)


def test_rule_examples_convert_alike():
    for rule in catalogue.load()[::2]:  # every other rule: all of them cost 7 s, and the drawn programs cover more
        for example in rule.examples:
            _same(example.before)


@settings(max_examples=25, **PROFILE)
@given(mx_programs())
def test_odd_programs_convert_alike(source):
    _same(source)


@settings(max_examples=20, **PROFILE)
@given(gluon_programs())
def test_generated_gluon_models_convert_alike(source):
    _same(source)


@settings(max_examples=15, **PROFILE)
@given(training_scripts())
def test_generated_training_scripts_convert_alike(source):
    _same(source)


@settings(max_examples=15, **PROFILE)
@given(dialect_programs())
def test_generated_dialect_code_converts_alike(source):
    _same(source)


@settings(max_examples=15, **PROFILE)
@given(sequence_programs())
def test_generated_sequence_models_convert_alike(source):
    _same(source)


def test_what_is_cold():
    source = (
        "import numpy as onp\n"             # imports are hot
        "from mxnet import nd\n"
        "def f(x, n):\n"
        "    total = 0\n"                      # cold
        "    for i in range(n):\n"             # cold as a whole
        "        total += i\n"
        "    y = x.asnumpy()\n"                # a rule's method on anything: hot
        "    z = (x.\n"
        "         asnumpy())\n"                # across a line break: hot
        "    w = nd.ones((2,))\n"              # an MXNet name: hot
        "    v = onp.ones((2,))  # nd\n"       # a comment naming one: hot (it only costs the walk)
        "    return total\n"                   # cold
    )
    assert _cold_lines(source) == ["total = 0", "for i in range(n):\n    total += i", "return total"]


def test_star_imports_and_odd_names_leave_nothing_cold():
    assert _cold_lines("from mxnet.ndarray import *\nx = 1\ny = ones((2,))\n") == []
    # `ｎｄ` is `nd` to Python (NFKC): the line is hot, and converts
    assert _cold_lines("from mxnet import nd\nx = 1\ny = ｎｄ.ones((2,))\n") == ["x = 1"]
    _same("from mxnet import nd\nx = 1\ny = ｎｄ.ones((2,))\n")


def test_positions_in_long_statements_and_classes():
    source = (
        "from mxnet import gluon, nd\n"
        "\n"
        "# a comment\n"
        "class Net(gluon.HybridBlock):\n"
        "    def __init__(self, **kwargs):\n"
        "        super(Net, self).__init__(**kwargs)\n"
        "        with self.name_scope():\n"
        "            self.d = gluon.nn.Dense(\n"
        "                2,\n"
        "                in_units=3)\n"
        "\n"
        "    def hybrid_forward(self, F, x):\n"
        "        return F.relu(\n"
        "            x) + F.LRN(x)\n"
        "y = nd.ones((2,)); z = nd.array([1]).asnumpy()\n"
    )
    _same(source)
    _same(source.replace("\n", "\r\n"))
    _same(source.replace("    ", "\t"))


def test_a_name_inside_an_index_makes_the_statement_hot():
    """`x[target[0]]` with `target` an MXNet array is an array index (MX085). Only names used
    directly as an index used to count, so this line was cold and kept its float index."""
    source = ("from mxnet.gluon import nn\n\n\nclass Pick(nn.HybridBlock):\n"
              "    def hybrid_forward(self, F, x, target):\n        out = x[target[0]]\n        return out\n")
    # target[0] is (1,) in MXNet 1.x (MX017), so the index keeps an axis there as here
    assert "x[_mx_index(_mx_nd_scalar(target[0]))]" in convert_source(source).output
    _same(source)


def _frozen(source: str) -> list[str]:
    """The text of the expressions frozen inside hot statements (Note [cold expressions])."""
    tree = ast.parse(source)
    module = cst.parse_module(source)
    pairing = cold.Pairing(source, module, tree, cold.hot_words(names.Analysis(tree),
                                                                RuleSet(catalogue.load(), lambda c: True)))
    found = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, node):
            if id(node) in pairing.frozen:
                found.append(module.code_for_node(node).strip().rstrip(","))
                return False
            return True

    module.visit(Collect())
    return found


def test_what_is_frozen():
    source = (
        "from mxnet import nd\n"
        "def f(self, x, y, n):\n"
        "    self.out = nd.relu(self.conv(x), axis=n)\n"   # the target, the inner call, the keyword argument
        "    z = x.asnumpy() + y.shape[0]\n"               # a rule's member (`.shape`) has its receiver frozen
        "    if self.a is None and nd.sum(x):\n"           # `is` is no operator of a rule
        "        pass\n"
        "    w = y == n\n"                                   # `==` is (compare_dtype): walked, not its sides
        "    v = lambda t: t + 1; u = [nd.ones(1)]\n"      # a lambda is walked whole
        "    return x\n"                                    # cold as a statement
    )
    assert _frozen(source) == ["self.out =", "self.conv(x)", "axis=n", "z =", "x", "y", "0", "self.a is None", "x",
                               "w =", "y", "== n", "v =", "u =", "1"]
    _same(source)
