"""Gluon's parameter names in converted programs (Note [Gluon names] in xlate/runtime/naming.py):
each Gluon program below runs in MXNet 1.9.1 and, converted by xlate, in torch; the names
`collect_params()` gives (every parameter, in order), block names and prefixes, and selections
by regex must be MXNet's. A training program with `wd_mult` / `lr_mult` set through selections
must take MXNet's steps."""
from __future__ import annotations

import types

import pytest

from tests.mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet

MODELS = {
    # nested name scopes, a Sequential in a Sequential, two instances of one class, prefix=,
    # a block with its own `self.params.get`, a block reached twice
    "nested": '''
import mxnet as mx
from mxnet import gluon
from mxnet.gluon import nn

class Unit(nn.HybridBlock):
    def __init__(self, channels, **kwargs):
        super(Unit, self).__init__(**kwargs)
        with self.name_scope():
            self.conv = nn.Conv2D(channels, 3, padding=1, in_channels=channels)
            self.bn = nn.BatchNorm(in_channels=channels)
            self.scale = self.params.get('scale', shape=(1,), init=mx.init.One())

    def hybrid_forward(self, F, x, scale):
        return F.relu(self.bn(self.conv(x))) * scale

class Net(nn.Block):
    def __init__(self, **kwargs):
        super(Net, self).__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='feat_')
            with self.features.name_scope():
                self.features.add(nn.Conv2D(4, 3, in_channels=3))
                inner = nn.HybridSequential()
                with inner.name_scope():
                    inner.add(Unit(4), Unit(4))
                    inner.add(nn.Dense(4, in_units=4, flatten=False, prefix='proj_'))
                self.features.add(inner)
                self.features.add(Unit(4))
            self.head = nn.Sequential()
            with self.head.name_scope():
                self.head.add(nn.Dense(8, in_units=4), nn.Dense(10, in_units=8))
            self.output = nn.Dense(10, in_units=10)

    def forward(self, x):
        x = self.features(x)
        return self.output(self.head(x.mean(axis=(2, 3))))

def build():
    net = Net()
    return net

def child(net):
    return net.features
''',
    # the usual zoo shape: a top-level HybridSequential, blocks made by a helper function
    "sequential": '''
from mxnet.gluon import nn

def block(channels):
    out = nn.HybridSequential()
    with out.name_scope():
        out.add(nn.Conv2D(channels, 3, padding=1, in_channels=channels, use_bias=False))
        out.add(nn.BatchNorm(in_channels=channels))
        out.add(nn.Activation('relu'))
    return out

def build():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, in_channels=3), block(4), block(4), nn.GlobalAvgPool2D(), nn.Dense(5, in_units=4))
        net.add(nn.LayerNorm(in_channels=5), nn.Embedding(7, 5))
    return net

def child(net):
    return net[1]
''',
    # d2l's style: no name scope anywhere, so every block is named at the top level; a block class with no
    # __init__ of its own (MX177), built with Gluon's prefix= and without
    "no_scope": '''
from mxnet.gluon import nn

class Scale(nn.HybridBlock):
    def hybrid_forward(self, F, x):
        return x * 2

def block1():
    net = nn.Sequential()
    net.add(nn.Dense(32, activation='relu', in_units=4))
    net.add(nn.Dense(16, activation='relu', in_units=32))
    return net

def build():
    net = nn.Sequential()
    net.add(nn.Dense(4, activation='relu', in_units=5), block1())
    net.add(Scale(prefix='scale_'), nn.Dense(1, in_units=16), Scale())
    return net

def child(net):
    return net[1]
''',
}

# What each program reports about its model, by Gluon's API (converted along with it).
PROBE = '''
net = build()
net.initialize()
first = child(net)
params = net.collect_params()
probe = {"names": list(net.collect_params().keys()), "name": net.name, "prefix": net.prefix,
            "child": first.collect_params().prefix, "child_params": list(first.collect_params().keys()),
            "no_wd": list(net.collect_params('.*beta|.*gamma|.*bias').keys()),
            "anchored": list(net.collect_params('^' + net.prefix + 'feat_|.*dense1_').keys()),
            "shapes": [tuple(p.shape) for p in params.values()]}
for param in params.values():  # a Parameter's own name (MX116), read off the dict's values
    probe["first_param_name"] = param.name
    break
'''


