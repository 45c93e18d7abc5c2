"""Gluon's model zoo (xlate/runtime/zoo.py, rule MX175) against MXNet 1.9.1's own networks.

Each comparison builds the network on both sides, gives the Gluon one random asymmetric weights
(Xavier draws for weights, random biases, BatchNorm gamma/beta and running statistics away from
their initial values), copies them into the torch one through the checker's pairing
(xlate.check.mapping, the tables `xlate convert-weights` uses) and compares the inference
outputs on a non-zero input. Gradients and the running statistics after a training step are
compared by the checker's check_models in noise mode (Note [noise floor] in
xlate/check/noise.py): 2 x 64 x 64 inputs, where every BatchNorm channel sees enough values for
float32 to resolve its gradient. The sweep over every name of `get_model` is marked slow.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from mxsupport import import_mxnet, import_torch

pytestmark = pytest.mark.mxnet

mx = import_mxnet()
torch = import_torch()

from mxnet.gluon.model_zoo import vision  # noqa: E402

from xlate.check.inputs import parse  # noqa: E402
from xlate.check.mapping import pair, transfer  # noqa: E402
from xlate.check.noise import NoiseFloor  # noqa: E402
from xlate.check.pair import check_models  # noqa: E402
from xlate.convert.engine import convert_source  # noqa: E402
from xlate.runtime import load  # noqa: E402

rt = load()

# the smallest input each network takes: the global pools of SqueezeNet (13) and DenseNet (7)
# need 224, Inception V3 299, AlexNet's pools 64 (ResNet, VGG and the MobileNets run at 32)
SIZES = {"alexnet": 64, "squeezenet1.0": 224, "squeezenet1.1": 224, "inceptionv3": 299,
         **{f"densenet{n}": 224 for n in (121, 161, 169, 201)}}
NAMES = ("resnet18_v1 resnet34_v1 resnet50_v1 resnet101_v1 resnet152_v1 resnet18_v2 resnet34_v2 resnet50_v2 "
         "resnet101_v2 resnet152_v2 vgg11 vgg13 vgg16 vgg19 vgg11_bn vgg13_bn vgg16_bn vgg19_bn alexnet densenet121 "
         "densenet161 densenet169 densenet201 squeezenet1.0 squeezenet1.1 inceptionv3 mobilenet1.0 mobilenet0.75 "
         "mobilenet0.5 mobilenet0.25 mobilenetv2_1.0 mobilenetv2_0.75 mobilenetv2_0.5 mobilenetv2_0.25").split()
FAST = ("resnet18_v1", "resnet18_v2", "alexnet", "squeezenet1.1", "mobilenet0.25", "mobilenetv2_0.25")
# networks that differ from one run here only in how many blocks of the same widths they stack
# (MXNet's resnet_spec, vgg_spec, densenet_spec): tests/test_zoo_names.py compares every block's
# parameter names for them, which catches a wrong count; their forward pass adds 19 s of suite
# time and no other code path
DEEPER = ("resnet34_v1 resnet101_v1 resnet152_v1 resnet34_v2 resnet101_v2 resnet152_v2 vgg13 vgg16 vgg19 vgg13_bn "
          "vgg19_bn densenet169 densenet201").split()


def _randomise(mx_net, x: np.ndarray, seed: int) -> None:
    """Random asymmetric values in every Gluon parameter (after the deferred shapes are known)."""
    mx.random.seed(seed)
    rng = np.random.default_rng(seed)
    mx_net.initialize(mx.init.Xavier(), force_reinit=True)
    mx_net(mx.nd.array(x))
    for name, p in mx_net.collect_params().items():
        if name.endswith(("gamma", "running_var")):
            value = rng.uniform(0.5, 1.5, p.shape)
        elif name.endswith(("beta", "bias", "running_mean")):
            value = rng.normal(0.0, 0.2, p.shape)
        else:
            continue  # weights keep their Xavier draws: random, and the activations stay in range
        p.set_data(mx.nd.array(value.astype("float32")))


def _same_outputs(mx_net, pt_net, shape, seed=0) -> None:
    rng = np.random.default_rng(seed)
    x = (rng.uniform(0.1, 1.0, shape) * rng.choice([-1, 1], shape)).astype("float32")
    _randomise(mx_net, x, seed)
    pt_net.eval()
    with torch.no_grad():
        pt_net(torch.tensor(x))  # gives lazy layers their shapes, as Gluon's first call does
        transfer(mx_net, pt_net)
        actual = pt_net(torch.tensor(x)).numpy()
    expected = mx_net(mx.nd.array(x)).asnumpy()
    scale = float(np.abs(expected).max())
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5 * max(scale, 1.0))


def _both(name, **kwargs):
    return vision.get_model(name, **kwargs), rt._mx_vision_get_model(name, **kwargs)


@pytest.mark.parametrize("name", FAST)
def test_a_network_computes_what_gluon_computes(name):
    size = SIZES.get(name, 32)
    _same_outputs(*_both(name, classes=10), (1, 3, size, size))


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in NAMES if n not in FAST and n not in DEEPER])
def test_every_network_of_get_model_computes_what_gluon_computes(name):
    size = SIZES.get(name, 32)
    _same_outputs(*_both(name, classes=10), (1, 3, size, size))


@pytest.mark.parametrize("build", [
    lambda m: m.ResNetV1(m.BottleneckV1, [1, 2, 1, 1], [8, 16, 32, 48, 64], classes=7, thumbnail=True),
    lambda m: m.ResNetV2(m.BottleneckV2, [1, 1, 2, 1], [8, 16, 32, 64, 128], classes=7),
    lambda m: m.ResNetV2(m.BasicBlockV2, [1, 1, 1, 1], [8, 8, 16, 32, 64], classes=7, thumbnail=True),
    lambda m: m.get_resnet(2, 18, classes=7, thumbnail=True),
    lambda m: m.VGG([1, 1, 1, 1, 1], [8, 8, 16, 16, 16], classes=7, batch_norm=True),
    lambda m: m.MobileNet(0.5, classes=7),
    lambda m: m.get_mobilenet_v2(0.75, classes=7),
], ids=["ResNetV1-BottleneckV1-thumbnail", "ResNetV2-BottleneckV2", "ResNetV2-BasicBlockV2-thumbnail",
        "get_resnet", "VGG-batch_norm", "MobileNet", "get_mobilenet_v2"])
def test_the_classes_and_builders_take_gluons_arguments(build):
    gluon = type("Gluon", (), {k: getattr(vision, k) for k in dir(vision)})
    torch_side = type("Torch", (), {k[4:]: getattr(rt, k) for k in dir(rt) if k.startswith("_mx_")})
    _same_outputs(build(gluon), build(torch_side), (2, 3, 32, 32))


def test_a_small_densenet_computes_what_gluon_computes():
    _same_outputs(vision.DenseNet(8, 4, [2, 1, 2, 1], bn_size=2, classes=7),
                  rt._mx_DenseNet(8, 4, [2, 1, 2, 1], bn_size=2, classes=7), (1, 3, 224, 224))


def test_the_module_helpers_users_build_with_compute_what_gluon_computes():
    # crnn.gluon builds its DenseNet of densenet._make_dense_block; every such helper, chained
    from mxnet.gluon.model_zoo.vision import densenet, inception, mobilenet, squeezenet
    gluon = mx.gluon.nn.HybridSequential()
    gluon.add(densenet._make_dense_block(2, 2, 4, 0, 1), densenet._make_transition(6), squeezenet._make_fire(2, 3, 3),
              inception._make_branch("avg", (4, 3, None, 1)))
    mobilenet._add_conv_dw(gluon, 4, 5, 1)
    torch_side = torch.nn.Sequential(rt._mx_make_dense_block(2, 2, 4, 0, 1), rt._mx_make_transition(6),
                                     rt._mx_fire(2, 3, 3), rt._mx_inception_branch("avg", (4, 3, None, 1)))
    rt._mx_add_conv_dw(torch_side, 4, 5, 1)
    _same_outputs(gluon, torch_side, (2, 3, 8, 8))


@pytest.mark.parametrize("name,build", [
    ("resnet18_v1", lambda m: m.get_resnet(1, 18, classes=10)),
    ("mobilenetv2_0.25", lambda m: m.get_mobilenet_v2(0.25, classes=10)),
    # MXNet's MKL-DNN backward of a concatenation fails on 8 + 4k channels ("could not construct a sub-memory")
    ("densenet (small)", lambda m: m.DenseNet(32, 16, [2, 2, 2, 2], bn_size=4, classes=7)),
])
def test_training_outputs_gradients_and_statistics_match_gluon(name, build):
    size = 224 if name.startswith("densenet") else 64
    gluon = build(vision)
    gluon.initialize()
    torch_side = build(type("Torch", (), {k[4:]: getattr(rt, k) for k in dir(rt) if k.startswith("_mx_")}))
    result = check_models(gluon, torch_side, [parse(f"x:float32[2,3,{size},{size}]")], seed=1,
                          noise_floor=NoiseFloor())
    failed = [c.mismatch.format() for c in result.checks if not c.ok]
    assert result.ok, failed
    assert any(c.what.startswith("training: gradient of features.0.weight") for c in result.checks)


# -- parameter files -----------------------------------------------------------------------
@pytest.mark.parametrize("save", ["save_parameters", "save_params"])
def test_convert_weights_loads_a_gluon_zoo_file(tmp_path, capsys, save):
    """`xlate convert-weights FILE --zoo NAME`: structural names (features.0.weight) and the
    prefixed ones of Gluon's pretrained files (features_conv0_weight) both load, and the torch
    network computes what the Gluon one holding the file computes."""
    from xlate.cli import main

    name, x = "mobilenetv2_0.25", np.random.default_rng(3).uniform(0.1, 1, (2, 3, 32, 32)).astype("float32")
    gluon = vision.get_model(name, classes=10)
    _randomise(gluon, x, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # save_params is deprecated: Gluon's pretrained files were saved with it
        getattr(gluon, save)(str(tmp_path / "zoo.params"))
    rc = main(["convert-weights", str(tmp_path / "zoo.params"), "--zoo", name, "--mx-args", '{"classes": 10}',
               "-o", str(tmp_path / f"{name}.pt")])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert f"names as {save} writes them" in out.out
    net = rt._mx_vision_get_model(name, classes=10).eval()
    net.load_state_dict(torch.load(tmp_path / f"{name}.pt", weights_only=True))
    with torch.no_grad():
        actual = net(torch.tensor(x)).numpy()
    np.testing.assert_allclose(actual, gluon(mx.nd.array(x)).asnumpy(), rtol=1e-4, atol=1e-5)


def test_pretrained_loads_the_converted_file_or_says_the_command(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"xlate convert-weights \S+/resnet18_v1-a0666292\.params "
                                                r"--zoo resnet18_v1 -o \S+/resnet18_v1\.pt"):
        rt._mx_resnet18_v1(pretrained=True, root=str(tmp_path))
    x = np.random.default_rng(4).uniform(0.1, 1, (1, 3, 32, 32)).astype("float32")
    gluon, source = vision.resnet18_v1(), rt._mx_resnet18_v1().eval()
    _randomise(gluon, x, 4)
    with torch.no_grad():
        source(torch.tensor(x))
    transfer(gluon, source)
    torch.save(source.state_dict(), tmp_path / "resnet18_v1.pt")
    net = rt._mx_vision_get_model("resnet18_v1", pretrained=True, root=str(tmp_path))
    rt._mx_initialize(net, rt._mx_xavier())  # Gluon's initialize() keeps loaded parameters
    with torch.no_grad():
        actual = net(torch.tensor(x)).numpy()
    np.testing.assert_allclose(actual, gluon(mx.nd.array(x)).asnumpy(), rtol=1e-4, atol=1e-5)


# -- initialisation ------------------------------------------------------------------------
def _same_kind(expected: np.ndarray, actual: np.ndarray) -> bool:
    """What an initializer drew, as far as one draw tells: the same constant, or a spread whose
    std is within 10% (a few hundred values: 30%) of Gluon's."""
    if np.all(expected == expected.flat[0]):
        return bool(np.all(actual == expected.flat[0]))
    return abs(actual.std() / expected.std() - 1) < (0.1 if expected.size >= 1000 else 0.3)


