"""Measure MXNet 1.9.1's numpy dialect (`mx.np`, `mx.npx`, `npx.set_np()`) against NumPy and torch.

    PYTHONPATH=. .venv/bin/python docs/semantics/measure_numpy_dialect.py            # prints the table
    PYTHONPATH=. .venv/bin/python docs/semantics/measure_numpy_dialect.py -o docs/semantics/numpy_dialect.md

Each row runs one idiom three or four ways on the same inputs (float32, asymmetric, non-zero):
MXNet with `npx.set_np()` active, real NumPy (where NumPy has the call), the naive torch rename a
translator writes first, and the torch form xlate's numpy-dialect rules (rules/7xx_numpy.toml) emit.
Results are described by dtype, shape and values; "translation" is `same` only when dtype, shape
and values (float32 tolerance) all agree with MXNet, and the script exits 1 otherwise. Random rows
compare shapes, dtypes and the moments of 200 000 draws instead of values (the streams differ).
Rows marked INFO record a fact of MXNet that has no torch counterpart to compare.
"""
from __future__ import annotations

import argparse
import sys
import warnings
from dataclasses import dataclass
from typing import Optional

warnings.simplefilter("ignore")
import numpy as onp  # noqa: E402

import torch  # noqa: E402

import xlate.check  # noqa: E402,F401  (restores the numpy aliases mxnet 1.9.1 needs)
import mxnet as mx  # noqa: E402
from mxnet import np as mnp, npx  # noqa: E402

from xlate.runtime import load as load_helpers  # noqa: E402


@dataclass(frozen=True)
class Row:
    id: str
    idiom: str  # MXNet (np = mxnet.numpy, npx)
    numpy: Optional[str]  # real NumPy (onp), None when NumPy has no such call
    naive: Optional[str]  # the first torch rename
    torch: Optional[str]  # what xlate emits (helpers from xlate.runtime are in scope)
    note: str = ""
    random: bool = False  # compare shape, dtype and moments, not values
    info: bool = False  # a fact, not a translation check


# Inputs every row may use, built in each framework from the same values.
X = [[0.5, -1.25, 2.0], [1.5, 0.75, -0.3]]  # (2, 3)
B = [[[0.2, -0.7, 1.1, 0.4], [-1.3, 0.6, 0.9, -0.2], [0.8, 1.4, -0.5, 0.3]],
     [[-0.6, 0.1, 0.7, -1.2], [0.5, -0.9, 1.3, 0.2], [1.0, 0.35, -0.15, -0.8]]]  # (2, 3, 4)
C = [[[0.3, -1.1], [0.7, 0.2], [-0.4, 0.9], [1.2, -0.6]],
     [[-0.8, 0.5], [0.1, 1.4], [0.6, -0.3], [-1.0, 0.25]]]  # (2, 4, 2)
LEN = [1, 3]  # valid lengths per row of B along axis 1
IDX = [2, 0]


def _inputs(kind: str) -> dict:
    if kind == "mx":
        make, i32 = (lambda v: mnp.array(v, dtype="float32")), (lambda v: mnp.array(v, dtype="int32"))
    elif kind == "numpy":
        make, i32 = (lambda v: onp.array(v, dtype=onp.float32)), (lambda v: onp.array(v, dtype=onp.int32))
    else:
        make, i32 = (lambda v: torch.tensor(v, dtype=torch.float32)), (lambda v: torch.tensor(v, dtype=torch.int32))
    return {"x": make(X), "b": make(B), "c": make(C), "lens": i32(LEN), "flen": make(LEN), "idx": make(IDX),
            "iidx": i32(IDX), "ints": i32([[3, -1, 4], [1, 5, -9]]), "v": make([0.6, -1.4, 2.2])}


