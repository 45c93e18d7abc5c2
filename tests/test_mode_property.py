"""MXNet's training mode in whole programs, drawn: the order of construction, loading,
hybridize(), record() / pause() / train_mode() / predict_mode(), calls through functions and
containers, and backward (which moves BatchNorm's running statistics in MXNet). Each drawn
program runs in MXNet and, converted by xlate, in torch; every forward's output is recorded,
and the two lists must agree. A model in the wrong mode shows at once: BatchNorm with batch
statistics against running ones differs by far more than rounding (Note [MXNet's mode] in
xlate/runtime/autograd.py).
"""
from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet

HEADER = '''\
import mxnet as mx
from mxnet import nd, autograd
from mxnet.gluon import nn
import numpy as np


def build():
    net = nn.HybridSequential()
    net.add(nn.Dense(5, in_units=3), nn.BatchNorm(in_channels=5), nn.Dense(2, in_units=5))
    return net


def det(shape):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37 + n) * 0.3).reshape(shape).astype('float32')


def fresh():
    net = build()
    net.initialize()
    for p in net.collect_params().values():
        if p.grad_req != 'null':
            p.set_data(nd.array(det(p.shape)))
    return net


def record_call(model, data):
    with autograd.record():
        return model(data).asnumpy()


def plain_call(model, data):
    return model(data).asnumpy()


outs = []
x = nd.array(np.cos(np.arange(12) * 1.3).reshape(4, 3).astype('float32') * 2 + 0.5)
net = fresh()
'''

# one statement (or block) of a drawn program: the model is `net`, the input `x`
STEPS = {
    "call": "outs.append(net(x).asnumpy())",
    "record": "with autograd.record():\n    outs.append(net(x).asnumpy())",
    "record_predict": "with autograd.record(train_mode=False):\n    outs.append(net(x).asnumpy())",
    "pause": "with autograd.record():\n    with autograd.pause():\n        outs.append(net(x).asnumpy())",
    "pause_train": "with autograd.pause(train_mode=True):\n    outs.append(net(x).asnumpy())",
    "train_mode": "with autograd.train_mode():\n    outs.append(net(x).asnumpy())",
    "predict_in_record": "with autograd.record():\n    with autograd.predict_mode():\n"
                         "        outs.append(net(x).asnumpy())\n    outs.append(net(x).asnumpy())",
    "function_records": "outs.append(record_call(net, x))",
    "called_in_record": "with autograd.record():\n    outs.append(plain_call(net, x))",
    "container": "models = {'m': net}\nwith autograd.record():\n    outs.append(models['m'](x).asnumpy())\n"
                 "outs.append(models['m'](x).asnumpy())",
    "backward": "with autograd.record():\n    y = net(x)\ny.backward()\nouts.append(net(x).asnumpy())",
    "hybridize": "net.hybridize()",
    "rebuild": "net = fresh()",
    "reload": "net.save_parameters(PATH)\nnet = build()\nnet.load_parameters(PATH)",
    "is_training": "outs.append(np.array([float(autograd.is_training())]))\nwith autograd.record():\n"
                   "    outs.append(np.array([float(autograd.is_training())]))",
}

programs = st.lists(st.sampled_from(sorted(STEPS)), min_size=2, max_size=7)


def _run(source: str, path: str) -> list:
    scope: dict = {"__name__": "__drawn__", "PATH": path}
    exec(compile(source, "<drawn>", "exec"), scope)
    return scope["outs"]


_CONVERTED: dict = {}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_every_forward_runs_in_mxnets_mode(steps):
    import_mxnet()
    np = import_numpy()
    import_torch()
    source = HEADER + "\n".join(STEPS[s] for s in steps) + "\n"
    converted = convert_source(source).output
    with tempfile.TemporaryDirectory() as folder:
        expected = _run(source, os.path.join(folder, "mx.params"))
        got = _run(converted, os.path.join(folder, "pt.params"))
    assert len(got) == len(expected), steps
    for i, (want, have) in enumerate(zip(expected, got)):
        np.testing.assert_allclose(have, want, rtol=1e-4, atol=1e-5, err_msg=f"forward {i} of {steps}")


def test_the_property_sees_a_model_in_the_wrong_mode():
    """The observable works: the same program with the loaded model left in torch's default
    (training) mode gives another output than MXNet's."""
    import_mxnet()
    np = import_numpy()
    import_torch()
    source = HEADER + STEPS["reload"] + "\n" + STEPS["call"] + "\n"
    converted = convert_source(source).output
    assert "_mx_load_parameters(net, PATH)" in converted
    wrong = converted.replace("_mx_load_parameters(net, PATH)", "net.load_state_dict(torch.load(PATH))")
    with tempfile.TemporaryDirectory() as folder:
        expected = _run(source, os.path.join(folder, "mx.params"))
        right = _run(converted, os.path.join(folder, "pt.params"))
        broken = _run(wrong, os.path.join(folder, "pt.params"))
    np.testing.assert_allclose(right[0], expected[0], rtol=1e-4, atol=1e-5)
    assert np.abs(broken[0] - expected[0]).max() > 0.1