@pytest.mark.parametrize("name", ["vgg11_bn", "resnet18_v1"])
def test_initialize_draws_the_kinds_gluon_draws(name):
    """Gluon's `net.initialize(Xavier())` and the translated `_mx_initialize(net, _mx_xavier())`:
    per parameter the same constant (BatchNorm gamma and running variance 1, beta, running mean
    and biases 0) or a draw of the same spread (VGG's own Xavier(gaussian, out, 2) and
    normal(0.01) win over the global Xavier)."""
    x = np.random.default_rng(5).uniform(0.1, 1, (1, 3, 32, 32)).astype("float32")
    gluon, net = _both(name, classes=10)
    mx.random.seed(5)
    gluon.initialize(mx.init.Xavier())
    gluon(mx.nd.array(x))
    torch.manual_seed(5)
    rt._mx_initialize(net, rt._mx_xavier())
    with torch.no_grad():
        net(torch.tensor(x))
    checked = 0
    for pr in pair(gluon, net):
        for m in pr.maps:
            if m.mx not in pr.mx_block._reg_params:
                continue  # an optional parameter (a bias) neither side has
            expected = pr.mx_block._reg_params[m.mx].data().asnumpy()
            actual = getattr(pr.pt_module, m.pt).detach().numpy()
            assert _same_kind(expected, actual), f"{pr.pt_path}.{m.pt}: {actual.std()} vs Gluon's {expected.std()}"
            checked += 1
    assert checked == len(gluon.collect_params().keys())


