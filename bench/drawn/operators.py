"""Drawn hybrid_forward operator chains (bench): two to four of ~50 F.* operator spellings on a
(4, 6, 5) input, with parameters from self.params.get, checked with xlate.check.pair.check_models
(outputs, input and parameter gradients; strict float32 tolerance, so products of several
operators can differ by 1e-5). Prints each failure (a left operator raises naming itself).

    PYTHONPATH=. .venv/bin/python bench/drawn/operators.py [-n 40] [--seed 1] [--save DIR]
"""

from _hunt import cli, same_model

OPS = [
 "F.broadcast_add(x, F.mean(x, axis=2, keepdims=True))",
 "F.concat(F.slice_axis(x, axis=1, begin=0, end=3), F.slice_axis(x, axis=1, begin=3, end=None), dim=1)",
 "F.where(x > 0, x, 0.1 * x)",
 "F.clip(x, -0.5, 0.5) + x",
 "F.LeakyReLU(x, act_type='leaky', slope=0.2)",
 "F.LeakyReLU(x, act_type='elu', slope=0.3)",
 "F.LeakyReLU(x, act_type='gelu')",
 "F.Activation(x, act_type='softrelu')",
 "F.reshape(F.reshape(x, shape=(0, -1)), shape=(0, 6, 5))",
 "F.swapaxes(F.swapaxes(x, 1, 2) * 2, 1, 2)",
 "F.L2Normalization(x, mode='channel')",
 "F.LayerNorm(x, gamma, beta, axis=-1)",
 "F.broadcast_mul(F.norm(x, axis=1, keepdims=True), x)",
 "F.batch_dot(F.softmax(F.batch_dot(x, x, transpose_b=True), axis=-1), x)",
 "F.FullyConnected(x, weight, bias, num_hidden=5, flatten=False)",
 "F.Convolution(x, cw, cb, kernel=(3,), pad=(1,), num_filter=6)",
 "F.concat(*F.split(x, num_outputs=2, axis=1), dim=1)",
 "F.broadcast_mul(F.expand_dims(F.sum(x, axis=1), axis=1), x)",
 "F.broadcast_mul(x, F.max(x, axis=(1, 2), keepdims=True))",
 "F.broadcast_add(F.tile(F.slice_axis(x, axis=2, begin=0, end=1), reps=(1, 1, 5)), x)",
 "F.flip(x, axis=2) + x",
 "F.reverse(x, axis=1) * x",
 "F.stack(x, x * 2, axis=0).sum(axis=0)",
 "F.rsqrt(F.abs(x) + 1) + F.square(x)",
 "F.log1p(F.abs(x)) + F.erf(x)",
 "F.maximum(x, 0.1) + F.minimum(x, x * 2)",
 "F.reshape(F.dot(F.reshape(x, (-1, 5)), w55), (4, 6, 5))",
 "F.smooth_l1(x, scalar=1.0)",
 "F.Pooling(x, kernel=(3,), pool_type='avg', stride=(1,), pad=(1,))",
 "F.Pooling(x, kernel=(3,), pool_type='max', stride=(1,), pad=(1,))",
 "F.Dropout(x, p=0.0) + x",
 "x.transpose((0, 2, 1)).reshape((4, 6, 5)) + x",
 "x.mean(axis=1, keepdims=True).broadcast_like(x) * x",
 "F.broadcast_div(x, F.sum(F.exp(x), axis=-1, keepdims=True))",
 "F.sign(x) * F.sqrt(F.abs(x) + 0.1)",
 "F.pick(x, F.argmax(x, axis=2), axis=2, keepdims=True) * x",
 "F.one_hot(F.argmax(x, axis=2), 5) + x",
 "F.sum(x, axis=0, exclude=True, keepdims=True) * x",
 "F.broadcast_sub(x, F.min(x, axis=-1, keepdims=True))",
 "F.contrib.div_sqrt_dim(x)",
 "F.elemwise_add(x, F.ones_like(x))",
 "F.relu(x) - F.sigmoid(x) + F.tanh(x)",
 "F.log_softmax(x, axis=1)",
 "F.softmax(x, axis=-1, temperature=2.0)",
 "F.InstanceNorm(x, gamma6, beta6)",
 "F.cumsum(x, axis=2)",
]
PARAMS = {"weight": "(5, 5)", "bias": "(5,)", "cw": "(6, 6, 3)", "cb": "(6,)", "w55": "(5, 5)", "gamma": "(5,)",
          "beta": "(5,)", "gamma6": "(6,)", "beta6": "(6,)"}

def make(r):
    ops = [r.choice(OPS) for _ in range(r.randint(2, 4))]
    used = [p for p in PARAMS if any(f"{p}," in o or f"{p})" in o for o in ops)]
    lines = ["import mxnet as mx", "from mxnet import gluon", "from mxnet.gluon import nn", "",
             "class Net(gluon.HybridBlock):", "    def __init__(self, **kwargs):", "        super(Net, self).__init__(**kwargs)"]
    scope = r.random() < 0.5
    ind = "        "
    if scope:
        lines.append("        with self.name_scope():")
        ind = "            "
    for p in used:
        lines.append(f"{ind}self.{p} = self.params.get('{p}', shape={PARAMS[p]})")
    lines.append(f"{ind}self.dense = nn.Dense(5, flatten=False, in_units=5)")
    lines += ["", f"    def hybrid_forward(self, F, x{''.join(', ' + p for p in used)}):"]
    for o in ops:
        lines.append(f"        x = {o}")
    lines.append("        return self.dense(x)")
    return "\n".join(lines) + "\n", ops, {"build": "Net", "shape": (4, 6, 5)}

if __name__ == "__main__":
    cli(__doc__, make, same_model, "operators")
