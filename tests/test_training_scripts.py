"""Whole training scripts against their translations, step by step, with live MXNet.

tests/test_fixtures.py checks that converting `fixtures/train_*/train_mx.py` gives the
checked-in `train_pt.py`; this file runs both. Each script defines `build(...)` (the model,
initialised) and `train(net, ..., steps)` (a loop with its own loss, Trainer and data slicing,
returning what it records per step: losses, validation losses, accuracies). For every step
count k = 1..STEPS both models start from the same weights (MXNet's, copied into torch by
xlate.check.mapping.transfer) and train k steps on the same data; the per-step records and
every parameter and BatchNorm running statistic after step k must agree within float32
tolerances. So each step's loss and each step's parameters are compared: the converted
script takes MXNet's optimisation path.

Dropout draws other random masks in each framework: its rate is set to 0 on both sides
(xlate.check.sides.no_dropout) so that the comparison is exact; the mode switching that
Dropout depends on is still exercised by BatchNorm, which reads the same mode.
"""
from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

pytestmark = pytest.mark.mxnet

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
RTOL, ATOL = 1e-4, 1e-5  # float32 after a few steps (Adam divides by sqrt(v): differences grow a little)


@dataclass(frozen=True)
class Script:
    folder: str
    data: Callable  # rng -> (X, y) numpy arrays
    steps: int
    contexts: int = 0  # > 0: build(ctx) and train(net, ctx, ...) take a list of that many contexts
    batchnorm: bool = False
    numpy: bool = False  # a numpy-dialect script (npx.set_np()): blocks take mx.np arrays
    skip: tuple = ()  # step counts not compared (each k trains k steps from the start again)


def _mlp_data(rng):
    return rng.randn(48, 5).astype("float32"), rng.randn(48).astype("float32")


def _image_data(rng):
    return rng.randn(48, 3, 8, 8).astype("float32"), rng.randint(0, 10, 48).astype("float32")


def _two_ctx_data(rng):
    return rng.randn(40, 2, 6, 6).astype("float32"), rng.randint(0, 5, 40).astype("float32")


def _classes_data(rng):
    return rng.uniform(-1, 1, (40, 2, 3, 3)).astype("float32"), rng.randint(0, 5, 40).astype("float32")


def _rollover_data(rng):  # 21 rows in batches of 8: 5 rows roll over into the next epoch
    return rng.uniform(-1, 1, (21, 4)).astype("float32"), rng.uniform(-1, 1, (21, 2)).astype("float32")


def _imagenet_data(rng):  # GluonCV's train_imagenet.py on 16 x 16 synthetic images, 10 classes
    return rng.uniform(-1, 1, (24, 3, 16, 16)).astype("float32"), rng.randint(0, 10, 24).astype("float32")


SCRIPTS = [
    Script("train_mlp_l2", _mlp_data, steps=4),
    Script("train_convnet_bn", _image_data, steps=4, batchnorm=True),
    Script("train_two_ctx", _two_ctx_data, steps=3, contexts=2),
    Script("train_dataloader_rollover", _rollover_data, steps=3),  # steps are epochs here
    Script("train_np_softmax", _classes_data, steps=4, numpy=True),
    # ResNet on 16 x 16 images costs the most: after its 3 steps only (a first step that differs shows there too)
    Script("train_imagenet", _imagenet_data, steps=3, contexts=1, batchnorm=True, skip=(1, 2)),
]


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _flat(value) -> list[float]:
    if isinstance(value, (list, tuple)):
        return [x for item in value for x in _flat(item)]
    return [float(value)]