ROWS = [
    # -- 1. default dtypes ---------------------------------------------------------------------------------
    Row("N1.1", "np.array([1, 2.5])", "onp.array([1, 2.5])", "torch.tensor([1, 2.5])",
        "torch.tensor([1, 2.5], dtype=torch.float32)", "float32 in MXNet and torch, float64 in NumPy"),
    Row("N1.2", "np.array([1, 2, 3])", "onp.array([1, 2, 3])", "torch.tensor([1, 2, 3])",
        "torch.tensor([1, 2, 3], dtype=torch.float32)",
        "Python ints make float32 in MXNet (int64 in NumPy and torch): `a[0] = 0.7` truncates in the naive port"),
    Row("N1.3", "np.array([True, False])", "onp.array([True, False])", "torch.tensor([True, False])",
        "torch.tensor([True, False], dtype=torch.float32)", "even Python bools make float32"),
    Row("N1.4", "np.array(onp.arange(4))", "onp.array(onp.arange(4))", "torch.tensor(onp.arange(4))",
        "_mx_np_array(onp.arange(4))", "a NumPy array keeps its dtype (int64 here), unlike `nd.array`, which makes float32"),
    Row("N1.5", "np.array(onp.linspace(0, 1, 3))", "onp.array(onp.linspace(0, 1, 3))",
        "torch.tensor(onp.linspace(0, 1, 3))", "_mx_np_array(onp.linspace(0, 1, 3))", "float64 NumPy data stays float64"),
    Row("N1.6", "np.array(ints)", "onp.array(ints)", "torch.tensor(ints)", "_mx_np_array(ints)",
        "an mx.np array keeps its dtype (int32) and is copied"),
    Row("N1.7", "np.array(3)", "onp.array(3)", "torch.tensor(3)", "torch.tensor(3, dtype=torch.float32)",
        "a scalar gives a 0-d float32 array"),
    Row("N1.8", "np.arange(5)", "onp.arange(5)", "torch.arange(5)", "torch.arange(5, dtype=torch.float32)",
        "float32 (NumPy and torch: int64)"),
    Row("N1.9", "np.arange(5, dtype='int32')", "onp.arange(5, dtype='int32')", "torch.arange(5, dtype=torch.int32)",
        "torch.arange(5, dtype=torch.int32)"),
    Row("N1.10", "np.full((2, 2), 7)", "onp.full((2, 2), 7)", "torch.full((2, 2), 7)",
        "torch.full((2, 2), 7, dtype=torch.float32)", "float32 for an int fill value (NumPy and torch: int64)"),
    Row("N1.11", "np.zeros((2,), dtype=int)", "onp.zeros((2,), dtype=int)", "torch.zeros((2,), dtype=int)",
        "torch.zeros((2,), dtype=torch.int64)", "Python `int` as a dtype is int64"),
    Row("N1.12", "np.zeros((2, 3))", "onp.zeros((2, 3))", "torch.zeros((2, 3))", "torch.zeros((2, 3))",
        "zeros/ones/empty: float32 (NumPy float64)"),
    Row("N1.13", "np.linspace(0, 1, 5)", "onp.linspace(0, 1, 5)", "torch.linspace(0, 1, 5)",
        "torch.linspace(0, 1, 5)", "float32"),
    Row("N1.14", "np.linspace(0, 1, 4, endpoint=False)", "onp.linspace(0, 1, 4, endpoint=False)",
        "torch.linspace(0, 1, 4)", "torch.linspace(0, 1, 4 + 1)[:-1]", "endpoint=False: torch has no such flag"),
    Row("N1.15", "np.eye(3, k=1)", "onp.eye(3, k=1)", "torch.eye(3)", "_mx_eye(3, 0, 1, dtype=torch.float32)",
        "float32; torch.eye has no k"),
    Row("N1.16", "np.zeros_like(ints)", "onp.zeros_like(ints)", "torch.zeros_like(ints)", "torch.zeros_like(ints)",
        "*_like keep the input's dtype, as in torch"),
    Row("N1.17", "np.mean(ints)", "onp.mean(ints)", "torch.mean(ints)", "torch.mean(ints, dtype=torch.float32)",
        "the mean of an int array is float32 (NumPy float64; torch raises)"),
    Row("N1.18", "np.sum(x > 0)", "onp.sum(x > 0)", "torch.sum(x > 0)", "torch.sum(x > 0)",
        "the sum of a boolean array is int64 in all three"),
    Row("N1.19", "np.sum(ints)", "onp.sum(ints)", "torch.sum(ints)", "torch.sum(ints, dtype=torch.int32)",
        "the sum of int32 stays int32 (NumPy and torch: int64)"),
    Row("N1.20", "x > 0", "x > 0", "x > 0", "x > 0", "comparisons give bool (`nd` gives float32 0/1)"),
    Row("N1.21", "ints / ints", "ints / ints", "ints / ints", "ints / ints", "true division of ints: float32 (NumPy float64)"),
    Row("N1.22", "ints * 0.5", "ints * 0.5", "ints * 0.5", "(ints * 0.5).to(torch.int32)",
        "MXNet defect: int array times a float scalar stays int32 (truncates to 0 here); torch and NumPy give floats. "
        "Not rewritten (an operator): a value to review by hand", info=True),
    Row("N1.23", "np.sqrt(ints.astype('float32') ** 2)", None, None, "torch.sqrt(ints.to(torch.float32) ** 2)", ""),
    Row("N1.24", "np.exp(ints)", "onp.exp(ints)", "torch.exp(ints)", "torch.exp(ints).to(torch.int32)",
        "MXNet defect: exp/sqrt/log of an int array stay int (truncated); torch and NumPy promote to float. "
        "xlate writes `torch.exp(x)` (the float values) and says so in MX712's notes"),
    Row("N1.25", "np.sqrt(4)", "onp.sqrt(4)", "torch.sqrt(4)", "torch.sqrt(torch.as_tensor(4))",
        "on a Python number mx.np falls back to NumPy (a float64 NumPy scalar); torch needs a tensor: "
        "`torch.as_tensor` gives float32 2.0 (the same value, float32 precision)", info=True),
    # -- 2. reductions: 0-d results --------------------------------------------------------------------------
    Row("N2.1", "np.sum(x)", "onp.sum(x)", "torch.sum(x)", "torch.sum(x)", "0-d (`nd.sum` gives shape (1,))"),
    Row("N2.2", "x.mean()", "x.mean()", "x.mean()", "x.mean()", "the method too"),
    Row("N2.3", "np.max(x, axis=0)", "onp.max(x, axis=0)", "torch.max(x, 0)", "torch.amax(x, dim=0)",
        "torch.max with a dim returns (values, indices)"),
    Row("N2.4", "np.sum(b, axis=(0, 2), keepdims=True)", "onp.sum(b, axis=(0, 2), keepdims=True)",
        "torch.sum(b, axis=(0, 2), keepdims=True)", "torch.sum(b, dim=(0, 2), keepdim=True)", "keepdims= is keepdim="),
    Row("N2.5", "np.argmax(x, axis=1)", "onp.argmax(x, axis=1)", "torch.argmax(x, 1)", "torch.argmax(x, dim=1)",
        "int64 (`nd.argmax` gives float32)"),
    Row("N2.6", "np.argmax(x)", "onp.argmax(x)", "torch.argmax(x)", "torch.argmax(x)", "no axis: the flat index, 0-d"),
    Row("N2.7", "x[1, 2]", "x[1, 2]", "x[1, 2]", "x[1, 2]", "indexing a scalar gives a 0-d array"),
    Row("N2.8", "np.std(x)", "onp.std(x)", "torch.std(x)", "torch.std(x, correction=0)",
        "ddof=0 by default; torch.std divides by n - 1"),
    Row("N2.9", "np.var(b, axis=1, ddof=1)", "onp.var(b, axis=1, ddof=1)", "torch.var(b, 1)",
        "torch.var(b, dim=1, correction=1)", ""),
    Row("N2.10", "np.cumsum(x)", "onp.cumsum(x)", "torch.cumsum(x, 0)", "torch.cumsum(x.flatten(), 0)",
        "no axis: over the flattened array"),
    Row("N2.11", "np.linalg.norm(x)", "onp.linalg.norm(x)", "torch.linalg.norm(x)", "torch.linalg.norm(x)", ""),
    Row("N2.12", "np.prod(x, axis=1)", "onp.prod(x, axis=1)", "torch.prod(x, 1)", "torch.prod(x, dim=1)", ""),
    # -- 3. linear algebra ------------------------------------------------------------------------------------
    Row("N3.1", "np.dot(x, x.T)", "onp.dot(x, x.T)", "torch.dot(x, x.T)", "_mx_np_dot(x, x.T)",
        "2-D: a matrix product (torch.dot takes 1-D only)"),
    Row("N3.2", "np.dot(b, c[0])", "onp.dot(b, c[0])", "torch.matmul(b, c[0])", "_mx_np_dot(b, c[0])",
        "N-D x 2-D: last axis of a with the first of b (matmul agrees here)"),
    Row("N3.3", "np.dot(b, c)", "onp.dot(b, c)", "torch.matmul(b, c)", "_mx_np_dot(b, c)",
        "N-D x N-D: a's last axis with b's second-to-last, every pair (matmul batches instead)"),
    Row("N3.4", "np.dot(v, v)", "onp.dot(v, v)", "torch.dot(v, v)", "_mx_np_dot(v, v)", "1-D x 1-D: 0-d"),
    Row("N3.5", "np.dot(x, np.array(2.0))", "onp.dot(x, onp.array(2.0))", "torch.dot(x, torch.tensor(2.0))",
        "_mx_np_dot(x, torch.tensor(2.0))", "a 0-d array multiplies (a Python number raises in MXNet)"),
    Row("N3.6", "np.matmul(b, c)", "onp.matmul(b, c)", "torch.matmul(b, c)", "torch.matmul(b, c)", "same as torch"),
    Row("N3.7", "np.tensordot(b, c, axes=([2, 0], [1, 0]))", "onp.tensordot(b, c, axes=([2, 0], [1, 0]))",
        "torch.tensordot(b, c, axes=([2, 0], [1, 0]))", "torch.tensordot(b, c, dims=([2, 0], [1, 0]))", "axes= is dims="),
    Row("N3.8", "np.tensordot(x, x)", "onp.tensordot(x, x)", "torch.tensordot(x, x)", "torch.tensordot(x, x)",
        "default axes=2 in both"),
    Row("N3.9", "np.einsum('bij,bjk->bik', b, c)", "onp.einsum('bij,bjk->bik', b, c)",
        "torch.einsum('bij,bjk->bik', b, c)", "torch.einsum('bij,bjk->bik', b, c)", ""),
    Row("N3.10", "npx.batch_dot(b, c)", None, "torch.bmm(b, c)", "torch.matmul(b, c)", "as nd.batch_dot"),
    Row("N3.11", "npx.batch_dot(b, b, transpose_b=True)", None, "torch.bmm(b, b)",
        "torch.matmul(b, b.transpose(-1, -2))", "the flag must not be dropped"),
    # -- 4. joining and splitting ------------------------------------------------------------------------------
    Row("N4.1", "np.concatenate([x, x])", "onp.concatenate([x, x])", "torch.cat([x, x])", "torch.cat([x, x])",
        "axis 0 by default (nd.concat: 1)"),
    Row("N4.2", "np.concatenate([x, x], axis=None)", "onp.concatenate([x, x], axis=None)",
        "torch.cat([x, x], dim=None)", "torch.cat([t.flatten() for t in [x, x]])", "axis=None flattens first"),
    Row("N4.3", "np.stack([x, x], axis=-1)", "onp.stack([x, x], axis=-1)", "torch.stack([x, x], -1)",
        "torch.stack([x, x], dim=-1)", "axis 0 by default, as torch"),
    Row("N4.4", "np.split(b, 3, axis=1)", "onp.split(b, 3, axis=1)", "torch.split(b, 3, 1)",
        "torch.tensor_split(b, 3, dim=1)", "an int is a number of equal pieces (torch.split: the piece size)"),
    Row("N4.5", "np.split(b, [1, 3], axis=2)", "onp.split(b, [1, 3], axis=2)", "torch.split(b, [1, 3], 2)",
        "torch.tensor_split(b, [1, 3], dim=2)", "a list is split points (torch.split: sizes)"),
    Row("N4.6", "np.split(x, 1)", "onp.split(x, 1)", "torch.split(x, 1)", "list(torch.tensor_split(x, 1))",
        "one piece is still a list (nd.split returns the array itself)"),
    Row("N4.7", "np.split(x, 2, axis=1)", "onp.split(x, 2, axis=1)", "torch.tensor_split(x, 2, dim=1)",
        "_mx_np_split(x, 2, axis=1)", "an axis that does not divide raises in MXNet and NumPy (tensor_split does not)",
        info=True),
    # -- 5. random ---------------------------------------------------------------------------------------------
    Row("N5.1", "np.random.normal(1.5, 0.5, size=(200000,))", "onp.random.normal(1.5, 0.5, size=(200000,))",
        "torch.normal(1.5, 0.5, size=(200000,))", "torch.normal(1.5, 0.5, size=(200000,))",
        "size= (nd: shape=); float32", random=True),
    Row("N5.2", "np.random.normal()", "onp.random.normal()", "torch.normal(0.0, 1.0)", "torch.normal(0.0, 1.0, size=())",
        "no size: one 0-d draw (nd: shape (1,)); torch.normal needs size=", random=True),
    Row("N5.3", "np.random.uniform(-1, 3, (200000,))", "onp.random.uniform(-1, 3, (200000,))",
        "torch.rand((200000,))", "torch.rand((200000,)) * (3 - -1) + -1", "", random=True),
    Row("N5.4", "np.random.randint(0, 10, size=(200000,))", "onp.random.randint(0, 10, size=(200000,))",
        "torch.randint(0, 10, (200000,))", "torch.randint(0, 10, (200000,))", "int64 (nd: int32)", random=True),
    Row("N5.5", "np.random.randint(5, size=(200000,))", "onp.random.randint(5, size=(200000,))",
        "torch.randint(5, (200000,))", "torch.randint(0, 5, (200000,))", "high=None: [0, low)", random=True),
    Row("N5.6", "np.random.rand(400, 500)", "onp.random.rand(400, 500)", "torch.rand(400, 500)",
        "torch.rand(400, 500)", "float32", random=True),
    Row("N5.7", "np.random.randn(400, 500)", "onp.random.randn(400, 500)", "torch.randn(400, 500)",
        "torch.randn(400, 500)", "", random=True),
    Row("N5.8", "np.random.uniform(size=(2, 3), ctx=mx.cpu())", None, None,
        "torch.rand((2, 3), device=torch.device('cpu'))", "ctx= is device=", random=True),
    Row("N5.9", "np.random.normal(np.zeros(200000), 2.0)", "onp.random.normal(onp.zeros(200000), 2.0)",
        "torch.normal(torch.zeros(200000), 2.0)", "torch.normal(torch.zeros(200000), 2.0)",
        "an array loc/scale draws one value per element (size=None)", random=True),
    # -- 6. npx.reshape codes (not nd.reshape's) -------------------------------------------------------------------
    Row("N6.1", "npx.reshape(b, (-2, -1))", None, "_mx_reshape(b, (-2, -1))", "_mx_npx_reshape(b, (-2, -1))",
        "-2 copies ONE dimension (nd: all remaining)"),
    Row("N6.2", "npx.reshape(b.reshape(2, 1, 12), (2, -3, 12))", None, "_mx_reshape(b.reshape(2, 1, 12), (2, -3, 12))",
        "_mx_npx_reshape(b.reshape(2, 1, 12), (2, -3, 12))", "-3 drops a dimension of size 1 (nd: merges two)"),
    Row("N6.3", "npx.reshape(b, (-4,))", None, "_mx_reshape(b, (-4,))", "_mx_npx_reshape(b, (-4,))",
        "-4 copies all remaining dimensions (nd: splits one)"),
    Row("N6.4", "npx.reshape(b, (-5, -1))", None, "_mx_reshape(b, (-5, -1))", "_mx_npx_reshape(b, (-5, -1))",
        "-5 merges two dimensions (nd's -3)"),
    Row("N6.5", "npx.reshape(b, (-6, 1, -1, -4))", None, "_mx_reshape(b, (-6, 1, -1, -4))",
        "_mx_npx_reshape(b, (-6, 1, -1, -4))", "-6 splits one dimension into the next two values (nd's -4)"),
    Row("N6.6", "npx.reshape(b, (-1, 4), reverse=True)", None, "_mx_reshape(b, (-1, 4), reverse=True)",
        "_mx_npx_reshape(b, (-1, 4), reverse=True)", "reverse reads both shapes from the right"),
    Row("N6.7", "npx.reshape(b, (0, -1))", None, "_mx_reshape(b, (0, -1))", "_mx_npx_reshape(b, (0, -1))",
        "0 is not a code: MXNet raises (nd copies the dimension)", info=True),
    Row("N6.8", "x.reshape(3, 2)", "x.reshape(3, 2)", "x.reshape(3, 2)", "x.reshape(3, 2)",
        "the method and np.reshape follow NumPy: no codes"),
    Row("N6.9", "x.flatten()", "x.flatten()", "x.flatten(1)", "x.flatten()", "1-D, as NumPy (`nd` flatten keeps axis 0)"),
    # -- 7. npx operators ----------------------------------------------------------------------------------------
    Row("N7.1", "npx.softmax(b)", None, "torch.softmax(b)", "torch.softmax(b, dim=-1)", "last axis by default"),
    Row("N7.2", "npx.softmax(b, length=lens, use_length=True)", None, "torch.softmax(b, dim=-1)",
        "_mx_softmax(b, length=lens, use_length=True)", "positions at or past each length are 0 (along axis -1)"),
    Row("N7.3", "npx.softmax(b[:, :, :2], length=np.array([[0, 2, 1], [2, 1, 0]], dtype='int32'), use_length=True)",
        None, None, "_mx_softmax(b[:, :, :2], length=torch.tensor([[0, 2, 1], [2, 1, 0]], dtype=torch.int32), "
        "use_length=True)", "length 0: a row of zeros (not NaN); `length` has the input's shape without the axis"),
    Row("N7.4", "npx.softmax(b, axis=1, temperature=2.0)", None, "torch.softmax(b, 1)",
        "torch.softmax(b / 2.0, dim=1)", ""),
    Row("N7.5", "npx.softmax(b, length=flen, use_length=True)", None, None, None,
        "float lengths: MXNet raises ('only support integer types')", info=True),
    Row("N7.6", "npx.log_softmax(b)", None, "torch.log_softmax(b)", "torch.log_softmax(b, dim=-1)",
        "1.9.1's npx.log_softmax has no `length` argument"),
    Row("N7.7", "npx.sequence_mask(b.transpose(1, 0, 2), lens, use_sequence_length=True)", None, None,
        "_mx_sequence_mask(b.permute(1, 0, 2), lens, use_sequence_length=True)", "time-major (axis=0) by default"),
    Row("N7.8", "npx.sequence_mask(b, lens, use_sequence_length=True, value=-1e6, axis=1)", None, None,
        "_mx_sequence_mask(b, lens, use_sequence_length=True, value=-1e6, axis=1)", "batch-major with axis=1"),
    Row("N7.9", "npx.sequence_mask(b, use_sequence_length=False)", None, None, "b",
        "without lengths: the input itself (with lengths but use_sequence_length=False MXNet raises)"),
    Row("N7.10", "npx.pick(x, idx)", None, "torch.gather(x, -1, idx)", "_mx_pick(x, idx)",
        "float or int indices, last axis, clipped"),
    Row("N7.11", "npx.pick(x, np.array([5, -1]), mode='wrap')", None, None,
        "_mx_pick(x, torch.tensor([5, -1], dtype=torch.float32), mode='wrap')", ""),
    Row("N7.12", "npx.pick(v, np.array(1.0))", None, None, "_mx_pick(v, torch.tensor(1.0))",
        "a 1-D input gives a 0-d result (nd.pick: (1,))"),
    Row("N7.13", "npx.one_hot(np.array([0, 2, 5]), 3)", None, "torch.nn.functional.one_hot(torch.tensor([0, 2, 5]), 3)",
        "_mx_one_hot(torch.tensor([0, 2, 5], dtype=torch.float32), 3)",
        "float32; an index out of range gives a zero row (torch raises)"),
    Row("N7.14", "npx.topk(x)", None, "torch.topk(x, 1)", "torch.topk(x, 1, dim=-1)[1].to(torch.float32)",
        "default ret_typ='indices', k=1, as float32"),
    Row("N7.15", "npx.topk(x, k=2, ret_typ='value')", None, "torch.topk(x, 2)", "torch.topk(x, 2, dim=-1)[0]", ""),
    Row("N7.16", "npx.topk(x, k=2, ret_typ='both', dtype='int32')", None, "torch.topk(x, 2)",
        "list((lambda r: (r[0], r[1].to(torch.int32)))(torch.topk(x, 2, dim=-1)))",
        "'both' returns a list [values, indices]"),
    Row("N7.17", "npx.topk(x, k=2, ret_typ='mask')", None, None,
        "torch.zeros_like(x).scatter(-1, torch.topk(x, 2, dim=-1)[1], 1.0)", "a 0/1 mask of the input's shape"),
    Row("N7.18", "npx.relu(x)", None, "torch.relu(x)", "torch.relu(x)", ""),
    Row("N7.19", "npx.sigmoid(x)", None, "torch.sigmoid(x)", "torch.sigmoid(x)", ""),
    Row("N7.20", "npx.activation(x, act_type='softrelu')", None, None, "_mx_activation(x, 'softrelu')", "as nd.Activation"),
    Row("N7.21", "npx.leaky_relu(x)", None, "torch.nn.functional.leaky_relu(x)",
        "torch.nn.functional.leaky_relu(x, 0.25)", "slope 0.25 by default (torch: 0.01)"),
    Row("N7.22", "npx.arange_like(b, axis=1)", None, None, "_mx_arange_like(b, axis=1)", "float32, one axis's length"),
    Row("N7.23", "npx.erf(x)", None, "torch.erf(x)", "torch.erf(x)", ""),
    Row("N7.24", "npx.gather_nd(x, np.array([[1, 0], [2, 0]]))", None, None,
        "x[tuple(torch.tensor([[1, 0], [2, 0]], dtype=torch.float32).long())]", "as nd.gather_nd"),
    Row("N7.25", "npx.shape_array(b)", None, None, "torch.tensor(b.shape, dtype=torch.int64)", "int64 (nd: int64)"),
    Row("N7.26", "npx.batch_flatten(b)", None, "b.flatten()", "b.flatten(1)", "keeps axis 0"),
    # -- 8. array methods and conversions -------------------------------------------------------------------------
    Row("N8.1", "x.asnumpy()", None, "x.numpy()", "x.detach().cpu().numpy()", "a NumPy copy"),
    Row("N8.2", "x[0, 1].item()", "x[0, 1].item()", "x[0, 1].item()", "x[0, 1].item()", "a Python float"),
    Row("N8.3", "type(x.as_nd_ndarray()).__name__", None, None, None,
        "as_nd_ndarray() gives a legacy NDArray sharing memory; as_np_ndarray() the reverse: torch has one tensor type",
        info=True),
    Row("N8.4", "x.argmax(1)", "x.argmax(1)", "x.argmax(1)", "x.argmax(1)", "int64 (the nd method: float32)"),
    Row("N8.5", "x.sum()", "x.sum()", "x.sum()", "x.sum()", "0-d (nd: (1,))"),
    Row("N8.6", "x.astype('int32')", "x.astype('int32')", "x.to(torch.int32)", "x.to(torch.int32, copy=True)",
        "a copy (copy=True), as nd"),
    Row("N8.7", "x.std()", "x.std()", "x.std()", "x.std(correction=0)", "ddof=0"),
    Row("N8.8", "x.repeat(2, axis=1)", "x.repeat(2, axis=1)", "x.repeat(2, 1)", "x.repeat_interleave(2, dim=1)",
        "NumPy's repeat (torch's repeat tiles)"),
    Row("N8.9", "x.dot(x.T)", "x.dot(x.T)", "x.dot(x.T)", "_mx_np_dot(x, x.T)", "NumPy's dot"),
    Row("N8.10", "x.take(idx)", "x.take(idx.astype('int64'))", "x.take(idx)", "_mx_take(x.flatten(), idx, 0, 'raise')",
        "no axis: indices into the flattened array"),
    Row("N8.11", "x.nonzero()[1]", "x.nonzero()[1]", "x.nonzero()[1]", "x.nonzero(as_tuple=True)[1]",
        "a tuple of index arrays (torch's nonzero: an (n, ndim) array)"),
    Row("N8.12", "np.transpose(b)", "onp.transpose(b)", "torch.transpose(b)", "b.permute(2, 1, 0)",
        "no axes reverses them all"),
    Row("N8.13", "np.where(x > 0)[1]", "onp.where(x > 0)[1]", "torch.where(x > 0)[1]", "torch.where(x > 0)[1]",
        "one argument: index arrays, as torch"),
    Row("N8.14", "np.where(x > 0, x, 0)", "onp.where(x > 0, x, 0)", "torch.where(x > 0, x, 0)",
        "torch.where(x > 0, x, 0.0)", "scalars for x/y"),
    Row("N8.15", "np.maximum(x, 0)", "onp.maximum(x, 0)", "torch.maximum(x, 0)", "torch.clamp(x, min=0)",
        "a scalar operand (torch.maximum needs two tensors)"),
    Row("N8.16", "np.clip(x, None, 1.0)", "onp.clip(x, None, 1.0)", "torch.clip(x, None, 1.0)",
        "torch.clip(x, None, 1.0)", ""),
    Row("N8.17", "np.take(x, np.array([0, 2, 5]), axis=1, mode='clip')", "onp.take(x, [0, 2, 5], axis=1, mode='clip')",
        "torch.index_select(x, 1, torch.tensor([0, 2, 5]))", "_mx_take(x, torch.tensor([0, 2, 5], dtype=torch.float32), 1, 'clip')",
        ""),
    Row("N8.18", "np.pad(x, ((1, 0), (0, 2)))", "onp.pad(x, ((1, 0), (0, 2)))", "torch.nn.functional.pad(x, (1, 0, 0, 2))",
        "torch.nn.functional.pad(x, (0, 2, 1, 0))", "pairs from the first axis (F.pad: from the last)"),
    Row("N8.19", "np.sort(x)", "onp.sort(x)", "torch.sort(x)", "torch.sort(x, dim=-1)[0]", "torch.sort returns (values, indices)"),
    Row("N8.20", "np.argsort(x, axis=0)", "onp.argsort(x, axis=0)", "torch.argsort(x, 0)", "torch.argsort(x, dim=0)", "int64"),
    Row("N8.21", "np.expand_dims(x, 1)", "onp.expand_dims(x, 1)", "torch.unsqueeze(x, 1)", "torch.unsqueeze(x, 1)", ""),
    Row("N8.22", "np.squeeze(b[:1], axis=0)", "onp.squeeze(b[:1], axis=0)", "torch.squeeze(b[:1], 0)",
        "torch.squeeze(b[:1], 0)", ""),
    Row("N8.23", "np.swapaxes(b, 0, 2)", "onp.swapaxes(b, 0, 2)", "torch.swapaxes(b, 0, 2)", "torch.swapaxes(b, 0, 2)", ""),
    Row("N8.24", "np.repeat(x, 2)", "onp.repeat(x, 2)", "torch.repeat_interleave(x, 2)", "torch.repeat_interleave(x, 2)",
        "no axis: flattened"),
    Row("N8.25", "np.tile(x, (2, 1))", "onp.tile(x, (2, 1))", "torch.tile(x, (2, 1))", "torch.tile(x, (2, 1))", ""),
    Row("N8.26", "np.broadcast_to(v, (2, 3))", "onp.broadcast_to(v, (2, 3))", "torch.broadcast_to(v, (2, 3))",
        "torch.broadcast_to(v, (2, 3))", ""),
    Row("N8.27", "np.unique(np.array([3.0, 1.0, 3.0, 2.0]))", "onp.unique(onp.array([3.0, 1.0, 3.0, 2.0], dtype=onp.float32))",
        "torch.unique(torch.tensor([3.0, 1.0, 3.0, 2.0]))", "torch.unique(torch.tensor([3.0, 1.0, 3.0, 2.0]))", "sorted"),
    Row("N8.28", "np.abs(ints)", "onp.abs(ints)", "torch.abs(ints)", "torch.abs(ints)", ""),
    Row("N8.29", "np.power(x, 2)", "onp.power(x, 2)", "torch.pow(x, 2)", "torch.pow(x, 2)", ""),
    Row("N8.30", "np.tril(x)", "onp.tril(x)", "torch.tril(x)", "torch.tril(x)", ""),
    # a method or an index on a value the converter cannot type (a function's parameter): decided at run time
    Row("N8.31", "x[np.array([1, 0, -1.5])]", "x[onp.array([1, 0, -1])]",
        "x[torch.tensor([1, 0, -1.5], dtype=torch.float32)]",
        "x[_mx_index(torch.tensor([1, 0, -1.5], dtype=torch.float32))]",
        "an index array of floats (np.array of Python ints is float32, N1.2) is read as integers, truncated"),
    Row("N8.32", "b.transpose(0, 2, 1)", "b.transpose(0, 2, 1)", "b.transpose(0, 2, 1)", "_mx_array_transpose(b, 0, 2, 1)",
        "a full permutation (torch's transpose swaps two axes); the helper calls NumPy's own on a NumPy array"),
    Row("N8.33", "x.astype(ints.dtype)", "x.astype(ints.dtype)", "x.astype(ints.dtype)", "_mx_astype(x, ints.dtype)",
        "the dtype of another array; the helper calls NumPy's own astype on a NumPy array"),
    Row("N8.34", "b.dot(c)", "b.dot(c)", "b.dot(c)", "_mx_np_dot_method(b, c)",
        "NumPy's dot (N8.9) on a value of unknown kind; the helper calls NumPy's own dot on a NumPy array"),
]


