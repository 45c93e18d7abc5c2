"""The gluon.nn layer families of the checker (xlate/check/layers.py), run against live MXNet.

Each sample builds a Gluon block, materialises its deferred shapes with one forward, then
overwrites every parameter and running statistic with random asymmetric non-zero values. The
torch module is the translation layers.md verified as correct (the row ids in the comments are
that file's); `mapping.transfer` copies the weights, and both frameworks must agree on:
  * the inference output (MXNet outside `autograd.record()`, torch `.eval()` under no_grad),
  * the training output, the input gradient and every parameter gradient under one random
    head gradient (torch `.train()`, MXNet under `record()`).
Parameter gradients are compared in MXNet's layout: the torch gradient goes through the map's
`to_mx` (GroupNorm's per-channel gradient summed per group). Sending the MXNet gradient through
`to_pt` instead is wrong wherever `to_pt` repeats values; `test_groupnorm_gradient_*` shows it.
A parameter MXNet does not learn (grad_req='null') must be frozen in torch as well.

The failure tests show that a pairing that does not fit raises `MappingError` naming the
parameters and their shapes, and that a wrong translation or a wrong mapping table is caught
by `compare` as a Mismatch.
"""
from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass
from typing import Any, Callable

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch, make_input, seed_for

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from mxnet.gluon import nn  # noqa: E402
from mxnet.gluon.contrib import nn as contrib_nn  # noqa: E402

from xlate.check import families  # noqa: E402,F401  (registers the families)
from xlate.check import layers, mapping, samples  # noqa: E402
from xlate.check.compare import Mismatch, compare, tolerance_for  # noqa: E402
from xlate.check.mapping import MappingError  # noqa: E402

