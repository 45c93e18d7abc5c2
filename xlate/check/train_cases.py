"""The training rules (Trainer, optimizers, schedulers: 55x; losses: 4xx) run for K optimizer
steps against live MXNet: the case table and its runner (`xlate check --rules --steps K`).

A case is an MXNet snippet that defines `make()`, returning `(net, step)`: a small Gluon
model, initialised, and `step(x, y)`, one training step (record, loss, backward,
`trainer.step(batch_size)`) that returns the per-sample loss. The runner converts the
snippet with every rule enabled (the case's codes must be reported, nothing left manual),
gives MXNet's parameters random asymmetric values and copies them into the translation
(xlate.check.mapping), then takes K steps on both sides with the same fresh batches and
compares, after every step, the loss and every parameter. A wrong learning rate, a missing
1/batch_size, Adam's epsilon in the wrong place or wd applied as AdamW all move the
parameters at the first or second step.

The tolerance is the training scripts' (tests/test_training_scripts.py): float32 differences
grow a little over steps where an update divides by a running root mean square.

mxnet and torch are imported when a case runs, not with this module.
"""
from __future__ import annotations

import contextlib
import io
import textwrap
import warnings
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from xlate.check.case_kit import HEADER
from xlate.check.compare import Tolerance

TRAIN_HEADER = HEADER + "from mxnet import autograd, gluon\n"
TOLERANCE = Tolerance(1e-4, 1e-5)
DEFAULT_STEPS = 3  # `xlate check --rules` without --steps


@dataclass(frozen=True)
class TrainCase:
    id: str
    codes: tuple
    src: str
    x: tuple = (6, 4)  # input spec per step (case_kit.make_input)
    y: tuple = (6, 3)  # label spec per step

    @property
    def source(self) -> str:
        return TRAIN_HEADER + textwrap.dedent(self.src).lstrip("\n")

    @property
    def rule(self) -> str:
        return self.codes[0].partition(":")[0]


def loop(loss: str, trainer: str, *, units: int = 3, batch: str = "x.shape[0]", prediction: str = "net(x)",
         labels: str = "y") -> str:
    """A snippet: Dense(units) on 4 features, `loss` and `trainer` built in make(), one step per call
    computing `loss_fn(prediction, labels)`."""
    return f"""
        def make():
            net = gluon.nn.Dense({units}, in_units=4)
            net.initialize()
            loss_fn = {loss}
            trainer = {trainer}

            def step(x, y):
                with autograd.record():
                    l = loss_fn({prediction}, {labels})
                l.backward()
                trainer.step({batch})
                return l
            return net, step
        """


def sgd(**params) -> str:
    return f"gluon.Trainer(net.collect_params(), 'sgd', {params or {'learning_rate': 0.1}!r})"


L2 = "gluon.loss.L2Loss()"
T = TrainCase

