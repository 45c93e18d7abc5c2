"""d2l 0.17.6 train_batch_ch13 with split_batch over two (CPU) devices, ignore_stale_grad."""
import json

import numpy as onp
import mxnet as mx
from mxnet import autograd, gluon, np, npx
from mxnet.gluon import nn
npx.set_np()


def split_batch(X, y, devices):
    assert X.shape[0] == y.shape[0]
    return (gluon.utils.split_and_load(X, devices),
            gluon.utils.split_and_load(y, devices))


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.astype(y.dtype) == y
    return float(cmp.astype(y.dtype).sum())


def train_batch_ch13(net, features, labels, loss, trainer, devices, split_f=split_batch):
    X_shards, y_shards = split_f(features, labels, devices)
    with autograd.record():
        pred_shards = [net(X_shard) for X_shard in X_shards]
        ls = [loss(pred_shard, y_shard) for pred_shard, y_shard in zip(pred_shards, y_shards)]
    for l in ls:
        l.backward()
    trainer.step(labels.shape[0], ignore_stale_grad=True)
    train_loss_sum = sum([float(l.sum()) for l in ls])
    train_acc_sum = sum(accuracy(pred_shard, y_shard) for pred_shard, y_shard in zip(pred_shards, y_shards))
    return train_loss_sum, train_acc_sum


rs = onp.random.RandomState(2)
devices = [mx.cpu(0)]
class Head(nn.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.body = nn.Dense(8, activation="relu", in_units=4)
        self.out = nn.Dense(3, in_units=8)
        self.spare = nn.Dense(2, in_units=3)  # never called: its gradient is stale

    def forward(self, x):
        return self.out(self.body(x))


net = Head()
net.initialize(ctx=devices)
for p in net.collect_params().values():
    p.set_data(np.array(rs.normal(0, 0.5, p.shape).astype("float32")))
trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.2})
loss = gluon.loss.SoftmaxCrossEntropyLoss()
out = []
for _ in range(3):
    X = np.array(rs.randn(6, 4).astype("float32"))
    y = np.array(rs.randint(0, 3, 6).astype("float32"))
    out.extend(train_batch_ch13(net, X, y, loss, trainer, devices))
out.append(float(sum(p.data().sum() for p in net.collect_params().values())))
print("RESULT", json.dumps(out))