# -- running -------------------------------------------------------------------------------------------

def _describe(value) -> str:
    if isinstance(value, mx.nd.NDArray):
        value = value.asnumpy()
    elif isinstance(value, torch.Tensor):
        value = value.detach().numpy()
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_describe(v) for v in value)
        return f"{type(value).__name__} [{inner}]"
    if isinstance(value, (onp.ndarray, onp.generic)):
        arr = onp.asarray(value)
        text = f"{arr.dtype} {tuple(arr.shape)}"
        if arr.size <= 4:
            shown = onp.round(arr, 4) if onp.issubdtype(arr.dtype, onp.floating) else arr
            text += " " + str(shown.tolist())
        return text
    return f"{type(value).__name__} {value!r}"


def _array(value):
    if isinstance(value, mx.nd.NDArray):
        return value.asnumpy()
    if isinstance(value, torch.Tensor):
        return value.detach().numpy()
    return onp.asarray(value)


def _same(expected, actual, *, random: bool) -> Optional[str]:
    """None when actual matches MXNet's expected result, else what differs."""
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)) or len(actual) != len(expected):
            return f"{type(actual).__name__} where MXNet gives a {type(expected).__name__} of {len(expected)}"
        for e, a in zip(expected, actual):
            problem = _same(e, a, random=random)
            if problem:
                return problem
        return None
    e, a = _array(expected), _array(actual)
    if e.dtype != a.dtype:
        return f"dtype {a.dtype} (MXNet {e.dtype})"
    if e.shape != a.shape:
        return f"shape {a.shape} (MXNet {e.shape})"
    if random:
        if e.size >= 1000:
            for name, f in (("mean", onp.mean), ("std", onp.std)):
                ve, va = float(f(e.astype(onp.float64))), float(f(a.astype(onp.float64)))
                if abs(ve - va) > 0.02 * max(1.0, abs(ve)):
                    return f"{name} {va:.4g} (MXNet {ve:.4g})"
        return None
    if e.dtype == bool or onp.issubdtype(e.dtype, onp.integer):
        return None if onp.array_equal(e, a) else f"values differ by {onp.abs(e.astype(float) - a).max():.3g}"
    if not onp.allclose(e, a, rtol=1.3e-6, atol=1e-5, equal_nan=True):
        return f"max error {onp.nanmax(onp.abs(e - a)):.3g}"
    return None


