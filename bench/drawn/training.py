"""Drawn training scripts (bench): a Gluon model (dense, conv with BatchNorm, pooling, an NTC
LSTM in a Block), one of ten losses, one of nine optimizers, and a step variant (plain,
clip_global_norm, allreduce_grads + update, grad_req='add' with a zero_grad, a parameter
selection), each run in MXNet and, converted, in torch; the losses and the last output must agree
(rtol 2e-4, atol 2e-5) with no manual item. Prints each failure and the count that agree.

    PYTHONPATH=. .venv/bin/python bench/drawn/training.py [-n 40] [--seed 1] [--save DIR]
"""
from _hunt import cli, same_outs
from test_execution_model import COMMON

def make(r):
    loss = r.choice(["gluon.loss.SoftmaxCrossEntropyLoss()", "gluon.loss.L2Loss()", "gluon.loss.L1Loss()",
                     "gluon.loss.SigmoidBinaryCrossEntropyLoss()", "gluon.loss.HuberLoss()",
                     "gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False)", "gluon.loss.KLDivLoss(from_logits=False)",
                     "gluon.loss.LogisticLoss()", "gluon.loss.HingeLoss()", "gluon.loss.CosineEmbeddingLoss()"])
    arch = r.choice(["dense", "conv", "conv_pool", "rnn"])
    opt = r.choice(["'sgd', {'learning_rate': 0.1}", "'sgd', {'learning_rate': 0.05, 'momentum': 0.9, 'wd': 1e-3}",
                    "'nag', {'learning_rate': 0.05, 'momentum': 0.9}", "'rmsprop', {'learning_rate': 0.01}",
                    "'adagrad', {'learning_rate': 0.1}", "'adadelta', {}", "'adam', {'learning_rate': 0.01, 'wd': 0.01}",
                    "'ftml', {'learning_rate': 0.01}", "'signum', {'learning_rate': 0.01}"])
    step = r.choice(["normal", "clip", "allreduce", "grad_add", "select"])
    L = []
    if arch == "dense":
        L += ["net = nn.HybridSequential()", "net.add(nn.Dense(8, activation='tanh'), nn.Dense(3))", "x = nd.array(rng.randn(5, 4).astype('float32'))"]
    elif arch == "conv":
        L += ["net = nn.HybridSequential()", "net.add(nn.Conv2D(4, 3, padding=1, use_bias=False), nn.BatchNorm(), nn.Activation('relu'), nn.Dense(3))", "x = nd.array(rng.randn(5, 2, 6, 6).astype('float32'))"]
    elif arch == "conv_pool":
        L += ["net = nn.HybridSequential()", "net.add(nn.Conv2D(4, 3, strides=2), nn.MaxPool2D(2, 1), nn.Flatten(), nn.Dropout(0.0), nn.Dense(3))", "x = nd.array(rng.randn(5, 2, 7, 7).astype('float32'))"]
    else:
        L += ["class Net(gluon.Block):", "    def __init__(self, **kw):", "        super().__init__(**kw)",
              "        self.rnn = gluon.rnn.LSTM(6, num_layers=1, layout='NTC')", "        self.out = nn.Dense(3, flatten=False)",
              "    def forward(self, x):", "        return self.out(self.rnn(x)).mean(axis=1)", "net = Net()",
              "x = nd.array(rng.randn(5, 4, 3).astype('float32'))"]
    L += ["net.initialize(mx.init.Xavier())", "net(x)", "set_weights(net)"]
    if "sparse_label=False" in loss or "KLDiv" in loss:
        L += ["y = nd.softmax(nd.array(rng.randn(5, 3).astype('float32')))"]
    elif "SoftmaxCrossEntropyLoss()" in loss:
        L += ["y = nd.array(rng.randint(0, 3, 5).astype('float32'))"]
    elif "Binary" in loss or "Logistic" in loss or "Hinge" in loss:
        L += ["y = nd.array((rng.rand(5, 3) > 0.5).astype('float32'))"]
        if "Logistic" in loss or "Hinge" in loss:
            L += ["y = y * 2 - 1"]
    elif "Cosine" in loss:
        L += ["y2 = nd.array(rng.randn(5, 3).astype('float32'))", "y = nd.array(np.sign(rng.randn(5)).astype('float32'))"]
    else:
        L += ["y = nd.array(rng.randn(5, 3).astype('float32'))"]
    if step == "grad_add":
        L += ["for p in net.collect_params().values():", "    p.grad_req = 'add'"]
    params = "net.collect_params('.*weight')" if step == "select" else "net.collect_params()"
    L += [f"trainer = gluon.Trainer({params}, {opt})", f"loss_fn = {loss}", "for i in range(3):", "    with autograd.record():"]
    if "Cosine" in loss:
        L += ["        loss = loss_fn(net(x), y2, y)"]
    else:
        L += ["        loss = loss_fn(net(x), y)"]
    L += ["    loss.backward()"]
    if step == "clip":
        L += ["    grads = [p.grad() for p in net.collect_params().values() if p.grad_req != 'null']",
              "    gluon.utils.clip_global_norm(grads, 0.5)", "    trainer.step(5)"]
    elif step == "allreduce":
        L += ["    trainer.allreduce_grads()", "    trainer.update(5)"]
    elif step == "grad_add":
        L += ["    trainer.step(5)", "    if i == 1:", "        net.collect_params().zero_grad()"]
    else:
        L += ["    trainer.step(5)"]
    L += ["    outs.append(loss.asnumpy())", "outs.append(net(x).asnumpy())"]
    return COMMON + "\n".join(L) + "\n", f"{arch}, {loss}, {opt}, {step}", {}


if __name__ == "__main__":
    cli(__doc__, make, same_outs, "training")
