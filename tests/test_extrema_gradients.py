"""Max and min with ties (Note [extrema gradients] in xlate/runtime/helpers.py): MXNet's max/min
reductions give the whole gradient to every tied element, its global max pooling to one of them;
torch's amax/amin split it. Each program runs in MXNet and, converted, in torch, on data full
of ties (repeated maxima, an all-zero row), and the input gradients must agree."""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet

HEAD = """
import numpy as onp
import mxnet as mx
from mxnet import autograd, nd
data = onp.array([[[1., 3., 3., 2.], [0., 0., 0., 0.], [5., -1., 5., 5.]],
                  [[2., 2., 2., 2.], [4., 1., 4., 0.], [-3., -3., 1., 1.]]], dtype='float32')
x = nd.array(data)
x.attach_grad()
with autograd.record():
    y = {expr}
y.backward(nd.array(onp.arange(1, y.size + 1, dtype='float32').reshape(y.shape)))
grad = x.grad.asnumpy()
value = y.asnumpy()
"""

NP_HEAD = """
import numpy as onp
import mxnet as mx
from mxnet import autograd, np, npx
npx.set_np()
data = onp.array([[[1., 3., 3., 2.], [0., 0., 0., 0.], [5., -1., 5., 5.]]], dtype='float32')
x = np.array(data)
x.attach_grad()
with autograd.record():
    y = {expr}
y.backward()
grad = x.grad.asnumpy()
npx.reset_np()
"""


@pytest.mark.parametrize("head,expr", [
    (HEAD, "nd.max(x, axis=2)"),
    (HEAD, "nd.min(x, axis=(0, 2), keepdims=True)"),
    (HEAD, "x.max(axis=1) * 2"),
    (HEAD, "nd.max(x) + nd.min(x, keepdims=True).reshape((1,))"),
    (HEAD, "nd.max(x, axis=1, exclude=True)"),
    # flags known only at run time (Note [reduction flags known at run time] in transforms/reduce.py): exclude
    # over one axis, over every axis (nothing reduced), with no axis (all reduced), keepdims of a full reduction
    (HEAD, "nd.sum(x, axis=1, exclude=data.ndim > 2) + nd.max(x, axis=(0, 2), exclude=data.ndim < 2, keepdims=data.ndim > 2).sum()"),
    (HEAD, "x.mean(axis=(0, 1, 2), exclude=data.ndim > 2) * nd.sum(x, exclude=data.ndim > 2)"),
    (HEAD, "nd.min(x, axis=(1, 2), exclude=data.ndim > 2, keepdims=data.ndim > 2) * nd.mean(x, keepdims=data.ndim > 2)"),
    # keywords MXNet's parameterless operators ignore (Note [keywords MXNet ignores] in rulectx.py)
    (HEAD, "nd.relu(x, axis=0) * 3 + nd.abs(x, foo=1) * nd.sign(x, axis='bogus') + nd.square(x, axis=-1)"),
    # (MXNet's backward with a kernel= given beside global_pool=True sends the gradient to fixed
    # places, a bug of its own; without one it goes to the first maximum)
    (HEAD, "nd.Pooling(x.reshape((2, 3, 2, 2)), pool_type='max', global_pool=True)"),
    # elementwise: at a tie MXNet's gradient goes to lhs whole (Note [tied extrema]); x ties with
    # its own rows, with 2 and with 0 on either side
    (HEAD, "nd.maximum(x, x[:, ::-1])"),
    (HEAD, "nd.minimum(nd.ones_like(x) * 2, x) + nd.minimum(x, nd.zeros_like(x))"),
    (HEAD, "nd.broadcast_maximum(x, x.max(axis=2, keepdims=True).detach() * 0 + 3)"),
    (HEAD, "nd.broadcast_minimum(x.sum(axis=0, keepdims=True) - x[1:], x)"),
    (NP_HEAD, "np.max(x, axis=2) * 3"),
    (NP_HEAD, "np.amin(x, axis=1, keepdims=True).sum() + x.max()"),
])
def test_tied_extrema_give_mxnets_gradient(head, expr):
    np_ = import_numpy()
    import_mxnet()
    import_torch()
    source = head.format(expr=expr)
    converted = convert_source(source).output
    expected, got = {"__name__": "mx"}, {"__name__": "pt"}
    exec(compile(source, "<mx>", "exec"), expected)
    exec(compile(converted, "<pt>", "exec"), got)
    np_.testing.assert_allclose(got["grad"], expected["grad"], rtol=0, atol=0, err_msg=converted)
    if "value" in expected:  # the values, and MXNet's shapes (never 0-d; keepdims and exclude as MXNet reads them)
        assert got["value"].shape == expected["value"].shape, converted
        np_.testing.assert_allclose(got["value"], expected["value"], rtol=1e-6, atol=1e-6, err_msg=converted)