pytestmark = pytest.mark.mxnet
tnn = torch.nn
TOL = tolerance_for("float32")
PROFILE = dict(derandomize=True, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


# -- running one sample ---------------------------------------------------------------------
@dataclass(frozen=True)
class Sample:
    desc: str
    mx: Callable[[], Any]  # builds the Gluon block
    pt: Callable[[], Any]  # builds its verified torch translation
    x: tuple  # mxsupport.make_input spec of the input
    forward: Callable = lambda m, x: m(x)  # the torch expression, when it is more than m(x)
    stats: bool = False  # BatchNorm: compare running_mean after the training step (3.3)

    @property
    def ids(self) -> bool:
        return self.x[0] == "ids"


def frozen(module, *names):
    """The translation of a parameter MXNet keeps at grad_req='null' (3.9, 3.14)."""
    for n in names:
        getattr(module, n).requires_grad_(False)
    return module


def randomize(block, rng) -> None:
    for name, p in block.collect_params().items():
        spec = ("pos", p.shape) if name.endswith("running_var") else tuple(p.shape)
        p.set_data(mx.nd.array(make_input(rng, spec)))


def prepare(s: Sample, rng, *, positive_means: bool = False):
    """(x, mx block with random weights, torch module with the same weights, pairs)."""
    x = make_input(rng, s.x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # contrib SyncBatchNorm warns on construction
        block = s.mx()
        block.initialize()
    block(mx.nd.array(x))  # deferred shapes
    randomize(block, rng)
    if positive_means:
        for name, p in block.collect_params().items():
            if name.endswith("running_mean"):
                p.set_data(mx.nd.array(make_input(rng, ("pos", p.shape))))
    module = s.pt()
    with torch.no_grad():  # lazy modules take their shapes here
        s.forward(module.eval(), torch_input(s, x))
    return x, block, module, mapping.transfer(block, module)


def torch_input(s: Sample, x):
    return torch.from_numpy(x.astype(np.int64) if s.ids else x.copy())


def check_sample(s: Sample, seed: int) -> int:
    """Run `s`; fail with every mismatch, else return how many comparisons passed."""
    rng = np.random.default_rng(seed)
    x, block, module, pairs = prepare(s, rng)
    problems: list[str] = []
    count = 0

    def check(what, expected, actual):
        nonlocal count
        count += 1
        m = compare(what, expected, actual, TOL)
        if m is not None:
            problems.append(m.format())

    y_mx = block(mx.nd.array(x)).asnumpy()
    with torch.no_grad():
        y_pt = s.forward(module.eval(), torch_input(s, x)).numpy()
    check("inference output", y_mx, y_pt)

    head = make_input(rng, y_mx.shape)
    xm = mx.nd.array(x)
    if not s.ids:  # MXNet's Embedding refuses to differentiate by its indices
        xm.attach_grad()
    with mx.autograd.record():
        ym = block(xm)
    ym.backward(mx.nd.array(head))
    xt = torch_input(s, x)
    if not s.ids:
        xt.requires_grad_(True)
    yt = s.forward(module.train(), xt)
    yt.backward(torch.from_numpy(head))
    check("training output", ym.asnumpy(), yt.detach().numpy())
    if not s.ids:  # indices have no gradient
        check("d/dx", xm.grad.asnumpy(), xt.grad.numpy())
    for pr in pairs:
        for m in pr.maps:
            p = pr.mx_block._reg_params.get(m.mx)
            if p is None:  # an optional parameter both sides lack
                continue
            target = getattr(pr.pt_module, m.pt)
            what = f"{pr.mx_path}.{m.mx} -> {pr.pt_path}.{m.pt}"
            if (p.grad_req != "null") != (target.grad is not None):
                problems.append(f"{what}: MXNet grad_req={p.grad_req}, torch grad {target.grad is not None}")
            elif target.grad is not None:
                g = target.grad.numpy()
                g = m.to_mx(g, pr.mx_block, pr.pt_module) if m.to_mx else g
                check(f"gradient of {what}", p.grad().asnumpy(), g)
            if s.stats and m.mx == "running_mean":  # the update happens in MXNet's backward (3.6)
                check(f"{what} after one step", p.data().asnumpy(), target.numpy())
    assert not problems, f"{s.desc}:\n  " + "\n  ".join(problems)
    return count


def run(s: Sample) -> None:
    count = check_sample(s, seed_for(s.desc))
    assert count >= 3, f"{s.desc}: only {count} comparisons"


# -- the families' samples ------------------------------------------------------------------
def flat(m, x):
    return m(x.flatten(1))


def moved(axis, dim):
    """BatchNorm(axis=-1), LayerNorm(axis=1): torch normalises over `dim` only (3.10, 3.12)."""
    return lambda m, x: m(x.movedim(axis, dim)).movedim(dim, axis)


def bn_relu(m, x):
    return torch.relu(m(x))


SAMPLES = [
    # dense (1.1-1.5)
    Sample("Dense flatten=True on 3-D", lambda: nn.Dense(4, in_units=15), lambda: tnn.Linear(15, 4), (2, 3, 5), flat),
    Sample("Dense deferred flatten=True", lambda: nn.Dense(4),
           lambda: tnn.Sequential(tnn.Flatten(), tnn.LazyLinear(4)), (2, 3, 5)),
    Sample("Dense flatten=False no bias", lambda: nn.Dense(4, flatten=False, use_bias=False),
           lambda: tnn.LazyLinear(4, bias=False), (2, 3, 5)),
    Sample("Sequential Dense relu", lambda: _seq(nn.Dense(6, activation="relu", in_units=5), nn.Dense(3, in_units=6)),
           lambda: tnn.Sequential(tnn.Linear(5, 6), tnn.ReLU(), tnn.Linear(6, 3)), (4, 5)),
    # conv (2.1-2.6)
    Sample("Conv1D", lambda: nn.Conv1D(5, 3, strides=2, padding=2, dilation=2, in_channels=3),
           lambda: tnn.Conv1d(3, 5, 3, stride=2, padding=2, dilation=2), (2, 3, 11)),
    Sample("Conv2D groups", lambda: nn.Conv2D(6, (3, 2), strides=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2,
                                              in_channels=4),
           lambda: tnn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2), (2, 4, 7, 6)),
    Sample("Conv2D deferred", lambda: nn.Conv2D(3, 2), lambda: tnn.LazyConv2d(3, 2), (2, 4, 5, 5)),
    Sample("Conv3D no bias", lambda: nn.Conv3D(4, 2, in_channels=2, use_bias=False),
           lambda: tnn.Conv3d(2, 4, 2, bias=False), (2, 2, 4, 3, 4)),
    Sample("Conv1DTranspose", lambda: nn.Conv1DTranspose(3, 4, strides=2, padding=1, in_channels=2),
           lambda: tnn.ConvTranspose1d(2, 3, 4, stride=2, padding=1), (2, 2, 6)),
    Sample("Conv2DTranspose groups output_padding",
           lambda: nn.Conv2DTranspose(4, 3, strides=2, padding=1, output_padding=1, groups=2, in_channels=6),
           lambda: tnn.ConvTranspose2d(6, 4, 3, stride=2, padding=1, output_padding=1, groups=2), (2, 6, 4, 5)),
    Sample("Conv3DTranspose deferred", lambda: nn.Conv3DTranspose(2, 2, strides=2),
           lambda: tnn.LazyConvTranspose3d(2, 2, stride=2), (2, 3, 2, 3, 2)),
    # batchnorm (3.1-3.3, 3.9, 3.10): running_mean after a step matches with torch momentum 1 - 0.9
    Sample("BatchNorm 4-D", lambda: nn.BatchNorm(in_channels=3), lambda: tnn.BatchNorm2d(3), (4, 3, 5, 4), stats=True),
    Sample("BatchNorm 2-D deferred", lambda: nn.BatchNorm(), lambda: tnn.LazyBatchNorm1d(), (6, 5), stats=True),
    Sample("BatchNorm 5-D", lambda: nn.BatchNorm(in_channels=2), lambda: tnn.BatchNorm3d(2), (3, 2, 3, 2, 4),
           stats=True),
    Sample("BatchNorm scale=False (gamma ignored)", lambda: nn.BatchNorm(scale=False, in_channels=3),
           lambda: frozen(tnn.BatchNorm1d(3), "weight"), (4, 3, 6), stats=True),
    Sample("BatchNorm center=False", lambda: nn.BatchNorm(center=False, in_channels=3),
           lambda: frozen(tnn.BatchNorm2d(3), "bias"), (4, 3, 3, 3)),
    Sample("BatchNorm axis=-1", lambda: nn.BatchNorm(axis=-1, in_channels=4), lambda: tnn.BatchNorm1d(4),
           (3, 5, 4), moved(-1, 1), stats=True),
    Sample("BatchNorm momentum=0.5", lambda: nn.BatchNorm(momentum=0.5, epsilon=1e-3, in_channels=3),
           lambda: tnn.BatchNorm2d(3, momentum=0.5, eps=1e-3), (4, 3, 2, 3), stats=True),
    Sample("BatchNormReLU", lambda: nn.BatchNormReLU(in_channels=3), lambda: tnn.BatchNorm2d(3), (4, 3, 3, 4),
           bn_relu, stats=True),
    Sample("contrib SyncBatchNorm", lambda: contrib_nn.SyncBatchNorm(in_channels=3), lambda: tnn.BatchNorm2d(3),
           (4, 3, 3, 4), stats=True),
    # layernorm (3.11, 3.12)
    Sample("LayerNorm", lambda: nn.LayerNorm(in_channels=6), lambda: tnn.LayerNorm(6), (2, 3, 6)),
    Sample("LayerNorm axis=1", lambda: nn.LayerNorm(axis=1), lambda: tnn.LayerNorm(4), (2, 4, 3), moved(1, -1)),
    Sample("LayerNorm center=False scale=False", lambda: nn.LayerNorm(center=False, scale=False, epsilon=1e-3),
           lambda: frozen(tnn.LayerNorm(5, eps=1e-3), "weight", "bias"), (3, 5)),
    # instancenorm (3.13, 3.14): affine=True always; gamma multiplies even when scale=False
    Sample("InstanceNorm default scale=False", lambda: nn.InstanceNorm(in_channels=3),
           lambda: frozen(tnn.InstanceNorm2d(3, affine=True), "weight"), (2, 3, 5, 4)),
    Sample("InstanceNorm scale=True 3-D", lambda: nn.InstanceNorm(scale=True),
           lambda: tnn.InstanceNorm1d(4, affine=True), (2, 4, 7)),
    # the lazy variants track running statistics unless told not to
    Sample("InstanceNorm 5-D", lambda: nn.InstanceNorm(scale=True, in_channels=2),
           lambda: tnn.LazyInstanceNorm3d(affine=True, track_running_stats=False), (2, 2, 3, 2, 3)),
    # groupnorm (3.15)
    Sample("GroupNorm 3 groups of 2", lambda: nn.GroupNorm(3), lambda: tnn.GroupNorm(3, 6), (2, 6, 4, 3)),
    Sample("GroupNorm one group", lambda: nn.GroupNorm(1), lambda: tnn.GroupNorm(1, 4), (2, 4, 5)),
    Sample("GroupNorm a group per channel", lambda: nn.GroupNorm(4), lambda: tnn.GroupNorm(4, 4), (2, 4, 3, 3)),
    # embedding (5.1), prelu (6.13, 6.14)
    Sample("Embedding", lambda: nn.Embedding(10, 4), lambda: tnn.Embedding(10, 4), ("ids", (3, 5), 0, 10)),
    Sample("PReLU one alpha", lambda: nn.PReLU(), lambda: tnn.PReLU(), (2, 3, 4)),
    Sample("PReLU per channel", lambda: nn.PReLU(in_channels=3), lambda: tnn.PReLU(3), (2, 3, 4, 4)),
]


def _seq(*blocks):
    net = nn.HybridSequential()
    net.add(*blocks)
    return net


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.desc)
def test_sample(sample):
    run(sample)


