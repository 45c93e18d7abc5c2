"""A user's helpers on values xlate cannot type: NDArray attributes and methods, the same helpers
also given NumPy arrays and plain objects, which keep their own behaviour."""
import json

import numpy as np
import mxnet as mx
from mxnet import nd


def to_device(x, ctx):
    return x.as_in_context(ctx)


def device_of(x):
    return x.context, x.ctx


def add_axis(x):
    return x.expand_dims(axis=1)


def add_axis_view(x):
    return x.expand_dims(axis=0, inplace=True)


def clone_into(x, out):
    return x.copyto(out)


def summary(x):
    return float(x.sum().asscalar()), x.asnumpy().tolist()


def scale(x, s):
    return (x * s).astype("float32")


class Box:
    """Not an array: its own attributes and methods of the same names."""
    def __init__(self):
        self.context = "box-ctx"
        self.ctx = "box"

    def as_in_context(self, ctx):
        return "moved"

    def expand_dims(self, axis):
        return ("expanded", axis)

    def copyto(self, other):
        return ("copied", other)

    def asnumpy(self):
        return np.array([1.5])

    def sum(self):
        return self

    def asscalar(self):
        return 2.5


rs = np.random.RandomState(4)
a = nd.array(rs.randn(2, 3))
b = rs.randn(2, 3)
out = []
out.append(to_device(a, mx.cpu()).sum().asscalar())
ctx1, ctx2 = device_of(a)
out.append(str(ctx1) == str(mx.cpu()))
out.append(device_of(Box()))
out.append(add_axis(a).shape)
out.append(add_axis(Box()))
out.append(to_device(Box(), mx.cpu()))
out.append(clone_into(Box(), 7))
out.append(summary(Box()))
out.append(add_axis_view(a).shape)
dst = nd.zeros((2, 3))
clone_into(a, dst)
out.append(dst.sum().asscalar())
out.append(clone_into(a, mx.cpu()).sum().asscalar())
out.append(summary(a)[0])
out.append(summary(a * 2)[1])
out.append(scale(a, 2).sum().asscalar())
out.append(scale(b, 2).dtype.name)
print("RESULT", json.dumps([float(v) if isinstance(v, (np.floating, float)) else v for v in out], default=str))
