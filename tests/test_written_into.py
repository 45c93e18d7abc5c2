"""Operators called with `out=` (Note [out= written into] in xlate/convert/converter.py), in-place
updates of an NDArray's element (MX017, `_mx_as_element`), and random
draws whose `shape=` is a run-time int (MX016, `_mx_shape_tuple`), against MXNet 1.9.1.

Each row is a function of two arrays that calls an operator with `out=`: it returns the call's
value, whether that value is the `out` array itself, and both arrays afterwards. Run in MXNet and
translated, every returned array must hold MXNet's numbers and shape, and the identity must agree.
"""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()

from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet

# (id, the call, x's shape, y's shape): `out=` names y, a slice of y, or a new array
WRITES = [
    ("elemwise-add-into-operand", "nd.elemwise_add(x, y, out=y)", (2, 3), (2, 3)),
    ("relu-into-other", "nd.relu(x, out=y)", (2, 3), (2, 3)),
    ("dot-into-new", "nd.dot(x, y.T, out=nd.zeros((2, 2)))", (2, 3), (2, 3)),
    ("sum-into-row", "nd.sum(x, axis=0, out=y[0])", (2, 3), (2, 3)),
    ("method-on-an-array-into-row", "nd.abs(x).sum(axis=0, out=y[1])", (2, 3), (2, 3)),
    ("exp-into-self", "nd.exp(x, out=x)", (3,), (3,)),
    ("broadcast-mul-into-y", "nd.broadcast_mul(x, y, out=y)", (2, 3), (2, 3)),
]


def _both(functions: list[str]) -> tuple[dict, dict, str]:
    """Every row's function in one module, converted once: (MXNet's namespace, torch's, output)."""
    source = "from mxnet import nd\n\n\n" + "\n\n".join(functions) + "\n"
    result = convert_source(source)
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    spaces = {}
    for side, text in (("mx", source), ("pt", result.output)):
        spaces[side] = {}
        exec(compile(text, f"<{side}>", "exec"), spaces[side])
    return spaces["mx"], spaces["pt"], result.output


@pytest.fixture(scope="module")
def writes():
    return _both([f"def f{i}(x, y):\n    r = {w[1]}\n    return r, r is y, x, y" for i, w in enumerate(WRITES)])


@pytest.mark.parametrize("row", range(len(WRITES)), ids=[w[0] for w in WRITES])
def test_out_is_written_and_returned_as_mxnet(row, writes):
    mx_space, pt_space, output = writes
    _, body, xs, ys = WRITES[row]
    call = output.split(f"def f{row}(x, y):\n")[1].splitlines()[0]
    assert "out=" not in call and "_mx_out(" in call, output
    rng = np.random.default_rng(7)
    x, y = (rng.uniform(-2, 2, s).astype("float32") for s in (xs, ys))
    expected = mx_space[f"f{row}"](mx.nd.array(x), mx.nd.array(y))
    actual = pt_space[f"f{row}"](torch.tensor(x), torch.tensor(y))
    assert actual[1] == expected[1]  # the returned array is `out` where it is y
    for e, a in zip(expected[::2] + expected[2:3], actual[::2] + actual[2:3]):
        assert tuple(a.shape) == e.shape
        np.testing.assert_allclose(a.numpy(), e.asnumpy(), rtol=1e-6, atol=1e-6)


# (sampler, its scale arguments): each drawn with `shape=` a run-time int, a tuple and a list
DRAWS = [("nd.random_normal", ""), ("nd.random.normal", "0, 1, "), ("nd.random.uniform", "-1, 1, "),
         ("nd.random_uniform", ""), ("nd.random.randint", "0, 5, ")]


@pytest.fixture(scope="module")
def draws():
    return _both([f"def f{i}(n):\n    return {d[0]}({d[1]}shape=n)" for i, d in enumerate(DRAWS)])


@pytest.mark.parametrize("row", range(len(DRAWS)), ids=[d[0] for d in DRAWS])
def test_a_draws_shape_from_a_value_is_mxnets(row, draws):
    mx_space, pt_space, _ = draws
    for shape in (4, (2, 3), [3, 1]):  # a run-time int, a tuple, a list
        expected, actual = mx_space[f"f{row}"](shape), pt_space[f"f{row}"](shape)
        assert tuple(actual.shape) == expected.shape, shape
        assert str(actual.dtype).replace("torch.", "") == np.dtype(expected.dtype).name


