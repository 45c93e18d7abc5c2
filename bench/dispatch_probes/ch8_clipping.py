"""d2l 0.17.6 train_epoch_ch8 + grad_clipping: a from-scratch model (`.params`) or a Block,
`updater(batch_size=1)` a function over sgd or over a Trainer."""
import json
import math

import numpy as onp
from mxnet import autograd, gluon, np, npx
from mxnet.gluon import nn
npx.set_np()

V, H = 6, 5


def sgd(params, lr, batch_size):
    for param in params:
        param[:] = param - lr * param.grad / batch_size


class RNNModelScratch:
    def __init__(self, vocab_size, num_hiddens, device, get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens, device)
        self.init_state, self.forward_fn = init_state, forward_fn

    def __call__(self, X, state):
        X = npx.one_hot(X.T, self.vocab_size)
        return self.forward_fn(X, state, self.params)

    def begin_state(self, batch_size, ctx):
        return self.init_state(batch_size, self.num_hiddens, ctx)


rs = onp.random.RandomState(1)


def get_params(vocab_size, num_hiddens, device):
    def normal(shape):
        return np.array(rs.normal(0, 0.5, shape).astype("float32"), ctx=device)
    W_xh, W_hh, b_h = normal((vocab_size, num_hiddens)), normal((num_hiddens, num_hiddens)), normal(num_hiddens)
    W_hq, b_q = normal((num_hiddens, vocab_size)), normal(vocab_size)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.attach_grad()
    return params


def init_rnn_state(batch_size, num_hiddens, device):
    return (np.zeros((batch_size, num_hiddens), ctx=device),)


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = np.tanh(np.dot(X, W_xh) + np.dot(H, W_hh) + b_h)
        outputs.append(np.dot(H, W_hq) + b_q)
    return np.concatenate(outputs, axis=0), (H,)


class TinyRNN(nn.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inp = nn.Dense(H, flatten=False, in_units=V)
        self.out = nn.Dense(V, in_units=H)

    def forward(self, X, state):
        X = npx.one_hot(X.T, V)
        h = state[0]
        outs = []
        for x in X:
            h = np.tanh(self.inp(x) + h)
            outs.append(self.out(h))
        return np.concatenate(outs, axis=0), [h]

    def begin_state(self, batch_size, ctx):
        return [np.zeros((batch_size, H), ctx=ctx)]


def grad_clipping(net, theta):
    if isinstance(net, gluon.Block):
        params = [p.data() for p in net.collect_params().values()]
    else:
        params = net.params
    norm = math.sqrt(sum((p.grad ** 2).sum() for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


def train_epoch_ch8(net, train_iter, loss, updater, device, use_random_iter):
    state = None
    total, count = 0.0, 0
    for X, Y in train_iter:
        if state is None or use_random_iter:
            state = net.begin_state(batch_size=X.shape[0], ctx=device)
        else:
            for s in state:
                s.detach()
        y = Y.T.reshape(-1)
        X, y = X.as_in_ctx(device), y.as_in_ctx(device)
        with autograd.record():
            y_hat, state = net(X, state)
            l = loss(y_hat, y).mean()
        l.backward()
        grad_clipping(net, 1)
        updater(batch_size=1)
        total += float(l) * y.size
        count += y.size
    return math.exp(total / count)


device = npx.cpu()
data = [(np.array(rs.randint(0, V, (2, 4)).astype("float32")), np.array(rs.randint(0, V, (2, 4)).astype("float32")))
        for _ in range(3)]
loss = gluon.loss.SoftmaxCrossEntropyLoss()
scratch = RNNModelScratch(V, H, device, get_params, init_rnn_state, rnn)
ppl1 = train_epoch_ch8(scratch, data, loss, lambda batch_size: sgd(scratch.params, 0.5, batch_size), device, False)

block = TinyRNN()
block.initialize(ctx=device)
for p in block.collect_params().values():
    p.set_data(np.array(rs.normal(0, 0.5, p.shape).astype("float32")))
trainer = gluon.Trainer(block.collect_params(), "sgd", {"learning_rate": 0.5})
ppl2 = train_epoch_ch8(block, data, loss, lambda batch_size: trainer.step(batch_size), device, True)
print("RESULT", json.dumps([ppl1, ppl2, float(scratch.params[0].sum()),
                            float(sum(p.data().sum() for p in block.collect_params().values()))]))
