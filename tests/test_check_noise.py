"""Noise mode (`xlate check --noise-floor`; Note [noise floor] in xlate/check/noise.py): float32
rounding amplified by training-mode BatchNorm passes, wrong translations never do.

The judgement itself is tested on arrays; then on a deep model converted by xlate (conv, BatchNorm
over 3 values a channel, ReLU, LRN, Dense with an activation), whose correct translation fails
the strict comparison by float32 noise alone, and whose wrong translations (BatchNorm momentum
not flipped, unbiased running variance, Dense activation dropped, LRN k=1) must fail in noise
mode; then on the AlexNet of fixtures/zoo_package, converted as a package.
"""
from __future__ import annotations

import json
import re
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from xlate.check.compare import tolerance_for
from xlate.check.noise import NoiseFloor, judge

TOL = tolerance_for("float32")
FLOOR = NoiseFloor(k=50)


# -- the judgement ------------------------------------------------------------------------------
def _arrays(seed=0, n=200, pt_noise=1e-4, mx_noise=3e-4):
    """A float64 result and two float32 sides off from it by noise of the given sizes."""
    rng = np.random.default_rng(seed)
    ref = rng.uniform(-2, 2, n)
    return ref + rng.uniform(-mx_noise, mx_noise, n), ref + rng.uniform(-pt_noise, pt_noise, n), ref


def test_noise_within_k_times_float32s_own_deviation_passes():
    mx, pt, ref = _arrays()
    assert np.abs(mx - pt).max() > TOL.atol + TOL.rtol * 2  # the strict comparison would fail
    mismatch, dev = judge("q", mx, pt, ref, TOL, FLOOR)
    assert mismatch is None and dev.verdict == "noise"
    assert 1 < dev.ratio < 5
    assert "within float32 noise" in dev.summary() and "K=50" in dev.summary()


def test_a_deviation_beyond_k_times_the_noise_fails_naming_both_deviations():
    mx, pt, ref = _arrays(mx_noise=1e-4)
    mx[17] += 0.02  # one element off by 200 times the float32 noise: a translation error
    mismatch, dev = judge("training: output", mx, pt, ref, TOL, FLOOR)
    assert dev.verdict == "exceeds" and dev.ratio > 100
    text = mismatch.format()
    assert text.startswith("training: output: 1 of 200 elements differ")
    assert "further from the float64 result than PyTorch float32" in text
    assert f"{dev.mx:.3g}" in text and f"{dev.pt:.3g}" in text and "first at index (17,)" in text


def test_k_is_the_line():
    mx, pt, ref = _arrays(mx_noise=0.0)
    worst = np.abs(pt - ref).max()
    mx = ref.copy()
    mx[3] += 40 * worst + TOL.atol + TOL.rtol * abs(ref[3])  # 40 times the noise, beyond tolerance
    assert judge("q", mx, pt, ref, TOL, NoiseFloor(k=50))[0] is None
    assert judge("q", mx, pt, ref, TOL, NoiseFloor(k=30))[0] is not None


def test_within_tolerance_of_the_float64_result_needs_no_noise():
    mx, pt, ref = _arrays(pt_noise=1e-3, mx_noise=1e-6)
    mismatch, dev = judge("q", mx, pt, ref, TOL, FLOOR)
    assert mismatch is None and dev.verdict == "tolerance"


def test_a_quantity_float32_cannot_resolve_is_never_passed():
    # PyTorch float32 itself off by 1% of the values: K times that allows anything, so it fails
    mx, pt, ref = _arrays(pt_noise=0.02, mx_noise=0.02)
    mismatch, dev = judge("training: gradient of w", mx, pt, ref, TOL, FLOOR)
    assert dev.verdict == "unjudgeable" and mismatch is not None
    assert "cannot be judged in float32" in mismatch.format() and "larger inputs" in mismatch.format()


def test_a_quantity_that_is_zero_is_judged_against_the_noise():
    # a bias before BatchNorm: its gradient is zero (float64 says 1e-14), float32 computes noise
    rng = np.random.default_rng(1)
    ref = rng.uniform(-1e-14, 1e-14, 16)
    pt, mx = ref + rng.uniform(-2e-5, 2e-5, 16), ref + rng.uniform(-4e-5, 4e-5, 16)
    assert judge("q", mx, pt, ref, TOL, FLOOR)[1].verdict == "noise"
    mx[0] = 0.5  # a translation that gives this bias a gradient
    assert judge("q", mx, pt, ref, TOL, FLOOR)[1].verdict == "exceeds"


