"""Cases for the 8xx operators (rules/8xx_operators.toml), appended to rule_cases.CASES: linear
algebra and contrib.foreach compared value by value with their gradients, and the samplers, whose
streams differ from MXNet's, compared by shape, dtype and moments.

# Note [sampler moments]
# A draw of torch's cannot equal MXNet's, so both sides draw 40,000 values per parameter element
# with a fixed seed, and each element's mean and standard deviation must be those of MXNet's
# distribution within 4 standard errors (the std within 3%), on both sides. The parameters differ
# per element, so a draw laid out as `shape + param.shape` instead of `param.shape + shape` mixes
# them and fails, and so does a wrong parameterisation: a gamma read with beta as a rate has mean
# alpha / beta, not alpha * beta; an exponential read with lam as a scale has mean lam.
"""
from __future__ import annotations

import numpy as np

from xlate.check.case_kit import HEADER, C, meth, ret

_EYE2 = ("const", np.stack([2.0 * np.eye(3), 3.0 * np.eye(3)]).astype(np.float32))
_SPD = "nd.linalg_gemm2(x, x, transpose_b=True) + y"  # x (2, 3, 3) random, y 2I and 3I: positive definite

OPERATOR_CASES = [
    # -- MX803 linalg (gluonts' Gaussian process, Kalman filter, low-rank Gaussians) --------------------
    C("linalg-potrf-batched", "MX803", ret(f"nd.linalg.potrf({_SPD})"), (2, 3, 3), _EYE2, grad=(0,)),
    C("linalg-potrf-flat-name", "MX803", ret(f"nd.linalg_potrf({_SPD})"), (2, 3, 3), _EYE2, grad=(0,)),
    C("linalg-potri", "MX803", ret(f"nd.linalg.potri(nd.linalg.potrf({_SPD}))"), (2, 3, 3), _EYE2, grad=(0,)),
    C("linalg-trsm-lower", "MX803", ret("nd.linalg.trsm(x, y)"), ("pos", (2, 3, 3)), (2, 3, 4), grad=(0, 1)),
    C("linalg-trsm-transpose-alpha", "MX803", ret("nd.linalg_trsm(x, y, transpose=True, alpha=0.5)"),
      ("pos", (2, 3, 3)), (2, 3, 4), grad=(0, 1)),
    C("linalg-trsm-rightside-upper", "MX803", ret("nd.linalg.trsm(x, y, rightside=True, lower=False)"),
      ("pos", (2, 3, 3)), (2, 4, 3), grad=(0, 1)),
    C("linalg-trsm-upper-transpose", "MX803", ret("nd.linalg.trsm(x, y, transpose=True, lower=False)"),
      ("pos", (3, 3)), (3, 2), grad=(0, 1)),
    C("linalg-trmm-rightside", "MX803", ret("nd.linalg_trmm(x, y, rightside=True)"), (2, 3, 3), (2, 4, 3),
      grad=(0, 1)),
    C("linalg-trmm-upper-transpose-alpha", "MX803",
      ret("nd.linalg.trmm(x, y, transpose=True, lower=False, alpha=2.0)"), (3, 3), (3, 2), grad=(0, 1)),
    C("linalg-gemm", "MX803", ret("nd.linalg.gemm(x, y, z, transpose_b=True, alpha=0.5, beta=2.0)"),
      (2, 3, 4), (2, 5, 4), (2, 3, 5), grad=(0, 1, 2)),
    C("linalg-gemm2-namespace", "MX099", ret("nd.linalg.gemm2(x, y, transpose_a=True)"), (2, 4, 3), (2, 4, 5),
      grad=(0, 1)),
    C("linalg-syrk", "MX803", ret("[nd.linalg.syrk(x), nd.linalg_syrk(x, transpose=True, alpha=0.5)]"),
      (2, 3, 4), grad=(0,)),
    C("linalg-sumlogdiag", "MX803", ret("[nd.linalg.sumlogdiag(x), nd.linalg_sumlogdiag(x[0])]"),
      ("pos", (2, 3, 3)), grad=(0,)),
    C("linalg-extracttrian", "MX803", ret("[nd.linalg.extracttrian(x), nd.linalg.extracttrian(x, lower=False), "
                                          "nd.linalg.extracttrian(x, offset=1), nd.linalg_extracttrian(x, offset=-2)]"),
      (2, 4, 4), grad=(0,)),
    C("linalg-maketrian", "MX803", ret("[nd.linalg.maketrian(x), nd.linalg.maketrian(x, lower=False), "
                                       "nd.linalg.maketrian(x, offset=1), nd.linalg_maketrian(x, offset=-2)]"),
      (2, 6), grad=(0,)),
    C("linalg-diag", "MX803", ret("[nd.linalg.extractdiag(x, offset=1), nd.linalg.makediag(x[:, 0], offset=-1)]"),
      (2, 3, 3), grad=(0,)),
    C("linalg-syevd", "MX803", """
        def f(x, y):
            u, lam = nd.linalg.syevd(nd.linalg_gemm2(x, x, transpose_b=True) + y)
            return [u, lam]
        """, (2, 3, 3), _EYE2),
    C("linalg-inverse-det", "MX803", ret(f"[nd.linalg.inverse({_SPD}), nd.linalg.det({_SPD}), "
                                         f"nd.linalg.slogdet({_SPD})[1]]"), (2, 3, 3), _EYE2, grad=(0,)),
    C("max-min-sum-axis", "MX033", ret("[nd.max_axis(x, axis=-1, keepdims=True), nd.min_axis(x, axis=(0, 2)), "
                                       "nd.sum_axis(x, axis=1)]"), (2, 3, 4), grad=(0,)),
    # -- MX805 zeros_like/ones_like methods, on an array and on a value of unknown type -----------------
    C("like-methods", "MX805", meth("[a.zeros_like(), a.ones_like(dtype='int64')]"), (2, 3)),
    C("like-methods-untyped", "MX805", ret("[x.zeros_like(), x.ones_like() * 2]"), (2, 3)),
    C("split-method-untyped-keywords", "MX030", """
        def f(x):
            return [*x.split(axis=1, num_outputs=3, squeeze_axis=True), x.split(num_outputs=1, axis=2)]
        """, (2, 3, 4), grad=(0,)),
    C("min-max-method-untyped-axis", "MX033", ret("[x.min(axis=-1, keepdims=False), x.max(1, True), "
                                                  "x.max(axis=(0, 2), exclude=True)]"), (2, 3, 4), grad=(0,)),
    C("broadcast-mul-ignored-axis", "MX041", ret("nd.broadcast_mul(x, y, axis=-1) + nd.broadcast_add(x, y)"),
      (2, 3), (2, 1), grad=(0, 1)),
    # -- MX804 contrib.foreach (sockeye's SSRU; gluonts' binned distribution) --------------------------
    C("foreach-list-data-state", "MX804", """
        def f(x, y, z):
            def step(inputs, state):
                value, gate = inputs
                new = gate * state + value
                return new, new
            return list(nd.contrib.foreach(step, [x, y], z))
        """, (4, 2, 3), (4, 2, 3), (2, 3), grad=(0, 1, 2)),
    C("foreach-nested-outputs", "MX804", """
        def f(x, y):
            def step(data, states):
                total = states[0] + data
                return [total * 2, [data.sum(axis=1)]], [total, states[1] * data]
            outs, states = nd.contrib.foreach(step, x, [y, y])
            return [outs[0], outs[1][0], states[0], states[1]]
        """, (3, 2, 4), (2, 4), grad=(0, 1)),
    C("while-loop-stacked-and-last", "MX804", """
        def f(x, y):
            def step(i, total, factor):
                return [total * factor, [total.sum(axis=0)]], [i + 1, total + factor, factor * 0.5]
            outs, last = nd.contrib.while_loop(lambda i, total, factor: i < 3, step, [nd.zeros((1,)), x, y],
                                               max_iterations=3)
            return [outs[0], outs[1][0], last[1], last[2]]
        """, (2, 3), (2, 3), grad=(0, 1)),
]

