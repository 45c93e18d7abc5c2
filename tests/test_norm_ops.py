"""The normalisation and scaling operators called as functions (xlate/runtime/norm_ops.py:
MX850-MX854) against MXNet 1.9.1: values, and the gradients of the input and of gamma/beta, on
random asymmetric data, through the converter (an `F.` call in a hybrid_forward)."""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet

PROGRAM = """
import numpy as onp
import mxnet as mx
from mxnet import autograd, nd
rs = onp.random.RandomState(4)
x = nd.array(rs.randn(2, 3, 4, 5).astype('float32') * 2 + 0.5)
g = nd.array(rs.rand({c}).astype('float32') + 0.5)
b = nd.array(rs.randn({c}).astype('float32'))
for a in (x, g, b):
    a.attach_grad()
with autograd.record():
    y = {expr}
    first = y[0] if isinstance(y, (list, tuple)) else y
    w = nd.array(onp.sin(onp.arange(first.size)).reshape(first.shape).astype('float32'))
    loss = (first * w).sum()
loss.backward()
out = [v.asnumpy() for v in y] if isinstance(y, (list, tuple)) else y.asnumpy()
grads = [x.grad.asnumpy(), g.grad.asnumpy(), b.grad.asnumpy()]
"""


@pytest.mark.parametrize("c,expr", [
    (5, "nd.LayerNorm(x, g, b)"),
    (3, "nd.LayerNorm(x, g, b, axis=1, eps=1e-3)"),
    (4, "nd.LayerNorm(x, g, b, axis=-2, output_mean_var=True)"),
    (3, "nd.InstanceNorm(x, g, b)"),
    (3, "nd.InstanceNorm(x.reshape((2, 3, 20)), g, b, eps=1e-5) * g.reshape((1, 3, 1))"),
    (5, "nd.contrib.div_sqrt_dim(x) * g + b"),
    (5, "nd.smooth_l1(x * g, scalar=1.5) + b"),
    (5, "nd.cumsum(x * g, axis=2) + b"),
])
def test_operator_against_mxnet(c, expr):
    np = import_numpy()
    import_mxnet()
    import_torch()
    source = PROGRAM.format(c=c, expr=expr)
    converted = convert_source(source)
    assert not [d for d in converted.diagnostics if d.status == "manual"], converted.output
    expected, got = {"__name__": "mx"}, {"__name__": "pt"}
    exec(compile(source, "<mx>", "exec"), expected)
    exec(compile(converted.output, "<pt>", "exec"), got)
    for want, have in zip(expected["out"] if isinstance(expected["out"], list) else [expected["out"]],
                          got["out"] if isinstance(got["out"], list) else [got["out"]]):
        np.testing.assert_allclose(have, want, rtol=1e-4, atol=1e-5)
    for want, have in zip(expected["grads"], got["grads"]):
        np.testing.assert_allclose(have, want, rtol=1e-4, atol=1e-4)


def test_cumsum_keeps_an_integer_dtype_and_flattens():
    np = import_numpy()
    mx = import_mxnet()
    import_torch()
    source = "from mxnet import nd\nx = nd.array([[1, 2, 3], [4, 5, 6]], dtype='int32')\nc = nd.cumsum(x)\nd = nd.cumsum(x, axis=0, dtype='float64')\n"
    got = {}
    exec(compile(convert_source(source).output, "<pt>", "exec"), got)
    x = mx.nd.array([[1, 2, 3], [4, 5, 6]], dtype="int32")
    for name, want in (("c", mx.nd.cumsum(x)), ("d", mx.nd.cumsum(x, axis=0, dtype="float64"))):
        assert str(got[name].dtype).rsplit(".", 1)[-1] == np.dtype(want.dtype).name
        np.testing.assert_array_equal(got[name].numpy(), want.asnumpy())
