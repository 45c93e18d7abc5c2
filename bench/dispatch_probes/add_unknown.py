"""`.add` on receivers whose kind is not visible where the call stands: a library function that
other code (another cell, another module) hands a container, a set or its own Sequential."""
import json

import numpy as onp
from mxnet import nd
from mxnet.gluon import nn


def add_layers(net, layers):
    for layer in layers:
        net.add(layer)
    return net


def add_pair(blk, a, b):
    blk.add(a, b)


def register(registry, item):
    registry.add(item)
    return registry


def make_net(pretrained_features, extra):
    net = nn.HybridSequential()
    for i in range(len(pretrained_features)):
        net.add(pretrained_features[i])
    add_pair(net, extra[0], extra[1])
    return net


rs = onp.random.RandomState(3)
features = nn.HybridSequential()
features.add(nn.Dense(6, in_units=4, activation="relu"), nn.Dense(5, in_units=6))
net = make_net(features, [nn.Dense(4, in_units=5), nn.Dense(2, in_units=4)])
other = add_layers(nn.Sequential(), [nn.Dense(3, in_units=2)])
net.initialize()
other.initialize()
for p in net.collect_params().values():
    p.set_data(nd.array(rs.normal(0, 0.5, p.shape)))
for p in other.collect_params().values():
    p.set_data(nd.array(rs.normal(0, 0.5, p.shape)))
seen = register(set(), 3)
seen = register(seen, 4)
x = nd.array(rs.randn(3, 4))
y = other(net(x))
print("RESULT", json.dumps([float(y.sum().asscalar()), float((y * y).sum().asscalar()), sorted(seen), len(net)]))
