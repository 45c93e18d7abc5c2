"""The numpy dialect's rules (family 7xx) against live MXNet in numpy mode.

The value cases themselves live in xlate/check/dialect_cases.py, appended to the shared table
(rule_cases.CASES), so test_numeric_ndarray.py runs each on its fixed example and on drawn
shapes, and `xlate check --rules` runs them too. Here: every dialect rule that rewrites values
has a case, the random and dropout rules' statistical checks, and numpy mode left as it was.
"""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

from xlate.check import rule_cases
from xlate.check.dialect_cases import DIALECT_CASES, DIALECT_RANDOM_CASES

pytestmark = pytest.mark.mxnet

# rules that rewrite no value: removals (their examples show them) and reports; and those whose
# input is no array, tested below: MX738 (print options), MX739 (a file)
NO_VALUES = {"MX700", "MX701", "MX738", "MX739",
             "MX747", "MX748"}  # npx.save/load and roi_pooling: against MXNet in test_notebook_constructs.py


def test_every_dialect_rule_that_rewrites_values_has_a_case():
    from xlate.convert import catalogue

    covered = {code.partition(":")[0] for c in rule_cases.CASES for code in c.codes} \
        | {s.rule for s in rule_cases.SPECIAL_CHECKS}
    numeric = {r.code for r in catalogue.read() if r.family == 7 and r.kind in ("call", "reference")
               and r.applicability != "manual"} - NO_VALUES
    assert numeric, "no dialect rules found"
    assert numeric <= covered, sorted(numeric - covered)


def test_dialect_cases_are_in_the_shared_table():
    ids = {c.id for c in rule_cases.CASES}
    assert all(c.dialect and c.id.startswith("np-") and c.id in ids for c in DIALECT_CASES)
    assert "from mxnet import np, npx" in DIALECT_CASES[0].source


def test_a_dialect_case_leaves_numpy_mode_off():
    mx = import_mxnet()
    import_torch()
    case = rule_cases.BY_ID["np-sum-full"]
    assert not rule_cases.problems(rule_cases.run_example(case, case.args, case.options, 0))
    assert not mx.util.is_np_array() and not mx.util.is_np_shape()


def test_a_wrong_translation_is_caught():
    """The runner compares: NumPy's float64 default where MXNet gives float32 is a mismatch."""
    import_mxnet()
    torch = import_torch()
    case = rule_cases.BY_ID["np-array-float-list"]
    expected, _ = rule_cases.run_mx(rule_cases.load(case.source), [], dialect=True)
    rows = rule_cases.compare_outputs(torch.tensor([1, 2.5, -3], dtype=torch.float64), expected)
    assert rule_cases.problems(rows) and "dtype" in rule_cases.problems(rows)[0]


@pytest.mark.parametrize("id,expr,moments,dtype,code", [c if len(c) > 4 else (*c, "MX709:review")
                                                      for c in DIALECT_RANDOM_CASES],
                         ids=[c[0] for c in DIALECT_RANDOM_CASES])
def test_random_statistics(id, expr, moments, dtype, code):
    import_mxnet()
    rule_cases.check_random_statistics(id, expr, moments, dtype, code=code, dialect=True)


def test_dropout_modes():
    import_mxnet()
    rule_cases.check_dropout_op(dialect=True)


UNTYPED_REDUCTIONS = '''
from mxnet import np, npx  # the dialect's import alone: no set_np(), which would stay on for the session


def stats(x):
    return (x.std(), x.std(axis=1), x.std(axis=(0, 1), keepdims=True), x.var(ddof=1), x.var(0),
            x.cumsum(), x.cumsum(axis=1), x.cumsum(1, "float64"), x.max(), x.max(axis=1),
            x.max(keepdims=True), x.min(0, keepdims=True), x.min())


def int_stats(x):
    return x.cumsum(), x.cumsum(axis=0), x.max(axis=1), x.min()
'''


