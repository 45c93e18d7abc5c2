"""d2l 0.17.6 train_epoch_ch3: `updater` is a gluon Trainer or a function."""
import json

import numpy as onp
from mxnet import autograd, gluon, np, npx
from mxnet.gluon import nn
npx.set_np()


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]


def sgd(params, lr, batch_size):
    for param in params:
        param[:] = param - lr * param.grad / batch_size


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.astype(y.dtype) == y
    return float(cmp.astype(y.dtype).sum())


def train_epoch_ch3(net, train_iter, loss, updater):
    metric = Accumulator(3)
    if isinstance(updater, gluon.Trainer):
        updater = updater.step
    for X, y in train_iter:
        with autograd.record():
            y_hat = net(X)
            l = loss(y_hat, y)
        l.backward()
        updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.size)
    return metric[0] / metric[2], metric[1] / metric[2]


rs = onp.random.RandomState(0)
features = np.array(rs.randn(40, 5).astype("float32"))
labels = np.array(rs.randint(0, 3, 40).astype("float32"))
train_iter = [(features[i:i + 10], labels[i:i + 10]) for i in range(0, 40, 10)]

W = np.array(rs.normal(0, 0.3, (5, 3)).astype("float32"))
b = np.array(rs.normal(0, 0.3, 3).astype("float32"))
W.attach_grad()
b.attach_grad()


def softmax(X):
    X_exp = np.exp(X)
    return X_exp / X_exp.sum(1, keepdims=True)


def net(X):
    return softmax(np.dot(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return -np.log(y_hat[range(len(y_hat)), y.astype("int32")])


updater = lambda batch_size: sgd([W, b], 0.1, batch_size)
r1 = train_epoch_ch3(net, train_iter, cross_entropy, updater)

net2 = nn.Dense(3)
net2.initialize()
net2(features[:1])
net2.weight.set_data(np.array(rs.normal(0, 0.3, (3, 5)).astype("float32")))
net2.bias.set_data(np.array(rs.normal(0, 0.3, 3).astype("float32")))
trainer = gluon.Trainer(net2.collect_params(), "sgd", {"learning_rate": 0.1})
r2 = train_epoch_ch3(net2, train_iter, gluon.loss.SoftmaxCrossEntropyLoss(), trainer)
print("RESULT", json.dumps([*r1, *r2, float(W.sum()), float(net2.weight.data().sum())]))
