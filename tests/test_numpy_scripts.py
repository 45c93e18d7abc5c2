"""Training scripts in MXNet's numpy dialect against their translations, step by step, with
live MXNet (issue 11): the textbook's linear regression from scratch (np.random.normal,
attach_grad, autograd.record, a hand-written SGD, a shuffling data iterator indexing with an
mx.np array of floats) and its concise softmax classifier (a Gluon Sequential under
npx.set_np(), SoftmaxCrossEntropyLoss, a 'sgd' Trainer, the accuracy counted with argmax and
astype). tests/test_fixtures.py checks that converting `fixtures/train_np_*/train_mx.py` gives
the checked-in `train_pt.py`; this file runs both on the same data from the same starting
values and compares every step's records and parameters. Also: the helpers these scripts
rely on (`_mx_array_backward`, `_mx_index`, `_mx_astype`) against MXNet.

Each MXNet script calls npx.set_np() when it is loaded: numpy mode is put back as it was
after each test (tests/test_fixture_models.numpy_mode_kept), so other tests see NDArrays.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from test_fixture_models import numpy_mode_kept

pytestmark = pytest.mark.mxnet

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
RTOL, ATOL = 1e-4, 1e-5


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _modules(folder: str):
    return (_load(FIXTURES / folder / "train_mx.py", f"{folder}_mx"),
            _load(FIXTURES / folder / "train_pt.py", f"{folder}_pt"))


def _flat(value) -> list[float]:
    if isinstance(value, (list, tuple)):
        return [x for item in value for x in _flat(item)]
    return [float(value)]


def _step_differences(np, mx_steps, pt_steps) -> list[str]:
    bad = []
    if len(mx_steps) != len(pt_steps):
        return [f"{len(pt_steps)} steps where MXNet takes {len(mx_steps)}"]
    for k, (m, p) in enumerate(zip(mx_steps, pt_steps), 1):
        expected, actual = np.array(_flat(m)), np.array(_flat(p))
        if expected.shape != actual.shape or not np.allclose(actual, expected, rtol=RTOL, atol=ATOL):
            bad.append(f"step {k}: {actual.tolist()} where MXNet has {expected.tolist()}")
    return bad


# -- linear regression from scratch --------------------------------------------------------------
TRUE_W, TRUE_B = [2.0, -3.4], 4.2


def _linreg_data(np):
    rng = np.random.RandomState(11)
    X = rng.normal(0, 1, (95, 2)).astype("float32")  # 95 rows in batches of 10: a short last batch
    y = (X @ np.array(TRUE_W, dtype="float32") + TRUE_B + rng.normal(0, 0.01, 95)).astype("float32")
    w0 = rng.normal(0, 0.5, (2, 1)).astype("float32")  # far from the solution: the steps matter
    b0 = rng.normal(0, 0.5, (1,)).astype("float32")
    return X, y.reshape(-1, 1), w0, b0


def _linreg_run(mx_mod, pt_mod, *, epochs=2, seed=3):
    """Both scripts' train() from the same data and starting values; (MXNet's, torch's) records."""
    mx, torch, np = import_mxnet(), import_torch(), import_numpy()
    X, y, w0, b0 = _linreg_data(np)
    mx_w, mx_b = mx_mod.init_params(2)
    pt_w, pt_b = pt_mod.init_params(2)
    for a, b in ((mx_w, pt_w), (mx_b, pt_b)):  # what init_params made: same shapes and dtypes
        assert tuple(a.shape) == tuple(b.shape) and str(a.dtype) == "float32" and b.dtype == torch.float32
        assert b.requires_grad and b.is_leaf
    mx_w[:], mx_b[:] = mx.np.array(w0), mx.np.array(b0)
    with torch.no_grad():
        pt_w.copy_(torch.tensor(w0))
        pt_b.copy_(torch.tensor(b0))
    mx_out = mx_mod.train(mx.np.array(X), mx.np.array(y), mx_w, mx_b, num_epochs=epochs, seed=seed)
    pt_out = pt_mod.train(torch.tensor(X), torch.tensor(y), pt_w, pt_b, num_epochs=epochs, seed=seed)
    return mx_out, pt_out