def _module(source: str, name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(source, name, "exec"), module.__dict__)
    return module


def _converted(source: str) -> str:
    result = convert_source(source)
    return result.output


@pytest.mark.parametrize("model", sorted(MODELS))
def test_collect_params_names_are_mxnets(model):
    mx = import_mxnet()
    import_torch()
    source = MODELS[model] + PROBE
    with mx.name.NameManager():
        expected = _module(source, f"mx_{model}").probe
    expected["shapes"] = [tuple(s) for s in expected["shapes"]]
    got = _module(_converted(source), f"pt_{model}").probe
    assert got == expected


def test_a_block_without_init_refuses_shared_parameters_naming_its_class():
    # Gluon's params= (sharing another block's ParameterDict) has no torch counterpart: it raises
    import_torch()
    got = _module(_converted(MODELS["no_scope"]), "pt_no_scope_params")
    assert got.Scale(prefix="s_")._mx_prefix == "s_"
    with pytest.raises(NotImplementedError, match=r"Scale\(params=\.\.\.\)"):
        got.Scale(params={"scale_weight": None})


HANDED = """
from mxnet.gluon import nn

def label(activation_fn):
    return activation_fn.name[:-1]

def names_of(block, param):
    return [block.name, param.name]

def other(thing):  # also handed around as a value: no evidence of what it takes
    return thing.name

net = nn.Dense(3, in_units=2)
net.initialize()
labels = [label(nn.Activation('sigmoid')), label(nn.Activation('tanh')), label(net)]
both = names_of(net, net.weight) + names_of(block=nn.Dense(2), param=net.bias)
callback = other
"""


def test_a_function_every_call_hands_a_block_reads_gluons_names():
    # Note [evidence handed to a function]: its parameters are blocks (and Parameters) as evidently
    # as the arguments every call passes
    mx = import_mxnet()
    import_torch()
    with mx.name.NameManager():
        expected = _module(HANDED, "mx_handed")
    converted = _converted(HANDED)
    got = _module(converted, "pt_handed")
    assert (got.labels, got.both) == (expected.labels, expected.both) == (
        ["sigmoid", "tanh", "dense"], ["dense0", "dense0_weight", "dense1", "dense0_bias"])
    assert "return thing.name" in converted  # read as a value elsewhere: left as it is
    # a method of that name: the plain calls call another function (imported here)
    method = ("from mxnet.gluon import nn\nfrom other import describe\nclass A:\n    def describe(self, block):\n"
              "        return block.name\ndescribe(nn.Dense(2), nn.Dense(3))\n")
    assert "return block.name" in _converted(method)


SUBCLASSED = """
from mxnet.gluon import nn

class Stack(nn.Sequential):
    pass

plain = nn.Sequential
stack = Stack()
with stack.name_scope():
    stack.add(nn.Dense(2, in_units=3))
built = nn.Sequential()
built.add(nn.Dense(2, in_units=2))
names = [stack.name, list(stack.collect_params().keys()), built.name, isinstance(stack, nn.Sequential)]
"""


def test_the_plain_sequential_class_as_a_value_names_nothing():
    # Gluon's plain Sequential names what it builds `sequentialN_`; the class itself, as a base or a
    # value, must not carry that alias onto torch's Sequential, whose every instance and subclass took it
    mx = import_mxnet()
    import_torch()
    with mx.name.NameManager():
        expected = _module(SUBCLASSED, "mx_subclassed").names
    converted = _converted(SUBCLASSED)
    assert "plain = nn.Sequential\n" in converted and "class Stack(nn.Sequential):" in converted
    assert _module(converted, "pt_subclassed").names == expected == [
        "stack0", ["stack0_dense0_weight", "stack0_dense0_bias"], "sequential0", True]


