"""`xlate convert --multi-device distributed` (Note [one process per device] in
xlate/runtime/parallel.py): the two-context loop of fixtures/train_two_ctx, converted in that
form, runs as two CPU processes under torchrun (gloo) and takes MXNet's steps on
[mx.cpu(0), mx.cpu(1)]: after 1, 2 and 3 steps every parameter of both processes equals
MXNet's. Each process trains on its own slice (MXNet's sizes: 10 rows -> 5 and 5; 9 rows ->
5 and 4) and the Trainer sums the gradients over the processes before dividing by
batch_size. Rank 1 seeds torch differently before building, so its own initial values differ
until rank 0's are copied to it before the first forward pass. Saving (save_parameters ->
_mx_save_on_rank0) writes from rank 0 alone."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

pytestmark = pytest.mark.mxnet

ROOT = Path(__file__).resolve().parent.parent
TORCHRUN = Path(sys.executable).with_name("torchrun")
STEPS = 3
RTOL, ATOL = 1e-4, 1e-5

SAVE = """

def save(net, fname):
    net.save_parameters(fname)
"""

RUNNER = '''
import sys
import numpy as np
import torch
import torch.distributed as dist
sys.path.insert(0, sys.argv[1])
import train_pt

folder = sys.argv[1]
data = np.load(folder + "/data.npz")
X, y, batch_size = data["X"], data["y"], int(data["batch_size"])
ctx = [torch.device("cpu"), torch.device("cpu")]
for k in range(1, {steps} + 1):
    torch.manual_seed(100 + k + 7 * int(__import__("os").environ["RANK"]))  # each process its own draws
    net = train_pt.build(ctx)
    net(torch.tensor(X[:2]))  # the first forward: sizes fixed, rank 0's values copied to every process
    rank = dist.get_rank()
    same = [torch.zeros(1) for _ in range(2)]
    total = sum(float(p.detach().double().sum()) for p in net.parameters())
    dist.all_gather(same, torch.tensor([total]))
    assert float(same[0]) == float(same[1]), f"initial values differ between processes: {{same}}"
    net.load_state_dict(torch.load(folder + "/initial.pt"))  # MXNet's, on every process
    history = train_pt.train(net, ctx, X, y, steps=k, batch_size=batch_size)
    torch.save({{"state": net.state_dict(), "history": history}}, folder + f"/rank{{rank}}_step{{k}}.pt")
saves, real_save = [], torch.save
torch.save = lambda obj, f: (saves.append(f), real_save(obj, f))
train_pt.save(net, folder + "/saved.pt")
torch.save = real_save
dist.barrier()
with open(folder + f"/rank{{rank}}_saves.txt", "w") as out:
    out.write(str(len(saves)))
dist.destroy_process_group()
'''


def _convert(tmp_path: Path) -> None:
    """The fixture, with a save function appended, converted in the distributed form."""
    source = (ROOT / "fixtures/train_two_ctx/train_mx.py").read_text() + SAVE
    (tmp_path / "train_mx.py").write_text(source)
    result = subprocess.run([sys.executable, "-m", "xlate", "convert", "--multi-device", "distributed",
                             str(tmp_path / "train_mx.py"), "-o", str(tmp_path / "train_pt.py")],
                            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    assert "_mx_split_and_load_distributed(" in (tmp_path / "train_pt.py").read_text()
    assert "_mx_to_ctx_distributed(net, ctx)" in (tmp_path / "train_pt.py").read_text()
    assert "_mx_save_on_rank0(net.state_dict(), fname)" in (tmp_path / "train_pt.py").read_text()


def _mxnet_side(tmp_path: Path, X, y, batch_size):
    """MXNet on [cpu(0), cpu(1)]: the initial weights (into the torch model, saved for the
    processes) and the parameters after 1..STEPS steps (torch layout, by torch name)."""
    import importlib.util

    from xlate.check.mapping import mx_to_pt_value, transfer
    from xlate.check.sides import mx_prepare

    mx, torch, np = import_mxnet(), import_torch(), import_numpy()
    spec = importlib.util.spec_from_file_location("two_ctx_mx", ROOT / "fixtures/train_two_ctx/train_mx.py")
    mx_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mx_module)
    sys.path.insert(0, str(tmp_path))
    try:
        import train_pt  # the distributed translation, in one process: the single-process fallback
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("train_pt", None)
    contexts = [mx.cpu(0), mx.cpu(1)]
    expected = {}
    for k in range(0, STEPS + 1):
        mx_net = mx_module.build(contexts)
        mx_net(mx.nd.array(X[:2]))
        pt_net = train_pt.build([torch.device("cpu")] * 2)
        pt_net(torch.tensor(X[:2]))
        known = mx_prepare(mx_net, [X[:2]], np.random.default_rng(4))  # the same draws for every k
        pairs = transfer(mx_net, pt_net, known)
        if k == 0:
            torch.save(pt_net.state_dict(), tmp_path / "initial.pt")
            continue
        history = mx_module.train(mx_net, contexts, X, y, steps=k, batch_size=batch_size)
        params = {f"{pr.pt_path}.{m.pt}" if pr.pt_path else m.pt: mx_to_pt_value(m, pr.mx_block._reg_params[m.mx]
                                                                                 .data().asnumpy(), pr)
                  for pr in pairs for m in pr.maps if m.mx in pr.mx_block._reg_params}
        expected[k] = (params, history)
    return expected


AVERAGED = ("torch.distributed.all_reduce(param.grad)",
            "torch.distributed.all_reduce(param.grad)\n                param.grad /= 2")  # DDP's average


# an uneven batch (9 rows on two processes: 5 and 4) covers the even one; two processes cost 7 s a case
@pytest.mark.parametrize("batch_size,mutant", [(9, None), pytest.param(10, AVERAGED, marks=pytest.mark.slow)],
                         ids=["uneven", "averaged-gradients-fail"])
def test_distributed_translation_takes_mxnets_steps_in_two_processes(tmp_path, batch_size, mutant):
    if not TORCHRUN.exists():
        pytest.skip("torchrun is not installed next to this Python")
    np, torch = import_numpy(), import_torch()
    _convert(tmp_path)
    if mutant:  # the harness can fail: gradients averaged over the processes (what DDP does) are 1/2 MXNet's
        # the helpers stand beside the converted file (its _mx_compat.py) or in it
        target = next(p for p in (tmp_path / "_mx_compat.py", tmp_path / "train_pt.py")
                      if p.exists() and mutant[0] in p.read_text())
        target.write_text(target.read_text().replace(mutant[0], mutant[1]))
    rng = np.random.RandomState(7)
    X = rng.randn(40, 2, 6, 6).astype("float32")
    y = rng.randint(0, 5, 40).astype("float32")
    np.savez(tmp_path / "data.npz", X=X, y=y, batch_size=batch_size)
    expected = _mxnet_side(tmp_path, X, y, batch_size)
    (tmp_path / "runner.py").write_text(RUNNER.format(steps=STEPS))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    run = subprocess.run([str(TORCHRUN), "--standalone", "--nproc_per_node", "2", str(tmp_path / "runner.py"),
                          str(tmp_path)], capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    bad, compared = [], 0
    for k in range(1, STEPS + 1):
        params, history = expected[k]
        for rank in (0, 1):
            got = torch.load(tmp_path / f"rank{rank}_step{k}.pt", weights_only=False)  # NumPy scalars in history
            for name, value in params.items():
                actual = got["state"][name].numpy()
                compared += 1
                if "running" in name:
                    continue  # MXNet keeps one copy per device; no BatchNorm here anyway
                if not np.allclose(actual, value, rtol=RTOL, atol=ATOL):
                    bad.append(f"step {k}, rank {rank}: {name} {float(np.abs(actual - value).max()):.3g} apart")
        # each process's record covers its own slice: together they are MXNet's
        records = [torch.load(tmp_path / f"rank{r}_step{k}.pt", weights_only=False)["history"] for r in (0, 1)]
        together = np.array(records[0]) + np.array(records[1])
        if not np.allclose(together, history, rtol=RTOL, atol=ATOL):
            bad.append(f"step {k}: losses {together.tolist()} where MXNet has {history}")
    assert compared >= STEPS * 2 * 4
    # saving: rank 0 alone writes, and the file holds the parameters
    assert [(tmp_path / f"rank{r}_saves.txt").read_text() for r in (0, 1)] == ["1", "0"]
    saved = torch.load(tmp_path / "saved.pt")
    assert all(torch.equal(saved[n], t)
               for n, t in torch.load(tmp_path / f"rank0_step{STEPS}.pt", weights_only=False)["state"].items())
    if mutant:
        assert len(bad) >= STEPS * 2, f"the averaged gradients passed: {bad}"
    else:
        assert not bad, "\n".join(bad)
