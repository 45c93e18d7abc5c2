"""A course library's helpers: what their `.add` receives is decided by the caller's module."""
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


def vgg_block(num_convs, num_channels):
    blk = nn.Sequential()
    for _ in range(num_convs):
        blk.add(nn.Conv2D(num_channels, kernel_size=3, padding=1, activation='relu'))
    blk.add(nn.MaxPool2D(pool_size=2, strides=2))
    return blk