def _run(code: Optional[str], namespace: dict):
    if code is None:
        return None, None
    try:
        return eval(code, dict(namespace)), None
    except Exception as e:  # a row records what raises
        return None, f"raises {type(e).__name__}: {str(e).strip().splitlines()[-1][:80]}"


def measure(row: Row) -> dict:
    helpers = load_helpers()
    spaces = {
        "mx": {"np": mnp, "npx": npx, "mx": mx, "onp": onp, **_inputs("mx")},
        "numpy": {"onp": onp, **_inputs("numpy")},
        "torch": {"torch": torch, "onp": onp, **vars(helpers), **_inputs("torch")},
    }
    mx.random.seed(0)
    onp.random.seed(0)
    torch.manual_seed(0)
    mx_value, mx_error = _run(row.idiom, spaces["mx"])
    np_value, np_error = _run(row.numpy, spaces["numpy"])
    naive, naive_error = _run(row.naive, spaces["torch"])
    ours, ours_error = _run(row.torch, spaces["torch"])
    out = {"row": row, "mx": mx_error or (_describe(mx_value) if row.idiom else "")}
    out["numpy"] = "-" if row.numpy is None else (np_error or _describe(np_value))
    if row.info or mx_error:
        out["naive"] = "-" if row.naive is None else (naive_error or _describe(naive))
        out["ours"] = "INFO" if row.torch is None else (ours_error or _describe(ours))
        out["ok"] = True
        return out
    if row.naive is None:
        out["naive"] = "-"
    else:
        problem = naive_error or _same(mx_value, naive, random=row.random)
        out["naive"] = "same" if problem is None else problem
    problem = ours_error or _same(mx_value, ours, random=row.random)
    out["ours"] = "same" if problem is None else "DIFFERS: " + problem
    out["ok"] = problem is None
    return out