class Pair:
    """The MXNet script and its translation, with models built from the same weights."""

    def __init__(self, script: Script):
        self.script = script
        self.mx, self.torch, self.np = import_mxnet(), import_torch(), import_numpy()
        folder = FIXTURES / script.folder
        self.mx_module = _load(folder / "train_mx.py", f"{script.folder}_mx")
        self.pt_module = _load(folder / "train_pt.py", f"{script.folder}_pt")
        self.X, self.y = script.data(self.np.random.RandomState(7))

    def contexts(self):
        n = self.script.contexts
        if not n:
            return (), ()
        return ([self.mx.cpu(i) for i in range(n)],), ([self.torch.device("cpu")] * n,)

    def build(self):
        from xlate.check.mapping import transfer
        from xlate.check.sides import no_dropout

        mx_ctx, pt_ctx = self.contexts()
        # MXNet's initial weights from a fixed seed: they were drawn from whatever state earlier
        # tests left, and one draw in a dozen put a gradient of the ConvNet's Dense layer so near
        # 0 between steps that Adam's m/sqrt(v), of gradients that nearly cancel, turned float32
        # rounding into 1e-4 (an order-dependent failure; every parameter else agreed to 4e-7)
        self.mx.random.seed(0)
        self.np.random.seed(0)
        mx_net, pt_net = self.mx_module.build(*mx_ctx), self.pt_module.build(*pt_ctx)
        sample = self.X[:2]
        mx_net((self.mx.np if self.script.numpy else self.mx.nd).array(sample))  # deferred shapes, outside record
        pt_net(self.torch.tensor(sample))
        no_dropout(mx_net, pt_net)
        pairs = transfer(mx_net, pt_net)
        return mx_net, pt_net, pairs

    def train(self, mx_net, pt_net, steps: int):
        mx_ctx, pt_ctx = self.contexts()
        mx_history = self.mx_module.train(mx_net, *mx_ctx, self.X, self.y, steps=steps)
        pt_history = self.pt_module.train(pt_net, *pt_ctx, self.X, self.y, steps=steps)
        return mx_history, pt_history

    def differences(self, steps: int) -> list[str]:
        from xlate.check.mapping import mx_to_pt_value

        np = self.np
        mx_net, pt_net, pairs = self.build()
        mx_history, pt_history = self.train(mx_net, pt_net, steps)
        bad = []
        expected, actual = np.array(_flat(mx_history)), np.array(_flat(pt_history))
        if expected.shape != actual.shape or not np.allclose(actual, expected, rtol=RTOL, atol=ATOL):
            bad.append(f"after {steps} step(s): records {actual.tolist()} where MXNet has {expected.tolist()}")
        compared = statistics = 0
        for pr in pairs:
            for m in pr.maps:
                param, target = pr.mx_block._reg_params.get(m.mx), getattr(pr.pt_module, m.pt, None)
                if param is None or target is None:
                    continue
                value = mx_to_pt_value(m, param.data().asnumpy(), pr)
                got = target.detach().cpu().numpy()
                compared += 1
                statistics += "running" in m.mx
                if value.shape != got.shape or not np.allclose(got, value, rtol=RTOL, atol=ATOL):
                    worst = float(np.abs(got - value).max()) if value.shape == got.shape else float("nan")
                    bad.append(f"after {steps} step(s): {pr.pt_path}.{m.pt} differs from MXNet's {pr.mx_path}.{m.mx} "
                               f"by {worst:.3g}")
        assert compared >= 4, f"only {compared} parameters compared"
        assert statistics or not self.script.batchnorm, "no BatchNorm running statistic was compared"
        return bad


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.folder for s in SCRIPTS])
def test_translated_script_takes_mxnets_steps(script: Script):
    from test_fixture_models import numpy_mode_kept

    bad = []
    with numpy_mode_kept():  # a numpy-dialect script turns MXNet's numpy mode on when it is loaded
        pair = Pair(script)
        for k in range(1, script.steps + 1):
            if k not in script.skip:
                bad += pair.differences(k)
    assert not bad, "\n".join(bad)


def test_the_comparison_sees_a_wrong_step(monkeypatch):
    """The harness can fail: without zero_grad (torch's accumulating gradients) the MLP
    script drifts from MXNet's path from step 2 on."""
    pair = Pair(SCRIPTS[0])
    monkeypatch.setattr(pair.pt_module._mx_Trainer, "zero_grad", lambda self: None)
    assert pair.differences(1) == []
    assert pair.differences(3) != []


def _exec(path: Path, name: str, replace: tuple = ()):
    """The module at `path`, with each (old, new) of `replace` substituted in its text first."""
    import types

    text = path.read_text()
    for old, new in replace:
        assert old in text, f"{old!r} not in {path}"
        text = text.replace(old, new)
    module = types.ModuleType(name)
    module.__file__ = str(path)
    exec(compile(text, str(path), "exec"), module.__dict__)
    return module


SEED_MUTANTS = {"as converted": (), "step(batch_size) scaled twice": (("trainer.step(batch_size)",
                                                                       "trainer.step(batch_size * 2)"),)}


