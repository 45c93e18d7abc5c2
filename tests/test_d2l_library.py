"""The constructs of d2l's MXNet library (issue 25, bench/d2l_library.py) that xlate translates by
class, each converted and run against live MXNet on the same inputs."""
from __future__ import annotations

import numpy as onp
import pytest

from mxsupport import import_mxnet, import_torch

from xlate.check import rule_cases

pytestmark = pytest.mark.mxnet


@pytest.fixture(autouse=True)
def _leave_mxnet_in_its_nd_mode():
    """The cases run `npx.set_np()`, which is process-wide: undo it for the next file's tests."""
    yield
    import_mxnet().util.reset_np()


def both(source: str, *inputs, name: str = "f", dialect: bool = True):
    """(MXNet's result, the converted code's result) of `name(*inputs)`."""
    import_mxnet()
    import_torch()
    result = rule_cases.convert(source)
    assert "mxnet" not in result.output, result.output
    expected, _ = rule_cases.run_mx(rule_cases.load(source, name), inputs, dialect=dialect)
    actual, _ = rule_cases.run_torch(rule_cases.load(result.output, name), inputs)
    return expected, actual, result


def same(expected, actual) -> None:
    assert not rule_cases.problems(rule_cases.compare_outputs(actual, expected))


# -- methods whose arguments are forwarded (`lambda x, *args, **kwargs: x.astype(*args, **kwargs)`)

FORWARDED = '''
from mxnet import np, npx
npx.set_np()
astype = lambda x, *args, **kwargs: x.astype(*args, **kwargs)
reduce_sum = lambda x, *args, **kwargs: x.sum(*args, **kwargs)
reduce_mean = lambda x, *args, **kwargs: x.mean(*args, **kwargs)
argmax = lambda x, *args, **kwargs: x.argmax(*args, **kwargs)
repeat = lambda x, *args, **kwargs: x.repeat(*args, **kwargs)
numpy = lambda x, *args, **kwargs: x.asnumpy(*args, **kwargs)
to = lambda x, *args, **kwargs: x.as_in_context(*args, **kwargs)

def f(x, y):
    cmp = astype(argmax(x, axis=1), y.dtype) == y
    i = astype(x * 2, 'int32')
    return (astype(cmp, y.dtype).sum(), i, astype(x, dtype='float16', copy=False),
            reduce_sum(i, 1), reduce_sum(i), reduce_sum(i, axis=0, keepdims=True), reduce_sum(x > 0, 0),
            reduce_mean(i, 0), reduce_mean(x), argmax(x), argmax(x, 0), repeat(x, 2, axis=1), repeat(i, 2),
            numpy(x), to(x, npx.cpu()))
'''


def test_methods_with_forwarded_arguments_give_mxnets_results():
    rng = onp.random.RandomState(0)
    x = rng.normal(size=(6, 3)).astype("float32") * 3
    y = rng.randint(0, 3, size=6).astype("float32")
    expected, actual, result = both(FORWARDED, x, y)
    for helper in ("_mx_astype(x, *args", '_mx_np_method(x, "sum", *args', '_mx_np_method(x, "repeat", *args',
                   "_mx_asnumpy(x, *args", "_mx_as_in_context(x, *args"):
        assert helper in result.output, result.output
    same(expected, actual)


# -- a module's own aliases of MXNet functions (Note [module aliases]) ---------------------------

ALIASES = '''
import sys
from mxnet import np, npx
from mxnet.gluon import nn
npx.set_np()
d2l = sys.modules[__name__]
zeros = np.zeros
matmul = np.dot
stack = np.stack
Block = nn.Block

class Base(d2l.Block):
    pass

class Scale(d2l.Base):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, flatten=False)
        self.initialize()

    def forward(self, x):
        return self.dense(x)

def f(X, K):
    Y = d2l.zeros((X.shape[0] - 1, 2))
    return Y, matmul(X, K), d2l.stack((X[:, 0], X[:, 1]), axis=-1), d2l.matmul(X[None], K)

def g():
    return isinstance(Scale(), nn.Block) and len(list(Scale().collect_params())) == 2
'''


def module(name: str, source: str):
    import sys
    import types

    m = types.ModuleType(name)
    sys.modules[name] = m  # `d2l = sys.modules[__name__]`
    try:
        exec(compile(source, name, "exec"), m.__dict__)
    finally:
        del sys.modules[name]
    return m


