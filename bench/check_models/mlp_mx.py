from mxnet.gluon import nn


def Net():
    net = nn.HybridSequential()
    net.add(nn.Dense(512, activation="relu", in_units=256), nn.Dense(512, activation="relu", in_units=512),
            nn.Dense(10, in_units=512))
    return net