# id, snippet expression, per-element (means, stds) in the parameters' shape, dtype, output shape, rule
SAMPLER_CASES = [
    ("sample-normal", "nd.sample_normal(nd.array([[0.0, 5.0]]), nd.array([[1.0, 0.5]]), shape=(40000,))",
     ([[0.0, 5.0]], [[1.0, 0.5]]), "float32", (1, 2, 40000), "MX800"),
    ("sample-normal-keywords-float64",
     "nd.sample_normal(mu=nd.array([1.0, -3.0], dtype='float64'), sigma=nd.array([2.0, 0.1], dtype='float64'), "
     "shape=40000, dtype='float64')", ([1.0, -3.0], [2.0, 0.1]), "float64", (2, 40000), "MX800"),
    ("sample-normal-float64-params-give-float32",
     "nd.sample_normal(nd.array([1.0, -3.0], dtype='float64'), nd.array([2.0, 0.1], dtype='float64'), "
     "shape=(200, 200))", ([1.0, -3.0], [2.0, 0.1]), "float32", (2, 200, 200), "MX800"),
    ("sample-gamma-scale", "nd.sample_gamma(alpha=nd.array([2.0, 0.5]), beta=nd.array([3.0, 1.0]), shape=(40000,))",
     ([6.0, 0.5], [3.0 * 2 ** 0.5, 0.5 ** 0.5]), "float32", (2, 40000), "MX800"),
    ("sample-uniform", "nd.sample_uniform(nd.array([-1.0, 2.0]), nd.array([3.0, 2.5]), shape=(40000,))",
     ([1.0, 2.25], [4 / 12 ** 0.5, 0.5 / 12 ** 0.5]), "float32", (2, 40000), "MX800"),
    ("sample-exponential-rate", "nd.sample_exponential(nd.array([0.5, 4.0]), shape=(40000,))",
     ([2.0, 0.25], [2.0, 0.25]), "float32", (2, 40000), "MX800"),
    ("sample-poisson", "nd.sample_poisson(nd.array([1.0, 7.0]), shape=(40000,))",
     ([1.0, 7.0], [1.0, 7 ** 0.5]), "float32", (2, 40000), "MX800"),
    ("sample-negative-binomial", "nd.sample_negative_binomial(nd.array([3.0, 5.0]), nd.array([0.4, 0.7]), "
     "shape=(40000,))", ([4.5, 15 / 7], [11.25 ** 0.5, (1.5 / 0.49) ** 0.5]), "float32", (2, 40000), "MX800"),
    ("sample-generalized-negative-binomial",
     "nd.sample_generalized_negative_binomial(nd.array([2.0, 4.0]), nd.array([0.5, 0.0]), shape=(40000,))",
     ([2.0, 4.0], [2.0, 2.0]), "float32", (2, 40000), "MX800"),
    ("random-gamma-array", "nd.random.gamma(nd.array([2.0, 0.5]), nd.array([3.0, 1.0]), shape=(40000,))",
     ([6.0, 0.5], [3.0 * 2 ** 0.5, 0.5 ** 0.5]), "float32", (2, 40000), "MX802"),
    ("random-gamma-numbers", "nd.random.gamma(2.0, 3.0, shape=(40000,))", (6.0, 3.0 * 2 ** 0.5), "float32",
     (40000,), "MX802"),
    ("random-exponential-scale", "nd.random.exponential(2.0, shape=(40000,), dtype='float64')", (2.0, 2.0),
     "float64", (40000,), "MX802"),
    ("random-exponential-array-scale", "nd.random.exponential(nd.array([2.0, 0.25]), shape=(40000,))",
     ([2.0, 0.25], [2.0, 0.25]), "float32", (2, 40000), "MX802"),
    ("random-poisson-array", "nd.random.poisson(lam=nd.array([3.0, 0.5]), shape=40000)",
     ([3.0, 0.5], [3 ** 0.5, 0.5 ** 0.5]), "float32", (2, 40000), "MX802"),
    ("random-negative-binomial-numbers", "nd.random.negative_binomial(3, 0.4, shape=(40000,))",
     (4.5, 11.25 ** 0.5), "float32", (40000,), "MX802"),
    ("random-normal-array", "nd.random.normal(nd.array([1.0, -2.0]), nd.array([0.5, 2.0]), shape=(40000,))",
     ([1.0, -2.0], [0.5, 2.0]), "float32", (2, 40000), "MX015"),
    ("random-uniform-array-no-shape", "nd.random.uniform(nd.zeros((200, 200)) - 1, nd.ones((200, 200)) * 3)",
     (1.0, 4 / 12 ** 0.5), "float32", (200, 200), "MX015"),
]


