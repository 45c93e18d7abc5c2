"""Files that use both NumPy and MXNet's numpy (`mx.np`): each name resolves to its own module,
and real-NumPy code is never rewritten (Note [numpy dialect] in xlate/convert/names.py).

The NumPy expressions below are ones the dialect's rules would rewrite if they were mx.np's
(np.array, np.concatenate with an axis, reductions, np.dot, methods of arrays): every line that
holds one must come out byte-identical, whichever of the two gets the name `np`.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlate.convert.engine import convert_source

NUMPY_LINES = [
    "a = {N}.array([1, 2.5])",
    "b = {N}.concatenate([a, {N}.zeros(2)], axis=0)",
    "c = {N}.exp(b).sum(axis=0)",
    "d = {N}.dot({N}.ones((2, 3)), {N}.ones((3, 2))).mean()",
    "e = {N}.random.normal(0, 1, size=(3,)).astype({N}.float32)",
    "f = {N}.argmax(b, axis=0), {N}.float64, {N}.pi",
    "g = b.reshape(2, 2).T.max(axis=1)",
    "h = {N}.split(b, 2), {N}.expand_dims(a, 0), {N}.where(a > 1, a, 0)",
]
DIALECT_LINES = [
    "x = {M}.array([1, 2.5])",
    "y = {M}.concatenate([x, {M}.zeros(2)], axis=0)",
    "z = {M}.exp(y).sum(axis=0)",
    "w = {M}.dot({M}.ones((2, 3)), {M}.ones((3, 2))).mean()",
]
# (imports, what NumPy is called, what mx.np is called)
SPELLINGS = [
    ("import numpy as onp\nimport mxnet as mx\nfrom mxnet import np, npx\n", "onp", "np"),
    ("import numpy as np\nimport mxnet as mx\n", "np", "mx.np"),
    ("import numpy as np\nfrom mxnet import numpy as mnp\n", "np", "mnp"),
    ("import numpy\nimport mxnet as mx\nmx.npx.set_np()\n", "numpy", "mx.np"),
    ("import numpy as _np\nfrom mxnet import np as np\nfrom mxnet import npx\nnpx.set_np()\n", "_np", "np"),
]


def _source(imports: str, numpy_name: str, mx_name: str, order: list[int]) -> tuple[str, list[str]]:
    body = []
    for i in order:
        if i < len(NUMPY_LINES):
            body.append(NUMPY_LINES[i].format(N=numpy_name))
        else:
            body.append(DIALECT_LINES[i - len(NUMPY_LINES)].format(M=mx_name))
    numpy_lines = [line for line in body if line in {n.format(N=numpy_name) for n in NUMPY_LINES}]
    return imports + "\n\ndef run():\n" + "".join(f"    {line}\n" for line in body), numpy_lines


@pytest.mark.parametrize("imports,numpy_name,mx_name", SPELLINGS, ids=[s[1] + "+" + s[2] for s in SPELLINGS])
def test_numpy_code_is_never_rewritten(imports, numpy_name, mx_name):
    source, numpy_lines = _source(imports, numpy_name, mx_name, list(range(len(NUMPY_LINES) + len(DIALECT_LINES))))
    result = convert_source(source)
    out_lines = [line.strip() for line in result.output.splitlines()]
    for line in numpy_lines:
        assert line in out_lines, f"NumPy line rewritten: {line}\n{result.output}"
    # and the mx.np lines were translated, not left
    assert "torch.tensor([1, 2.5], dtype=torch.float32)" in result.output, result.output
    assert "torch.cat(" in result.output and "mxnet" not in result.output, result.output
    # no report at a NumPy line
    numpy_rows = {i + 1 for i, line in enumerate(source.splitlines()) if line.strip() in numpy_lines}
    assert not [d for d in result.diagnostics if d.line in numpy_rows], \
        [f"{d.line}: {d.code} {d.message}" for d in result.diagnostics if d.line in numpy_rows]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SPELLINGS), st.permutations(range(len(NUMPY_LINES) + len(DIALECT_LINES))))
def test_numpy_code_is_never_rewritten_in_any_order(spelling, order):
    imports, numpy_name, mx_name = spelling
    source, numpy_lines = _source(imports, numpy_name, mx_name, list(order))
    out_lines = [line.strip() for line in convert_source(source).output.splitlines()]
    assert all(line in out_lines for line in numpy_lines)


def test_real_numpy_named_np_beside_mx_np_runs_as_before():
    """The reverse: `np` is NumPy and `mx.np` MXNet's; the converted function computes what the
    original does (NumPy's float64 where NumPy is used, MXNet's float32 where mx.np is)."""
    pytest.importorskip("torch")
    from mxsupport import import_mxnet

    import_mxnet()
    source = (
        "import numpy as np\nimport mxnet as mx\n\n"
        "def run():\n"
        "    a = np.array([1, 2.5, -0.5])\n"
        "    b = mx.np.array([1, 2.5, -0.5])\n"
        "    return np.exp(a).sum(axis=0), mx.np.exp(b).sum(axis=0).asnumpy(), a.dtype, b.asnumpy().dtype\n"
    )
    result = convert_source(source)
    assert "a = np.array([1, 2.5, -0.5])" in result.output and "np.exp(a).sum(axis=0)" in result.output
    scope_mx: dict = {}
    exec(compile(source, "<mx>", "exec"), scope_mx)
    scope_pt: dict = {}
    exec(compile(result.output, "<pt>", "exec"), scope_pt)
    expected, actual = scope_mx["run"](), scope_pt["run"]()
    assert expected[2] == actual[2] == "float64" and str(expected[3]) == str(actual[3]) == "float32"
    assert expected[0] == actual[0]
    assert abs(float(expected[1]) - float(actual[1])) < 1e-6


def test_dialect_functions_passed_as_values():
    """d2l's library aliases (`sigmoid = npx.sigmoid`, `ones = np.ones`): a function of one
    parameter becomes torch's, the others are reported under their own rule with the lambda
    advice (not as MX900, "no rule yet"); rule_cases' np-unary-as-value runs one."""
    source = "from mxnet import np, npx\nnpx.set_np()\nsigmoid = npx.sigmoid\nones = np.ones\n"
    result = convert_source(source)
    assert "sigmoid = torch.sigmoid" in result.output
    by_line = {d.line: d for d in result.diagnostics if d.line in (3, 4)}
    assert by_line[3].code == "MX725" and by_line[3].status == "fixed"
    # several parameters: a lambda with MXNet's (Note [functions as values], tests/test_function_values.py)
    assert by_line[4].code == "MX703" and by_line[4].status == "fixed" and "passed as a value" in by_line[4].message
    assert "ones = lambda shape, dtype=None, order='C', ctx=None: torch.ones(" in result.output
    # a unary ufunc: a lambda of the one array (d2l's `exp = np.exp`)
    result = convert_source("from mxnet import np\nexp = np.exp\nr = np.round\n")
    assert "exp = lambda x: torch.exp(torch.as_tensor(x))" in result.output
    assert [d.status for d in result.diagnostics if d.line == 3] == ["manual"]  # round takes decimals too


