"""Gluon idioms of GluonCV's model zoo that the training-code family changed the meaning of,
compared with MXNet (found by bench/model_zoo.py after the families merged)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from xlate.convert.engine import convert_source
from xlate.runtime import load

mx = pytest.importorskip("mxnet")
torch = pytest.importorskip("torch")


def _converted(source: str, name: str):
    result = convert_source(source)
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    namespace = dict(vars(load()))
    exec(compile(result.output, "<converted>", "exec"), namespace)
    return result, namespace[name]


GROUP_NORM = '''
from mxnet import autograd, gluon


class GN(gluon.HybridBlock):
    """GluonCV's GroupNorm: batch statistics over groups, under train_mode() whatever the mode."""
    def __init__(self, ngroups=2, **kwargs):
        super().__init__(**kwargs)
        self.ngroups = ngroups

    def hybrid_forward(self, F, x):
        with autograd.train_mode():
            y = x.expand_dims(0).reshape(0, 0, self.ngroups, -1)
            y = y.reshape(1, -3, -1)
            y = F.BatchNorm(y, F.ones(x.shape[0] * self.ngroups), F.zeros(x.shape[0] * self.ngroups),
                            F.zeros(x.shape[0] * self.ngroups), F.ones(x.shape[0] * self.ngroups), name='fwd')
        if autograd.is_training():
            y = y * 2
        return y.reshape_like(x)
'''


def test_train_mode_in_a_forward_keeps_gradients_and_batch_statistics():
    result, GNpt = _converted(GROUP_NORM, "GN")
    code = re.split(r"\n(?:def|class) _mx_", result.output)[0]  # the helpers pasted after it have their own
    # MXNet's flag at run time: train_mode() sets it for the block, whatever the caller's mode
    assert "no_grad" not in code and "with _mx_train_mode():" in code and "training=_mx_is_training()" in code
    ns = {}
    exec(GROUP_NORM, ns)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 4, 3)).astype("float32") * 3 + 1
    head = rng.normal(size=x.shape).astype("float32")
    mx_block, pt_block = ns["GN"](), GNpt()
    # predicting: MXNet still normalises with the batch's statistics (train_mode), and no * 2
    mx_out = mx_block(mx.nd.array(x)).asnumpy()
    pt_block.eval()
    with torch.no_grad():
        pt_out = pt_block(torch.tensor(x)).numpy()
    np.testing.assert_allclose(pt_out, mx_out, rtol=1e-4, atol=1e-4)
    # training: the gradient reaches the input through the normalisation
    xm = mx.nd.array(x)
    xm.attach_grad()
    with mx.autograd.record():
        ym = mx_block(xm)
    ym.backward(mx.nd.array(head))
    xt = torch.tensor(x, requires_grad=True)
    pt_block.train()
    yt = pt_block(xt)
    yt.backward(torch.tensor(head))
    np.testing.assert_allclose(yt.detach().numpy(), ym.asnumpy(), rtol=1e-4, atol=1e-4)
    assert xt.grad is not None
    np.testing.assert_allclose(xt.grad.numpy(), xm.grad.asnumpy(), rtol=1e-3, atol=1e-4)


YOLO_OUTPUT = '''
from mxnet import gluon


