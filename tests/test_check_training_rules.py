"""`xlate check --rules --steps K`: the Trainer, optimizer, scheduler and loss rules, each a small
training loop converted and run for K steps against live MXNet (xlate/check/train_cases.py),
parameters compared after every step; and wrong translations it must catch."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.mxnet
pytest.importorskip("torch")
pytest.importorskip("mxnet")

from xlate.check import selfcheck, train_cases  # noqa: E402
from xlate.cli import main  # noqa: E402

# the rules the issue names: several optimizers (SGD with momentum and wd, Adam with wd), a
# scheduler, step(batch_size), and the losses
REQUIRED = {"MX400", "MX401", "MX402", "MX403", "MX404", "MX405", "MX550", "MX551", "MX552"}


def test_training_rows_are_all_there():
    """Every required rule has a training row; `xlate check --rules` runs them all at its
    default steps (tests/test_check_selfcheck.py asserts they pass there, not again here)."""
    rows = selfcheck.rule_rows()
    training = {r.split()[0] for r in rows if selfcheck._rule_selected(r, ["training"], rows[r])}
    assert training == REQUIRED


def test_steps_k_runs_k_steps_and_passes(capsys):
    # one row (the schedulers', whose boundaries at steps 2 and 3 need a 4th step to show); every
    # row's cases run at the default steps in tests/test_check_selfcheck.py
    assert main(["check", "--rules", "--family", "MX552", "--steps", "4", "--examples", "1"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if re.match(r"MX\d{3} ", line)}
    assert set(rows) == {"MX552"}
    columns = rows["MX552"]
    assert columns[2] == "2" and columns[3] == "0", columns  # examples (one a case), failures
    assert float(columns[4]) < 1e-4, columns  # greatest absolute difference
    assert "all equal" in out


def test_every_step_and_parameter_is_compared():
    case = train_cases.BY_ID["trainer-adam-wd"]
    rows = train_cases.run_training(case, steps=4, seed=3)
    whats = [w for w, _, _ in rows]
    assert all(m is None for _, m, _ in rows)
    for k in range(1, 5):
        assert f"step {k}: loss" in whats
        assert sum(w.startswith(f"step {k}: ") and w.endswith((".weight", ".bias")) for w in whats) == 2, whats


def test_the_selection_names():
    rows = selfcheck.rule_rows()
    assert {r.split()[0] for r in rows if selfcheck._rule_selected(r, ["losses"], rows[r])} >= \
        {"MX400", "MX401", "MX402", "MX403", "MX404", "MX405"}
    assert "MX552 mx-lr-scheduler" in [r for r in rows if selfcheck._rule_selected(r, ["training"], rows[r])]


def _replace(old: str, new: str):
    def mutate(text: str) -> str:
        assert old in text, f"{old!r} not in the converted case"
        return text.replace(old, new)
    return mutate


# case, a wrong translation (an edit of the converted source), where the first difference is
MUTANTS = [
    ("trainer-sgd-momentum-wd", _replace("'learning_rate': 0.1", "'learning_rate': 0.11"), "step 1"),
    ("trainer-sgd", _replace("self._optimizer.rescale_grad = self._scale / batch_size",
                             "self._optimizer.rescale_grad = self._scale"), "step 1"),
    ("trainer-step-batch-size", _replace("trainer.step(4)", "trainer.step(x.shape[0])"), "step 1"),
    ("trainer-adam-wd", _replace("'wd': 0.01", "'wd': 0.0"), "step 2"),  # Adam's first step is nearly sign(g)
    ("scheduler-factor", _replace("factor=0.5", "factor=0.6"), "step 2"),
    ("loss-l2-label-reshaped", _replace("loss_fn = _mx_L2Loss()", "loss_fn = lambda p, t: (p - t) ** 2 / 2"),
     "step 1: loss"),
    ("loss-softmax-ce-sparse", _replace("        trainer.zero_grad()\n", ""), "step 2"),
]


@pytest.mark.parametrize("case_id,mutate,where", MUTANTS, ids=[f"{m[0]}-{i}" for i, m in enumerate(MUTANTS)])
def test_a_wrong_translation_fails(case_id, mutate, where):
    rows = train_cases.run_training(train_cases.BY_ID[case_id], steps=3, seed=0, mutate=mutate)
    bad = [m.format() for _, m, _ in rows if m is not None]
    assert bad, f"{case_id}: the wrong translation passed"
    assert bad[0].startswith(where), bad[0]


def test_steps_with_rules_is_validated(capsys):
    assert main(["check", "--rules", "--steps", "-1"]) == 2
    assert "--steps" in capsys.readouterr().err
    assert main(["check", "--rules", "--mx-step", "a.py:f"]) == 2


# GluonCV 0.10.5's utils/lr_scheduler.py, run on MXNet 1.9.1 (GluonCV itself does not install
# beside torch 2 without MXNet): its schedules at update counts 0..13, recorded once so
GLUONCV_SCHEDULES = {
    "poly": ([0.1, 0.09177968934335337, 0.08347661728055418, 0.07508057183121132, 0.06657862463602231,
              0.0579539055553173, 0.049183517719015586, 0.04023468222037112, 0.031056729012261863,
              0.021561232338687286, 0.011554378320092191, 0.0, 0.0, 0.0],
             lambda h: h._mx_gcv_LRScheduler("poly", base_lr=0.1, nepochs=3, iters_per_epoch=4, power=0.9)),
    "cosine": ([0.4, 0.38824006105325215, 0.3543786664082007, 0.3025, 0.23886139464505146, 0.1711386053549486,
                0.10750000000000004, 0.05562133359179931, 0.02175993894674788] + [0.01] * 5,
               lambda h: h._mx_gcv_LRScheduler("cosine", base_lr=0.4, target_lr=0.01, niters=10)),
    "step-epochs": ([0.1] * 3 + [0.05] * 6 + [0.025] * 5,
                    lambda h: h._mx_gcv_LRScheduler("step", base_lr=0.1, nepochs=4, iters_per_epoch=3,
                                                    step_epoch=[1, 3], step_factor=0.5)),
    "step-iters": ([0.1] * 2 + [0.010000000000000002] * 3 + [0.0010000000000000002] * 9,
                   lambda h: h._mx_gcv_LRScheduler("step", base_lr=0.1, niters=9, step_iter=[2, 5])),
    "constant": ([0.05] * 14, lambda h: h._mx_gcv_LRScheduler("constant", base_lr=0.05, niters=5)),
    "sequential": ([0.0, 0.06666666666666665, 0.13333333333333333, 0.2, 0.2, 0.19009688679024192,
                    0.16234898018587338, 0.12225209339563144, 0.07774790660436857, 0.037651019814126656,
                    0.009903113209758098, 0.0, 0.0, 0.0],
                   lambda h: h._mx_gcv_LRSequential([
                       h._mx_gcv_LRScheduler("linear", base_lr=0, target_lr=0.2, nepochs=1, iters_per_epoch=4),
                       h._mx_gcv_LRScheduler("cosine", base_lr=0.2, nepochs=2, iters_per_epoch=4)])),
}


@pytest.mark.parametrize("name", GLUONCV_SCHEDULES)
def test_gluoncv_schedules_are_gluoncvs(name):
    """MX548: every rate GluonCV's scheduler gives, to the last bit."""
    from xlate.runtime import load
    expected, build = GLUONCV_SCHEDULES[name]
    schedule = build(load())
    assert [schedule(t) for t in range(14)] == expected