def test_the_methods_an_mx_np_array_lacks_are_mxnets():
    """MXNP_ABSENT: each raises AttributeError on an mx.np array in MXNet 1.9.1; a method that
    works there (and NumPy shares) is not in it."""
    from mxsupport import import_mxnet
    from xlate.convert.names import MXNP_ABSENT
    mx = import_mxnet()
    array = mx.np.ones((2, 3))
    import inspect
    for method in sorted(MXNP_ABSENT):
        bound = getattr(array, method)
        required = [p for p in inspect.signature(bound).parameters.values()
                    if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD]
        with pytest.raises(AttributeError, match="no attribute"):
            bound(*[array] * len(required))
    for method in ("flatten", "sum", "reshape", "astype", "clip", "argmax"):
        assert method not in MXNP_ABSENT


@pytest.mark.parametrize("method,code", [(".slice(begin=(0, 1), end=(2, 3))", "MX070"),
                                         (".expand_dims(axis=1)", None), (".flatten()", "MX741")])
def test_a_method_an_mx_np_array_lacks_takes_ndarrays_rule_in_a_numpy_mode_file(method, code):
    """In a numpy-mode file (MXNet's own tests: `use_np` imported) a block's input is taken for an
    mx.np array; a method such an array lacks says it is an NDArray, so NDArray's rule applies,
    while a method NumPy shares still takes the dialect's rule (MX741)."""
    src = ("from mxnet import gluon\nfrom mxnet.test_utils import use_np\n\n\n"
           "class Net(gluon.HybridBlock):\n"
           f"    def hybrid_forward(self, F, x):\n        return x{method}\n")
    result = convert_source(src)
    codes = [d.code for d in result.diagnostics if d.line == 7]
    assert "MX798" not in codes, (codes, result.output)
    assert "x.expand_dims" not in result.output and "x.slice" not in result.output
    if code is not None:
        assert code in codes, codes