LAYER_FAMILIES = [f for f in vars(layers).values() if isinstance(f, mapping.Family)]


def test_every_family_has_samples():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        blocks = [s.mx() for s in SAMPLES]
    covered = {mapping.family_of(b).name for b in blocks if mapping.family_of(b)}
    assert covered == {f.name for f in LAYER_FAMILIES}
    assert all(mapping.FAMILIES[f.name] is f for f in LAYER_FAMILIES)  # registered, once


def test_registered_names_exist():
    for fam in LAYER_FAMILIES:
        for t in fam.mx_types:
            assert hasattr(nn, t) or hasattr(contrib_nn, t), f"{fam.name}: no Gluon block {t}"
        for t in fam.pt_types:
            assert isinstance(getattr(tnn, t, None), type), f"{fam.name}: no torch.nn.{t}"


# -- hypothesis-drawn configurations --------------------------------------------------------
def from_package(name: str, config) -> Sample:
    """The family's own sample (xlate/check/layers.py) for one drawn configuration."""
    block, module, inputs = samples.SAMPLES[name].build(config)
    return Sample(f"{name}: {samples.describe(config)}", lambda: block, lambda: module, inputs[0].shape)


@settings(max_examples=15, **PROFILE)
@given(samples.SAMPLES['dense'].configs())
def test_dense_drawn(config):
    run(from_package("dense", config))