# -- translated programs -------------------------------------------------------------------
PROGRAM = '''
import mxnet as mx
from mxnet import gluon
from mxnet.gluon import nn
from mxnet.gluon.model_zoo import vision
from mxnet.gluon.model_zoo.vision.resnet import BottleneckV2, _conv3x3


class SEBottleneck(BottleneckV2):
    """gluon-face's kind of block: Gluon's BottleneckV2 and one more convolution."""
    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super(SEBottleneck, self).__init__(channels, stride, downsample, in_channels, **kwargs)
        self.extra = _conv3x3(channels, 1, channels)

    def hybrid_forward(self, F, x):
        residual = x
        x = F.Activation(self.bn1(x), act_type='relu')
        if self.downsample:
            residual = self.downsample(x)
        x = self.conv1(x)
        x = self.conv2(F.Activation(self.bn2(x), act_type='relu'))
        x = self.conv3(F.Activation(self.bn3(x), act_type='relu'))
        return self.extra(x) + residual


def se_resnet(classes=10):
    return vision.ResNetV2(SEBottleneck, [1, 1, 1, 1], [16, 32, 64, 128, 256], classes=classes, thumbnail=True)


def small(classes=10):
    net = gluon.model_zoo.vision.get_model('mobilenetv2_0.25', pretrained=False, classes=classes)
    net.initialize(mx.init.Xavier())
    return net
'''


