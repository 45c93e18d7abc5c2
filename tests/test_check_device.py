"""The PyTorch side on CUDA: runs where a GPU is present, skips cleanly elsewhere."""
import textwrap

import pytest

pytestmark = pytest.mark.mxnet
torch = pytest.importorskip("torch")
pytest.importorskip("mxnet")

from xlate.check.inputs import parse  # noqa: E402
from xlate.check.pair import check_pair  # noqa: E402
from xlate.cli import main  # noqa: E402

MX = '''
from mxnet.gluon import nn


def Net():
    net = nn.HybridSequential()
    net.add(nn.Dense(8, activation="relu", in_units=5), nn.BatchNorm(in_channels=8), nn.Dense(3, in_units=8))
    return net
'''
PT = '''
import torch


def Net():
    return torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.ReLU(), torch.nn.BatchNorm1d(8, momentum=0.1),
                               torch.nn.Linear(8, 3))
'''


@pytest.fixture
def models(tmp_path):
    (tmp_path / "d_mx.py").write_text(textwrap.dedent(MX))
    (tmp_path / "d_pt.py").write_text(textwrap.dedent(PT))
    return f"{tmp_path}/d_mx.py:Net", f"{tmp_path}/d_pt.py:Net"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device here")
def test_cuda_side_matches_mxnet_and_pytorch_cpu(models):
    result = check_pair(*models, [parse("x:float32[16,5]")], device="cuda")
    assert result.devices == {"mxnet": "cpu", "pytorch": "cuda"}
    inference = [c for c in result.checks if c.what.startswith("inference")]
    assert inference and all(c.ok for c in inference), [c.mismatch.format() for c in inference if not c.ok]
    assert any(c.what.startswith("cuda vs cpu: ") for c in result.checks)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message given when there is no CUDA")
def test_asking_for_cuda_without_one_is_a_usage_error(models, capsys):
    assert main(["check", "--mx", models[0], "--pt", models[1], "--input", "x:float32[16,5]",
                 "--device", "cuda"]) == 2
    assert "no CUDA device is available" in capsys.readouterr().err


def test_auto_reports_the_device_it_used(models, capsys):
    rc = main(["check", "--mx", models[0], "--pt", models[1], "--input", "x:float32[16,5]"])
    out = capsys.readouterr().out
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert f"devices: MXNet cpu, PyTorch {expected}" in out
    # torch's BatchNorm1d keeps the unbiased running variance, MXNet the biased one
    assert rc == 1 and "2.running_var after the step" in out


ANCHORS = '''
from mxnet import gluon


class Grid(gluon.HybridBlock):
    def hybrid_forward(self, F, feats, scale):
        x = feats[1]
        ys = F.arange(x.shape[2]).reshape((1, 1, -1, 1))
        return F.broadcast_add(x, ys * scale) + F.ones((1,)) + F.random.uniform(shape=(1,)) * 0
'''


def test_arrays_made_in_hybrid_forward_follow_the_first_input_array():
    """Note [devices in hybrid_forward]: Gluon makes them on the first NDArray among the inputs
    (nested lists searched, a None skipped); a `meta` tensor stands for a GPU (only made, never
    computed with: torch's first meta computation costs a second)."""
    from xlate.convert.engine import convert_source

    result = convert_source(textwrap.dedent(ANCHORS))
    assert "_mx_device = _mx_input_device(feats, scale)" in result.output, result.output
    assert result.output.count("device=_mx_device)") == 3, result.output  # arange, ones, the draw
    space: dict = {}
    exec(compile(result.output, "<converted>", "exec"), space)
    gpu_like = torch.ones((2,), device="meta")
    assert space["_mx_input_device"]([None, (gpu_like,)], torch.ones(1)).type == "meta"
    assert space["_mx_input_device"](None, 3).type == torch.get_default_device().type
    x = torch.ones((2, 3, 4, 5))
    assert space["Grid"]()([None, x], torch.ones((1,))).shape == x.shape
