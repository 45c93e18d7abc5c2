"""Operators that sample an input between its pixels, against live MXNet 1.9.1: the deformable
convolution (MX019 operator, MX185 Gluon layer) and the spatial-transformer operators (MX865).

The layer: Gluon's DeformableConvolution and its translation go
through check_models (random asymmetric weights, so the offset convolution moves the taps by
non-integer amounts, some outside the image): outputs, the input gradient and every parameter's
gradient. The operator is a row of xlate/check/rule_cases.py's table (`deformable-conv`, outputs and
the data, offset and weight gradients). ModulatedDeformableConvolution (MX187 layer, MX867 operator): MXNet's CPU build has no backward
for it, so outputs only, and its rules are reviews.
GridGenerator ('warp' and 'affine') and BilinearSampler: flows and matrices that sample between pixels
and off the input, outputs and the data, flow and matrix gradients.
"""
from __future__ import annotations

import warnings

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()

from xlate.check.inputs import InputSpec  # noqa: E402
from xlate.check.pair import check_models  # noqa: E402
from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet
HEAD = "from mxnet.gluon.contrib import cnn\n"


@pytest.mark.parametrize("src,shape", [
    ("layer = cnn.DeformableConvolution(4, kernel_size=3, padding=1, in_channels=3)", (2, 3, 5, 6)),
    ("layer = cnn.DeformableConvolution(4, kernel_size=(3, 2), strides=2, dilation=(1, 2), groups=2, "
     "num_deformable_group=2, use_bias=False, activation='relu')", (1, 4, 7, 6)),
    ("layer = cnn.DeformableConvolution(3, kernel_size=3, padding=2, dilation=2)", (2, 2, 4, 5)),
])
def test_gluon_deformable_layers_match(src, shape):
    result = convert_source(HEAD + src + "\n", select=["MX185", "MX001"])
    assert "mxnet" not in result.output and "_mx_" in result.output, result.output
    ns: dict = {}
    exec(compile(result.output, "<converted>", "exec"), ns)
    gluon: dict = {}
    exec(HEAD + src, gluon)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = check_models(gluon["layer"], ns["layer"], [InputSpec("x", "float32", shape)], seed=3)
    failed = [c.mismatch.format() for c in res.checks if not c.ok]
    assert not failed and len(res.checks) >= 4, "\n".join(failed)


# -- MXNet's spatial-transformer operators (MX865, Note [sampling grids] in xlate/runtime/warp.py) --
WARP = ("from mxnet import nd\n"
        "grid = nd.GridGenerator(flow, transform_type='warp')\n"
        "out = nd.BilinearSampler(data, grid) + nd.BilinearSampler(data, nd.GridGenerator(theta, "
        "transform_type='affine', target_shape=(4, 5)))\n")


def test_grid_generator_and_bilinear_sampler_match_with_their_gradients():
    rng = np.random.default_rng(11)
    # flows up to 2 pixels and matrices past the unit square: samples between pixels and off the input
    arrays = {"data": rng.standard_normal((2, 3, 4, 5)), "flow": rng.uniform(-2, 2, (2, 2, 4, 5)),
              "theta": np.array([[1.1, 0.2, -0.3, -0.1, 0.9, 0.25], [0.7, -0.4, 0.5, 0.3, 1.3, -0.2]])}
    head = rng.standard_normal((2, 3, 4, 5)).astype("float32")
    mx_in = {name: mx.nd.array(v, dtype="float32") for name, v in arrays.items()}
    for v in mx_in.values():
        v.attach_grad()
    with mx.autograd.record():
        ns_mx = dict(mx_in)
        exec(WARP, ns_mx)
    ns_mx["out"].backward(mx.nd.array(head))
    result = convert_source(WARP, select=["MX865", "MX001"])
    assert "mxnet" not in result.output and "_mx_bilinear_sampler(" in result.output, result.output
    pt_in = {name: torch.tensor(v, dtype=torch.float32, requires_grad=True) for name, v in arrays.items()}
    ns = dict(pt_in)
    exec(compile(result.output, "<converted>", "exec"), ns)
    ns["out"].backward(torch.tensor(head))
    np.testing.assert_allclose(ns["out"].detach().numpy(), ns_mx["out"].asnumpy(), rtol=1e-4, atol=1e-5)
    for name in arrays:
        np.testing.assert_allclose(pt_in[name].grad.numpy(), mx_in[name].grad.asnumpy(), rtol=1e-3, atol=1e-4,
                                   err_msg=name)


def test_modulated_deformable_forward_matches_and_its_rules_say_gradients_are_unmeasured():
    # DCN v2: MXNet's CPU build computes the forward only (no backward kernel), so outputs are compared: the
    # operator with random offsets and masks, and Gluon's layer with random offset-convolution weights
    rng = np.random.default_rng(5)
    arrays = {"data": rng.standard_normal((2, 4, 5, 6)), "offset": rng.uniform(-2, 2, (2, 2 * 2 * 9, 5, 6)),
              "mask": rng.uniform(0, 2, (2, 2 * 9, 5, 6)), "weight": rng.standard_normal((4, 4, 3, 3)),
              "bias": rng.standard_normal(4)}
    call = ("from mxnet import nd\nout = nd.contrib.ModulatedDeformableConvolution(data, offset, mask, weight, bias, "
            "kernel=(3, 3), pad=(1, 1), num_filter=4, num_deformable_group=2)\n"
            "from mxnet.gluon.contrib import cnn\nlayer = cnn.ModulatedDeformableConvolution(4, 3, 1, 1, "
            "num_deformable_group=2, in_channels=4)\n")
    ns_mx = {k: mx.nd.array(v, dtype="float32") for k, v in arrays.items()}
    exec(call, ns_mx)
    result = convert_source(call, select=["MX187", "MX867", "MX001"])
    assert "mxnet" not in result.output and {d.status for d in result.diagnostics if d.code in ("MX187", "MX867")} \
        == {"review"}, result.diagnostics
    ns = {k: torch.tensor(v, dtype=torch.float32) for k, v in arrays.items()}
    exec(compile(result.output, "<converted>", "exec"), ns)
    np.testing.assert_allclose(ns["out"].numpy(), ns_mx["out"].asnumpy(), rtol=1e-4, atol=1e-4)
    gluon, layer = ns_mx["layer"], ns["layer"]
    gluon.initialize()
    with torch.no_grad():
        for name in ("offset_weight", "offset_bias", "deformable_conv_weight", "deformable_conv_bias"):
            value = rng.standard_normal(getattr(layer, name).shape).astype("float32") * 0.3
            getattr(gluon, name).set_data(mx.nd.array(value))
            getattr(layer, name).copy_(torch.tensor(value))
    x = rng.standard_normal((2, 4, 5, 6)).astype("float32")
    np.testing.assert_allclose(layer(torch.tensor(x)).detach().numpy(), gluon(mx.nd.array(x)).asnumpy(),
                               rtol=1e-4, atol=1e-4)