@pytest.mark.parametrize("where", ["pt", "ref"])
def test_nan_or_inf_never_passes(where):
    mx, pt, ref = _arrays()
    (pt if where == "pt" else ref)[5] = np.nan
    mismatch, _ = judge("q", mx, pt, ref, TOL, FLOOR)
    assert mismatch is not None and "NaN or Inf" in mismatch.format()


def test_k_must_be_positive():
    for k in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            NoiseFloor(k)


# -- a deep model converted by xlate ----------------------------------------------------------
DEEP_MX = '''
import mxnet as mx
from mxnet.gluon import nn


class Stage(nn.HybridBlock):
    def __init__(self, channels, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.conv = nn.Conv2D(channels, 1)
            self.bn = nn.BatchNorm()

    def hybrid_forward(self, F, x):
        return F.LRN(F.relu(self.bn(self.conv(x))), nsize=5, alpha=1e-4, beta=0.75, knorm=2.0)


def build(depth=8, width=16):
    net = nn.HybridSequential()
    for _ in range(depth):
        net.add(Stage(width))
    net.add(nn.Dense(16, activation="relu"), nn.Dense(4))
    return net
'''
DEEP_INPUT = "x:float32[3,8,1,1]"  # BatchNorm over 3 values a channel, 8 times
# wrong translations, as text replacements in the converted file
WRONG = {
    "BatchNorm momentum not flipped": ("momentum=1 - momentum", "momentum=momentum"),
    # n / (n - 1) = 1.5 for the 3 values a channel: the unbiased variance in the update
    "BatchNorm unbiased running variance": ("- eps).to(running_var.dtype)", "- eps).to(running_var.dtype) * 1.5"),
    "Dense activation dropped": ('Dense(16, activation="relu")', "Dense(16)"),
    "LRN k=1 instead of 2": ("k=2.0", "k=1.0"),
}
STRICT_FAILURES = {0: 5, 2: 5}  # seed -> at least this many checks the strict comparison fails


