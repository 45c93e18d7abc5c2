"""MXNet's execution model in training scripts (issue 22, items 1-3), each script run in MXNet
and converted in torch, step by step: the mode a model computes in when it was loaded rather
than trained (item 1), a Trainer built before the first forward fixes deferred sizes (item 2),
and the gradient zeroing xlate inserts lands in the loop whose step consumes the gradients,
never before a from-scratch loop that runs first (item 3). The scripts append what they would
print to `outs`; both lists must agree.
"""
from __future__ import annotations

import os
import tempfile

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet

COMMON = '''\
import mxnet as mx
from mxnet import nd, autograd, gluon, init
from mxnet.gluon import nn
import numpy as np


def det(shape):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37 + n) * 0.3).reshape(shape).astype('float32')


def set_weights(net):
    for p in net.collect_params().values():
        if p.grad_req != 'null':
            p.set_data(nd.array(det(p.shape)))


outs = []
rng = np.random.RandomState(0)
'''

LOADED_MODEL_PREDICTS = COMMON + '''
def build():
    net = nn.HybridSequential()
    net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation('relu'), nn.GlobalAvgPool2D(), nn.Dense(3))
    return net


net = build()
net.initialize(mx.init.Xavier())
x = nd.array(rng.randn(6, 2, 5, 5).astype('float32'))
y = nd.array(rng.randint(0, 3, 6).astype('float32'))
net(x)
set_weights(net)
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
for i in range(2):
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    trainer.step(6)
    outs.append(loss.asnumpy())
net.save_parameters(PATH)
again = build()
again.load_parameters(PATH)
again.hybridize()
outs.append(again(x).asnumpy())
outs.append((again(x) - net(x)).abs().sum().asnumpy())
'''

TRAINER_BEFORE_FIRST_FORWARD = COMMON + '''
net = nn.HybridSequential()
net.add(nn.Conv2D(3, kernel_size=3), nn.BatchNorm(), nn.Activation('relu'), nn.Flatten(), nn.Dense(4))
net.initialize(init=init.Xavier())
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 1e-3})
x = nd.array(rng.randn(5, 2, 6, 6).astype('float32'))
y = nd.array(rng.randint(0, 4, 5).astype('float32'))
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
net(x)  # the sizes are fixed here, after the Trainer took the parameters
set_weights(net)
for i in range(3):
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    trainer.step(5)
    outs.append(loss.asnumpy())
outs.append(net(x).asnumpy())
'''

SCRATCH_LOOP_BEFORE_GLUON_LOOP = COMMON + '''
X = nd.array(rng.randn(20, 3).astype('float32'))
Y = nd.dot(X, nd.array([[2.0], [-3.4], [1.5]])) + 4.2
w = nd.array(rng.randn(3, 1).astype('float32') * 0.01)
b = nd.zeros(shape=(1,))
w.attach_grad()
b.attach_grad()
for epoch in range(5):
    with autograd.record():
        l = ((nd.dot(X, w) + b - Y) ** 2 / 2).mean()
    l.backward()
    w[:] = w - 0.1 * w.grad
    b[:] = b - 0.1 * b.grad
    outs.append(l.asnumpy())
net = nn.Sequential()
net.add(nn.Dense(1, in_units=3))
net.initialize()
set_weights(net)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
loss = gluon.loss.L2Loss()
for epoch in range(5):
    with autograd.record():
        l = loss(net(X), Y)
    l.backward()
    trainer.step(20)
    outs.append(l.asnumpy())
'''


TWO_CONTEXTS_BATCHNORM = COMMON + '''
ctx = [mx.cpu(0), mx.cpu(1)]
net = nn.HybridSequential()
net.add(nn.Dense(6, in_units=5), nn.BatchNorm(in_channels=6), nn.Activation('tanh'), nn.Dense(3, in_units=6))
net.initialize(mx.init.Xavier(), ctx=ctx)
set_weights(net)
X = nd.array(rng.randn(8, 5).astype('float32'))
Y = nd.array(rng.randint(0, 3, 8).astype('float32'))
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
lf = gluon.loss.SoftmaxCrossEntropyLoss()
for step in range(3):
    xs = gluon.utils.split_and_load(X * (step + 1), ctx)
    ys = gluon.utils.split_and_load(Y, ctx)
    with autograd.record():
        losses = [lf(net(x), y) for x, y in zip(xs, ys)]
    for l in losses:
        l.backward()
    trainer.step(X.shape[0])
    outs.append(sum(l.sum().asnumpy() for l in losses))
outs.append(net(X).asnumpy())  # predicting on the first context: its own running statistics
outs.append(net[1].running_mean.data().asnumpy())
outs.append(net[1].running_var.data().asnumpy())
'''


def _run(source: str, folder: str, name: str) -> list:
    scope: dict = {"__name__": "__script__", "PATH": os.path.join(folder, name)}
    exec(compile(source, name, "exec"), scope)
    return scope["outs"]


def _same_numbers(source: str) -> str:
    import_mxnet()
    np = import_numpy()
    import_torch()
    converted = convert_source(source).output
    with tempfile.TemporaryDirectory() as folder:
        expected = _run(source, folder, "mx.params")
        got = _run(converted, folder, "pt.params")
    assert len(got) == len(expected)
    for i, (want, have) in enumerate(zip(expected, got)):
        have = [np.asarray(h) for h in have] if isinstance(have, list) else have
        np.testing.assert_allclose(np.asarray(have).reshape(np.shape(want)), want, rtol=1e-4, atol=1e-5,
                                   err_msg=f"value {i}")
    return converted


