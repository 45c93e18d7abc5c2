"""Constructs of production Gluon packages xlate was not tuned to (issue 21: gluonts, sockeye 2),
each as a class: MXNet's fused attention products (MX094-MX097) against live MXNet, outputs and
gradients."""
import numpy as np
import pytest

from tests.mxsupport import import_mxnet, import_torch
from xlate.runtime import load

pytestmark = pytest.mark.mxnet


# (operator, helper, shapes of the array arguments): seq 4, query length 3, batch 2, 3 heads of 5
_L, _Q, _B, _H, _D = 4, 3, 2, 3, 5
_OPS = [
    ("selfatt_qk", [(_L, _B, _H * 3 * _D)]),
    ("selfatt_valatt", [(_L, _B, _H * 3 * _D), (_B * _H, _L, _L)]),
    ("encdec_qk", [(_Q, _B, _H * _D), (_L, _B, _H * 2 * _D)]),
    ("encdec_valatt", [(_L, _B, _H * 2 * _D), (_B * _H, _Q, _L)]),
]


@pytest.mark.parametrize("op,shapes", _OPS, ids=[o for o, _ in _OPS])
def test_interleaved_attention_products_match_mxnet(op, shapes):
    mx, torch = import_mxnet(), import_torch()
    rng = np.random.default_rng(len(op))
    arrays = [rng.uniform(-1, 1, size=s).astype(np.float32) for s in shapes]
    mx_in = [mx.nd.array(a) for a in arrays]
    for x in mx_in:
        x.attach_grad()
    with mx.autograd.record():
        mx_out = getattr(mx.nd.contrib, f"interleaved_matmul_{op}")(*mx_in, heads=_H)
    head = rng.uniform(-1, 1, size=mx_out.shape).astype(np.float32)
    mx_out.backward(mx.nd.array(head))

    helper = getattr(load(), f"_mx_interleaved_matmul_{op}")
    pt_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    pt_out = helper(*pt_in, heads=_H)
    pt_out.backward(torch.tensor(head))
    np.testing.assert_allclose(pt_out.detach().numpy(), mx_out.asnumpy(), rtol=1e-5, atol=1e-6)
    for p, m in zip(pt_in, mx_in):
        np.testing.assert_allclose(p.grad.numpy(), m.grad.asnumpy(), rtol=1e-5, atol=1e-6)


# -- F as a value: a property that gives the namespace (gluonts' distributions) -----------------------
def test_namespace_from_a_property_resolves_in_the_class_and_its_subclasses():
    from xlate.convert.engine import convert_source

    src = '''
from mxnet import nd


def getF(x):
    return nd


class Normal:
    def __init__(self, mu):
        self.mu = mu

    @property
    def F(self):
        return getF(self.mu)

    def log_prob(self, x):
        F = self.F
        return F.square(x - self.mu)


class Shifted(Normal):
    def mean(self):
        F = self.F
        return F.exp(self.mu)
'''
    out = convert_source(src.lstrip("\n")).output
    assert "return torch.square(x - self.mu)" in out
    assert "return torch.exp(self.mu)" in out
    assert "F.square" not in out and "F.exp" not in out