def test_two_top_level_models_count_on():
    """Top-level blocks of one class take the process-wide counter (`net0_`, `net1_`)."""
    mx = import_mxnet()
    import_torch()
    source = MODELS["nested"] + '''
a = Net()
b = Net()
two = [a.name, b.name, list(b.collect_params().keys())[:2], a.prefix, b.collect_params().prefix]
'''
    with mx.name.NameManager():
        expected = _module(source, "mx_two").two
    assert _module(_converted(source), "pt_two").two == expected


TRAIN = '''
import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn

def build():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, in_channels=2), nn.BatchNorm(in_channels=4), nn.Activation('relu'))
        net.add(nn.Conv2D(3, 1, in_channels=4), nn.BatchNorm(in_channels=3), nn.Dense(5, in_units=3 * 4 * 4))
    return net

def train(net, data, label, steps):
    for k, v in net.collect_params('.*beta|.*gamma|.*bias').items():
        v.wd_mult = 0.0
    net.collect_params('.*dense').setattr('lr_mult', 3.0)
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.05})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    seen = []
    for _ in range(steps):
        with autograd.record():
            loss = loss_fn(net(data), label)
        loss.backward()
        trainer.step(data.shape[0])
        seen.append({k: v.data().asnumpy().copy() for k, v in net.collect_params().items()})
    return seen
'''


def test_no_wd_selection_trains_as_mxnet():
    """A BatchNorm CNN with weight decay off for biases and norms and a learning-rate
    multiplier on the dense layer: every parameter (running statistics too) after each of
    3 SGD steps with momentum and wd."""
    mx = import_mxnet()
    torch = import_torch()
    np = import_numpy()
    rng = np.random.default_rng(7)
    data = rng.standard_normal((6, 2, 6, 6)).astype("float32")
    label = rng.integers(0, 5, 6).astype("float32")
    with mx.name.NameManager():
        mx_side = _module(TRAIN, "mx_train")
        mx_net = mx_side.build()
        mx_net.initialize(mx.init.Xavier(rnd_type="gaussian", magnitude=2))
        mx_net(mx.nd.array(data))
        start = {k: v.data().asnumpy().copy() for k, v in mx_net.collect_params().items()}
        expected = mx_side.train(mx_net, mx.nd.array(data), mx.nd.array(label), 3)
    text = _converted(TRAIN).replace("v.data().asnumpy()", "v.detach().numpy()")
    pt_side = _module(text, "pt_train")
    pt_net = pt_side.build()
    params = pt_side._mx_collect_params(pt_net)
    assert list(params) == list(start)
    with torch.no_grad():
        for name, tensor in params.items():
            tensor.copy_(torch.from_numpy(start[name]))
    got = pt_side.train(pt_net, torch.from_numpy(data), torch.from_numpy(label), 3)
    for step, (want, have) in enumerate(zip(expected, got)):
        assert list(have) == list(want)
        for name in want:
            np.testing.assert_allclose(have[name], want[name], rtol=1e-5, atol=1e-6, err_msg=f"step {step}: {name}")
    # the multipliers mattered: without them the step differs
    assert any(np.abs(expected[0][n] - start[n]).max() > 1e-3 for n in start if n.endswith("dense0_weight"))


def test_layer_table_agrees_with_the_checkers_families():
    """The runtime's torch -> Gluon parameter names (`_mx_gluon_layers`) are the ones the
    checker's layer families declare (xlate/check/layers.py), which convert-weights uses."""
    import_torch()
    import xlate.check.families  # noqa: F401  (registers every family)
    from xlate.check.registry import FAMILIES
    from xlate.runtime import load

    table = load()._mx_gluon_layers()
    checked = 0
    for family in FAMILIES.values():
        if family.expand is not None and family.name != "conv":
            continue  # names that depend on the configuration (RNN layers, GroupNorm's per-group form)
        declared = {m.pt: m.mx for m in family.params}
        for pt_type in family.pt_types:
            if pt_type in table and table[pt_type][1] is not None:
                assert table[pt_type][1] == declared, (family.name, pt_type)
                checked += 1
    assert checked >= 10