def _deep(mutation=None):
    from xlate.convert.engine import convert_source

    converted = convert_source(DEEP_MX).output
    if mutation is not None:
        old, new = WRONG[mutation]
        assert old in converted, mutation
        converted = converted.replace(old, new)
    mx_space, pt_space = {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(DEEP_MX, mx_space)
    exec(converted, pt_space)
    return mx_space["build"](), pt_space["build"]()


@pytest.mark.mxnet
@pytest.mark.parametrize("seed", sorted(STRICT_FAILURES))
def test_float32_noise_fails_the_strict_comparison_and_passes_noise_mode(seed):
    pytest.importorskip("mxnet")
    pytest.importorskip("torch")
    from xlate.check.inputs import parse
    from xlate.check.pair import check_models

    strict = check_models(*_deep(), [parse(DEEP_INPUT)], seed=seed)
    assert sum(not c.ok for c in strict.checks) >= STRICT_FAILURES[seed]  # else this tests nothing
    noisy = check_models(*_deep(), [parse(DEEP_INPUT)], seed=seed, noise_floor=FLOOR)
    assert noisy.ok, "\n".join(c.mismatch.format() for c in noisy.checks if not c.ok)
    assert len(noisy.checks) == len(strict.checks)
    excused = [c for c in noisy.checks if c.noise is not None and c.noise.verdict == "noise"]
    assert excused and all(c.noise.ratio < FLOOR.k for c in excused)
    assert {c.what for c in noisy.checks if c.noise is not None} == {c.what for c in strict.checks if not c.ok}


@pytest.mark.mxnet
@pytest.mark.parametrize("mutation", WRONG)
def test_wrong_translations_of_a_deep_model_fail_in_noise_mode(mutation):
    pytest.importorskip("mxnet")
    pytest.importorskip("torch")
    from xlate.check.inputs import parse
    from xlate.check.pair import check_models

    result = check_models(*_deep(mutation), [parse(DEEP_INPUT)], seed=0, noise_floor=FLOOR)
    failed = [c for c in result.checks if not c.ok]
    assert failed, mutation
    assert all(c.noise is not None and c.noise.verdict == "exceeds" and c.noise.ratio > 20 * FLOOR.k
               for c in failed), [c.mismatch.format() for c in failed]


@pytest.mark.mxnet
def test_cli_noise_floor_reports_both_deviations(tmp_path, capsys):
    pytest.importorskip("mxnet")
    pytest.importorskip("torch")
    from xlate.cli import main
    from xlate.convert.engine import convert_source

    (tmp_path / "deep_mx.py").write_text(DEEP_MX)
    (tmp_path / "deep_pt.py").write_text(convert_source(DEEP_MX).output)
    args = ["check", "--mx", f"{tmp_path}/deep_mx.py:build", "--pt", f"{tmp_path}/deep_pt.py:build",
            "--input", DEEP_INPUT]
    assert main(args + ["--record", str(tmp_path / "golden")]) == 1  # strict: float32 noise fails it
    capsys.readouterr()
    assert main(args + ["--noise-floor"]) == 0
    out = capsys.readouterr().out
    assert "noise mode: what differs is judged against a float64 copy" in out and "K=50" in out
    excused = r"ok    training: gradient of \S+ \(within float32 noise: [\d.]+x PyTorch float32's deviation"
    assert re.search(excused, out)
    assert "within float32 noise (K=50), at most" in out.splitlines()[-1]
    assert main(args + ["--noise-floor", "20", "--format", "json"]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    assert report["noise_floor"]["k"] == 20
    judged = [c for c in report["checks"] if c["noise"] is not None]
    assert judged and all({"mx", "pt", "scale", "verdict"} <= set(c["noise"]) for c in judged)
    # the recording replayed: the PyTorch side alone, judged against its own float64 copy
    assert main(["check", "--against", str(tmp_path / "golden")]) == 1
    capsys.readouterr()
    assert main(["check", "--against", str(tmp_path / "golden"), "--noise-floor"]) == 0
    assert "noise mode" in capsys.readouterr().out
    assert main(args + ["--noise-floor", "abc"]) == 2


@pytest.mark.mxnet
@pytest.mark.parametrize("why", ["pins float32", "cannot be copied"])
def test_a_model_noise_mode_cannot_copy_or_run_in_float64_is_compared_strictly(why):
    pytest.importorskip("mxnet")
    import threading

    import mxnet as mx
    import torch

    from xlate.check.inputs import parse
    from xlate.check.pair import check_models

    class Translation(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(3, 4)
            if why == "cannot be copied":
                self.lock = threading.Lock()  # deepcopy refuses it

        def forward(self, x):
            y = self.fc(x)
            return y @ torch.eye(4, dtype=torch.float32) if why == "pins float32" else y

    result = check_models(mx.gluon.nn.Dense(4, in_units=3), Translation(), [parse("x:float32[5,3]")],
                          noise_floor=FLOOR)
    assert result.ok and result.noise is None  # strict, and said
    said = "did not run" if why == "pins float32" else "cannot be copied to run in float64"
    assert any(said in a and "every quantity was compared strictly" in a for a in result.advice), result.advice


# -- the AlexNet of fixtures/zoo_package ------------------------------------------------------
ZOO = Path(__file__).resolve().parent.parent / "fixtures" / "zoo_package" / "src" / "zoo"
ZOO_WRONG = {  # the same wrong translations, in the converted package
    "BatchNorm momentum not flipped": ("_mx_compat.py", "momentum=1 - momentum)", "momentum=momentum)"),
    "BatchNorm unbiased running variance": ("_mx_compat.py", "- eps).to(running_var.dtype)",
                                            "- eps).to(running_var.dtype) * 1.5"),
    "Dense activation dropped": ("alexnet.py", "_mx_Dense(16, activation=head_activation)", "_mx_Dense(16)"),
    "LRN k=1 instead of 2": ("alexnet.py", "beta=0.75, k=2.0)", "beta=0.75, k=1.0)"),
}


@pytest.fixture(scope="module")
def zoo_converted(tmp_path_factory):
    from xlate.cli import main

    out = tmp_path_factory.mktemp("zoo") / "zoo"
    assert main(["convert", str(ZOO), "-o", str(out), "-j", "1"]) in (0, 1)
    return out


def _alexnet(converted: Path, name: str, mutation=None):
    from test_fixture_packages import load_package

    root = converted
    if mutation is not None:
        root = converted.parent / name / "zoo"
        shutil.copytree(converted, root)
        file, old, new = ZOO_WRONG[mutation]
        text = (root / file).read_text()
        assert old in text, mutation
        (root / file).write_text(text.replace(old, new))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mx_pkg = load_package(ZOO, f"zoo_mx_noise_{name}")
        pt_pkg = load_package(root, f"zoo_pt_noise_{name}")
    return mx_pkg.get_model("alexnet"), pt_pkg.get_model("alexnet")


@pytest.mark.mxnet
@pytest.mark.parametrize("mutation", [None, *ZOO_WRONG])
def test_the_fixture_alexnet_in_noise_mode(zoo_converted, mutation):
    pytest.importorskip("mxnet")
    pytest.importorskip("torch")
    from xlate.check.inputs import parse
    from xlate.check.pair import check_models

    name = "correct" if mutation is None else mutation.split()[0].lower() + str(len(mutation))
    result = check_models(*_alexnet(zoo_converted, name, mutation), [parse("x:float32[2,3,24,24]")], seed=1,
                          noise_floor=FLOOR)
    failed = [c for c in result.checks if not c.ok]
    if mutation is None:
        assert not failed, "\n".join(c.mismatch.format() for c in failed)
        assert any("gradient" in c.what for c in result.checks) and len(result.checks) >= 20
    else:
        assert failed and all(c.noise is not None and c.noise.verdict == "exceeds" for c in failed), mutation


# -- kinks (Note [kinks]) -----------------------------------------------------------------------
KINK_MX = '''
from mxnet.gluon import nn


def Net():
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=2), nn.Activation("relu"), nn.Dense(1, in_units=3))
    return net
'''


class _Shifted:
    """The PyTorch side: the same layers, the first Dense's unit 0 moved by `shift` (2e-6: as
    far as float32 rounding may move a value; 0.5: a wrong translation)."""

    @staticmethod
    def build(shift):
        import torch

        class ShiftedLinear(torch.nn.Linear):
            def forward(self, x):
                offset = torch.zeros(3, dtype=x.dtype)
                offset[0] = shift
                return super().forward(x) + offset

        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.first, self.last = ShiftedLinear(2, 3), torch.nn.Linear(3, 1)

            def forward(self, x):
                return self.last(torch.relu(self.first(x)))

        return Net()


def _kink_models(shift):
    """Both sides with the same weights, chosen so that unit 0 of the first Dense is +1e-6 for the
    first sample MXNet will see: a value just above a ReLU's kink."""
    import mxnet as mx
    import torch

    from xlate.check.inputs import draw

    x = draw(parse_spec("x:float32[4,2]"), np.random.default_rng(0))  # what check_models draws, seed 0
    w1 = np.array([[0.7, -0.4], [0.3, 0.9], [-0.6, 0.5]], dtype=np.float32)
    b1 = np.array([0.0, 0.2, -0.1], dtype=np.float32)
    b1[0] = np.float32(1e-6 - float(x[0].astype(np.float64) @ w1[0].astype(np.float64)))
    w2, b2 = np.array([[0.8, -0.5, 0.3]], dtype=np.float32), np.array([0.1], dtype=np.float32)
    space = {}
    exec(KINK_MX, space)
    net = space["Net"]()
    net.initialize()
    for layer, (w, b) in zip([net[0], net[2]], [(w1, b1), (w2, b2)]):
        layer.weight.set_data(mx.nd.array(w))
        layer.bias.set_data(mx.nd.array(b))
    pt = _Shifted.build(shift)
    with torch.no_grad():
        for layer, (w, b) in zip([pt.first, pt.last], [(w1, b1), (w2, b2)]):
            layer.weight.copy_(torch.as_tensor(w))
            layer.bias.copy_(torch.as_tensor(b))
    return net, pt


def parse_spec(text):
    from xlate.check.inputs import parse

    return parse(text)


@pytest.mark.mxnet
def test_a_value_rounded_across_a_kink_is_followed_and_named():
    pytest.importorskip("mxnet")
    pytest.importorskip("torch")
    from xlate.check.pair import check_models

    strict = check_models(*_kink_models(-2e-6), [parse_spec("x:float32[4,2]")], keep_weights=True)
    assert not strict.ok  # the gradients of the first Dense differ by a whole sample's contribution
    result = check_models(*_kink_models(-2e-6), [parse_spec("x:float32[4,2]")], keep_weights=True,
                          noise_floor=FLOOR)
    assert result.ok, [c.mismatch.format() for c in result.checks if not c.ok]
    said = [a for a in result.advice if "crossed a kink" in a]
    assert said and "at 1 value in 1 layer of MXNet's training forward" in said[0]
    assert "PyTorch float32" not in said[0] and "took each side's branch there" in said[0]
    assert [(k["side"], k["layer"], k["values"], k["of"]) for k in result.kinks] == [("MXNet", "first", 1, 12)]
    assert 0 < result.kinks[0]["float64_at_most"] < 2e-6


@pytest.mark.mxnet
def test_a_wrong_translation_across_a_kink_still_fails():
    pytest.importorskip("mxnet")
    pytest.importorskip("torch")
    from xlate.check.pair import check_models

    result = check_models(*_kink_models(-0.5), [parse_spec("x:float32[4,2]")], keep_weights=True,
                          noise_floor=FLOOR)
    assert not result.ok
    assert not any("crossed a kink" in a for a in result.advice)  # large values crossed zero too


def test_followed_kinks_keep_the_noise_measured_against_the_plain_float64_result():
    # MXNet's deviation from the reference that took its branch; PyTorch's from the plain one
    mx, pt, ref = _arrays(pt_noise=1e-4, mx_noise=1e-4)
    followed = mx + 3e-4
    assert judge("q", mx, pt, followed, TOL, FLOOR, pt_ref_value=ref)[1].verdict == "noise"
    step = ref.copy()
    step[0] += 1.0  # what taking the other branch did to the plain reference
    assert judge("q", mx, step, step, TOL, FLOOR, pt_ref_value=ref)[1].verdict == "unjudgeable"


SHIFTED_PT = '''
import torch


class ShiftedLinear(torch.nn.Linear):
    def forward(self, x):
        offset = torch.zeros(3, dtype=x.dtype)
        offset[0] = {shift}
        return super().forward(x) + offset


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.first, self.last = ShiftedLinear(2, 3), torch.nn.Linear(3, 1)

    def forward(self, x):
        return self.last(torch.relu(self.first(x)))
'''


@pytest.mark.mxnet
@pytest.mark.parametrize("shift,ok", [(-2e-6, True), (-0.5, False)])
def test_a_replayed_recording_follows_mxnets_kinks_as_the_live_check_does(tmp_path, shift, ok):
    """The recording keeps the Signs of MXNet's training forward at every paired layer: replayed
    without MXNet, the kink MXNet's rounding crossed is followed as live, and the verdict, every
    check's and every kink's, is the live one; a wrong translation still fails."""
    pytest.importorskip("mxnet")
    pytest.importorskip("torch")
    from xlate.check import golden
    from xlate.check.pair import check_against, check_models

    pt_file = tmp_path / "shifted_pt.py"
    pt_file.write_text(SHIFTED_PT.format(shift=shift))
    live = check_models(*_kink_models(shift), [parse_spec("x:float32[4,2]")], keep_weights=True, noise_floor=FLOOR,
                        pt_ref=f"{pt_file}:Net", record=tmp_path / "golden")
    assert live.ok is ok
    recorded = golden.load(tmp_path / "golden")
    assert list(recorded.layers) == ["first", "last"] and recorded.layers["first"].shape == (4, 3)
    strict = check_against(tmp_path / "golden")
    assert not strict.ok
    replayed = check_against(tmp_path / "golden", noise_floor=FLOOR)
    compared = [(c.what, c.ok) for c in live.checks if not c.what.startswith("kept weights")]
    assert [(c.what, c.ok) for c in replayed.checks] == compared and len(compared) == 7
    assert replayed.kinks == live.kinks and bool(live.kinks) is ok
    if ok:
        assert any("at 1 value in 1 layer of MXNet's training forward" in a for a in replayed.advice)


def test_signs_keep_every_sign_and_the_values_near_zero():
    from xlate.check.noise import NEAR, Signs

    value = np.random.default_rng(3).normal(size=(5, 7, 3)).astype(np.float32)
    value[1, 2, 0], value[4, 6, 2] = 3e-7, -0.0
    signs = Signs.of(value)
    assert np.array_equal(signs.positives(), value > 0)
    kept = signs.values()
    near = np.abs(value) <= NEAR * np.abs(value).max()
    assert np.array_equal(~np.isnan(kept), near) and np.array_equal(kept[near], value[near])
    assert kept[1, 2, 0] == np.float32(3e-7)
    assert Signs.of(np.array([1.0, np.nan])) is None and Signs.of(np.arange(3)) is None