@settings(max_examples=15, **PROFILE)
@given(samples.SAMPLES['conv'].configs())
def test_conv2d_drawn(config):
    run(from_package("conv", config))


@settings(max_examples=12, **PROFILE)
@given(samples.SAMPLES['groupnorm'].configs())
def test_groupnorm_drawn(config):
    run(from_package("groupnorm", config))


@settings(max_examples=10, **PROFILE)
@given(samples.SAMPLES['layernorm'].configs())
def test_layernorm_drawn(config):
    run(from_package("layernorm", config))


# -- pairings that do not fit ---------------------------------------------------------------
def _built(block, x_shape):
    block.initialize()
    block(mx.nd.array(make_input(np.random.default_rng(0), x_shape)))
    return block


def test_torch_model_one_layer_short():
    net = _built(_seq(nn.Dense(8, in_units=5), nn.BatchNorm(in_channels=8), nn.Dense(3, in_units=8)), (4, 5))
    with pytest.raises(MappingError) as err:
        mapping.pair(net, tnn.Sequential(tnn.Linear(5, 8), tnn.Linear(8, 3)))
    msg = str(err.value)
    assert "MXNet has 3 blocks with parameters, PyTorch 2" in msg
    for part in ("gamma (8,)", "running_var (8,)", "weight (3, 8)", "bias (3,)", "weight (8, 5)"):
        assert part in msg, msg


def _outside_family_message() -> str:
    net = _built(_seq(nn.Dense(4, in_units=6)), (2, 6))
    with pytest.raises(MappingError) as err:
        mapping.pair(net, tnn.Sequential(tnn.Conv2d(6, 4, 1)))
    return str(err.value)