SECTIONS = {"N1": "1. Default dtypes", "N2": "2. Reductions: 0-d results", "N3": "3. dot, matmul, tensordot",
            "N4": "4. Joining and splitting", "N5": "5. Random draws (moments of 200 000 draws; the streams differ)",
            "N6": "6. `npx.reshape` codes (not `nd.reshape`'s)", "N7": "7. `npx` operators",
            "N8": "8. Array methods, conversions and NumPy-named functions"}

HEADER = """# MXNet 1.9.1's numpy dialect (`mx.np`, `mx.npx`) vs NumPy and PyTorch: measured

Produced by `docs/semantics/measure_numpy_dialect.py` (mxnet {mx}, numpy {np}, torch {torch}, CPU,
float32 inputs `x` (2, 3), `b` (2, 3, 4), `c` (2, 4, 2), `v` (3,), int32 `ints` (2, 3), `lens` = [1, 3]
(int32), `idx` = [2, 0] (float32); `npx.set_np()` active). Columns: what MXNet gives; what NumPy gives
for the same call; how the naive torch rename compares with MXNet; how the torch form xlate emits
(`rules/7xx_numpy.toml`; `_mx_*` are its helpers) compares with MXNet. `same` means dtype, shape
and values agree. Rules in `rules/7xx_numpy.toml` cite these rows by id.

Run again with `-o docs/semantics/numpy_dialect.md` after changing a rule; the script exits 1 when
a translation differs from MXNet.
"""