@pytest.mark.parametrize("mutant", SEED_MUTANTS)
def test_seed_multi_gpu_training_function_on_two_cpu_contexts(capsys, mutant):
    """The seed documents' multi-GPU training function (fixtures/multi_gpu_train/train_mx.py) and
    its translation, on the seed's ResNet-18 (resnet_mx.py and its translation): the harness
    substitutes the context list (mx.gpu(i) -> mx.cpu(i), torch.device("cuda", i) -> the CPU)
    and synthetic images for Fashion-MNIST, one batch of 6 per epoch, so the function's 5 epochs
    are 5 Trainer steps over two contexts. Both run in float64 (the harness casts both models and
    the data, and makes MXNet's accuracy counter float64): in float32, torch 2.4's convolutions
    differ from MXNet's by 1e-6, a ReLU input that close to 0 lands on the other side in step 2,
    and its gradient (6e-3) moves every layer before it, 7e-5 apart after 5 steps (torch 2.13's
    convolutions happen to give MXNet's float32 numbers); float64's rounding crosses no kink. Both start from the same weights (initialised and
    copied before the call: the function's own initialize() then keeps them, as Gluon does);
    after the 5 steps every trainable parameter must agree (and must not, with a wrong
    step(batch_size) edited into the translation: the harness can fail). BatchNorm's running statistics are
    not compared: MXNet keeps one copy per context, the translation one that both slices move
    (MX560), so the validation accuracy the function prints is reported, not required equal."""
    from xlate.check.mapping import mx_to_pt_value, transfer
    from xlate.check.sides import mx_prepare

    mx, torch, np = import_mxnet(), import_torch(), import_numpy()
    folder = FIXTURES / "multi_gpu_train"
    # a wrong step shows from the first step: the mutant runs 2 of the 5 epochs (float64 costs)
    epochs = (("range(5)", "range(2)"),) if SEED_MUTANTS[mutant] else ()
    mx_train = _exec(folder / "train_mx.py", "multi_gpu_mx", (*epochs, ("mx.gpu(i)", "mx.cpu(i)"),
                                                              ("astype('float32')", "astype('float64')"),
                                                              ("nd.array([0], ctx=ctx)", "nd.array([0], ctx=ctx, dtype='float64')")))
    pt_train = _exec(folder / "train_pt.py", "multi_gpu_pt",
                     (*epochs, ('torch.device("cuda", i)', 'torch.device("cpu")'), *SEED_MUTANTS[mutant]))
    mx_net = _exec(folder / "resnet_mx.py", "resnet_mx").resnet18(10)
    pt_net = _exec(folder / "resnet_pt.py", "resnet_pt").resnet18(10)
    rng = np.random.RandomState(11)
    X, y = rng.randn(8, 1, 28, 28), rng.randint(0, 10, 8).astype("float64")
    X_test, y_test = rng.randn(6, 1, 28, 28), rng.randint(0, 10, 6).astype("float64")
    contexts = [mx.cpu(0), mx.cpu(1)]
    mx_net.initialize(ctx=contexts)
    mx_net(mx.nd.array(X[:2], dtype="float32"))  # deferred shapes, outside record: no statistics move
    pt_net.eval()
    with torch.no_grad():
        pt_net(torch.tensor(X[:2], dtype=torch.float32))
    known = mx_prepare(mx_net, [X[:2].astype("float32")], np.random.default_rng(5))
    pairs = transfer(mx_net, pt_net, known)
    mx_net.cast("float64")
    pt_net.double()
    for tensor in [*pt_net.parameters(), *pt_net.buffers()]:
        tensor._mx_ready = True  # initialised: the translated initialize() keeps it, as Gluon's does
    mx_train.train(mx_net, [(mx.nd.array(X, dtype=X.dtype), mx.nd.array(y, dtype=y.dtype))],
                   [(mx.nd.array(X_test, dtype=X.dtype), mx.nd.array(y_test, dtype=y.dtype))], 2, 8, 0.01)
    mx_out = capsys.readouterr().out
    pt_train.train(pt_net, [(torch.tensor(X), torch.tensor(y))], [(torch.tensor(X_test), torch.tensor(y_test))],
                   2, 8, 0.01)
    pt_out = capsys.readouterr().out
    assert "Running on [cpu(0), cpu(1)]" in mx_out and "Running on [device(type='cpu')" in pt_out
    accuracies = [re.findall(r"validation accuracy = ([0-9.]+)", o) for o in (mx_out, pt_out)]
    # the translated evaluate_accuracy runs (n += y.size)
    assert len(accuracies[0]) == len(accuracies[1]) == (2 if epochs else 5)
    bad, compared = [], 0
    for pr in pairs:
        for m in pr.maps:
            param, target = pr.mx_block._reg_params.get(m.mx), getattr(pr.pt_module, m.pt, None)
            if param is None or target is None or "running" in m.mx:
                continue
            value, got = mx_to_pt_value(m, param.data().asnumpy(), pr), target.detach().numpy()
            compared += 1
            if not np.allclose(got, value, rtol=1e-7, atol=1e-9):  # float64
                bad.append(f"{pr.pt_path}.{m.pt}: {float(np.abs(got - value).max()):.3g} apart")
    assert compared >= 40, compared
    if SEED_MUTANTS[mutant]:
        assert len(bad) > compared // 2, f"the wrong translation passed: {bad}"
    else:
        assert not bad, "\n".join(bad)
