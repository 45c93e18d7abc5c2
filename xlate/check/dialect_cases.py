"""The numpy dialect's rules (rules/7xx_numpy.toml) in the shared case table (rule_cases.py).

Each snippet is MXNet numpy-dialect code (`from mxnet import np, npx`, DIALECT_HEADER): the
MXNet side takes mx.np arrays and runs in numpy mode, the torch side takes tensors; values,
shapes and dtypes must agree (float32 by default in both, int64 from argmax, 0-d arrays from
full reductions: docs/semantics/numpy_dialect.md). rule_cases appends this table to CASES; both
are built from xlate/check/case_kit.py.
"""
from __future__ import annotations

import re

from xlate.check.case_kit import C, along, broadcasting, matmuls, on_axis, ret, same


def D(id, codes, src, *args, **kw):
    """A dialect case (ids start with `np-`)."""
    return C("np-" + id, codes, src, *args, dialect=True, **kw)


def meth(expr: str) -> str:
    """Like `ret`, with `a` bound to x as a known mx.np array (a parameter's kind is unknown, and
    a method NumPy shares is left on an array xlate cannot tell from NumPy's). In MXNet
    `as_np_ndarray()` of an mx.np array is the array itself, so gradients still flow to `x`."""
    params = [p for p in ("x", "y", "z") if p == "x" or re.search(rf"\b{p}\b", expr)]
    return f"def f({', '.join(params)}):\n    a = x.as_np_ndarray()\n    return {expr}\n"


IDS3 = ("ids", (2, 3), 0, 4)
LENGTHS = ("const", [2.0, 4.0, 1.0])