def test_layer_outside_its_family():
    msg = _outside_family_message()
    assert "Dense" in msg and "Conv2d" in msg and "Linear" in msg, msg


def test_layer_outside_its_family_names_shapes():
    msg = _outside_family_message()
    assert "weight (4, 6)" in msg and "weight (4, 6, 1, 1)" in msg, msg


@pytest.mark.parametrize("mx_block, pt_module, words", [
    # equal channel counts: the copy would succeed and compute something else
    (lambda: nn.Conv2D(4, 3, in_channels=4), lambda: tnn.ConvTranspose2d(4, 4, 3),
     ("Conv2D", "ConvTranspose2d", "weight (4, 4, 3, 3)")),
    (lambda: nn.Conv1DTranspose(2, 3, in_channels=2), lambda: tnn.Conv1d(2, 2, 3), ("Conv1DTranspose", "Conv1d")),
    (lambda: nn.Conv2D(4, 3, in_channels=2, layout="NHWC"), lambda: tnn.Conv2d(2, 4, 3), ("NHWC",)),
    (lambda: nn.GroupNorm(2), lambda: tnn.GroupNorm(3, 6),
     ("2 groups", "GroupNorm(3, 6)", "gamma (2,)", "weight (6,)")),
    (lambda: nn.InstanceNorm(in_channels=3), lambda: tnn.InstanceNorm2d(3, affine=True, track_running_stats=True),
     ("track_running_stats",)),
    (lambda: nn.InstanceNorm(in_channels=3), lambda: tnn.InstanceNorm2d(3), ("MXNet has 1 blocks", "gamma (3,)")),
], ids=["conv-vs-transpose", "transpose-vs-conv", "NHWC", "group-count", "instancenorm-running-stats",
        "instancenorm-affine-false"])
def test_family_rejects(mx_block, pt_module, words):
    block = mx_block()
    block.initialize()
    with pytest.raises(MappingError) as err:
        mapping.pair(block, pt_module())
    for w in words:
        assert w in str(err.value), str(err.value)



@pytest.mark.parametrize("mx_block, pt_module", [
    (lambda: nn.Dense(4, in_units=5, use_bias=False), lambda: tnn.Linear(5, 4)),
    (lambda: nn.Dense(4, in_units=5), lambda: tnn.Linear(5, 4, bias=False)),
    (lambda: nn.Conv2D(3, 2, in_channels=2), lambda: tnn.Conv2d(2, 3, 2, bias=False)),
], ids=["mx-without-bias", "torch-without-bias", "conv-torch-without-bias"])
def test_use_bias_differs(mx_block, pt_module):
    block = mx_block()
    block.initialize()
    with pytest.raises(MappingError, match=r"bias \(\d+,\)"):  # the name and its shape
        mapping.pair(block, pt_module())


def test_transfer_wrong_size():
    # Dense(4) with deferred in_units infers 15 from (2, 3, 5); LazyLinear(4) infers 5 (1.3)
    block = _built(nn.Dense(4), (2, 3, 5))
    lazy = tnn.LazyLinear(4)
    lazy(torch.ones(2, 3, 5))
    with pytest.raises(MappingError) as err:
        mapping.transfer(block, lazy)
    msg = str(err.value)
    assert "(4, 15)" in msg and "(4, 5)" in msg and "weight" in msg, msg


# -- wrong translations and wrong tables are caught by compare --------------------------------
def outputs(s: Sample, seed: int, *, train: bool = False, positive_means: bool = False):
    """(MXNet output, torch output) after transfer, inference unless `train`."""
    x, block, module, _ = prepare(s, np.random.default_rng(seed), positive_means=positive_means)
    with mx.autograd.record(train_mode=train):
        y_mx = block(mx.nd.array(x)).asnumpy()
    with torch.no_grad():
        y_pt = s.forward(module.train(train), torch_input(s, x)).numpy()
    return y_mx, y_pt


