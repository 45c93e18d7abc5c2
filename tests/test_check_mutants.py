"""The checker must catch wrong translations: each mutant, applied to a correct translation,
makes `xlate check` fail with a message that names the cause, and the correct one passes.
Every case runs twice: strict, and in noise mode (--noise-floor), which must not let a single
mutant through (Note [noise floor] in xlate/check/noise.py)."""
from pathlib import Path

import pytest

pytestmark = pytest.mark.mxnet
pytest.importorskip("torch")
pytest.importorskip("mxnet")

from xlate.cli import main  # noqa: E402

HERE = Path(__file__).parent / "mutants"
MX, PT = f"{HERE}/models_mx.py", f"{HERE}/models.py"

# name, MXNet model, its constructor args, input, correct PyTorch args, mutant args, what the report must say
MUTANTS = [
    ("softmax over the wrong axis", "Scores", {}, "x:float32[5,3]", {}, {"axis": 0},
     "inference: output: 20 of 20 elements differ"),
    ("Dense without flatten on 3-D input", "Dense", {}, "x:float32[2,3,5]", {}, {"flatten": False},
     "PyTorch expects (4, 5), the mapping gives (4, 15)"),
    ("BatchNorm momentum kept at 0.9", "BatchNorm", {}, "x:float32[4,3,2,2]", {}, {"momentum": 0.9},
     "bn.running_mean after the step"),
    ("batch_first missing for NTC", "Recurrent", {"mode": "LSTM"}, "x:float32[3,3,3]", {"mode": "LSTM"},
     {"mode": "LSTM", "mutant": "no_batch_first"}, "inference: output"),
    ("GRU biases merged", "Recurrent", {"mode": "GRU"}, "x:float32[2,5,3]", {"mode": "GRU"},
     {"mode": "GRU", "mutant": "merged_bias"}, "inference: output"),
    ("LSTM gates permuted", "Recurrent", {"mode": "LSTM"}, "x:float32[2,5,3]", {"mode": "LSTM"},
     {"mode": "LSTM", "mutant": "gates"}, "inference: output"),
    ("RNN activation tanh for relu", "Recurrent", {"mode": "RNN"}, "x:float32[2,5,3]", {"mode": "RNN"},
     {"mode": "RNN", "mutant": "tanh"}, "relu"),
]


MODES = {"strict": [], "noise": ["--noise-floor"]}


def _run(capsys, name, mx_args, spec, pt_args, mode):
    import json

    rc = main(["check", "--mx", f"{MX}:{name}", "--pt", f"{PT}:{name}", "--input", spec,
               "--mx-args", json.dumps(mx_args), "--pt-args", json.dumps(pt_args), *MODES[mode]])
    captured = capsys.readouterr()
    report = captured.out + captured.err
    assert (mode == "noise") == ("noise mode:" in report) or rc == 2, report  # the mode really ran
    return rc, report


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_correct_translation_passes(capsys, case, mode):
    _, name, mx_args, spec, correct, _, _ = case
    rc, report = _run(capsys, name, mx_args, spec, correct, mode)
    assert rc == 0, report


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_mutant_is_caught_and_named(capsys, case, mode):
    _, name, mx_args, spec, _, mutant, cause = case
    rc, report = _run(capsys, name, mx_args, spec, mutant, mode)
    assert rc in (1, 2), report  # 1: values diverge; 2: the models cannot even be paired
    assert cause in report, report
    if mode == "noise" and rc == 1:  # judged against the float64 result, and far outside the noise
        assert "further from the float64 result than PyTorch float32" in report, report


# Training-step mutants: k optimizer steps with the translated loss and optimizer.
STEP_MUTANTS = [
    ("L2Loss without the 0.5", "make_step", {"mutant": "no_half"}, "step 1: loss"),
    ("MSELoss instead of per-sample L2Loss", "make_step", {"mutant": "mse_loss"}, "step 1: 0.weight"),
    ("trainer.step(batch_size) without the 1/batch_size", "make_step", {"mutant": "no_rescale"}, "step 1: 0.weight"),
    ("missing zero_grad", "make_step", {"mutant": "no_zero_grad"}, "step 2: 0.weight"),
    ("Adam translated as AdamW", "make_adam_step", {"mutant": "adamw"}, "step 1: 0.weight"),
]


def _steps(capsys, step, pt_step_args, mode):
    import json

    rc = main(["check", "--mx", f"{HERE}/steps_mx.py:Net", "--pt", f"{HERE}/steps.py:Net",
               "--input", "x:float32[8,5]", "--label", "y:float32[8,3]", "--steps", "3",
               "--mx-step", f"{HERE}/steps_mx.py:{step}", "--pt-step", f"{HERE}/steps.py:{step}",
               "--pt-step-args", json.dumps(pt_step_args), *MODES[mode]])
    captured = capsys.readouterr()
    report = captured.out + captured.err
    assert "noise mode: the float64 copy" not in report, report  # the steps ran in float64 too
    return rc, report


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("step", ["make_step", "make_adam_step"])
def test_correct_training_steps_pass(capsys, step, mode):
    rc, report = _steps(capsys, step, {}, mode)
    assert rc == 0, report
    assert "step 3: 2.weight" in report  # every step was compared, up to the last layer


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", STEP_MUTANTS, ids=[m[0] for m in STEP_MUTANTS])
def test_step_mutant_is_caught_at_its_step(capsys, case, mode):
    _, step, args, cause = case
    rc, report = _steps(capsys, step, args, mode)
    assert rc == 1, report
    assert f"FAIL  {cause}" in report, report
