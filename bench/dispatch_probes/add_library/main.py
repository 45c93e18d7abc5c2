"""Uses the library's helpers on a Gluon Sequential, a HybridSequential and a set."""
import json

import numpy as onp
from mxnet import nd
from mxnet.gluon import nn

import blocks

rs = onp.random.RandomState(3)
net = nn.Sequential()
blocks.add_layers(net, [blocks.vgg_block(1, 3), nn.Dense(6, activation="relu")])
blocks.add_pair(net, nn.Dense(4), nn.Dense(2))
net.initialize()
x = nd.array(rs.randn(2, 2, 6, 6))
net(x)
for p in net.collect_params().values():
    p.set_data(nd.array(rs.normal(0, 0.5, p.shape)))
seen = blocks.register(set(), 3)
seen = blocks.register(seen, 4)
y = net(x)
print("RESULT", json.dumps([float(y.sum().asscalar()), float((y * y).sum().asscalar()), sorted(seen), len(net)]))