# (id, the update of an element of p, a (3,) array, or of m, a (2, 3) one): the operand is (1,) in MXNet
UPDATES = [
    ("vector-plus-dot", "p[1] += nd.dot(x[0], y[0])"),
    ("vector-minus-sum", "p[-1] -= nd.sum(x)"),
    ("matrix-times-max", "m[1, 2] *= nd.max(y)"),
    ("matrix-row-plus-sum", "m[0] += nd.sum(y)"),
    ("vector-divided-by-number", "p[0] /= 4.0"),
    ("index-from-a-name", "p[k] += nd.norm(x)"),
]


@pytest.fixture(scope="module")
def updates():
    return _both([f"def f{i}(x, y):\n    p = nd.arange(3) + 0.5\n    m = nd.ones((2, 3)) * 2\n    k = 2\n    {u[1]}\n    return p, m"
                  for i, u in enumerate(UPDATES)])


@pytest.mark.parametrize("row", range(len(UPDATES)), ids=[u[0] for u in UPDATES])
def test_an_elements_update_is_mxnets(row, updates):
    mx_space, pt_space, output = updates
    number = UPDATES[row][1].endswith("4.0")  # a number is no (1,) operand: nothing to wrap
    assert ("_mx_as_element(" in output.split(f"def f{row}(x, y):\n")[1].split("return")[0]) != number, output
    rng = np.random.default_rng(row)
    x, y = (rng.uniform(0.5, 2, (2, 3)).astype("float32") for _ in range(2))
    expected = mx_space[f"f{row}"](mx.nd.array(x), mx.nd.array(y))
    actual = pt_space[f"f{row}"](torch.tensor(x), torch.tensor(y))
    for e, a in zip(expected, actual):
        assert tuple(a.shape) == e.shape
        np.testing.assert_allclose(a.numpy(), e.asnumpy(), rtol=1e-6, atol=1e-6)


# (id, how w and b get their gradient, the write outside autograd.record()): MX545 on arrays whose
# gradient is attached (directly, or in a loop over a list or a tuple of them) and never read by name
ATTACHED = [
    ("direct-slice-write", "w.attach_grad()\n    b.attach_grad()", "w[:] = nd.ones((2, 3)) * 0.5"),
    ("loop-over-list-name", "params = [w, b]\n    for p in params:\n        p.attach_grad()", "w[:] = w * 2 + 1"),
    ("loop-over-tuple", "for p in (w, b):\n        p.attach_grad()", "b[:] -= 0.25"),
    ("loop-augmented-name", "for p in [w, b]:\n        p.attach_grad()", "w *= 3"),
]


@pytest.fixture(scope="module")
def attached():
    body = ("def f{i}(x, y):\n    w = x * 1\n    b = y[0] * 1\n    {attach}\n    {write}\n"
            "    with autograd.record():\n        loss = (nd.dot(w, b) ** 2).sum() + (w * w).sum()\n    loss.backward()\n"
            "    return (w, b, *[p.grad for p in (w, b)])")  # no `w.grad` read by name
    functions = [body.format(i=i, attach=a[1], write=a[2]) for i, a in enumerate(ATTACHED)]
    mx_space, pt_space, output = _both(["from mxnet import autograd"] + functions)
    return mx_space, pt_space, output


@pytest.mark.parametrize("row", range(len(ATTACHED)), ids=[a[0] for a in ATTACHED])
def test_a_write_into_an_array_with_a_gradient_is_mxnets(row, attached):
    mx_space, pt_space, output = attached
    rng = np.random.default_rng(row)
    x, y = rng.uniform(-1, 1, (2, 3)).astype("float32"), rng.uniform(-1, 1, (3, 3)).astype("float32")
    expected = mx_space[f"f{row}"](mx.nd.array(x), mx.nd.array(y))
    actual = pt_space[f"f{row}"](torch.tensor(x), torch.tensor(y))
    for e, a in zip(expected, actual):
        assert tuple(a.shape) == e.shape
        np.testing.assert_allclose(a.detach().numpy(), e.asnumpy(), rtol=1e-5, atol=1e-6)