@pytest.mark.parametrize("factory", ["se_resnet", "small"])
def test_a_translated_program_builds_gluons_networks(factory):
    result = convert_source(PROGRAM)
    assert not [d for d in result.diagnostics if d.status in ("manual", "review")], result.diagnostics
    assert "mxnet" not in result.output.split("\ndef _mx_")[0].replace("`", "")
    translated = dict(vars(rt))
    exec(compile(result.output, "<converted>", "exec"), translated)
    gluon = {}
    exec(PROGRAM, gluon)
    _same_outputs(gluon[factory](), translated[factory](), (2, 3, 32, 32))


def test_pretrained_true_is_reported_with_the_command():
    result = convert_source("from mxnet.gluon.model_zoo import vision\n"
                            "net = vision.get_resnet(2, 50, pretrained=True)\n")
    (found,) = [d for d in result.diagnostics if d.code == "MX175"]
    assert found.status == "review"
    assert ("xlate convert-weights ~/.mxnet/models/resnet50_v2-*.params --zoo resnet50_v2 "
            "-o ~/.mxnet/models/resnet50_v2.pt") in found.message
    assert "_mx_get_resnet(2, 50, pretrained=True)" in result.output


# Note [inception in float64]
# Inception V3's float32 gradients differ between MXNet and the translation beyond what the
# checker's noise mode allows (gradient of x: 0.27 from the float64 result in MXNet, 0.12 in
# PyTorch float32, on values up to 3.5), and each inception block alone matches. Both
# frameworks in float64 agree to 1e-12 (MXNet's float64 operators run without MKL-DNN): the
# network is badly conditioned in float32 at random weights, and MXNet's float32 rounding is
# the larger. So the whole-network gradient comparison runs in float64 on both sides.
@pytest.mark.parametrize("name,size,batch", [
    ("resnet18_v1", 32, 2),
    pytest.param("inceptionv3", 299, 1, marks=pytest.mark.slow),  # one sample: half the time, batch statistics alike
])
def test_float64_training_gradients_match_gluon(name, size, batch):
    from mxnet import autograd

    from xlate.check.sides import no_dropout

    rng = np.random.default_rng(6)
    x = rng.uniform(0.1, 1, (batch, 3, size, size)) * rng.choice([-1, 1], (batch, 3, size, size))
    gluon, net = _both(name, classes=10)
    _randomise(gluon, x.astype("float32"), 6)
    with torch.no_grad():
        net.eval()(torch.tensor(x, dtype=torch.float32))
    transfer(gluon, net)
    no_dropout(gluon, net)  # the generators differ
    gluon.cast("float64")
    net.double().train()
    head = rng.normal(size=(batch, 10))
    data = mx.nd.array(x, dtype="float64")
    data.attach_grad()
    with autograd.record():
        out = gluon(data)
    out.backward(mx.nd.array(head, dtype="float64"))
    pt_data = torch.tensor(x, requires_grad=True)
    pt_out = net(pt_data)
    pt_out.backward(torch.tensor(head))
    np.testing.assert_allclose(pt_out.detach().numpy(), out.asnumpy(), rtol=1e-9, atol=1e-10)
    first = dict(net.named_parameters())["features.0.0.weight" if name == "inceptionv3" else "features.0.weight"]
    gluon_first = next(iter(gluon.collect_params().values()))
    for actual, expected in ((pt_data.grad.numpy(), data.grad.asnumpy()),
                             (first.grad.numpy(), gluon_first.grad().asnumpy())):
        np.testing.assert_allclose(actual, expected, rtol=1e-7, atol=1e-9 * np.abs(expected).max())