DIALECT_CASES = [
    # -- MX702 np.array: float32 for Python floats and ints (NumPy: float64 / int64) -----------
    D("array-float-list", "MX702", ret("np.array([1, 2.5, -3])")),
    D("array-int-list", "MX702", ret("np.array([[1, 2], [3, 4]])")),
    D("array-dtype-int32", "MX702", ret("np.array([1.7, -2.2], dtype='int32')")),
    D("array-of-array", "MX702", ret("np.array(x) * 2"), (2, 3)),
    # -- MX703/704/705/706/707/708 creation -----------------------------------------------------
    D("zeros-ones", "MX703", ret("(np.zeros((2, 3)), np.ones(4, dtype='int32'))")),
    D("full", "MX704", ret("np.full((2, 2), 7)")),
    D("full-float", "MX704", ret("np.full((3,), 2.5)")),
    D("like", "MX705", ret("(np.zeros_like(x), np.ones_like(x), np.full_like(x, 3.5))"), (2, 3)),
    D("arange-stop", "MX706", ret("np.arange(5)")),
    D("arange-step", "MX706", ret("np.arange(1, 3, 0.5)")),
    D("arange-int-dtype", "MX706", ret("np.arange(2, 10, 3, dtype='int32')")),
    D("linspace", "MX707", ret("np.linspace(-1, 2, 7)")),
    D("linspace-no-endpoint", "MX707", ret("np.linspace(0, 1, 5, endpoint=False)")),
    D("eye", "MX708", ret("(np.eye(3), np.eye(2, 4), np.identity(2))")),
    D("eye-offset", "MX708", ret("np.eye(3, 4, k=1)")),
    # a dtype known only at run time: _mx_dtype maps it then (NumPy's `float` is float64)
    D("dtype-at-run-time", ("MX703", "MX705", "MX706"), """
        def f(x):
            dt, wide = x.dtype, float
            return np.zeros((2,), dtype=dt), np.ones_like(x, dtype=wide), np.arange(3, dtype=dt), np.zeros(2, dtype=int)
        """, (2, 3)),
    # -- MX710/711 element-wise ---------------------------------------------------------------------
    D("unary", "MX710", ret("np.exp(x) + np.tanh(x) - np.abs(x) + np.square(x) + np.sign(x) + np.sin(x)"),
      (2, 3), grad=(0,)),
    D("unary-as-value", "MX710", """
        def f(x):
            g = np.exp
            return g(x) + list(map(np.tanh, [x]))[0]
        """, (2, 3), grad=(0,)),
    D("unary-positive", "MX710", ret("np.log(x) + np.sqrt(x)"), ("pos", (3, 2)), grad=(0,)),
    D("binary", "MX711", ret("np.add(x, y) * np.subtract(x, 0.5) / np.maximum(y, -0.2) + np.power(np.abs(x), 2)"),
      (2, 3), (2, 3), grad=(0, 1)),
    D("binary-broadcast", "MX711", ret("np.multiply(x, y) - np.minimum(x, y)"), (2, 1, 3), (4, 3)),
    # -- MX712 reductions (full reductions give 0-d arrays; argmax int64) -------------------------
    D("sum-full", "MX712", ret("np.sum(x)"), (2, 3), grad=(0,)),
    D("mean-axis-keepdims", "MX712", ret("np.mean(x, axis={axis}, keepdims=True)"), (2, 3, 4),
      options={"axis": 1}, grad=(0,)),
    D("max-min-axis", "MX712", ret("(np.max(x, axis={axis}), np.min(x, axis={axis}))"), (3, 4),
      options={"axis": -1}),
    D("argmax-argmin", "MX712", ret("(np.argmax(x, axis={axis}), np.argmin(x))"), (3, 4), options={"axis": 0}),
    D("std-var", "MX712", ret("(np.std(x, axis=0), np.var(x))"), (4, 3)),
    D("prod-cumsum", "MX712", ret("(np.prod(x, axis=1), np.cumsum(x, axis=0))"), (3, 3)),
    # -- MX713 linear algebra ------------------------------------------------------------------------
    D("dot-2d", "MX713", ret("np.dot(x, y)"), (2, 3), (3, 4), grad=(0, 1)),
    D("dot-3d-2d", "MX713", ret("np.dot(x, y)"), (2, 2, 3), (3, 4)),
    D("dot-1d", "MX713", ret("np.dot(x, y)"), (3,), (3,)),
    D("matmul-batched", "MX713", ret("np.matmul(x, y)"), (2, 2, 3), (2, 3, 4), grad=(0,)),
    D("tensordot-einsum", "MX713", ret("(np.tensordot(x, y, axes=1), np.einsum('ij,jk->ik', x, y))"), (2, 3), (3, 2)),
    D("outer-norm", "MX713", ret("(np.outer(x, y), np.linalg.norm(x))"), (3,), (2,)),
    # -- MX714 joining and splitting (NumPy's axis=0 default) ---------------------------------------
    D("concatenate-default", "MX714", ret("np.concatenate([x, y])"), (2, 3), (1, 3)),
    D("concatenate-axis", "MX714", ret("np.concatenate((x, y), axis={dim})"), (2, 3), (2, 1), options={"dim": 1}),
    D("stack", "MX714", ret("(np.stack([x, y]), np.stack([x, y], axis=-1))"), (2, 3), (2, 3)),
    D("split-sections", "MX714", ret("np.split(x, 3, axis=1)"), (2, 6)),
    D("split-indices", "MX714", ret("np.split(x, [1, 3])"), (5, 2)),
    D("vstack-hstack", "MX714", ret("(np.vstack([x, y]), np.hstack([x, y]))"), (2, 2), (2, 2)),
    # -- MX715 shape functions ---------------------------------------------------------------------
    D("reshape-transpose", "MX715", ret("(np.reshape(x, (3, -1)), np.transpose(x), np.transpose(x, (1, 0, 2)))"),
      (2, 3, 2)),
    D("expand-squeeze-swap", "MX715", ret("(np.expand_dims(x, 1), np.squeeze(y), np.swapaxes(x, 0, 2), "
                                          "np.moveaxis(x, 0, -1), np.moveaxis(x, [0, 2], [1, 0]))"),
      (2, 3, 2), (1, 3, 1)),
    D("ravel-flip-tile-repeat", "MX715",
      ret("(np.ravel(x), np.flip(x, axis=0), np.tile(x, (2, 1)), np.repeat(x, 2, axis=1), np.repeat(x, 2))"),
      (2, 3)),
    D("broadcast-to", "MX715", ret("np.broadcast_to(x, (4, 2, 3))"), (2, 3)),
    # -- MX716 selection and sorting ------------------------------------------------------------
    D("where-clip", "MX716", ret("(np.where(x > 0, x, y), np.clip(x, -0.5, 0.5))"), (3, 3), (3, 3)),
    D("sort-argsort", "MX716", ret("(np.sort(x), np.argsort(x, axis=0))"), (3, 4)),
    D("take", "MX716", ret("np.take(x, np.array([2, 0], dtype='int64'), axis=1)"), (2, 3)),
    D("tril", "MX716", ret("(np.tril(x), np.tril(x, -1))"), (3, 3)),
    # -- MX717 dtypes and constants --------------------------------------------------------------------
    D("dtypes-constants", ("MX717", "MX743"), meth("(a.astype(np.float64), a.astype(np.int32), a * np.pi)"), (2, 2)),
    D("newaxis", "MX717", ret("x[:, np.newaxis]"), (2, 3)),
    # -- MX718 npx.softmax with lengths -----------------------------------------------------------
    D("softmax", "MX718", ret("(npx.softmax(x), npx.log_softmax(x, axis=0))"), (2, 3), grad=(0,)),
    D("softmax-length", "MX718", ret("npx.softmax(x, length=y, use_length=True)"), (3, 4),
      ("int32", (3,), 1, 5)),
    # -- MX719 npx.reshape's codes (-2 copy, -3 drop a 1, -4 all the rest, -5 merge, -6 split) ----
    D("npx-reshape-plain", "MX719", ret("npx.reshape(x, (3, -1))"), (2, 3, 2)),
    D("npx-reshape-codes", "MX719", ret("(npx.reshape(x, (-2, -1)), npx.reshape(x, (-5, -2)), "
                                        "npx.reshape(x, (-6, 1, 2, -4)))"), (2, 3, 4)),
    # -- MX720-MX724 npx operators --------------------------------------------------------------
    D("batch-dot", "MX720", ret("npx.batch_dot(x, y)"), (2, 3, 4), (2, 4, 2), grad=(0, 1)),
    D("batch-dot-transpose-b", "MX720", ret("npx.batch_dot(x, y, transpose_b=True)"), (2, 3, 4), (2, 5, 4)),
    D("sequence-mask", "MX721", ret("npx.sequence_mask(x, y, use_sequence_length=True, value=-1.0)"),
      (4, 3, 2), LENGTHS),
    D("sequence-mask-axis1", "MX721", ret("npx.sequence_mask(x, y, use_sequence_length=True, axis=1)"),
      (3, 4, 2), LENGTHS, grad=(0,)),
    D("pick", "MX722", ret("npx.pick(x, y)"), (2, 3), ("ids", (2,), 0, 3), grad=(0,)),
    D("pick-axis0-keepdims", "MX722", ret("npx.pick(x, y, axis=0, keepdims=True)"), (3, 2), ("ids", (2,), 0, 3)),
    D("one-hot", "MX723", ret("npx.one_hot(x, 4)"), IDS3),
    D("one-hot-values", "MX723", ret("npx.one_hot(x, 3, on_value=2.0, off_value=-1.0)"), ("ids", (4,), 0, 3)),
    D("topk-indices", "MX724", ret("npx.topk(x, k=2)"), (3, 4)),
    D("topk-value-axis0", "MX724", ret("npx.topk(x, axis=0, k=2, ret_typ='value')"), (3, 4)),
    D("topk-both", "MX724", ret("npx.topk(x, k=2, ret_typ='both')"), (2, 5)),
    # -- MX725-MX727 npx element-wise, activations, array operators ---------------------------
    D("npx-relu-sigmoid", "MX725", ret("npx.relu(x) + npx.sigmoid(x)"), (2, 3), grad=(0,)),
    D("npx-activation", "MX726", ret("(npx.activation(x, act_type='tanh'), npx.activation(x, act_type='softrelu'), "
                                     "npx.leaky_relu(x), npx.leaky_relu(x, slope=0.1))"), (2, 3)),
    D("npx-batch-flatten", "MX727", ret("npx.batch_flatten(x)"), (2, 3, 2)),
    # -- MX732-MX736 the operators under their dialect names, meshgrid ------------------------------
    D("npx-convolution", "MX732", ret("npx.convolution(x, y, kernel=(2, 2), num_filter=3, no_bias=True, "
                                      "stride=(1, 2), pad=(1, 0))"), (2, 2, 5, 6), (3, 2, 2, 2), grad=(0, 1)),
    D("npx-convolution-bias", "MX732", """
        def f(x, y, z):
            return npx.convolution(data=x, weight=y, bias=z, kernel=(3,), num_filter=2)
        """, (2, 3, 7), (2, 3, 3), (2,), grad=(0, 1, 2)),
    D("npx-pooling", "MX733", ret("(npx.pooling(x, kernel=(2, 2), pool_type='avg', stride=(2, 2)), "
                                  "npx.pooling(data=x, kernel=(3, 3), pool_type='max'), "
                                  "npx.pooling(x, kernel=(1, 1), global_pool=True, pool_type='avg'))"),
      (2, 3, 6, 5), grad=(0,)),
    D("meshgrid", "MX734", ret("tuple(np.meshgrid(x, y)) + tuple(np.meshgrid(x, y, indexing='ij'))"), (3,), (4,)),
    # MX737: NumPy's scalar types called (their values, seen through np.array, which keeps the dtype)
    D("scalar-type-call", ("MX737:review", "MX702"), ret("(np.array(np.float32([1, 2.5])) * x, np.array(np.int64(3.0)), "
                                                  "np.array(np.float32('1.5')), np.array(np.int32(y)))"),
      (2,), ("ids", (), 0, 9)),
    D("smooth-l1", "MX736", ret("(npx.smooth_l1(x, scalar=2.0), npx.smooth_l1(x * 3))"), (3, 4), grad=(0,)),
    # -- MX729/MX730 synchronisation, devices (MX728 dropout: rule_cases.check_dropout_op) ---------
    D("waitall", "MX729", """
        def f(x):
            y = x * 2
            npx.waitall()
            return y
        """, (2, 3)),
    D("devices", "MX730", ret("(npx.cpu(), npx.cpu(0), np.zeros((2,), ctx=npx.cpu()))")),
    # -- MX740-MX745 methods of mx.np arrays --------------------------------------------------------
    D("method-reductions", "MX740", meth("(a.sum(), a.mean(axis=0), a.max(axis=1, keepdims=True), a.argmax(axis=0), "
                                         "a.std())"), (3, 4)),
    D("method-reshape", "MX741", meth("(a.reshape(3, -1), a.reshape((-1,)), a.flatten(), a.clip(-0.3, 0.3))"),
      (2, 3, 2)),
    D("method-squeeze", "MX741", meth("a.squeeze(axis=1)"), (3, 1, 2)),
    D("method-dot", "MX742", meth("a.dot(y)"), (2, 3), (3, 2)),
    D("method-astype-transpose", "MX743", meth("(a.astype('float64'), a.transpose(), a.T, a.transpose(1, 0, 2))"),
      (2, 3, 2)),
    D("compare-astype", "MX743", meth("(a > 0).astype('float32') * 2 + (a < y).astype('float32')"), (2, 3), (2, 3)),
    D("attribute-size", "MX744", meth("a * a.size"), (2, 3)),
    D("as-nd-as-np", "MX745", ret("x.as_nd_ndarray().as_np_ndarray() * 2"), (2, 3)),
]

