"""Training scripts in every order MXNet allows (STYLE: every order of construction, loading and
calls), drawn by hypothesis: hybridize before or after the first forward, the Trainer made before
the sizes are known or after, the weights set or loaded from a file, a second forward in predict
mode or outside record, layers with deferred or given input sizes, optimizers with momentum and
weight decay. Each drawn script runs in MXNet and, converted, in torch; what it appends to
`outs` (losses, outputs, running statistics) must agree."""
from __future__ import annotations

import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from test_execution_model import COMMON, _run
from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet

PROFILE = dict(derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def scripts(draw):
    deferred = draw(st.booleans())
    units = "" if deferred else ", in_units=4"
    act = draw(st.sampled_from(["'relu'", "'tanh'", "None"]))
    momentum = draw(st.sampled_from([0.9, 0.5]))
    # no bias before BatchNorm: its gradient is zero in theory, float noise in practice, and Adam
    # scales noise up to a full step (both frameworks agree to 1e-6 on the gradient itself)
    layers = [f"nn.Dense(6, activation={act}, use_bias=False{units})",
              f"nn.BatchNorm(momentum={momentum}{'' if deferred else ', in_channels=6'})",
              f"nn.Dense(3{'' if deferred else ', in_units=6'})"]
    if draw(st.booleans()):
        layers.insert(2, "nn.Dropout(0.0)")
    optimizer = draw(st.sampled_from(["'sgd', {'learning_rate': 0.1}",
                                      "'sgd', {'learning_rate': 0.05, 'momentum': 0.9, 'wd': 1e-3}",
                                      "'adam', {'learning_rate': 0.01}"]))
    hybridize = draw(st.sampled_from(["never", "before", "after"]))
    trainer_at = draw(st.sampled_from(["before", "after"]))  # the first forward
    loss = draw(st.sampled_from(["gluon.loss.SoftmaxCrossEntropyLoss()", "gluon.loss.L2Loss()"]))
    steps = draw(st.integers(1, 3))
    weights = draw(st.sampled_from(["set", "loaded", "loaded into a new net"]))
    last = draw(st.sampled_from(["plain", "predict_mode", "train_mode"]))
    new_lr = draw(st.sampled_from([None, 0.02]))
    trainer = f"trainer = gluon.Trainer(net.collect_params(), {optimizer})"
    lines = ["def build():", "    net = nn.HybridSequential()", f"    net.add({', '.join(layers)})",
             "    net.initialize(mx.init.Xavier())", "    return net", "",
             "net = build()",
             "x = nd.array(rng.randn(5, 4).astype('float32'))",
             "y = nd.array(rng.randint(0, 3, 5).astype('float32'))"]
    if loss.endswith("L2Loss()"):
        lines.append("y = nd.array(rng.randn(5, 3).astype('float32'))")
    if hybridize == "before":
        lines.append("net.hybridize()")
    if trainer_at == "before" and weights != "loaded into a new net":
        lines.append(trainer)
    lines.append("net(x)  # the sizes are fixed here")
    if hybridize == "after":
        lines.append("net.hybridize()")
    lines.append("set_weights(net)")
    if weights == "loaded":
        lines += ["net.save_parameters(PATH)",
                  "for p in net.collect_params().values():",
                  "    p.set_data(p.data() * 0)",
                  "net.load_parameters(PATH)"]
    elif weights == "loaded into a new net":  # loaded before its first forward: deferred sizes
        lines += ["net.save_parameters(PATH)", "net = build()"]
        if trainer_at == "before":
            lines.append(trainer)
        lines += ["net.load_parameters(PATH)"]
        if hybridize != "never":
            lines.append("net.hybridize()")
    if trainer_at == "after":
        lines.append(trainer)
    lines += [f"loss_fn = {loss}", f"for i in range({steps}):", "    with autograd.record():",
              "        loss = loss_fn(net(x), y)", "    loss.backward()", "    trainer.step(5)",
              "    outs.append(loss.asnumpy())"]
    if new_lr is not None:
        lines += [f"    trainer.set_learning_rate({new_lr})"]
    if last == "plain":
        lines.append("outs.append(net(x).asnumpy())")
    else:
        lines += [f"with autograd.{last}():", "    outs.append(net(x).asnumpy())"]
    lines += ["outs.append(net[1].running_mean.data().asnumpy())",
              "outs.append(net[1].running_var.data().asnumpy())"]
    return COMMON + "\n".join(lines) + "\n"


@settings(max_examples=5, **PROFILE)
@given(scripts())
def test_drawn_training_scripts_give_mxnets_numbers(source):
    np = import_numpy()
    import_mxnet()
    import_torch()
    converted = convert_source(source)
    assert not [d for d in converted.diagnostics if d.status == "manual"], converted.output
    with tempfile.TemporaryDirectory() as folder:
        expected = _run(source, folder, "mx.params")
        got = _run(converted.output, folder, "pt.params")
    assert len(got) == len(expected)
    for i, (want, have) in enumerate(zip(expected, got)):
        np.testing.assert_allclose(np.asarray(have).reshape(np.shape(want)), want, rtol=1e-4, atol=1e-5,
                                   err_msg=f"value {i}\n{converted.output}")
