"""The converter installs as a wheel that carries the catalogue, and runs without torch,
mxnet or numpy."""
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = "from mxnet import nd\nx = nd.concat(a, b)\n"


def test_convert_help_and_conversion_import_no_framework():
    code = (
        "import sys\n"
        "from xlate.cli import main\n"
        "from xlate import convert_source\n"
        f"convert_source({SAMPLE!r})\n"
        "bad = [m for m in ('torch', 'mxnet', 'numpy') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@pytest.mark.slow
def test_wheel_install_converts_from_another_directory(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(dist), str(ROOT)], check=True)
    wheel = next(dist.glob("xlate-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], check=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "m.py").write_text(SAMPLE)
    xlate = env_dir / "bin" / "xlate"
    done = subprocess.run([str(xlate), "convert", "m.py"], cwd=elsewhere, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "import torch\nx = torch.cat([a, b], dim=1)\n"
    listed = subprocess.run([str(xlate), "rules"], cwd=elsewhere, capture_output=True, text=True, check=True)
    assert "MX028" in listed.stdout
    frameworks = subprocess.run([str(py), "-c", "import torch"], capture_output=True)
    assert frameworks.returncode != 0  # the wheel pulled in no framework
    shutil.rmtree(env_dir)


def test_the_extras_declare_ranges_and_only_the_test_environment_pins_torch():
    """Installing the checker on a CUDA machine must keep the user's torch: a range for the
    extras users install, the exact version only in the test environment (.[dev])."""
    import re

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert "torch>=2.4" in extras["check"]
    assert not any(re.match(r"(torch|numpy)\b.*(==|<)", d) for d in extras["check"])  # numpy 2 too
    assert any(d.startswith("numpy") and "<1.24" in d for d in extras["mxnet"])  # only where mxnet runs
    assert "torch==2.13.0" in extras["dev"] and "xlate[check,mxnet]" in extras["dev"]