class Out(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.offsets = self.params.get_constant('offsets', [[0.5, 1.5, 2.5]])

    def hybrid_forward(self, F, x, offsets):
        """GluonCV's YOLOOutputV3 rebinds a constant it is passed."""
        offsets = F.slice_like(offsets, x * 0, axes=(1,))
        return F.broadcast_add(x, offsets)
'''


# the constant registered by a base class of the same file, hybrid_forward in the subclass (MXNet-Detector's SSD:
# VGGAtrousBase registers init_scale, VGGAtrousExtractor reads it): Gluon passes it all the same
IN_A_BASE = YOLO_OUTPUT.replace("class Out(gluon.HybridBlock):", "class Base(gluon.HybridBlock):").replace(
    "    def hybrid_forward", "class Out(Base):\n    def hybrid_forward")


@pytest.mark.parametrize("source", [YOLO_OUTPUT, IN_A_BASE], ids=["own", "base"])
def test_a_rebound_gluon_parameter_is_read_once_at_the_top(source):
    result, Outpt = _converted(source, "Out")
    assert "offsets = self.offsets\n" in result.output
    ns = {}
    exec(source, ns)
    block = ns["Out"]()
    block.initialize()
    x = np.arange(4, dtype="float32").reshape(2, 2) - 1.5
    expected = block(mx.nd.array(x)).asnumpy()
    np.testing.assert_allclose(Outpt()(torch.tensor(x)).numpy(), expected, rtol=1e-6)


def test_a_name_rebound_from_itself_keeps_its_array_kind():
    source = ("from mxnet import nd\n"
              "def f(x, n):\n"
              "    y = nd.relu(x)\n"
              "    if n:\n"
              "        y = y * 2\n"
              "    return y.reshape_like(x), y.astype('float16')\n")
    out = convert_source(source).output
    assert "reshape_like" not in out and "astype" not in out


TYPE_LOOKUP = '''
from mxnet.gluon import nn


def head_index(norm_layer=nn.BatchNorm):
    """GluonCV's DUC MobileNet: a class compared with a class value, then a layer found by type."""
    if norm_layer != nn.BatchNorm:
        raise NotImplementedError("only BatchNorm")
    feat = nn.HybridSequential()
    feat.add(nn.Conv2D(4, 3, in_channels=3), norm_layer(in_channels=4), nn.GlobalAvgPool2D())
    idx = [type(l) for l in feat].index(nn.GlobalAvgPool2D)
    last_is_pool = type(feat[idx]) == nn.GlobalAvgPool2D
    return idx, last_is_pool
'''


def test_a_layer_class_compared_as_a_type_is_the_helper_on_both_sides():
    """`[type(l) for l in feat].index(nn.GlobalAvgPool2D)` found nothing: the class became its
    Gluon-signature helper while the layer built from literal arguments is the torch class. In a
    file that uses layer classes as values (`norm_layer=nn.BatchNorm`), `type(l)` is `_mx_type(l)`,
    the helper's class for a layer built as the torch class (MX158, Note [exact layer types]), and
    the class compared is the helper: exact whether the layer was built from literal or run-time
    arguments, so nothing is left to review. A class compared with another class value
    (`norm_layer != nn.BatchNorm`) stays the value both sides are."""
    result = convert_source(TYPE_LOOKUP)
    assert "norm_layer != _mx_BatchNorm" in result.output
    assert "[_mx_type(l) for l in feat].index(_mx_GlobalAvgPool2D)" in result.output
    assert "_mx_type(feat[idx]) == _mx_GlobalAvgPool2D" in result.output
    assert not [d for d in result.diagnostics if d.status == "review"]
    namespace = dict(vars(load()))
    exec(compile(result.output, "<converted>", "exec"), namespace)
    assert namespace["head_index"]() == (2, True)
    ns = {}
    exec(TYPE_LOOKUP, ns)
    assert ns["head_index"]() == (2, True)  # what MXNet gives


def test_exact_layer_types_across_copies_of_the_helper_module():
    """`_mx_type` (MX158) gives this helper module's class for a torch layer a Gluon layer became and for a
    helper class of another copy of the module (a tree converted with one `_mx_compat` per top-level
    package, a model built by one given to a function of another); other values keep their type."""
    import types

    import torch

    from xlate.runtime import module_text

    copies = []
    for name in ("copy_a", "copy_b"):
        module = types.ModuleType(name)
        exec(compile(module_text(["_mx_type", "_mx_Dense", "_mx_Conv2D", "_mx_Activation"]), name, "exec"),
             module.__dict__)
        copies.append(module)
    a, b = copies
    assert b._mx_type(a._mx_Dense(3, in_units=2)) is b._mx_Dense is a._mx_Dense  # Note [one copy of each helper]
    assert b._mx_type(torch.nn.Conv2d(1, 2, 3)) is b._mx_Conv2D and b._mx_type(torch.nn.Tanh()) is b._mx_Activation
    assert b._mx_type(torch.nn.GRU(2, 3)) is torch.nn.GRU and b._mx_type(3) is int


def test_relu6_passes_the_gradient_at_its_bounds_as_mxnets_clip():
    """MobileNet's RELU6 is `F.clip(x, 0, 6)` in Gluon: its gradient is 1 at 0 and 6 themselves
    (torch's ReLU6 gives 0 there), which a BatchNorm channel constant over the batch reaches."""
    rt = load()
    x = np.array([0.0, 6.0, 3.0, -1.0, 7.0, -1e-7, -1e-44, np.nextafter(np.float32(6), np.float32(7))],
                 dtype="float32")
    xm = mx.nd.array(x)
    xm.attach_grad()
    with mx.autograd.record():
        ym = mx.gluon.model_zoo.vision.mobilenet.RELU6()(xm)
    ym.backward()
    xt = torch.tensor(x, requires_grad=True)
    yt = rt._mx_RELU6()(xt)
    yt.sum().backward()
    np.testing.assert_array_equal(yt.detach().numpy(), ym.asnumpy())
    np.testing.assert_array_equal(xt.grad.numpy(), xm.grad.asnumpy())
    x64 = torch.tensor(x.astype("float64"), requires_grad=True)  # the bounds follow the dtype
    rt._mx_RELU6()(x64).sum().backward()
    np.testing.assert_array_equal(x64.grad.numpy(), xm.grad.asnumpy())