def test_a_loaded_model_predicts_outside_record():
    """Item 1: `build(); load_parameters(f); net(x)` gives the saved model's output (MXNet: a
    difference of 0.0), whatever mode torch builds modules in."""
    converted = _same_numbers(LOADED_MODEL_PREDICTS)
    assert "_mx_load_parameters(again, PATH)" in converted and "with _mx_record():" in converted


def test_a_trainer_built_before_the_first_forward():
    """Item 2: the crash course's order (initialize, Trainer, then the first forward fixes the
    sizes): the Trainer steps every parameter, momentum and weight decay included."""
    _same_numbers(TRAINER_BEFORE_FIRST_FORWARD)


def test_gradient_zeroing_stays_in_the_loop_of_its_step():
    """Item 3: the from-scratch loop overwrites its gradients itself; the Gluon loop's
    zero_grad() sits right before its backward, after the trainer exists."""
    converted = _same_numbers(SCRATCH_LOOP_BEFORE_GLUON_LOOP)
    lines = converted.splitlines()
    zero = lines.index("    trainer.zero_grad()")
    made = next(i for i, line in enumerate(lines) if line.startswith("trainer = "))
    assert lines[zero + 1] == "    l.sum().backward()" and made < zero
    assert "    _mx_array_backward(l)" in lines


def test_each_context_keeps_its_batchnorm_statistics():
    """MXNet's copy of the model on each context moves its own running statistics with its
    slice; the first context's predict and are what collect_params shows (Note [a BatchNorm
    per device])."""
    _same_numbers(TWO_CONTEXTS_BATCHNORM)


CAST_BEFORE_THE_FIRST_FORWARD = COMMON + '''
net = nn.HybridSequential()
net.add(nn.Conv2D(3, 3), nn.BatchNorm(), nn.Dense(2))
net.cast('float64')  # GluonCV's --dtype: before the first forward fixes the deferred sizes
net.initialize()
x = nd.array(rng.randn(2, 2, 5, 5), dtype='float64')
net(x)
set_weights(net)
outs.append(net(x).asnumpy())
outs.append(np.array([net(x).asnumpy().dtype == np.float64]))
'''


def test_a_cast_before_the_first_forward_reaches_the_deferred_parameters():
    """Gluon's cast() on a model whose sizes are still deferred makes them in that dtype; the
    translation's lazy tensors are made in it too (they stayed float32: a dtype error)."""
    _same_numbers(CAST_BEFORE_THE_FIRST_FORWARD)


SET_DATA_BEFORE_THE_FIRST_FORWARD = COMMON + '''
net = nn.Sequential()
net.add(nn.Dense(3, activation='tanh'), nn.Dense(2))
net.initialize(mx.init.Normal(0.01))
net[0].weight.set_data(nd.array(det((3, 4))))  # the size is deferred: Gluon keeps the value
net[0].bias.set_data(nd.array(det((3,))))
net[1].weight.set_data(nd.array(det((2, 3))))
x = nd.array(rng.randn(5, 4).astype('float32'))
net[1].bias.set_data(nd.array(det((2,))))
outs.append(net(x).asnumpy())
net[0].bias.set_data(nd.array(det((3,)) * 2))  # and once the size is known, copied in place
outs.append(net(x).asnumpy())
'''


def test_set_data_before_the_first_forward_is_kept_for_the_deferred_initialisation():
    """The crash course's `initialize()` then `set_data` on a layer whose input size is still
    deferred: MXNet keeps the value and gives it at the first forward (a plain copy into the
    lazy tensor raised)."""
    _same_numbers(SET_DATA_BEFORE_THE_FIRST_FORWARD)


GRAD_REQ_ADD = COMMON + '''
net = nn.HybridSequential()
net.add(nn.Dense(6, activation='tanh', in_units=4), nn.Dense(3, in_units=6))
net.initialize(mx.init.Xavier())
set_weights(net)
for p in net.collect_params().values():
    p.grad_req = 'add'
net[1].bias.grad_req = 'write'
x = nd.array(rng.randn(5, 4).astype('float32'))
y = nd.array(rng.randint(0, 3, 5).astype('float32'))
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.05, 'momentum': 0.9})
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
for i in range(4):
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    trainer.step(5)
    outs.append(loss.asnumpy())
    outs.append(net[0].weight.grad().asnumpy())
    outs.append(net[1].bias.grad().asnumpy())
    if i == 1:
        net.collect_params().zero_grad()
outs.append(net(x).asnumpy())
'''


def test_grad_req_add_accumulates_until_the_program_zeroes():
    """grad_req='add' (MX165): each backward adds to the gradient, the zeroing xlate inserts before
    backward leaves those parameters alone, and `collect_params().zero_grad()` zeroes them; a
    parameter set back to 'write' is overwritten at each backward."""
    converted = _same_numbers(GRAD_REQ_ADD)
    assert '_mx_set_param_attr(p, "grad_req", \'add\')' in converted
