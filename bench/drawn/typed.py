"""Drawn typing (bench, issue 21 item 8): the same methods and operators on NumPy arrays and on
NDArrays, reached directly, through arithmetic, subscripts and a function that returns its
argument (a value xlate cannot type), in one script. The converted script must give each value
as MXNet's does: the same shape and numbers, NumPy's semantics where the value is NumPy's and
MXNet's where it is an NDArray (flatten, full reductions of shape (1,), dtype comparisons, comparisons
kept as values: 0/1 in the operands' dtype, then `pos - 1`, `(pos * x).sum()`). An NDArray's dtype
against a string may differ only at a line marked MX806 review (MXNet's answer there is always False).

    PYTHONPATH=. .venv/bin/python bench/drawn/typed.py [-n 40] [--seed 1] [--save DIR]
"""
import tempfile

from _hunt import cli

OPERANDS = {  # all (4, 3) float32; the kind each holds at run time
    "a": "np", "b": "nd", "ident(a)": "np", "ident(b)": "nd", "(a * 2)": "np", "(b - 1)": "nd",
    "a[:, ::1]": "np", "b[0:4]": "nd", "np.abs(a)": "np", "nd.abs(b)": "nd", "a.copy()": "np", "b.copy()": "nd",
}
TEMPLATES = [
    "({v}[:, 0] + 0.5 * {v}[:, 1] > 0).astype(np.float32)",
    "{v}.astype('float64') * 2", "{v}.astype('int32')", "{v}.reshape((3, 4))", "{v}.reshape(-1)",
    "{v}.reshape((2, -1))", "{v}.T", "{v}.transpose()", "{v}.swapaxes(0, 1)", "{v}.sum(axis=0)", "{v}.sum()",
    "{v}.mean(axis=1)", "{v}.mean()", "{v}.max()", "{v}.min(axis=0)", "{v}.argmax(axis=1)", "{v}.clip(-0.5, 0.5)",
    "{v}.flatten()", "{v}.shape[0] * {v}", "{v}.size + {v}", "({v} > 0).sum()", "{v} ** 2", "abs({v})", "-{v}",
    "{v}[1]", "{v}[:, 1:]", "{v}[-1, 0]", "{v}.squeeze()", "{v}.round()", "{v}.prod(axis=0)",
    "{v}.repeat(2, axis=0)", "float({v}.dtype == np.float32)", "float({v}.dtype == 'float32')", "len({v}) + {v}",
    "{v}.ndim + {v}", "({v} >= 0.1) * {v}", "{v}[{v}.shape[0] - 1]", "{v}.copy()[0]",
    "float({v}.shape == (4, 3))", "{v}.T.shape[0] + {v}", "float(isinstance({v}, nd.NDArray))",
    "{v}.astype(int) + 1", "{v}[1][2]", "{v}[0] * {v}[1]", "({v} == {v}.max()).astype('float32')",
    "{v}.argsort(axis=1)", "{v}.asnumpy() if hasattr({v}, 'asnumpy') else {v}", "{v}.reshape(4, 3)",
    "{v}.sum(axis=1, keepdims=True)", "{v}[:, None]", "{v}.max(axis=0) - {v}.min(axis=0)", "{v} / {v}.sum()",
    "{v}.mean(0)",
    # comparisons kept as values (MX540 on a typed NDArray, MX542's _mx_compare on an untyped one): MXNet's are
    # 0/1 in the operands' dtype, NumPy's bool; `{p}` is a name of the draw's own, bound on the line before
    "{p} = {v} > 0; {p} - 1", "{p} = {v} > 0; ({p} * {v}).sum()", "({v} != 0).mean()", "{p} = {v} >= 0.1; {p}.sum(axis=0)",
    "{p} = {v} < 0; {p} + {p}", "{p} = 0 < {v}; ({p} * 2).mean(axis=1)", "{p} = {v} > {v}.mean(); {p}.max()",
    "{p} = {v} <= 0; 1 - {p}", "{p} = {v} == {v}; {p}.prod()", "{p} = ({v} > 0) * ({v} < 1); {p}.mean()",
    "signs({v})[0]", "signs({v})[1]",
]
PROLOGUE = """import numpy as np
import mxnet as mx
from mxnet import nd


def ident(v):
    return v


def signs(v):  # comparisons computed with in a function that names no MXNet operator
    pos = v > 0
    neg = v <= 0
    return pos * 2 - neg * 1, (pos + pos).sum()


def show(v):
    if hasattr(v, 'asnumpy'):
        return v.asnumpy()
    return np.asarray(v)


a = np.random.RandomState(0).randn(4, 3).astype(np.float32)
b = nd.array(np.random.RandomState(1).randn(4, 3).astype(np.float32))
outs = []
"""


def make(r):
    lines, shown = [], []
    for i in range(r.randint(2, 5)):
        operand, template = r.choice(list(OPERANDS)), r.choice(TEMPLATES)
        *before, expression = template.format(v=operand, p=f"p{i}").split("; ")
        lines += [*before, f"r{i} = {expression}", f"outs.append(show(r{i}))"]
        shown.append(f"{'; '.join([*before, expression])}  [{OPERANDS[operand]}]")
    return PROLOGUE + "\n".join(lines) + "\n", shown, {}


def same_values(source: str, converted: str) -> None:
    """Each value in `outs`: the same shape, the same numbers (float32 tolerance). One exception, which
    must be reported: an NDArray's dtype against a string is always False in MXNet, and the translation
    gives what the string names with MX806 marked for review at that line (a typed or an untyped value)."""
    import numpy as np
    from test_execution_model import _run

    from xlate.convert.engine import convert_source

    reviewed = {d.line for d in convert_source(source).diagnostics if d.code == "MX806" and d.status == "review"}
    lines = source.splitlines()
    with tempfile.TemporaryDirectory() as folder:
        expected = _run(source, folder, "mx.params")
        got = _run(converted, folder, "pt.params")
    assert len(expected) == len(got), (len(expected), len(got))
    for i, (want, have) in enumerate(zip(expected, got)):
        if lines.index(next(line for line in lines if line.startswith(f"r{i} = "))) + 1 in reviewed:
            continue
        want, have = np.asarray(want), np.asarray(have)
        assert want.shape == have.shape, f"value {i}: shape {have.shape} where MXNet gives {want.shape}"
        np.testing.assert_allclose(have.astype("float64"), want.astype("float64"), rtol=1e-5, atol=1e-6,
                                   err_msg=f"value {i}")


if __name__ == "__main__":
    cli(__doc__, make, same_values, "typed")
