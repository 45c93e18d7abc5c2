"""MXNet's SoftmaxOutput loss layer (_mx_softmax_output) against live MXNet 1.9.1: its multi_output form
(data (n, k, ...), labels (n, ...), the softmax over axis 1: GluonCV's and gluon-detector's segmentation
SoftmaxCrossEntropyLoss) and the 2-D form, every normalization with and without use_ignore, label
smoothing, grad_scale, and labels outside the classes (-1 not ignored, k): outputs and the data gradient
under a drawn head gradient (which the layer ignores)."""
from __future__ import annotations

import itertools

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()

pytestmark = pytest.mark.mxnet


@pytest.mark.parametrize("shape,multi", [((2, 4, 3, 2), True), ((2, 4, 3), True), ((5, 4), False)])
def test_softmax_output_is_mxnets(shape, multi):
    from xlate.runtime import load

    helper = load()._mx_softmax_output
    rng = np.random.RandomState(1)
    data = rng.normal(size=shape).astype("float32")
    label = rng.randint(-1, shape[1] + 1, (shape[0],) + shape[2:]).astype("float32")
    head = rng.normal(size=shape).astype("float32")
    bad = []
    for norm, ignore, alpha, scale in itertools.product(["null", "batch", "valid"], [True, False], [0.0, 0.1],
                                                        [1.0, 2.5]):
        kw = dict(multi_output=multi, normalization=norm, use_ignore=ignore, ignore_label=-1, smooth_alpha=alpha,
                  grad_scale=scale)
        x = mx.nd.array(data)
        x.attach_grad()
        with mx.autograd.record():
            y = mx.nd.SoftmaxOutput(x, mx.nd.array(label), **kw)
        y.backward(mx.nd.array(head))
        t = torch.tensor(data, requires_grad=True)
        z = helper(t, torch.tensor(label), **kw)
        z.backward(torch.tensor(head))
        out, grad = np.abs(z.detach().numpy() - y.asnumpy()).max(), np.abs(t.grad.numpy() - x.grad.asnumpy()).max()
        if out > 1e-6 or grad > 1e-6:
            bad.append((kw, out, grad))
    assert not bad, bad
