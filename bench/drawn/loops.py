"""Drawn training loops (bench): an lr_scheduler, clip_gradient, rescale_grad, lr_mult/wd_mult
through setattr, a DataLoader with each last_batch mode, a metric, set_learning_rate, and
autograd.grad, each run in MXNet and, converted, in torch; every appended value must agree
(rtol 2e-4, atol 2e-5) with no manual item. Adaptive optimizers (RMSProp, AdaGrad, Adam) scale
float noise of gradients near zero up to a step, which shows as 1e-4 differences.

    PYTHONPATH=. .venv/bin/python bench/drawn/loops.py [-n 40] [--seed 1] [--save DIR]
"""
import argparse, random, sys, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / 'tests'))  # test_execution_model's COMMON
from test_execution_model import COMMON, _run
from xlate.convert.engine import convert_source
import numpy as np
import mxnet, torch

def make(r):
    L = ["net = nn.HybridSequential()", "net.add(nn.Dense(8, activation='relu'), nn.Dense(3))",
         "X = nd.array(rng.randn(10, 4).astype('float32'))", "Y = nd.array(rng.randint(0, 3, 10).astype('float32'))",
         "net.initialize(mx.init.Xavier())", "net(X)", "set_weights(net)"]
    opt = {}
    if r.random() < 0.4:
        L.insert(0, "sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5)")
        opt["'lr_scheduler'"] = "sched"
    if r.random() < 0.4:
        opt["'clip_gradient'"] = "0.05"
    if r.random() < 0.3:
        opt["'rescale_grad'"] = "0.5"
    kind = r.choice(["'sgd'", "'adam'", "'rmsprop'", "'nag'"])
    opt["'learning_rate'"] = "0.05"
    if kind in ("'sgd'", "'nag'") and r.random() < 0.5:
        opt["'momentum'"] = "0.9"
    if r.random() < 0.4:
        L += ["net.collect_params('.*bias').setattr('lr_mult', 0.5)"]
    if r.random() < 0.3:
        L += ["net.collect_params('.*weight').setattr('wd_mult', 2.0)"]
        opt["'wd'"] = "0.01"
    optstr = "{" + ", ".join(f"{k}: {v}" for k, v in opt.items()) + "}"
    L += [f"trainer = gluon.Trainer(net.collect_params(), {kind}, {optstr})",
          "loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()", "metric = mx.metric.Accuracy()"]
    last = r.choice(["keep", "discard", "rollover"])
    bs = r.choice([3, 4, 5])
    L += [f"loader = gluon.data.DataLoader(gluon.data.ArrayDataset(X, Y), batch_size={bs}, shuffle=False, last_batch='{last}')",
          "for epoch in range(2):", "    metric.reset()", "    total = 0.0",
          "    for data, label in loader:", "        with autograd.record():",
          "            out = net(data)", "            loss = loss_fn(out, label)", "        loss.backward()",
          "        trainer.step(data.shape[0])", "        metric.update([label], [out])",
          "        total += loss.mean().asscalar()"]
    if r.random() < 0.5 and "'lr_scheduler'" not in opt:
        L += ["    trainer.set_learning_rate(trainer.learning_rate * 0.9)"]
    L += ["    outs.append(total)", "    outs.append(metric.get()[1])", "    outs.append(trainer.learning_rate)"]
    if r.random() < 0.5:
        L += ["x = X.copy()", "x.attach_grad()", "with autograd.record():", "    z = (net(x) ** 2).sum()",
              "g = autograd.grad(z, [x])[0]", "outs.append(g.asnumpy())"]
    L += ["outs.append(net(X).asnumpy())"]
    return COMMON + "\n".join(L) + "\n"

def main(n, seed, save=None):
    r = random.Random(seed)
    bad = 0
    for k in range(n):
        src = make(r)
        try:
            conv = convert_source(src)
            manual = [d for d in conv.diagnostics if d.status == "manual"]
            with tempfile.TemporaryDirectory() as folder:
                exp = _run(src, folder, "mx.params")
                got = _run(conv.output, folder, "pt.params")
            assert len(exp) == len(got), (len(exp), len(got))
            for i, (w, h) in enumerate(zip(exp, got)):
                np.testing.assert_allclose(np.asarray(h).reshape(np.shape(w)), w, rtol=2e-4, atol=2e-5, err_msg=f"value {i}")
            if manual:
                raise AssertionError(f"manual: {[(d.line, d.code, d.message[:80]) for d in manual]}")
        except Exception as e:
            bad += 1
            save and (Path(save) / f"b2_{seed}_{k}.py").write_text(src)
            print(f"--- case {k}: {type(e).__name__}: {str(e)[:500]}")
    print(f"{n - bad}/{n} ok")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="a folder to write each failing program to")
    args = parser.parse_args()
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
    main(args.n, args.seed, args.save)