def test_dense_without_flatten_is_caught():
    # the translation forgot Dense's flatten=True: torch keeps the middle axis (1.1)
    s = Sample("naive Dense", lambda: nn.Dense(4, in_units=5), lambda: tnn.Linear(5, 4), (2, 1, 5))
    m = compare("output", *outputs(s, 1), TOL)
    assert isinstance(m, Mismatch) and m.reason.startswith("shape (2, 1, 4)"), m


def _patched(monkeypatch, mx_type, **changes):
    fam = mapping._BY_MX[mx_type]
    monkeypatch.setitem(mapping._BY_MX, mx_type, dataclasses.replace(fam, **changes))


GN = Sample("GroupNorm", lambda: nn.GroupNorm(3), lambda: tnn.GroupNorm(3, 6), (2, 6, 4, 3))


def test_groupnorm_tiled_gamma_is_caught(monkeypatch):
    # per-group values laid out group after group (tile) instead of channel by channel (repeat)
    tiled = lambda v, b, m: np.tile(v, m.num_channels // m.num_groups)  # noqa: E731
    _patched(monkeypatch, "GroupNorm", expand=None,
             params=tuple(dataclasses.replace(p, to_pt=tiled) for p in layers.GROUPNORM_PARAMS))
    m = compare("output", *outputs(GN, 2), TOL)
    assert isinstance(m, Mismatch) and m.reason == "values", m


def test_groupnorm_gamma_copied_as_is_fails_loudly(monkeypatch):
    _patched(monkeypatch, "GroupNorm", expand=None,
             params=tuple(dataclasses.replace(p, to_pt=None) for p in layers.GROUPNORM_PARAMS))
    with pytest.raises(MappingError, match=r"gamma \(3,\).*expects \(6,\)"):
        outputs(GN, 2)


def test_groupnorm_gradient_through_to_pt_is_wrong():
    # the MXNet gamma gradient repeated per channel is not torch's per-channel gradient: the
    # comparison has to go the other way (to_mx, a sum per group), as check_sample does
    x, block, module, pairs = prepare(GN, np.random.default_rng(3))
    head = make_input(np.random.default_rng(4), x.shape)
    with mx.autograd.record():
        y = block(mx.nd.array(x))
    y.backward(mx.nd.array(head))
    module.train()(torch.from_numpy(x)).backward(torch.from_numpy(head))
    gamma = layers.GROUPNORM_PARAMS[0]
    g_mx, g_pt = block.gamma.grad().asnumpy(), module.weight.grad.numpy()
    assert compare("to_mx", g_mx, gamma.to_mx(g_pt, block, module), TOL) is None
    wrong = compare("to_pt", gamma.to_pt(g_mx, block, module), g_pt, TOL)
    assert isinstance(wrong, Mismatch) and wrong.reason == "values", wrong


BN = Sample("BatchNorm", lambda: nn.BatchNorm(in_channels=3), lambda: tnn.BatchNorm2d(3), (4, 3, 3, 2))


def test_batchnorm_running_stats_swapped_is_caught(monkeypatch):
    p = layers.BATCHNORM.params
    swapped = (p[0], p[1], dataclasses.replace(p[2], pt="running_var"), dataclasses.replace(p[3], pt="running_mean"))
    _patched(monkeypatch, "BatchNorm", params=swapped)
    # positive means keep the swapped variance valid: the difference is in the values, not NaN
    m = compare("output", *outputs(BN, 5, positive_means=True), TOL)
    assert isinstance(m, Mismatch) and m.reason == "values", m
    # batch statistics hide it in training: only the inference comparison sees the swap
    assert compare("output", *outputs(BN, 5, train=True, positive_means=True), TOL) is None


def test_batchnorm_scale_false_gamma_copied_is_caught(monkeypatch):
    # copying a non-1 gamma into the weight is wrong: MXNet ignores gamma when scale=False (3.9)
    p = layers.BATCHNORM.params
    _patched(monkeypatch, "BatchNorm", params=(dataclasses.replace(p[0], to_pt=None), *p[1:]))
    s = Sample("BatchNorm scale=False", lambda: nn.BatchNorm(scale=False, in_channels=3),
               lambda: frozen(tnn.BatchNorm2d(3), "weight"), (4, 3, 3, 2))
    m = compare("output", *outputs(s, 6), TOL)
    assert isinstance(m, Mismatch) and m.reason == "values", m