# MX709 (review: torch draws other numbers): the same distributions, as in RANDOM_CASES.
DIALECT_RANDOM_CASES = [
    ("normal", "np.random.normal(1.5, 2, size=(200000,))", (1.5, 2.0), "float32"),
    ("normal-defaults-2d", "np.random.normal(size=(400, 500))", (0.0, 1.0), "float32"),
    ("uniform", "np.random.uniform(-1, 3, size=(200000,))", (1.0, 4 / 12 ** 0.5), "float32"),
    ("uniform-keywords", "np.random.uniform(low=2, high=2.5, size=(400, 500))", (2.25, 0.5 / 12 ** 0.5), "float32"),
    ("randint", "np.random.randint(-2, 5, size=(200000,))", (1.0, (48 / 12) ** 0.5), "int64"),
    # a size known only at run time (an int, a shape): _mx_np_size
    ("normal-size-at-run-time", "np.random.normal(1.5, 2, size=int(2e5))", (1.5, 2.0), "float32"),
    ("uniform-shape-at-run-time", "np.random.uniform(-1, 3, size=tuple([400, 500]))", (1.0, 4 / 12 ** 0.5),
     "float32"),
    # parameters known only at run time, numbers or arrays broadcast to size: _mx_np_random_normal/uniform
    ("normal-scale-at-run-time", "(lambda s: np.random.normal(scale=s, size=(400, 500)))(2.0)", (0.0, 2.0),
     "float32"),
    ("normal-array-loc-sized", "np.random.normal(np.array([0.0, 10.0]), 1.0, size=(100000, 2))", (5.0, 26 ** 0.5),
     "float32"),
    ("uniform-array-high-sized", "np.random.uniform(0.0, np.array([1.0, 3.0]), size=(100000, 2))",
     (1.0, (10 / 24 + 0.25) ** 0.5), "float32"),
    # MX735: counts of 10 draws over two categories (2 and 8 on average: variance 1.6 + 9 overall)
    ("multinomial", "np.random.multinomial(10, [0.2, 0.8], size=100000)", (5.0, 10.6 ** 0.5), "int64", "MX735:review"),
]

# Shapes (and axes) drawn around the fixed examples, where the snippet allows any.
DIALECT_DRAWS = {
    "np-unary": same(), "np-sum-full": same(), "np-mean-axis-keepdims": on_axis(), "np-max-min-axis": on_axis(),
    "np-argmax-argmin": on_axis(), "np-binary": same(2), "np-binary-broadcast": broadcasting(2),
    "np-dot-2d": matmuls(), "np-matmul-batched": matmuls(batch=1), "np-batch-dot": matmuls(batch=1),
    "np-concatenate-axis": along(2), "np-softmax": same(), "np-npx-relu-sigmoid": same(),
    "np-method-reductions": same(min_rank=2),
}