GLUON = """
## 9. Gluon in numpy mode (INFO, measured by the script)

{gluon}
"""


def gluon_facts() -> list[str]:
    """What a Gluon block takes and returns with npx.set_np() active."""
    net = mx.gluon.nn.Sequential()
    net.add(mx.gluon.nn.Dense(4, activation="relu"), mx.gluon.nn.Dense(2))
    net.initialize()
    x = mnp.array(X)
    out = net(x)
    facts = [f"- `net(X)` with `X` an mx.np array returns `{type(out).__module__}.{type(out).__name__}`; "
             f"`net[0].weight.data()` is `{type(net[0].weight.data()).__module__}.{type(net[0].weight.data()).__name__}`, "
             f"and so is `.grad()`."]
    try:
        net(mx.nd.array(X))
        facts.append("- a legacy `nd` input is accepted too.")
    except Exception as e:
        facts.append(f"- a legacy `nd` input raises `{type(e).__name__}` in numpy mode: the two array types do not mix.")

    class Block(mx.gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            self.dense = mx.gluon.nn.Dense(3, flatten=False)

        def forward(self, x):  # MXNet 2 style: forward, npx inside
            return npx.softmax(self.dense(x))

    blk = Block()
    blk.initialize()
    y = blk(mnp.array(B))
    facts.append(f"- a HybridBlock that defines `forward(self, x)` (MXNet 2 style) with `npx.` calls inside runs "
                 f"in 1.9.1 and returns `{type(y).__module__}.{type(y).__name__}` of shape {y.shape}.")
    return facts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", help="write the markdown table to this file")
    args = parser.parse_args(argv)
    npx.set_np()
    results = [measure(r) for r in ROWS]
    lines = [HEADER.format(mx=mx.__version__, np=onp.__version__, torch=torch.__version__)]
    section = None
    for res in results:
        row = res["row"]
        head = row.id.split(".")[0]
        if head != section:
            section = head
            lines.append(f"\n## {SECTIONS[head]}\n")
            lines.append("| id | MXNet (mx.np / npx) | MXNet gives | NumPy gives | naive torch | xlate's torch | result | note |")
            lines.append("|---|---|---|---|---|---|---|---|")
        cells = [row.id, f"`{row.idiom}`", res["mx"], res["numpy"], _code(row.naive) + (": " + res["naive"] if row.naive else ""),
                 _code(row.torch), res["ours"], row.note]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines.append(GLUON.format(gluon="\n".join(gluon_facts())))
    bad = [r for r in results if not r["ok"]]
    checked = sum(1 for r in results if not r["row"].info)
    naive_wrong = sum(1 for r in results if not r["row"].info and r["naive"] not in ("same", "-"))
    lines.append(f"\nLast run: {len(results)} rows, {checked} translation checks, {len(bad)} differ from MXNet; "
                 f"the naive rename differs (or raises) in {naive_wrong}.\n")
    text = "\n".join(lines)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        print(text)
    for r in bad:
        print(f"{r['row'].id}: {r['ours']}", file=sys.stderr)
    return 1 if bad else 0


def _code(text: Optional[str]) -> str:
    return "-" if text is None else f"`{text}`"


if __name__ == "__main__":
    sys.exit(main())
