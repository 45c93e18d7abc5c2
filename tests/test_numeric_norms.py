"""The norm rules (MX140-MX144, rules/1xx_norms.toml) run against live MXNet.

Each case is one Gluon layer expression. It is converted with every rule on, the converted
file is executed, and `xlate.check.pair.check_models` runs both sides with the same random
asymmetric weights and running statistics and compares: the inference output (MXNet outside
`record()`, torch in `.eval()`), then under one random head gradient the training output, the
input gradient, the gradient of every learned gamma/beta, and every statistic or frozen
parameter after the forward+backward step (MXNet's grad_req='null' ones). Configurations are
drawn with hypothesis over rank, axis, momentum, epsilon, center/scale, use_global_stats and a
deferred `in_channels`. Further tests: several training steps, the naive translations that
must be caught, and the lazy modules' torch-side behaviour.
"""
from __future__ import annotations

import warnings

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch, seed_for

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from mxnet import gluon  # noqa: E402
from mxnet.gluon import nn  # noqa: E402

from xlate.check.inputs import InputSpec  # noqa: E402
from xlate.check.pair import check_models  # noqa: E402
from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet
PROFILE = dict(derandomize=True, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
HEADER = "import mxnet as mx\nfrom mxnet.gluon import nn\nfrom mxnet.gluon.contrib import nn as contrib_nn\n"


# -- converting and running one layer ---------------------------------------------------------
def convert(expr: str):
    """(MXNet block, its translation, the conversion result) for `layer = <expr>`."""
    source = HEADER + f"layer = {expr}\n"
    result = convert_source(source)
    mx_space, pt_space = {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyncBatchNorm warns about num_devices
        exec(source, mx_space)
    exec(result.output, pt_space)
    return mx_space["layer"], pt_space["layer"], result


def rule_reports(result) -> set:
    return {(d.code, d.status) for d in result.diagnostics if d.code != "MX001"}


def check(expr: str, shape: tuple, code: str, status: str = "fixed") -> set:
    """Convert and compare; returns the names of the comparisons made (all passed)."""
    block, module, result = convert(expr)
    assert rule_reports(result) == {(code, status)}, result.diagnostics
    res = check_models(block, module, [InputSpec("x", "float32", shape)], seed=seed_for(f"{expr} {shape}"))
    failed = [f"{c.mismatch.format()}" for c in res.checks if not c.ok]
    assert not failed, f"{expr} on {shape} -> {result.output.splitlines()[-1]}:\n  " + "\n  ".join(failed)
    return {c.what for c in res.checks}


def expected_checks(*, learned: dict, frozen: tuple = ()) -> set:
    """The comparisons a norm layer must get: outputs, d/dx, each learned parameter's gradient
    and every statistic or frozen parameter after the step."""
    names = {"inference: output", "training: output", "training: gradient of x"}
    names |= {f"training: gradient of {n}" for n, on in learned.items() if on}
    names |= {f"training: {n} after the step" for n, on in learned.items() if not on}
    return names | {f"training: {n} after the step" for n in frozen}


def call(name: str, **kwargs) -> str:
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"


def values_per(shape: tuple, kept: tuple) -> int:
    """How many values each normalised slice holds (the axes in `kept` are not reduced)."""
    kept = {k % len(shape) for k in kept}
    return int(np.prod([d for i, d in enumerate(shape) if i not in kept]))


def shapes(min_rank: int, max_rank: int, max_side: int = 4):
    return st.integers(min_rank, max_rank).flatmap(
        lambda r: st.tuples(*[st.integers(1, max_side) for _ in range(r)]))


# -- BatchNorm (MX140) ------------------------------------------------------------------------
@st.composite
def batchnorm_configs(draw):
    # fewer than 4 values per channel: float32 noise in the variance's gradient exceeds 1e-5
    shape = draw(shapes(2, 5).filter(lambda s: int(np.prod(s)) >= 4 * max(s)))
    axis = draw(st.integers(-len(shape), len(shape) - 1).filter(lambda a: values_per(shape, (a,)) >= 4))
    kwargs = {"axis": axis} if axis != 1 else {}
    for name, choices in (("momentum", [0.9, 0.5, 0.99, 0.0]), ("epsilon", [1e-5, 1e-3, 0.1])):
        value = draw(st.sampled_from(choices))
        if value != choices[0] or draw(st.booleans()):
            kwargs[name] = value
    for name, default in (("center", True), ("scale", True), ("use_global_stats", False)):
        if draw(st.booleans()):
            kwargs[name] = not default
    if draw(st.booleans()):
        kwargs["in_channels"] = shape[axis]
    return shape, kwargs


@settings(max_examples=120, **PROFILE)
@given(batchnorm_configs())
def test_batchnorm_drawn(config):
    shape, kwargs = config
    done = check(call("nn.BatchNorm", **kwargs), shape, "MX140")
    learned = {"weight": kwargs.get("scale", True), "bias": kwargs.get("center", True),
               "running_mean": False, "running_var": False}
    assert expected_checks(learned=learned) <= done


@pytest.mark.parametrize("expr, shape", [
    ("nn.BatchNorm()", (4, 3)),  # 4 values per channel: unbiased var is 4/3 of MXNet's (3.5)
    ("nn.BatchNorm(in_channels=3)", (8, 3, 4, 4)),  # 3.3, 3.4
    ("nn.BatchNorm(axis=-1, in_channels=4)", (3, 4, 4)),  # T == C: a wrong axis would run (3.10)
    ("nn.BatchNorm(axis=3, momentum=0.8)", (2, 3, 2, 5)),
    ("nn.BatchNorm(scale=False, in_channels=3)", (4, 3, 6)),  # gamma ignored (3.9)
    ("nn.BatchNorm(use_global_stats=True)", (4, 3, 3, 2)),  # running statistics in training (3.8)
    ("nn.BatchNorm(momentum=0.1, epsilon=1e-2, center=False)", (2, 2, 3, 2, 2)),
])
def test_batchnorm(expr, shape):
    done = check(expr, shape, "MX140")
    assert {"training: running_mean after the step", "training: running_var after the step"} <= done


@pytest.mark.parametrize("expr, shape", [
    ("contrib_nn.SyncBatchNorm(in_channels=3)", (4, 3, 3, 2)),
    ("contrib_nn.SyncBatchNorm(momentum=0.7, epsilon=1e-3, scale=False, num_devices=1)", (5, 2, 4)),
    ("contrib_nn.SyncBatchNorm(4, use_global_stats=True, center=False)", (3, 4, 2)),
])
def test_syncbatchnorm(expr, shape):
    done = check(expr, shape, "MX141", "review")
    assert "training: running_var after the step" in done


# -- the naive translations the checker must catch ---------------------------------------------
NAIVE_BN = [
    # torch momentum 0.9 weighs the new batch 0.9 (3.3): both statistics run away
    ("nn.BatchNorm2d(3, momentum=0.9)", (4, 3, 5, 4), {"running_mean", "running_var"}),
    # the right momentum but torch's unbiased running variance (3.4, 3.5)
    ("nn.BatchNorm2d(3, momentum=0.1)", (4, 3, 5, 4), {"running_var"}),
    ("nn.BatchNorm1d(3, momentum=0.1)", (4, 3), {"running_var"}),
]


@pytest.mark.parametrize("naive, shape, wrong", NAIVE_BN, ids=[f"{n} on {s}" for n, s, _ in NAIVE_BN])
def test_naive_batchnorm_is_caught(naive, shape, wrong):
    block = nn.BatchNorm(in_channels=3)
    module = eval(naive, {"nn": torch.nn})
    res = check_models(block, module, [InputSpec("x", "float32", shape)], seed=seed_for(naive))
    failed = {c.what for c in res.checks if not c.ok}
    assert failed == {f"training: {n} after the step" for n in wrong}, failed
    # and the exact translation of the same layer passes on the same draw
    _, exact, _ = convert("nn.BatchNorm(in_channels=3)")
    assert check_models(nn.BatchNorm(in_channels=3), exact, [InputSpec("x", "float32", shape)],
                        seed=seed_for(naive)).ok


# -- LayerNorm (MX142) ------------------------------------------------------------------------
@st.composite
def layernorm_configs(draw):
    shape = list(draw(shapes(2, 4)))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    shape[axis] = draw(st.integers(4, 7))  # over 2 or 3 values float32 noise in d/dx exceeds 1e-5
    kwargs = {"axis": axis} if axis != -1 else {}
    if draw(st.booleans()):
        kwargs["epsilon"] = draw(st.sampled_from([1e-5, 1e-3, 1e-12]))
    for name in ("center", "scale"):
        if draw(st.booleans()):
            kwargs[name] = False
    if draw(st.booleans()):
        kwargs["in_channels"] = shape[axis]
    return tuple(shape), kwargs


@settings(max_examples=70, **PROFILE)
@given(layernorm_configs())
def test_layernorm_drawn(config):
    shape, kwargs = config
    done = check(call("nn.LayerNorm", **kwargs), shape, "MX142")
    assert expected_checks(learned={"weight": kwargs.get("scale", True), "bias": kwargs.get("center", True)}) <= done


def test_layernorm_plain_torch_where_exact():
    _, module, result = convert("nn.LayerNorm(epsilon=1e-12, in_channels=6)")
    assert type(module) is torch.nn.LayerNorm and result.output.endswith("layer = nn.LayerNorm(6, eps=1e-12)\n")
    check("nn.LayerNorm(epsilon=1e-12, in_channels=6)", (2, 3, 6), "MX142")


# -- InstanceNorm (MX143) ---------------------------------------------------------------------
@st.composite
def instancenorm_configs(draw):
    shape = draw(shapes(3, 5))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    # MXNet swaps `axis` with 1, then normalises each (axis 0, axis 1) slice
    kept = (0, axis % len(shape)) if axis % len(shape) else (0, 1)
    if values_per(shape, kept) < 4:  # see test_batchnorm_drawn: widen a normalised axis
        wide = next(i for i in range(len(shape)) if i not in kept)
        shape = shape[:wide] + (shape[wide] + 4,) + shape[wide + 1:]
    kwargs = {"axis": axis} if axis != 1 else {}
    if draw(st.booleans()):
        kwargs["epsilon"] = draw(st.sampled_from([1e-5, 1e-3]))
    if draw(st.booleans()):
        kwargs["center"] = False
    if draw(st.booleans()):
        kwargs["scale"] = True
    if draw(st.booleans()):
        kwargs["in_channels"] = shape[axis]
    return shape, kwargs


@settings(max_examples=70, **PROFILE)
@given(instancenorm_configs())
def test_instancenorm_drawn(config):
    shape, kwargs = config
    done = check(call("nn.InstanceNorm", **kwargs), shape, "MX143")
    # gamma is used even with Gluon's default scale=False (3.14): compared as a frozen weight
    assert expected_checks(learned={"weight": kwargs.get("scale", False), "bias": kwargs.get("center", True)}) <= done


# -- GroupNorm (MX144) ------------------------------------------------------------------------
@st.composite
def groupnorm_configs(draw):
    groups, per = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    rest = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3).filter(lambda r: per * int(np.prod(r)) >= 4))
    kwargs = {"num_groups": groups} if groups != 1 or draw(st.booleans()) else {}
    if draw(st.booleans()):
        kwargs["epsilon"] = draw(st.sampled_from([1e-5, 1e-3]))
    for name in ("center", "scale"):
        if draw(st.booleans()):
            kwargs[name] = False
    return (draw(st.integers(1, 3)), groups * per, *rest), kwargs


