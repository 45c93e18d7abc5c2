"""The checker computes in full float32 (Note [pinned precision] in xlate/check/precision.py):
every TF32 / reduced-precision switch torch has is pinned while it checks, what the user had is
restored after (an exception included), and the report says what was pinned. On the CPU these
switches can be set and read; what TF32 does to a convolution needs a GPU to see."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from xlate.check import precision  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _state() -> dict:
    return {k.name: k.get() for k in precision.knobs()}


@pytest.fixture
def user_settings():
    """A user's process that asked for speed: TF32 matmuls (the legacy call most programs
    make), cuDNN's benchmark, no determinism; put back as it was after the test."""
    before = _state()
    old_matmul = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("high")
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.deterministic = False
    yield _state()
    torch.set_float32_matmul_precision(old_matmul)
    for knob in precision.knobs():
        knob.set(before[knob.name])


def _tf32_off() -> bool:
    """What torch itself says about TF32, through whichever API this torch has."""
    b = torch.backends
    if precision._has_fp32_precision(b):
        return all(getattr(o, "fp32_precision") == "ieee" for o in (b.cuda.matmul, b.cudnn.conv, b.cudnn.rnn))
    return not b.cuda.matmul.allow_tf32 and not b.cudnn.allow_tf32


def test_every_switch_is_pinned_inside_and_restored_after(user_settings):
    assert not _tf32_off() and torch.backends.cudnn.benchmark
    with precision.pinned() as settings:
        assert _tf32_off()
        assert torch.backends.cudnn.benchmark is False and torch.backends.cudnn.deterministic is True
        assert settings == _state() and settings == {k.name: k.pinned for k in precision.knobs()}
    assert _state() == user_settings
    # no "mix of the legacy and new APIs" error for the user's own legacy reads afterwards
    assert torch.get_float32_matmul_precision() == "high"


def test_restored_when_the_check_raises(user_settings):
    with pytest.raises(ZeroDivisionError):
        with precision.pinned():
            assert _tf32_off()
            1 / 0
    assert _state() == user_settings and torch.get_float32_matmul_precision() == "high"


def test_nested_pins_restore_the_users_settings(user_settings):
    with precision.pinned():
        with precision.pinned():
            pass
        assert _tf32_off()  # the inner one restored the outer one's pins
    assert _state() == user_settings


@pytest.mark.parametrize("start", ["medium", "high", "highest"])
def test_torch_before_the_fp32_precision_api_gets_the_legacy_switches(monkeypatch, start):
    # torch 2.4..2.8: allow_tf32 and set_float32_matmul_precision only (simulated on this torch)
    monkeypatch.setattr(precision, "_has_fp32_precision", lambda backends: False)
    old = (torch.get_float32_matmul_precision(), torch.backends.cudnn.allow_tf32)
    try:
        torch.set_float32_matmul_precision(start)
        torch.backends.cudnn.allow_tf32 = True
        names = [k.name for k in precision.knobs()]
        assert names[:3] == ["cuda.matmul.allow_tf32", "cudnn.allow_tf32", "float32_matmul_precision"]
        with precision.pinned() as settings:
            assert torch.get_float32_matmul_precision() == "highest"
            assert not torch.backends.cuda.matmul.allow_tf32 and not torch.backends.cudnn.allow_tf32
            assert "cudnn.allow_tf32=False" in precision.describe(settings)
        assert torch.get_float32_matmul_precision() == start and torch.backends.cudnn.allow_tf32
    finally:
        torch.set_float32_matmul_precision(old[0])
        torch.backends.cudnn.allow_tf32 = old[1]


SPY = '''
import json
import torch
from xlate.check import precision


class Dense(torch.nn.Module):
    """tests/mutants/models.py's Dense, writing down the settings its forward runs under."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(15, 4)

    def forward(self, x):
        with open({log!r}, "a") as f:
            f.write(json.dumps({{k.name: k.get() for k in precision.knobs()}}) + "\\n")
        return self.fc(x.flatten(1))
'''


def test_the_models_run_pinned_and_the_report_says_so(tmp_path):
    """A recorded reference replayed in a process whose user turned TF32 and benchmark on:
    every forward the checker runs sees the pinned settings, the report's header and JSON name
    them, and the process has its own settings back."""
    log = tmp_path / "seen.jsonl"
    (tmp_path / "spy.py").write_text(SPY.format(log=str(log)))
    ref = ROOT / "fixtures" / "golden" / "dense_flatten"
    code = ("import sys, json, torch\n"
            "torch.set_float32_matmul_precision('high'); torch.backends.cudnn.benchmark = True\n"
            "from xlate.cli import main\n"
            "from xlate.check import precision\n"
            f"rc = main(['check', '--against', {str(ref)!r}, '--pt', {str(tmp_path / 'spy.py')!r} + ':Dense'"
            "] + sys.argv[1:])\n"
            "print('AFTER', json.dumps([torch.get_float32_matmul_precision(), torch.backends.cudnn.benchmark]))\n"
            "raise SystemExit(rc)\n")
    text = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert text.returncode == 0, text.stdout + text.stderr
    header = text.stdout.splitlines()[3]
    assert header.startswith("precision: full float32 while checking, restored after (")
    assert "cudnn.benchmark=False" in header and "cudnn.deterministic=True" in header
    assert 'AFTER ["high", true]' in text.stdout
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(seen) >= 2 and all(s == {k.name: k.pinned for k in precision.knobs()} for s in seen)
    done = subprocess.run([sys.executable, "-c", code, "--format", "json"], capture_output=True, text=True, cwd=ROOT)
    report = json.loads(done.stdout.split("AFTER")[0])
    assert report["precision"] == {k.name: k.pinned for k in precision.knobs()}