def test_linear_regression_from_scratch_takes_mxnets_steps():
    np = import_numpy()
    with numpy_mode_kept():
        mx_mod, pt_mod = _modules("train_np_linreg")
        (mx_steps, mx_epochs), (pt_steps, pt_epochs) = _linreg_run(mx_mod, pt_mod)
    assert len(mx_steps) == 20  # 10 batches (the last of 5 rows) x 2 epochs
    bad = _step_differences(np, mx_steps, pt_steps) + _step_differences(np, [mx_epochs], [pt_epochs])
    assert not bad, "\n".join(bad)
    assert mx_steps[0] != mx_steps[-1] and mx_epochs[-1] < 0.7 * mx_epochs[0]  # it trains


def test_linear_regression_comparison_sees_accumulated_gradients(monkeypatch):
    """The comparison can fail: torch's backward as it stands adds each step's gradient to the
    last (MXNet's grad_req='write' overwrites it), so the path leaves MXNet's at step 2."""
    np = import_numpy()
    with numpy_mode_kept():
        mx_mod, pt_mod = _modules("train_np_linreg")
        monkeypatch.setattr(pt_mod, "_mx_array_backward", lambda y: y.sum().backward())
        (mx_steps, _), (pt_steps, _) = _linreg_run(mx_mod, pt_mod, epochs=1)
    bad = _step_differences(np, mx_steps, pt_steps)
    assert bad and bad[0].startswith("step 2:"), bad[:1]


def test_linear_regression_data_and_main_run():
    """The script's own data (np.random.normal: other draws in torch, the same distribution) and
    its main(): the converted synthetic_data gives y = Xw + b + noise of scale 0.01, and
    training on it recovers w and b as MXNet's does."""
    mx, torch, np = import_mxnet(), import_torch(), import_numpy()
    with numpy_mode_kept():
        mx_mod, pt_mod = _modules("train_np_linreg")
        mx.random.seed(5)
        torch.manual_seed(5)
        for mod, to_numpy, array in ((mx_mod, lambda a: a.asnumpy(), mx.np.array),
                                     (pt_mod, lambda a: a.detach().numpy(), torch.tensor)):
            X, y = mod.synthetic_data(array(TRUE_W), TRUE_B, 2000)
            X, y = to_numpy(X), to_numpy(y)
            assert X.shape == (2000, 2) and y.shape == (2000, 1) and X.dtype == y.dtype == np.float32
            noise = y[:, 0] - X @ np.array(TRUE_W) - TRUE_B
            assert abs(X.std() - 1) < 0.05 and 0.008 < noise.std() < 0.012 and abs(noise.mean()) < 0.002
            true_w, true_b, w, b = mod.main(1000)
            assert np.abs(to_numpy(w).ravel() - TRUE_W).max() < 0.05 and abs(float(to_numpy(b)[0]) - TRUE_B) < 0.05


# -- the helpers these scripts use, against MXNet ---------------------------------------------------
def test_array_backward_overwrites_as_mxnet_does():
    """Two backward passes with no trainer between them: MXNet's grad_req='write' keeps the
    second gradient only (torch would add them), grad_req='add' adds them, an array the second
    pass does not reach keeps its gradient, and a head gradient is honoured."""
    from xlate import runtime

    mx, torch, np = import_mxnet(), import_torch(), import_numpy()
    rt = runtime.load()
    rng = np.random.RandomState(2)
    xv, zv, uv, head = (rng.uniform(0.5, 1.5, 3).astype("float32") for _ in range(4))
    x, z, u = mx.nd.array(xv), mx.nd.array(zv), mx.nd.array(uv)
    x.attach_grad()
    z.attach_grad(grad_req="add")
    u.attach_grad()
    tx, tz, tu = torch.tensor(xv).requires_grad_(), torch.tensor(zv), torch.tensor(uv).requires_grad_()
    rt._mx_attach_grad(tz, "add")
    with mx.autograd.record():
        y = x * x * z + u
    y.backward()
    rt._mx_array_backward(tx * tx * tz + tu)
    with mx.autograd.record():
        y = x * x * x * z  # u is not reached
    y.backward(mx.nd.array(head))
    rt._mx_array_backward(tx * tx * tx * tz, torch.tensor(head))
    for a, t, what in ((x, tx, "write"), (z, tz, "add"), (u, tu, "not reached")):
        assert np.allclose(t.grad.numpy(), a.grad.asnumpy(), rtol=1e-5, atol=1e-6), what