def _import():
    import mxnet
    import torch

    return mxnet, torch


def convert(source: str):
    """The snippet converted with every rule (case_kit.convert, once per text)."""
    from xlate.check.case_kit import convert as converted

    return converted(source)


def load(source: str, name: str = "f"):
    namespace: dict = {"__name__": "snippet"}
    exec(compile(source, "<snippet>", "exec"), namespace)
    return namespace[name]


def _draw_both(expr: str, code: str, seed: int):
    """The converted snippet (reported `code` for review) and the (MXNet, torch) results."""
    mx, torch = _import()
    source = HEADER + ret(expr)
    result = convert(source)
    seen = {(d.code, d.status) for d in result.diagnostics}
    assert (code, "review") in seen, f"expected {code} for review; got {sorted(seen)}\n{result.output}"
    mx.random.seed(seed)
    expected = load(source)()
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        actual = load(result.output)()
    return expected, actual


def check_sampler(id: str, expr: str, moments: tuple, dtype: str, shape: tuple, code: str, *, seed: int = 11) -> None:
    """Note [sampler moments]: the shape and dtype exactly, each element's moments on both sides."""
    _, torch = _import()
    expected, actual = _draw_both(expr, code, seed)
    assert isinstance(actual, torch.Tensor), f"{id}: expected a tensor, got {type(actual).__name__}"
    assert expected.shape == shape, f"{id}: MXNet's shape {expected.shape}, the case says {shape}"
    assert tuple(actual.shape) == shape, f"{id}: shape {tuple(actual.shape)} != MXNet's {shape}"
    assert str(actual.dtype) == f"torch.{dtype}" and expected.dtype == np.dtype(dtype), \
        f"{id}: dtype {actual.dtype} / MXNet's {expected.dtype}, expected {dtype}"
    means, stds = (np.asarray(m, dtype=np.float64) for m in moments)
    axes = tuple(range(means.ndim, len(shape)))
    for side, values in (("PyTorch", actual.double().numpy()), ("MXNet", expected.asnumpy().astype(np.float64))):
        n = int(np.prod([shape[a] for a in axes]))
        got_mean, got_std = values.mean(axis=axes), values.std(axis=axes)
        bad_mean = np.abs(got_mean - means) > 4 * stds / n ** 0.5 + 1e-6
        bad_std = np.abs(got_std - stds) > 0.03 * stds
        assert not bad_mean.any(), f"{id}: {side} means {got_mean}, expected {means}"
        assert not bad_std.any(), f"{id}: {side} stds {got_std}, expected {stds}"