def test_reductions_on_an_untyped_value_give_mxnets_results_and_numpys():
    """`x.std()` and friends on a function's parameter (d2l's helpers): `_mx_np_method` decides at
    run time. A tensor (an mx.np array, converted) gets MXNet's results, ddof=0 and an integer
    cumsum kept integer among them; a NumPy array gets NumPy's own."""
    import numpy as onp

    from xlate.convert.engine import convert_source
    from xlate.runtime import load

    mx, torch = import_mxnet(), import_torch()
    result = convert_source(UNTYPED_REDUCTIONS)
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    assert result.output.count("_mx_np_method(x, ") == 17
    namespace = dict(vars(load()))
    exec(compile(result.output, "<converted>", "exec"), namespace)
    reference = {}
    exec(UNTYPED_REDUCTIONS, reference)
    rng = onp.random.default_rng(3)
    a = rng.normal(size=(3, 4, 2)).astype("float32") * 3 + 1
    i = rng.integers(-50, 50, size=(3, 4)).astype("int32")
    for fn, data in (("stats", a), ("int_stats", i)):
        expected = reference[fn](mx.np.array(data, dtype=data.dtype))
        got = namespace[fn](torch.tensor(data))
        for e, g in zip(expected, got):
            assert tuple(g.shape) == e.shape and str(g.dtype).split(".")[-1] == str(e.dtype)
            onp.testing.assert_allclose(g.numpy(), e.asnumpy(), rtol=1e-5, atol=1e-5)
        for n, g in zip(reference[fn](data), namespace[fn](data)):  # a NumPy array: NumPy's own
            onp.testing.assert_array_equal(n, g)
    with pytest.raises(NotImplementedError, match="integer arithmetic"):
        namespace["_mx_np_method"](torch.tensor(i), "std")
    assert not mx.util.is_np_array() and not mx.util.is_np_shape()


def test_set_printoptions_prints_the_digits_mxnet_prints():
    """MX738 changes no value, only how arrays print: the same digits on both sides."""
    import re

    mx, torch = import_mxnet(), import_torch()
    source = "from mxnet import np\n\n\ndef show(x):\n    np.set_printoptions(2)\n    return str(x)\n"
    result = rule_cases.convert(source)
    values = [1.23456, -0.0049, 12.5]
    before = torch._tensor_str.PRINT_OPTS.precision
    numpy = import_numpy()
    saved = numpy.get_printoptions()  # process-wide: another test may have left suppress=True
    numpy.set_printoptions(precision=8, suppress=False, floatmode="maxprec", sign="-", legacy=False)
    try:
        with mx.util.np_shape(True), mx.util.np_array(True):
            expected = rule_cases.load(source, "show")(mx.np.array(values))
        actual = rule_cases.load(result.output, "show")(torch.tensor(values))
    finally:
        numpy.set_printoptions(**saved)
        torch.set_printoptions(precision=before)
    shown = [[float(t) for t in re.findall(r"-?\d+\.\d*(?:e[+-]\d+)?", s)] for s in (expected, actual)]
    assert shown[0] == shown[1] == [1.23, -0.0049, 12.5], (expected, actual)  # 3 digits, not 1.23456


def test_genfromtxt_reads_what_mxnet_reads(tmp_path):
    """MX739 on a table with a header, a comment, a blank line, a missing and a bad field."""
    numpy, mx, torch = import_numpy(), import_mxnet(), import_torch()
    path = tmp_path / "table.tsv"
    path.write_text("a\tb\tc\n1.5\t-2\t3e-2\n# note\n\n4\t\t0.25  # tail\n7\tx\t-1.125\n")
    column = tmp_path / "column.txt"
    column.write_text("0.5\n-1.5\n2\n")
    source = ("from mxnet import np\n\n\ndef read(p, q):\n"
              "    return (np.genfromtxt(p, delimiter='\\t', skip_header=1), np.genfromtxt(q, dtype=np.float32),\n"
              "            np.genfromtxt(p, dtype=np.float32, delimiter='\\t', skip_header=2))\n")
    result = rule_cases.convert(source)
    assert "_mx_np_genfromtxt" in result.output
    with mx.util.np_shape(True), mx.util.np_array(True):
        expected = [a.asnumpy() for a in rule_cases.load(source, "read")(str(path), str(column))]
    actual = rule_cases.load(result.output, "read")(str(path), str(column))
    for e, a in zip(expected, actual):
        assert a.dtype == getattr(torch, str(e.dtype)) and tuple(a.shape) == e.shape
        numpy.testing.assert_array_equal(a.numpy(), e)