def test_calls_through_module_aliases_give_mxnets_results():
    rng = onp.random.RandomState(1)
    X, K = rng.normal(size=(4, 3)).astype("float32"), rng.normal(size=(3, 5)).astype("float32")
    import_mxnet()
    torch = import_torch()
    result = rule_cases.convert(ALIASES)
    for call in ("torch.zeros(", "torch.stack(", "_mx_np_dot(X, K)", "_mx_initialize(self"):
        assert call in result.output, result.output
    expected, _ = rule_cases.run_mx(module("mx_aliases", ALIASES).f, [X, K], dialect=True)
    # the bindings themselves are functions with MXNet's parameters (Note [functions as values],
    # tests/test_function_values.py), so no MXNet import is left
    assert "mxnet" not in "".join(ln for ln in result.output.splitlines() if ln.startswith(("from", "import")))
    converted = module("pt_aliases", result.output)
    same(expected, converted.f(torch.from_numpy(X), torch.from_numpy(K)))
    assert converted.g() is True  # a Gluon block through `d2l.Base`: a torch module, initialised


# -- writes through an index array take the destination's dtype (MX006) ---------------------------

ITEM_WRITES = '''
from mxnet import np, npx
npx.set_np()

def f(jaccard, values):
    m = np.full((jaccard.shape[0],), -1, dtype=np.int32)
    rows = np.nonzero(np.max(jaccard, axis=1) >= 0.5)[0]
    m[rows] = np.argmax(jaccard, axis=1)[rows]      # int64 into int32
    m[rows[:1]] = values[:1] * 2.5                  # float32 into int32: truncated
    out = np.zeros((4, 2))
    out[np.array([0, 2])] = np.ones((2, 2), dtype=np.int32)  # int32 into float32
    return m, out
'''


def test_writes_through_index_arrays_cast_as_mxnet_does():
    rng = onp.random.RandomState(2)
    jaccard = rng.uniform(0, 1, size=(6, 3)).astype("float32")
    values = onp.array([1.3, -2.7, 0.4], "float32")
    expected, actual, result = both(ITEM_WRITES, jaccard, values)
    assert result.output.count("_mx_item_value(") >= 3, result.output
    same(expected, actual)


# -- slices with a negative step (MX007) ----------------------------------------------------------

BACK_SLICES = '''
from mxnet import np, npx
npx.set_np()

def f(a, scores):
    x = np.abs(a) - 0.5  # an mx.np array, known as one
    order = scores.argsort()[::-1]  # what an NDArray method returns
    return order, x[::-1], x[1, 3:0:-2], x[::-2, ::-1], x[None, ::-1, 1], x[..., ::-1]
'''


def test_slices_with_a_negative_step_give_mxnets_elements():
    rng = onp.random.RandomState(3)
    x = rng.normal(size=(5, 4)).astype("float32")
    scores = rng.uniform(size=6).astype("float32")
    expected, actual, result = both(BACK_SLICES, x, scores)
    assert result.output.count("_mx_back_slice(") >= 7, result.output
    same(expected, actual)


# -- np.random.normal with parameters known at run time (d2l: `d2l.normal(0, sigma, shape)`) -------

NORMAL = '''
from mxnet import np, npx
npx.set_np()

def f(loc, sigma):
    n = 40000
    draws = np.random.normal(loc, sigma, (n, 2))  # an array loc, a number or an array sigma
    return draws.mean(axis=0), draws.std(axis=0), draws.dtype == np.float32
'''


@pytest.mark.parametrize("sigma", [0.5, onp.array([0.5, 2.0], "float32")], ids=["number", "array"])
def test_normal_with_run_time_parameters_draws_mxnets_law(sigma):
    import_mxnet()
    torch = import_torch()
    loc = onp.array([1.0, -3.0], "float32")
    result = rule_cases.convert(NORMAL)
    assert "_mx_np_random_normal(loc, sigma, size=(n, 2))" in result.output, result.output
    mx_f, pt_f = rule_cases.load(NORMAL), rule_cases.load(result.output)
    mx = import_mxnet()
    with mx.util.np_shape(True), mx.util.np_array(True):
        e_mean, e_std, e_f32 = mx_f(mx.np.array(loc), sigma if isinstance(sigma, float) else mx.np.array(sigma))
        e_mean, e_std = e_mean.asnumpy(), e_std.asnumpy()
    a_mean, a_std, a_f32 = pt_f(torch.from_numpy(loc), sigma if isinstance(sigma, float) else torch.from_numpy(sigma))
    want_std = onp.broadcast_to(onp.asarray(sigma, "float32"), (2,))
    for mean, std in ((e_mean, e_std), (a_mean.numpy(), a_std.numpy())):  # both sides draw the same law
        assert onp.allclose(mean, loc, atol=0.05) and onp.allclose(std, want_std, rtol=0.03)
    assert bool(e_f32) and bool(a_f32)