MULTINOMIAL = [[0.2, 0.3, 0.5], [0.7, 0.2, 0.1]]


def check_multinomial(*, seed: int = 5) -> None:
    """MX801: shapes and dtypes as MXNet's (int32 indices, data.shape[:-1] + shape, (1,) for one
    distribution), each row's category frequencies within 4 standard errors of its probabilities,
    and with get_prob the log-probability of each draw and its gradient (count / p) on both sides."""
    mx, torch = _import()
    expected, actual = _draw_both(f"nd.sample_multinomial(nd.array({MULTINOMIAL}), shape=(200, 200))", "MX801", seed)
    assert expected.shape == (2, 200, 200) and tuple(actual.shape) == (2, 200, 200), (expected.shape, actual.shape)
    assert expected.dtype == np.int32 and actual.dtype == torch.int32, (expected.dtype, actual.dtype)
    probs = np.array(MULTINOMIAL)
    for side, values in (("PyTorch", actual.numpy()), ("MXNet", expected.asnumpy())):
        for row, p in enumerate(probs):
            freq = np.bincount(values[row].reshape(-1), minlength=3) / values[row].size
            assert (np.abs(freq - p) < 4 * np.sqrt(p * (1 - p) / values[row].size)).all(), (side, row, freq, p)
    shapes = "[nd.sample_multinomial(nd.array([0.2, 0.8])), nd.random.multinomial(nd.array([0.2, 0.8]), shape=3), " \
             "nd.sample_multinomial(nd.array([[0.2, 0.8]]), dtype='float32')]"
    expected, actual = _draw_both(shapes, "MX801", seed)
    for e, a in zip(expected, actual):
        assert e.shape == tuple(a.shape) and str(a.dtype) == f"torch.{e.dtype.__name__}", (e.shape, e.dtype, a)
    source = HEADER + ("def f(x):\n    s, logp = nd.sample_multinomial(x, shape=(4,), get_prob=True)\n"
                       "    return s, logp\n")
    data = np.array(MULTINOMIAL, dtype=np.float32)
    x_mx = mx.nd.array(data)
    x_mx.attach_grad()
    with mx.autograd.record():
        s_mx, lp_mx = load(source)(x_mx)
    lp_mx.backward()
    x_pt = torch.tensor(data, requires_grad=True)
    s_pt, lp_pt = load(convert(source).output)(x_pt)
    lp_pt.sum().backward()
    assert lp_pt.dtype == torch.float32 and s_pt.dtype == torch.int32 and tuple(lp_pt.shape) == lp_mx.shape
    for side, s, lp, grad in (("MXNet", s_mx.asnumpy(), lp_mx.asnumpy(), x_mx.grad.asnumpy()),
                              ("PyTorch", s_pt.numpy(), lp_pt.detach().numpy(), x_pt.grad.numpy())):
        picked = np.take_along_axis(data, s.astype(np.int64), axis=1)
        assert np.allclose(lp, np.log(picked), atol=1e-6), (side, lp, picked)
        counts = np.stack([np.bincount(r, minlength=3) for r in s.astype(np.int64)])
        assert np.allclose(grad, counts / data, rtol=1e-5), (side, grad, counts / data)
