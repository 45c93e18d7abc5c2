"""Drawn training loops (bench): an lr_scheduler, clip_gradient, rescale_grad, lr_mult/wd_mult
through setattr, a DataLoader with each last_batch mode, a metric, set_learning_rate, and
autograd.grad, each run in MXNet and, converted, in torch; every appended value must agree
(rtol 2e-4, atol 2e-5) with no manual item. Adaptive optimizers (RMSProp, AdaGrad, Adam) scale
float noise of gradients near zero up to a step, which shows as 1e-4 differences.

    PYTHONPATH=. .venv/bin/python bench/drawn/loops.py [-n 40] [--seed 1] [--save DIR]
"""
from _hunt import cli, same_outs
from test_execution_model import COMMON

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
    return COMMON + "\n".join(L) + "\n", f"{kind} {optstr}, last_batch={last}, batch {bs}", {}


if __name__ == "__main__":
    cli(__doc__, make, same_outs, "loops")