TRAIN_CASES = [
    # -- MX550 Trainer: each optimizer's update rule, step(batch_size) -----------------------------
    T("trainer-sgd", ("MX550", "MX400"), loop(L2, sgd(learning_rate=0.1))),
    T("trainer-sgd-momentum-wd", ("MX550", "MX400"), loop(L2, sgd(learning_rate=0.1, momentum=0.9, wd=0.01))),
    T("trainer-sgd-clip-gradient", ("MX550", "MX400"),
      loop(L2, sgd(learning_rate=0.2, momentum=0.5, clip_gradient=0.05))),
    T("trainer-nag", ("MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), 'nag', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01})")),
    T("trainer-adam-wd", ("MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.01, 'wd': 0.01})")),
    T("trainer-adam-epsilon", ("MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.05, 'epsilon': 0.01, "
               "'beta1': 0.8})")),
    T("trainer-rmsprop", ("MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), 'rmsprop', {'learning_rate': 0.01, 'gamma1': 0.8})")),
    T("trainer-adagrad", ("MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), 'adagrad', {'learning_rate': 0.1, 'wd': 0.01})")),
    T("trainer-step-batch-size", ("MX550", "MX400"), loop(L2, sgd(learning_rate=0.5, momentum=0.9), batch="4")),
    T("trainer-optimizer-params-keywords", ("MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), optimizer='sgd', "
               "optimizer_params={'learning_rate': 0.1, 'wd': 0.001})")),
    # -- MX551 optimizer objects ----------------------------------------------------------------
    T("optimizer-adam-object", ("MX551", "MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), mx.optimizer.Adam(learning_rate=0.02, wd=0.001))")),
    T("optimizer-sgd-object-rescale", ("MX551", "MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, "
               "rescale_grad=0.5))")),
    # -- MX552 schedulers: the rate MXNet's update count gives at every step ---------------------
    T("scheduler-factor", ("MX552", "MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.2, 'momentum': 0.9, "
               "'lr_scheduler': mx.lr_scheduler.FactorScheduler(step=1, factor=0.5)})")),
    T("scheduler-multifactor-warmup", ("MX552", "MX550", "MX400"),
      loop(L2, "gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.05, 'lr_scheduler': "
               "mx.lr_scheduler.MultiFactorScheduler(step=[2, 3], factor=0.3, base_lr=0.05, warmup_steps=1)})")),
    # -- 4xx losses: per-sample values and their gradients through a Trainer step ----------------
    T("loss-l2-label-reshaped", ("MX400", "MX550"), loop(L2, sgd(), units=1), y=(6,)),
    T("loss-l2-weight", ("MX400", "MX550"), loop("gluon.loss.L2Loss(weight=0.7)", sgd())),
    T("loss-l1", ("MX401", "MX550"), loop("gluon.loss.L1Loss()", sgd(learning_rate=0.1, momentum=0.9))),
    T("loss-softmax-ce-sparse", ("MX402", "MX550"),
      loop("gluon.loss.SoftmaxCrossEntropyLoss()", sgd(learning_rate=0.5)), y=("ids", (6,), 0, 3)),
    T("loss-softmax-ce-dense", ("MX402", "MX550"),
      loop("gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False)", sgd(learning_rate=0.5)), y=("pos", (6, 3))),
    T("loss-softmax-ce-from-logits", ("MX402", "MX550"),
      loop("gluon.loss.SoftmaxCELoss(from_logits=True)", sgd(), prediction="nd.log_softmax(net(x))"),
      y=("ids", (6,), 0, 3)),
    T("loss-sigmoid-bce", ("MX403", "MX550"),
      loop("gluon.loss.SigmoidBinaryCrossEntropyLoss()", sgd(learning_rate=0.5)), y=("ids", (6, 3), 0, 2)),
    T("loss-sigmoid-bce-pos-weight", ("MX403", "MX550"),
      loop("gluon.loss.SigmoidBCELoss()", sgd(learning_rate=0.5), labels="y, None, y[0] * 0 + 2.5"),
      y=("ids", (6, 3), 0, 2)),
    T("loss-l1-sample-weight", ("MX401", "MX550"),
      loop("gluon.loss.L1Loss()", sgd(learning_rate=0.2), labels="y, x[:, :1] + 2")),
    T("loss-huber", ("MX404", "MX550"), loop("gluon.loss.HuberLoss(rho=0.5)", sgd(learning_rate=0.2))),
    T("loss-kldiv-from-logits", ("MX405", "MX550"),
      loop("gluon.loss.KLDivLoss()", sgd(), prediction="nd.log_softmax(net(x))"), y=("pos", (6, 3))),
    T("loss-kldiv-probabilities", ("MX405", "MX550"),
      loop("gluon.loss.KLDivLoss(from_logits=False)", sgd()), y=("pos", (6, 3))),
]

BY_ID = {c.id: c for c in TRAIN_CASES}


def run_training(case: TrainCase, *, steps: int, seed: int,
                 mutate: Optional[Callable[[str], str]] = None) -> list:
    """Convert `case`, start both sides from the same random weights and take `steps` steps on
    the same batches; rows (what, Mismatch | None, max_abs) for the loss and every parameter
    after each step, stopping after the first step that differs. `mutate` edits the converted
    source first (the tests' wrong translations)."""
    from xlate.check.compare import measure
    from xlate.check.mapping import mx_to_pt_value, transfer
    from xlate.check.rule_cases import check_codes, convert, import_mxnet, import_torch, load, make_input
    from xlate.check.sides import mx_prepare

    mx, torch = import_mxnet(), import_torch()
    source = case.source
    result = convert(source)
    check_codes(result, case.codes)
    output = mutate(result.output) if mutate else result.output
    rng = np.random.default_rng(seed)
    # MXNet (and its translation) print a note that learning_rate overrides a scheduler's base_lr
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        mx_net, mx_step = load(source, "make")()
        pt_net, pt_step = load(output, "make")()
    known = mx_prepare(mx_net, [make_input(rng, case.x)], rng)
    pairs = transfer(mx_net, pt_net, known)
    rows: list = []
    for k in range(1, steps + 1):
        x, y = make_input(rng, case.x), make_input(rng, case.y)
        mx_loss = mx_step(mx.nd.array(x), mx.nd.array(y, dtype=y.dtype)).asnumpy()
        pt_loss = pt_step(torch.from_numpy(x.copy()), torch.from_numpy(y.copy())).detach().numpy()
        before = len(rows)
        rows.append(_row(f"step {k}: loss", mx_loss, pt_loss, measure))
        for pr in pairs:
            for m in pr.maps:
                param, target = pr.mx_block._reg_params.get(m.mx), getattr(pr.pt_module, m.pt, None)
                if param is None or target is None:
                    continue
                value = mx_to_pt_value(m, param.data().asnumpy(), pr)
                rows.append(_row(f"step {k}: {pr.pt_path}.{m.pt}", value, target.detach().numpy(), measure))
        if any(m is not None for _, m, _ in rows[before:]):
            break
    return rows


def _row(what: str, expected, actual, measure) -> tuple:
    mismatch, greatest = measure(what, expected, actual, TOLERANCE)
    return what, mismatch, greatest
