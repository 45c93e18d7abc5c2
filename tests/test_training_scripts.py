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


SCRIPTS = [
    Script("train_mlp_l2", _mlp_data, steps=4),
    Script("train_convnet_bn", _image_data, steps=4, batchnorm=True),
    Script("train_two_ctx", _two_ctx_data, steps=3, contexts=2),
    Script("train_dataloader_rollover", _rollover_data, steps=3),  # steps are epochs here
    Script("train_np_softmax", _classes_data, steps=4, numpy=True),
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
            bad += pair.differences(k)
    assert not bad, "\n".join(bad)


def test_the_comparison_sees_a_wrong_step(monkeypatch):
    """The harness can fail: without zero_grad (torch's accumulating gradients) the MLP
    script drifts from MXNet's path from step 2 on."""
    pair = Pair(SCRIPTS[0])
    monkeypatch.setattr(pair.pt_module._mx_Trainer, "zero_grad", lambda self: None)
    assert pair.differences(1) == []
    assert pair.differences(3) != []
