"""Item 8: NumPy values beside MXNet ones; comparisons, arithmetic, subscripts and method chains
keep NumPy's meaning on NumPy operands (a held-out program's data maker)."""
import json

import numpy as np
from mxnet import nd, gluon, autograd


def make_data(n):
    X = np.random.RandomState(5).randn(n, 2)
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(np.float32)
    return X, y


def label(X):
    return (X[:, 0] + 0.5 * X[:, 1] > 0).astype(np.float32)


def centre(X):
    return (X - X.mean(axis=0)).astype("float32").T.transpose()


def mask(X):
    return (X[:, 1] < X[:, 0]).astype(int).sum()


X, y = make_data(8)
net = gluon.nn.Dense(1, in_units=2)
net.initialize()
net.weight.set_data(nd.array([[0.3, -0.7]]))
net.bias.set_data(nd.array([0.1]))
Xn = nd.array(X)
yn = nd.array(label(X))
with autograd.record():
    l = ((net(Xn).reshape(-1) - yn) ** 2).mean()
l.backward()
out = [label(X).tolist(), float(centre(X).sum()), int(mask(X)), y.dtype.name, label(X).dtype.name,
       float(l.asscalar()), float(net.weight.grad().sum().asscalar()),
       float((Xn[:, 0] > 0).astype("float32").sum().asscalar())]
print("RESULT", json.dumps(out))