def test_a_gluoncv_schedule_in_the_trainer_takes_the_trainers_rate():
    """MXNet's optimizer overwrites a scheduler's base_lr with its own learning_rate (recorded
    with GluonCV: linear from 0.3, not 0.1, over 6 updates); the Trainer helper does the same."""
    torch = pytest.importorskip("torch")
    from xlate.runtime import load
    h = load()
    schedule = h._mx_gcv_LRScheduler("linear", base_lr=0.1, niters=6)
    weight = torch.nn.Parameter(torch.ones(2))
    h._mx_Trainer([weight], "sgd", {"learning_rate": 0.3, "lr_scheduler": schedule})
    assert [schedule(t) for t in range(8)] == [0.3, 0.24, 0.18, 0.12, 0.059999999999999984, 0.0, 0.0, 0.0]


# GluonCV 0.10.5's utils/sync_loader_helper.split_data on MXNet 1.9.1, recorded: the slice shapes
GLUONCV_SPLITS = [
    ((10, 2), 3, 0, False, 1, [(3, 2), (3, 2), (4, 2)]),
    ((12, 2), 3, 0, True, 1, [(4, 2), (4, 2), (4, 2)]),
    ((2, 10), 3, 1, False, 1, [(2, 3), (2, 3), (2, 4)]),
    ((2, 12), 4, 1, True, 1, [(2, 3), (2, 3), (2, 3), (2, 3)]),
    ((2, 3), 3, 0, False, 1, [(1, 3), (1, 3)]),
    ((13, 1), 2, 0, False, 4, [(4, 1), (9, 1)]),
    ((16, 1), 2, 0, True, 4, [(8, 1), (8, 1)]),
]


@pytest.mark.parametrize("shape,n,axis,even,multiplier,expected", GLUONCV_SPLITS)
def test_gluoncv_split_data_cuts_gluoncvs_slices(shape, n, axis, even, multiplier, expected):
    """MX574: GluonCV's slices (3-3-4 where Gluon's are 4-3-3), in order, and its split_and_load
    puts them on the first device with their device index, as `_mx_split_and_load` does."""
    torch = pytest.importorskip("torch")
    from xlate.runtime import load
    h = load()
    data = torch.arange(int(torch.tensor(shape).prod())).reshape(shape)
    pieces = h._mx_gcv_split_data(data, n, axis, even, multiplier)
    assert [tuple(p.shape) for p in pieces] == expected
    assert torch.equal(torch.cat(pieces, dim=axis), data)
    loaded = h._mx_gcv_split_and_load(data, [torch.device("cpu")] * n, axis, even, multiplier)
    assert [tuple(p.shape) for p in loaded] == expected and [p._mx_device for p in loaded] == list(range(len(loaded)))


def test_gluoncv_split_refuses_an_uneven_batch_as_gluoncv_does():
    torch = pytest.importorskip("torch")
    from xlate.runtime import load
    with pytest.raises(ValueError, match="cannot be evenly split"):
        load()._mx_gcv_split_data(torch.ones(10, 2), 3)