def test_float_index_arrays_as_mxnet_reads_them():
    """Float index arrays (what mx.np.array / nd.array of Python numbers make) pick the rows
    MXNet picks: truncated toward zero, negative ones from the end; integer ones unchanged."""
    from xlate import runtime

    mx, torch, np = import_mxnet(), import_torch(), import_numpy()
    rt = runtime.load()
    data = np.random.RandomState(4).uniform(-1, 1, (4, 3)).astype("float32")
    idx = [0.7, 2.2, -1.5, -0.5, 3.0]
    expected = mx.nd.array(data)[mx.nd.array(idx)].asnumpy()
    assert np.array_equal(torch.tensor(data)[rt._mx_index(torch.tensor(idx))].numpy(), expected)
    with numpy_mode_kept():
        mx.npx.set_np()
        expected = mx.np.array(data)[mx.np.array(idx), mx.np.array([0, 2, 1, 0, 2])].asnumpy()
    got = torch.tensor(data)[rt._mx_index(torch.tensor(idx)), rt._mx_index(torch.tensor([0, 2, 1, 0, 2]))]
    assert np.array_equal(got.numpy(), expected)
    ints = torch.tensor([1, 3])
    assert rt._mx_index(ints) is ints


def test_astype_decided_at_run_time():
    """`_mx_astype`: a tensor converts as MXNet's astype (a new array even for the same dtype,
    floats truncated toward zero, a dtype given as another array's); a NumPy array uses its own
    astype, also with a torch dtype taken from a converted array's `.dtype`."""
    from xlate import runtime

    mx, torch, np = import_mxnet(), import_torch(), import_numpy()
    rt = runtime.load()
    values = np.random.RandomState(6).uniform(-3, 3, 7).astype("float32")
    labels = mx.nd.array([1, 2], dtype="int32")
    for dtype, like in (("int32", None), ("float64", None), (None, labels)):
        expected = mx.nd.array(values).astype(like.dtype if like is not None else dtype)
        got = rt._mx_astype(torch.tensor(values), torch.int32 if like is not None else dtype)
        assert str(got.dtype).rsplit(".", 1)[-1] == np.dtype(expected.dtype).name
        assert np.array_equal(got.numpy(), expected.asnumpy())
    t = torch.tensor(values)
    assert rt._mx_astype(t, "float32") is not t and rt._mx_astype(t, "float32", copy=False) is t
    host = rt._mx_astype(values, torch.int64)
    assert isinstance(host, np.ndarray) and host.dtype == np.int64 and np.array_equal(host, values.astype("int64"))


def test_transpose_decided_at_run_time():
    """`_mx_array_transpose`: a tensor is permuted as mx.np's transpose permutes (separate axes, one
    tuple, none); a NumPy array uses its own transpose."""
    from xlate import runtime

    mx, torch, np = import_mxnet(), import_torch(), import_numpy()
    rt = runtime.load()
    values = np.random.RandomState(8).uniform(-1, 1, (2, 3, 4, 5)).astype("float32")
    with numpy_mode_kept():
        mx.npx.set_np()
        x = mx.np.array(values)
        cases = [((0, 2, 1, 3), x.transpose(0, 2, 1, 3)), (((3, 1, 0, 2),), x.transpose((3, 1, 0, 2))),
                 ((), x.transpose())]
        for axes, expected in cases:
            got = rt._mx_array_transpose(torch.tensor(values), *axes)
            assert got.shape == expected.shape and np.array_equal(got.numpy(), expected.asnumpy()), axes
    assert np.array_equal(rt._mx_array_transpose(values, 0, 2, 1, 3), values.transpose(0, 2, 1, 3))


def test_dot_method_decided_at_run_time():
    """`_mx_np_dot_method`: a tensor multiplies as mx.np's `x.dot(y)` (NumPy's dot: 3-D with 2-D
    contracts the last axis with the second-to-last); a NumPy array uses its own dot."""
    from xlate import runtime

    mx, torch, np = import_mxnet(), import_torch(), import_numpy()
    rt = runtime.load()
    rng = np.random.RandomState(9)
    a, b = rng.uniform(-1, 1, (2, 3, 4)).astype("float32"), rng.uniform(-1, 1, (3, 4, 5)).astype("float32")
    with numpy_mode_kept():
        mx.npx.set_np()
        expected = mx.np.array(a).dot(mx.np.array(b)).asnumpy()
    got = rt._mx_np_dot_method(torch.tensor(a), torch.tensor(b)).numpy()
    assert got.shape == expected.shape == (2, 3, 3, 5) and np.allclose(got, expected, rtol=1e-5, atol=1e-6)
    host = rt._mx_np_dot_method(a, b)
    assert isinstance(host, np.ndarray) and np.allclose(host, a.dot(b))