NAMED_WHILE_BUILDING = '''
import logging
import mxnet as mx
from mxnet import gluon

logger = logging.getLogger(__name__)

class Scale(gluon.HybridBlock):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.w = self.params.get('w', shape=(units,))
    def hybrid_forward(self, F, x, w):
        return F.broadcast_mul(x, w)

class Model(gluon.HybridBlock):
    def __init__(self, prefix='model_', **kwargs):
        super().__init__(prefix=prefix, **kwargs)
        logger.info("building %s", self.prefix)
        with self.name_scope():
            self.first = Scale(3, prefix=self.prefix + 'first_')
            self.second = Scale(3, prefix=self.prefix)
    def hybrid_forward(self, F, x):
        return self.second(self.first(x))
'''


def test_a_name_read_while_building_only_to_name_children_builds_and_computes_as_gluon():
    """Note [names while building]: sockeye's SockeyeModel names its children `prefix=self.prefix +
    ...` inside its __init__; the translation builds (the read was a manual item, and torch has no
    `prefix`, so the model did not build), reports the name as a review, and computes MXNet's."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result = convert_source(NAMED_WHILE_BUILDING)
    items = [(d.line, d.status) for d in result.diagnostics if d.code == "MX116"]
    assert items == [(19, "review"), (21, "review"), (22, "review")], items
    mx_ns, pt_ns = {}, {}
    exec(NAMED_WHILE_BUILDING, mx_ns)
    exec(compile(result.output, "<converted>", "exec"), pt_ns)
    net, pt = mx_ns["Model"](), pt_ns["Model"]()
    net.initialize(mx.init.Normal(1.0))
    for block, module in ((net.first, pt.first), (net.second, pt.second)):
        with torch.no_grad():
            module.w.copy_(torch.as_tensor(block.w.data().asnumpy()))
    x = np.random.default_rng(8).normal(size=(2, 3)).astype("float32")
    np.testing.assert_allclose(pt(torch.as_tensor(x)).detach().numpy(), net(mx.nd.array(x)).asnumpy(), rtol=1e-6)
    # any other read while building still needs a human
    kept = convert_source(NAMED_WHILE_BUILDING.replace('logger.info("building %s", self.prefix)',
                                                       'self.tag = self.prefix'))
    assert (19, "manual") in [(d.line, d.status) for d in kept.diagnostics if d.code == "MX116"]


OWN_PREFIX = '''
import mxnet as mx
from mxnet import gluon

class Loss(gluon.HybridBlock):
    def __init__(self, name, weight=1.0):
        super().__init__(prefix=name)
        self.weight = weight
    def hybrid_forward(self, F, x):
        return x * self.weight

class Model(gluon.HybridBlock):
    def __init__(self, prefix="model_", **kwargs):
        super(Model, self).__init__(prefix=prefix, **kwargs)
        with self.name_scope():
            self.dense = gluon.nn.Dense(3, in_units=2)
            self.loss = Loss("xent_")
    def hybrid_forward(self, F, x):
        return self.loss(self.dense(x))

def names():
    loss, m1, m2 = Loss("cross-entropy"), Model(), Model(prefix="other_")
    return [loss.name, m1.dense.weight.name, m2.dense.weight.name, m2.loss.name,
            list(m1.collect_params().keys()), list(m2.collect_params().keys())]
'''


def test_a_blocks_own_prefix_names_it_and_its_parameters():
    """Note [a block's own prefix]: `super().__init__(prefix=name)` (sockeye's losses, its models
    named by their callers) names the block and prefixes its parameters' names, as in Gluon;
    a parameter's `.name` is its full name."""
    result = convert_source(OWN_PREFIX)
    mx_ns, pt_ns = {}, {}
    exec(OWN_PREFIX, mx_ns)
    exec(compile(result.output, "<converted>", "exec"), pt_ns)
    assert pt_ns["names"]() == mx_ns["names"]()