@settings(max_examples=70, **PROFILE)
@given(groupnorm_configs())
def test_groupnorm_drawn(config):
    shape, kwargs = config
    done = check(call("nn.GroupNorm", **kwargs), shape, "MX144")
    # per-group gradients compared as they are: the translation keeps MXNet's (G,) layout
    assert expected_checks(learned={"weight": kwargs.get("scale", True), "bias": kwargs.get("center", True)}) <= done


# -- several training steps -------------------------------------------------------------------
def train_both(expr: str, shape: tuple, *, steps: int = 3, lr: float = 0.5, naive=None):
    """`steps` SGD steps (MXNet Trainer, torch.optim.SGD) on fresh batches from the same
    weights; returns (MXNet inference output, torch inference output) afterwards."""
    block, module, _ = convert(expr)
    if naive is not None:
        module = naive
    rng = np.random.default_rng(seed_for(expr))
    batches = [rng.uniform(-2, 2, size=shape).astype(np.float32) + rng.uniform(-1, 1) for _ in range(steps + 1)]
    block.initialize()
    block(mx.nd.array(batches[0]))
    with torch.no_grad():
        module.eval()(torch.from_numpy(batches[0]))  # materialise a lazy module
    for name, p in block._reg_params.items():
        value = rng.uniform(0.5, 1.5, size=p.shape).astype(np.float32) if "var" in name \
            else rng.uniform(-1, 1, size=p.shape).astype(np.float32)
        p.set_data(mx.nd.array(value))
        target = getattr(module, {"gamma": "weight", "beta": "bias"}.get(name, name))
        with torch.no_grad():
            target.copy_(torch.from_numpy(value).repeat_interleave(target.numel() // value.size))
    trainer = gluon.Trainer(block.collect_params(), "sgd", {"learning_rate": lr})
    optimizer = torch.optim.SGD([p for p in module.parameters() if p.requires_grad], lr=lr)
    module.train()
    for x in batches[:-1]:
        head = rng.uniform(-1, 1, size=shape).astype(np.float32)
        with mx.autograd.record():
            y = block(mx.nd.array(x))
        y.backward(mx.nd.array(head))
        trainer.step(1)
        optimizer.zero_grad()
        module(torch.from_numpy(x)).backward(torch.from_numpy(head))
        optimizer.step()
    with torch.no_grad():
        return block(mx.nd.array(batches[-1])).asnumpy(), module.eval()(torch.from_numpy(batches[-1])).numpy()


@pytest.mark.parametrize("expr, shape", [
    ("nn.BatchNorm()", (4, 3)),
    ("nn.BatchNorm(axis=-1, momentum=0.5, scale=False)", (2, 3, 4)),
    ("nn.LayerNorm(axis=1, center=False)", (3, 5, 2)),
    ("nn.InstanceNorm(in_channels=2)", (2, 2, 3, 3)),
    ("nn.GroupNorm(2)", (2, 6, 3)),
])
def test_three_training_steps(expr, shape):
    y_mx, y_pt = train_both(expr, shape)
    torch.testing.assert_close(torch.from_numpy(y_pt), torch.from_numpy(y_mx))


def test_groupnorm_per_channel_copy_diverges_in_training():
    # torch's GroupNorm with MXNet's per-group values repeated is right before the first step
    # only: SGD then moves the channels of a group apart (3.15)
    y_mx, y_pt = train_both("nn.GroupNorm(2)", (2, 6, 3), naive=torch.nn.GroupNorm(2, 6))
    assert np.abs(y_mx - y_pt).max() > 1e-2


def test_naive_batchnorm_drifts_in_training():
    y_mx, y_pt = train_both("nn.BatchNorm()", (4, 3), naive=torch.nn.BatchNorm1d(3, momentum=0.1))
    assert np.abs(y_mx - y_pt).max() > 1e-3


# -- the translation as a torch module ----------------------------------------------------------
def test_lazy_batchnorm_becomes_eager_with_torch_state_names():
    _, module, result = convert("nn.BatchNorm(axis=-1, scale=False)")
    assert result.output.endswith("layer = _mx_BatchNorm(axis=-1, scale=False)\n")
    assert torch.nn.parameter.is_lazy(module.weight)
    module(torch.ones(2, 3, 5) + torch.arange(5.0))
    assert type(module).__name__ == "_mx_BatchNorm" and isinstance(module, torch.nn.BatchNorm2d)
    assert list(module.state_dict()) == list(torch.nn.BatchNorm2d(5).state_dict())
    assert module.weight.shape == (5,) and not module.weight.requires_grad and module.bias.requires_grad
    eager = type(module)(axis=-1, scale=False, in_channels=5)
    eager.load_state_dict(module.state_dict())
    fresh = type(module)(axis=-1, scale=False)  # a lazy one takes its size from the state_dict
    fresh.load_state_dict(module.state_dict())
    assert fresh.running_mean.shape == (5,)


def test_groupnorm_keeps_per_group_parameters():
    _, module, _ = convert("nn.GroupNorm(3, scale=False)")
    assert isinstance(module, torch.nn.GroupNorm) and module.weight.shape == (3,)
    assert not module.weight.requires_grad and module.bias.requires_grad
    assert module(torch.randn(2, 6, 4)).shape == (2, 6, 4)


@pytest.mark.parametrize("values, expr, shape", [
    ("ax = -1", "nn.BatchNorm(axis=ax)", (4, 3, 5)),
    ("flag = False", "nn.BatchNorm(scale=flag, momentum=0.5)", (4, 3, 2)),
    ("flag = True", "nn.BatchNorm(use_global_stats=flag, in_channels=3)", (4, 3, 2)),
    ("cfg = {'axis': 1, 'center': False, 'epsilon': 1e-3}", "nn.LayerNorm(**cfg)", (2, 4, 3)),
    ("cfg = {'scale': True}", "nn.InstanceNorm(in_channels=3, **cfg)", (2, 3, 4)),
    ("g = 2", "nn.GroupNorm(g, center=False)", (2, 4, 3)),
    ("kw = {'momentum': 0.8}", "contrib_nn.SyncBatchNorm(**kw)", (4, 3, 2)),
])
def test_runtime_values_take_the_gluon_signature_helper(values, expr, shape):
    """Values known only when the program runs: the helper with the call's own arguments,
    compared with MXNet (outputs, gradients, statistics after a step)."""
    source = HEADER + values + "\n" + f"layer = {expr}\n"
    result = convert_source(source)
    assert {d.status for d in result.diagnostics if d.code.startswith("MX14")} == {"fixed"}, result.diagnostics
    mx_space, pt_space = {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(source, mx_space)
    exec(result.output, pt_space)
    res = check_models(mx_space["layer"], pt_space["layer"], [InputSpec("x", "float32", shape)], seed=3)
    failed = [c.mismatch.format() for c in res.checks if not c.ok]
    assert not failed and len(res.checks) >= 3, failed


@pytest.mark.parametrize("expr, manual", [
    ("nn.BatchNorm(gamma_initializer='xavier')", "'xavier'"),
    ("nn.GroupNorm(2.5)", "num_groups"),
])
def test_left_for_a_human(expr, manual):
    result = convert_source(HEADER + f"layer = {expr}\n")
    notes = [d for d in result.diagnostics if d.code.startswith("MX14")]
    assert [d.status for d in notes] == ["manual"] and manual in notes[0].message, notes
    assert f"layer = {expr}" in result.output


# -- gradients that do not depend on memory layout ----------------------------------------------
def layouts(shape):
    """Head gradients of `shape` laid out in every axis order (a permute after the layer)."""
    import itertools

    for perm in itertools.permutations(range(len(shape))):
        inv = [perm.index(i) for i in range(len(shape))]
        yield perm, torch.randn([shape[p] for p in perm]).permute(inv)


@pytest.mark.parametrize("expr, shape", [
    ("nn.BatchNorm(in_channels=5)", (1, 5, 1, 2)),
    ("nn.BatchNorm(axis=-1, in_channels=2)", (2, 5, 1, 2)),
    ("nn.BatchNorm(use_global_stats=True, in_channels=3)", (2, 3, 1, 4)),
    ("nn.InstanceNorm(axis=-1, in_channels=2)", (1, 5, 1, 2)),
    ("nn.InstanceNorm(scale=True, in_channels=4)", (1, 4, 1, 1, 3)),
    ("nn.LayerNorm(axis=1, in_channels=5)", (1, 5, 1, 2)),
    ("nn.GroupNorm(2)", (1, 4, 1, 3)),
])
def test_gradients_whatever_the_head_layout(expr, shape):
    # torch 2.13's CPU batch_norm/instance_norm backward goes wrong when the output gradient
    # is laid out unlike the input and a dimension has size 1 (errors of 3 to 30 measured);
    # MXNet has no such case, so the helpers avoid it
    _, module, _ = convert(expr)
    torch.manual_seed(0)
    x = torch.randn(shape)
    module.train()
    for perm, head in layouts(shape):
        grads = []
        for h in (head, head.contiguous()):
            xi = x.clone().requires_grad_(True)
            module.zero_grad()
            module(xi).backward(h)
            grads.append([xi.grad] + [p.grad for p in module.parameters() if p.grad is not None])
        for got, want in zip(*grads):
            torch.testing.assert_close(got, want, msg=lambda m: f"head laid out {perm}: {m}")


# -- initializers -------------------------------------------------------------------------------
@pytest.mark.parametrize("expr, shape", [
    ("nn.BatchNorm(in_channels=3, gamma_initializer=mx.init.Constant(2), running_variance_initializer='zeros')",
     (4, 3, 2)),
    ("nn.BatchNorm(beta_initializer=mx.init.Constant(-0.5), running_mean_initializer=mx.init.Constant(0.25))",
     (4, 3)),
    ("nn.LayerNorm(gamma_initializer=mx.init.Constant(0.5), beta_initializer='ones')", (2, 5)),
    ("nn.InstanceNorm(in_channels=2, gamma_initializer='zeros', beta_initializer=mx.init.Constant(3))", (2, 2, 4)),
    ("nn.GroupNorm(2, gamma_initializer=mx.init.Constant(1.5))", (2, 4, 3)),
])
def test_initializers(expr, shape):
    block, module, result = convert(expr)
    assert "_initializer=" in result.output.splitlines()[-1]  # the helper takes Gluon's initializers
    x = np.random.default_rng(0).uniform(0.1, 1, size=shape).astype(np.float32)
    block.initialize()
    block(mx.nd.array(x))
    with torch.no_grad():
        module.eval()(torch.from_numpy(x))  # a lazy module takes its shape, then its initializers
    for name, p in block._reg_params.items():
        target = getattr(module, {"gamma": "weight", "beta": "bias"}.get(name, name))
        np.testing.assert_array_equal(target.detach().numpy(), p.data().asnumpy(), err_msg=name)


def test_a_batchnorm_subclass_with_its_own_hybrid_forward():
    """A Gluon layer's subclass overriding hybrid_forward gets the layer's parameters by name
    (gamma, beta, running_mean, running_var): they become `self.<name>` on the helper."""
    source = HEADER + (
        "class BatchNormCudnnOff(nn.BatchNorm):\n"
        "    def __init__(self, **kwargs):\n"
        "        super(BatchNormCudnnOff, self).__init__(**kwargs)\n"
        "    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):\n"
        "        return F.BatchNorm(x, gamma, beta, running_mean, running_var, name='fwd', cudnn_off=True,\n"
        "                           **self._kwargs)\n"
        "layer = BatchNormCudnnOff(in_channels=3, momentum=0.7)\n")
    result = convert_source(source)
    assert "def forward(self, x):" in result.output and not [d for d in result.diagnostics if d.status == "manual"]
    mx_space, pt_space = {}, {}
    exec(source, mx_space)
    exec(result.output, pt_space)
    res = check_models(mx_space["layer"], pt_space["layer"], [InputSpec("x", "float32", (4, 3, 5))], seed=2)
    assert not [c for c in res.checks if not c.ok] and any("running_mean" in c.what for c in res.checks)


@pytest.mark.parametrize("scale, offset", [(1.0, 0.0), (1e-3, 5.0), (30.0, -2.0)])
def test_running_statistics_from_batch_norms_own_pass_equal_mxnets(scale, offset):
    # the helper takes the batch variance from batch_norm's saved 1/sqrt(var + eps) (Note
    # [BatchNorm's fast path]): after a step its running statistics equal MXNet's, also for a
    # variance far below eps and for a large one
    block, module, _ = convert("nn.BatchNorm(in_channels=4, momentum=0.7)")
    block.initialize()
    rng = np.random.default_rng(seed_for(f"{scale} {offset}"))
    x = (rng.uniform(-1, 1, size=(3, 4, 5, 2)) * scale + offset).astype(np.float32)
    head = rng.uniform(-1, 1, size=x.shape).astype(np.float32)
    with mx.autograd.record():
        y = block(mx.nd.array(x))
    y.backward(mx.nd.array(head))
    module.train()
    module(torch.from_numpy(x).requires_grad_(True)).backward(torch.from_numpy(head))
    for name in ("running_mean", "running_var"):
        want = torch.from_numpy(block._reg_params[name].data().asnumpy())
        torch.testing.assert_close(getattr(module, name).detach(), want, rtol=1e-6, atol=1e-9)
