"""The CPU-only CI path: references recorded with MXNet (fixtures/golden/) replayed against the
PyTorch side in a process where MXNet cannot be imported; and, where MXNet is installed, the
recordings are checked to be what recording them again gives."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCES = sorted(p.parent for p in (ROOT / "fixtures" / "golden").glob("*/reference.json"))


def test_there_are_references():
    assert len(REFERENCES) >= 3


@pytest.mark.parametrize("ref", REFERENCES, ids=[r.name for r in REFERENCES])
def test_replay_without_mxnet(ref):
    pytest.importorskip("torch")
    code = ("import sys; sys.modules['mxnet'] = None  # any import of mxnet fails\n"
            "from xlate.cli import main\n"
            f"raise SystemExit(main(['check', '--against', {str(ref)!r}]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Equal" in done.stdout and "devices: MXNet recorded" in done.stdout


@pytest.mark.mxnet
@pytest.mark.parametrize("ref", REFERENCES, ids=[r.name for r in REFERENCES])
def test_recording_is_current(ref, tmp_path):
    pytest.importorskip("mxnet")
    from xlate.check import golden
    from xlate.check.pair import check_pair

    old = golden.load(ref)
    meta = json.loads((ref / "reference.json").read_text())
    result = check_pair(old.mx_ref, old.pt_ref, old.inputs, mx_kwargs=meta.get("mx_args", {}),
                        pt_kwargs=old.pt_args, seed=old.seed, record=tmp_path / "again")
    new = golden.load(tmp_path / "again")
    assert result.ok
    for phase_old, phase_new in zip(old.expected, new.expected):
        assert list(phase_old) == list(phase_new)
        for key in phase_old:
            np.testing.assert_array_equal(phase_old[key], phase_new[key], err_msg=key)
