"""Constructs of Gluon code nobody tuned xlate to (issue 21: imgclsmob's model zoo, MXNet's own
examples), each as a class: a script runs in MXNet and, converted, in torch, and what it appends
to `outs` must agree (tests/test_execution_model.py's `_same_numbers`; weights from `det`, inputs
from a seeded RandomState)."""
from __future__ import annotations

import pytest

from test_execution_model import COMMON, _same_numbers

pytestmark = pytest.mark.mxnet

# Note [sliced Sequential subclasses]: `features[:-1]` of a Sequential subclass whose __init__
# takes flags builds the subclass with its defaults and the children in the slice
SLICED_SUBCLASS = COMMON + '''
class MultiOutput(nn.HybridSequential):
    def __init__(self, multi_output=True, scale=2.0, **kwargs):
        super(MultiOutput, self).__init__(**kwargs)
        self.multi_output = multi_output
        self.scale = scale

    def hybrid_forward(self, F, x):
        outs = []
        for block in self._children.values():
            x = block(x)
            if getattr(block, "do_output", False):
                outs.append(x * self.scale)
        return [x] + outs if self.multi_output else x


class Deeper(MultiOutput):
    pass


for cls in (MultiOutput, Deeper):
    net = cls(multi_output=False, scale=3.0)
    net.add(nn.Dense(5, in_units=4, activation='tanh'), nn.Dense(4, in_units=5), nn.Dense(3, in_units=4))
    net[0].do_output = True
    net.initialize()
    set_weights(net)
    x = nd.array(rng.randn(2, 4).astype('float32'))
    outs.append(net(x).asnumpy())
    head = net[:-1]
    got = head(x)
    outs.append(len(head))
    outs.append(len(got))
    outs.append(got[0].asnumpy())
    outs.append(got[1].asnumpy())
    tail = net[1:](nd.array(rng.randn(2, 5).astype('float32')))
    outs.append(len(tail))
    outs.append(tail[0].asnumpy())
'''

# a Gluon layer class tested with isinstance whose translation is a torch class's call
# (`Identity()` -> `nn.Identity()`); F.identity copies and passes the gradient through
IDENTITY_AS_TYPE = COMMON + '''
from mxnet.gluon.contrib.nn import Identity


class Stage(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super(Stage, self).__init__(**kwargs)
        with self.name_scope():
            self.transition = nn.HybridSequential()
            self.transition.add(Identity(), nn.Dense(3, in_units=3), Identity())

    def hybrid_forward(self, F, x):
        ys = []
        for j in range(3):
            if not isinstance(self.transition[j], Identity):
                ys.append(self.transition[j](x[-1]))
            else:
                ys.append(F.identity(x[j]) * (j + 1))
        return F.concat(*ys, dim=1)


net = Stage()
net.initialize()
set_weights(net)
x = nd.array(rng.randn(3, 2, 3).astype('float32'))
x.attach_grad()
with autograd.record():
    y = net(x)
    loss = (y * y).sum()
loss.backward()
outs.append(y.asnumpy())
outs.append(x.grad.asnumpy())
'''

# MXNet's internal names of elementwise operators (its tree-LSTM example), with gradients
INTERNAL_OPERATORS = COMMON + '''
class Cell(gluon.HybridBlock):
    def hybrid_forward(self, F, x, c):
        next_c = F._internal._plus(F.sin(x * c), c, name='state')
        h = F._internal._mul(next_c, F.Activation(next_c, act_type='tanh'), name='out')
        return F._internal._div(F._internal._Minus(h, x), F._internal._plus(F.abs(c), F.ones_like(c)))


x = nd.array(rng.randn(3, 4).astype('float32'))
c = nd.array(rng.randn(3, 4).astype('float32'))
x.attach_grad()
c.attach_grad()
with autograd.record():
    y = Cell()(x, c)
y.backward(nd.array(rng.randn(3, 4).astype('float32')))
outs.extend([y.asnumpy(), x.grad.asnumpy(), c.grad.asnumpy()])
'''

# MXNet's iterators written in Python: a DataIter subclass (MXNet's examples' dummy and image-pair
# iterators), ResizeIter, PrefetchingIter with renamed data, contrib.io.DataLoaderIter's padded batch;
# contrib.data.IntervalSampler (MXNet's word-language-model example) alone and in a DataLoader
DATA_ITERATORS = COMMON + '''
class Counting(mx.io.DataIter):
    def __init__(self, batch_size, n=3):
        super(Counting, self).__init__(batch_size)
        self.n, self.i = n, 0
        self.provide_data = [('data', (batch_size, 2))]
        self.provide_label = [('softmax_label', (batch_size,))]

    def reset(self):
        self.i = 0

    def iter_next(self):
        self.i += 1
        return self.i <= self.n

    def getdata(self):
        return [nd.ones((self.batch_size, 2)) * self.i]

    def getlabel(self):
        return [nd.zeros((self.batch_size,)) + self.i]

    def getpad(self):
        return self.i % 2


resized = mx.io.ResizeIter(Counting(2), 5)
for epoch in range(2):
    for batch in resized:
        outs.extend([batch.data[0].asnumpy(), batch.label[0].asnumpy(), batch.pad])
    resized.reset()
X = rng.randn(5, 3).astype('float32')
a = mx.io.NDArrayIter(X, np.arange(5).astype('float32'), batch_size=2, data_name='a')
b = mx.io.NDArrayIter(X * 2, np.arange(5).astype('float32'), batch_size=2, data_name='b')
joined = mx.io.PrefetchingIter([a, b], rename_data=[{'a': 'x'}, {'b': 'y'}])
outs.append(float([d.name for d in joined.provide_data] == ['x', 'y']))
for batch in joined:
    outs.extend([len(batch.data), batch.data[1].asnumpy(), batch.label[0].asnumpy(), batch.pad])
loader = gluon.data.DataLoader(gluon.data.ArrayDataset(nd.array(X), nd.arange(5)), batch_size=2)
wrapped = mx.contrib.io.DataLoaderIter(loader)
for batch in wrapped:
    outs.extend([batch.data[0].asnumpy()[:2 - batch.pad], batch.label[0].asnumpy()[:2 - batch.pad], batch.pad])
outs.append(wrapped.provide_data[0].shape)
for rollover in (True, False):
    sampler = gluon.contrib.data.IntervalSampler(11, 3, rollover=rollover)
    outs.extend([np.array(list(sampler), dtype='float32'), len(sampler)])
loader = gluon.data.DataLoader(gluon.data.ArrayDataset(nd.array(X)), batch_size=2,
                               sampler=gluon.contrib.data.IntervalSampler(5, 2), last_batch='keep')
outs.extend([b.asnumpy() for b in loader])
'''

# flat indices and back (imgclsmob's SuperPointNet)
RAVEL = COMMON + '''
pts = nd.array(np.stack([rng.randint(0, 7, 9), rng.randint(0, 6, 9)]).astype('float32'))
flat = nd.ravel_multi_index(pts, shape=(7, 6))
outs.extend([flat.asnumpy(), nd.unravel_index(flat, shape=(7, 6)).asnumpy()])
outs.append(mx.nd.unravel_index(nd.array([0, 41, 37, 5]), (7, 6)).asnumpy())
'''

# MXNet's key-value store on one worker: init, push (a list summed), pull, pushpull, an updater
KVSTORE = COMMON + '''
kv = mx.kv.create('device')
outs.extend([kv.rank, kv.num_workers])
a = nd.array(rng.randn(2, 3).astype('float32'))
kv.init('u', a)
kv.init(['w', 'v'], [a * 2, a * 3])
kv.push('u', [a * 4, a + 1, a])
out = nd.zeros((2, 3))
kv.pull('u', out=out)
outs.append(out.asnumpy())
outs_v = [nd.zeros((2, 3)), nd.zeros((2, 3))]
kv.pull(['w', 'v'], out=[outs_v[0], [outs_v[1]]])
outs.extend([o.asnumpy() for o in outs_v])
b = nd.array(rng.randn(2, 3).astype('float32'))
kv.pushpull('w', b)
outs.append(b.asnumpy())


def update(key, pushed, stored):
    stored[:] = stored - 0.5 * pushed


kv._set_updater(update)
kv.push('v', [b, b * 2])
kv.pull('v', out=out)
outs.append(out.asnumpy())
'''

# a Parameter handed to a loss block as an input, read with .data() in its hybrid_forward (MXNet's
# embedding-learning example): the gradient reaches it
PARAMETER_AS_INPUT = COMMON + '''
class Margin(gluon.HybridBlock):
    def hybrid_forward(self, F, d, beta_in, a_indices=None):
        beta = beta_in.data()[a_indices] if a_indices is not None else beta_in.data()
        return F.relu(d - beta).sum() + 0.1 * beta.sum()


class Net(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super(Net, self).__init__(**kwargs)
        with self.name_scope():
            self.dense = nn.Dense(4, in_units=3)
            self.beta = self.params.get('beta', shape=(4,), init=mx.init.Constant(0.5))
        self.loss = Margin()

    def hybrid_forward(self, F, x, beta):
        return self.dense(x)


net = Net()
net.initialize()
set_weights(net)
x = nd.array(rng.randn(4, 3).astype('float32'))
idx = nd.array([0, 2, 3, 1])
with autograd.record():
    loss = net.loss(net(x), net.beta, idx)
loss.backward()
outs.extend([loss.asnumpy(), net.beta.grad().asnumpy(), net.dense.weight.grad().asnumpy()])
'''

# NDArray methods NumPy has too, on values xlate cannot type: decided at run time
UNTYPED_METHODS = COMMON + '''
def pooled(w):
    return w.flatten()


def to_nhwc(y):
    return y.transpose(axes=(0, 2, 3, 1))


def first_channel(x1):
    return x1.slice(begin=(None, 0, 1), end=(None, 1, None))


def sparse_of(heatmaps):
    return heatmaps[0].tostype("csr")


a = nd.array(rng.randn(2, 3, 1, 1).astype('float32'))
outs.append(pooled(a).asnumpy())
outs.append(pooled(nd.array(rng.randn(4).astype('float32'))).asnumpy())
outs.append(pooled(rng.randn(2, 3).astype('float32')))
outs.append(to_nhwc(nd.array(rng.randn(2, 3, 4, 5).astype('float32'))).asnumpy())
outs.append(first_channel(nd.array(rng.randn(2, 3, 4).astype('float32'))).asnumpy())
outs.append(sparse_of([nd.array(rng.randn(3, 4).astype('float32') * (rng.rand(3, 4) > 0.5))]).asnumpy())
'''

# Note [children by __getattribute__]: CenterNet's heads, registered with `self.__setattr__(name, block)` and
# read with `self.__getattribute__(name)` (torch finds children only in __getattr__)
HEADS_BY_NAME = COMMON + '''
class Heads(nn.HybridBlock):
    def __init__(self, heads):
        super(Heads, self).__init__()
        self.heads = heads
        with self.name_scope():
            for head in self.heads:
                self.__setattr__(head, nn.Dense(self.heads[head], in_units=4))

    def hybrid_forward(self, F, x):
        ret = {}
        for head in self.heads:
            ret[head] = self.__getattribute__(head)(x)
        return [ret]


net = Heads({'hm': 3, 'wh': 2})
net.initialize()
set_weights(net)
x = nd.array(rng.randn(2, 4).astype('float32'))
with autograd.record():
    out = net(x)[0]
    loss = (out['hm'] * out['hm']).sum() + out['wh'].sum()
loss.backward()
outs.append(out['hm'].asnumpy())
outs.append(out['wh'].asnumpy())
outs.append(net.hm.weight.grad().asnumpy())
'''

# MX866: mx.log.get_logger sets a named logger up once (the second call adds no handler) with MXNet's lines
LOGGER = COMMON + '''
import logging
from mxnet.log import get_logger

name = 'xlate_seg_%d' % id(outs)  # each side's own logger: both run in one process
logger = get_logger(name, level=logging.INFO)
again = mx.log.get_logger(name, level=logging.DEBUG)
outs.append([again is logger, logger.level, len(logger.handlers), isinstance(logger.handlers[0], logging.StreamHandler)])
record = logging.LogRecord(name, logging.WARNING, '/src/train.py', 12, 'epoch %d', (3,), None, func='fit')
record.created, record.msecs, record.process = 1700000000.0, 0.0, 42
outs.append([ord(c) for c in logger.handlers[0].formatter.format(record)])
outs.append(get_logger().level == logging.getLogger().level)
'''


def test_mxnets_logger_is_set_up_once_with_its_line_format():
    converted = _same_numbers(LOGGER)
    assert "_mx_get_logger(name, level=logging.INFO)" in converted and "mxnet" not in converted


def test_children_set_and_read_by_name_through_dunder_methods():
    converted = _same_numbers(HEADS_BY_NAME)
    assert "getattr(self, head)(x)" in converted


def test_a_sliced_sequential_subclass_is_built_with_its_own_defaults():
    converted = _same_numbers(SLICED_SUBCLASS)
    assert "class MultiOutput(_mx_Sequential):" in converted and "class Deeper(MultiOutput):" in converted


def test_a_gluon_layer_class_as_a_type_is_its_torch_class():
    converted = _same_numbers(IDENTITY_AS_TYPE)
    assert "isinstance(self.transition[j], nn.Identity)" in converted and "x[j]).clone()" in converted


def test_mxnet_methods_on_untyped_values():
    converted = _same_numbers(UNTYPED_METHODS)
    assert "_mx_flatten_method(w)" in converted and "_mx_array_transpose(y, (0, 2, 3, 1))" in converted
    assert "_mx_slice_method(x1, begin=(None, 0, 1), end=(None, 1, None))" in converted
    assert '_mx_tostype(heatmaps[0], "csr")' in converted


def test_internal_operator_names_are_the_elementwise_operators():
    converted = _same_numbers(INTERNAL_OPERATORS)
    assert "_internal" not in converted


def test_mxnets_python_data_iterators():
    converted = _same_numbers(DATA_ITERATORS)
    assert "class Counting(_mx_DataIter):" in converted and "_mx_DataLoaderIter(loader)" in converted


def test_ravel_and_unravel_multi_index():
    converted = _same_numbers(RAVEL)
    assert "_mx_ravel_multi_index(pts, shape=(7, 6))" in converted


def test_randn_takes_the_shape_as_arguments():
    """Other random streams: the shapes, dtype and the moments of 40000 draws with loc/scale."""
    from mxsupport import import_mxnet, import_numpy, import_torch
    from xlate.convert.engine import convert_source
    mx, np, torch = import_mxnet(), import_numpy(), import_torch()
    source = "import mxnet as mx\nx = mx.nd.random.randn(200, 200, loc=5.0, scale=0.5)\ny = mx.nd.random.randn(3, dtype='float64')\n"
    scope: dict = {}
    exec(compile(source, "mx", "exec"), scope)
    want = scope["x"].asnumpy(), scope["y"].asnumpy()
    torch.manual_seed(0)
    exec(compile(convert_source(source).output, "pt", "exec"), scope)
    have = scope["x"].numpy(), scope["y"].numpy()
    for w, h in zip(want, have):
        assert w.shape == h.shape and w.dtype == h.dtype
    for sample in (want[0], have[0]):
        assert abs(sample.mean() - 5.0) < 0.02 and abs(sample.std() - 0.5) < 0.02


def test_a_kvstore_on_one_worker():
    converted = _same_numbers(KVSTORE)
    assert "kv = _mx_kv_create('device')" in converted


def test_a_distributed_kvstore_chosen_at_run_time_raises_where_it_would_have_trained_alone():
    # SageMaker's Gluon scripts: 'dist_sync' with several hosts, 'local' with one (the literal is MX550's manual item)
    from mxsupport import import_torch
    from xlate.convert.engine import convert_source
    import_torch()
    source = ("from mxnet import gluon\nnet = gluon.nn.Dense(2, in_units=3)\nnet.initialize()\n"
              "kvstore = 'dist_sync' if len(hosts) > 1 else 'local'\n"
              "trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1}, kvstore=kvstore)\n")
    code = compile(convert_source(source).output, "converted", "exec")
    exec(code, {"hosts": ["algo-1"]})
    with pytest.raises(NotImplementedError, match="kvstore 'dist_sync' is MXNet's distributed training"):
        exec(code, {"hosts": ["algo-1", "algo-2"]})


def test_a_parameter_handed_to_a_block_and_read_with_data():
    converted = _same_numbers(PARAMETER_AS_INPUT)
    assert "_mx_param_value(beta_in)[_mx_index(a_indices)]" in converted


def test_the_profiler_records_a_region_and_writes_a_chrome_trace(tmp_path):
    """Not numbers: both record the region between set_state('run') and ('stop') and give a non-empty
    aggregate table; the translation's dump() writes a Chrome trace (MXNet's format) to the file."""
    import json
    from mxsupport import import_mxnet, import_torch
    from xlate.convert.engine import convert_source
    import_mxnet(), import_torch()
    source = (
        "import mxnet as mx\nfrom mxnet import profiler\n"
        "profiler.set_config(profile_all=True, aggregate_stats=True, filename=PATH)\n"
        "profiler.set_state('run')\nb = mx.nd.dot(mx.nd.ones((8, 8)), mx.nd.ones((8, 8))) + 1\nb.wait_to_read()\n"
        "profiler.set_state('stop')\ntext = profiler.dumps()\nprofiler.dump(finished=False)\n")
    converted = convert_source(source).output
    assert "_mx_profiler_set_state('run')" in converted and "mxnet" not in converted
    for side, code in (("mx", source), ("pt", converted)):
        path = str(tmp_path / f"{side}.json")
        scope = {"PATH": path}
        exec(compile(code, side, "exec"), scope)
        assert isinstance(scope["text"], str) and scope["text"].strip()
    # MXNet's file is whole JSON only once its profiler is finished for good (`finished=True`, which no
    # later run in the process could undo, and it keeps the first filename it was given): the
    # translation's file is checked
    with open(tmp_path / "pt.json") as f:
        assert "traceEvents" in json.load(f)


# crnn.gluon builds its pipeline from a configuration: `getattr(transforms, item['type'])(**args)` (MX591)
CONFIG_TRANSFORMS = COMMON + '''
from mxnet.gluon.data.vision import transforms
config = [{'type': 'CenterCrop', 'args': {'size': (5, 4)}}, {'type': 'ToTensor'},
          {'type': 'Normalize', 'args': {'mean': (0.4, 0.5, 0.6), 'std': (0.2, 0.3, 0.25)}}]
pipeline = transforms.Compose([getattr(transforms, t['type'])(**t.get('args', {})) for t in config])
image = nd.array(rng.randint(0, 256, (7, 6, 3)), dtype='uint8')
outs.append(pipeline(image).asnumpy())
outs.append(hasattr(transforms, 'NoSuchTransform'))
'''


def test_a_transforms_module_read_by_name_builds_the_same_pipeline():
    converted = _same_numbers(CONFIG_TRANSFORMS)
    assert "getattr(_mx_transforms_module, t['type'])" in converted


# crnn.gluon's base trainer hands `mx.optimizer` and `mx.lr_scheduler` to a function that looks the configured class
# up by name (MX591): the Trainer then steps with MXNet's Adam and the scheduler's rates
CONFIG_OPTIMIZER = COMMON + '''
def initialize(config, module, **kwargs):
    return getattr(module, config['type'])(**config['args'], **kwargs)
net = nn.Dense(3, in_units=4)
net.initialize()
set_weights(net)
schedule = initialize({'type': 'FactorScheduler', 'args': {'step': 1, 'factor': 0.5}}, mx.lr_scheduler)
optimizer = initialize({'type': 'Adam', 'args': {'learning_rate': 0.1}}, mx.optimizer, lr_scheduler=schedule)
trainer = gluon.Trainer(net.collect_params(), optimizer=optimizer)
x = nd.array(rng.uniform(-1, 1, (5, 4)))
for _ in range(3):
    with autograd.record():
        loss = (net(x) ** 2).sum()
    loss.backward()
    trainer.step(5)
outs.append(net.weight.data().asnumpy())
'''


def test_an_optimizer_module_read_by_name_steps_as_mxnet():
    converted = _same_numbers(CONFIG_OPTIMIZER)
    assert "_mx_optimizer_module" in converted and "_mx_lr_scheduler_module" in converted


@pytest.mark.parametrize("module,spelling", [
    ("_mx_transforms_module", "transforms"), ("_mx_optimizer_module", "mx.optimizer"),
    ("_mx_lr_scheduler_module", "mx.lr_scheduler"), ("_mx_nn_module", "nn"), ("_mx_loss_module", "gluon.loss")])
def test_a_module_read_as_a_value_gives_what_each_name_written_out_gives(module, spelling):
    # MX591's tables are hand-kept in the runtime: each name must be the helper the catalogue gives it
    from mxsupport import import_torch
    from xlate.convert.engine import convert_source
    from xlate.runtime import load
    import_torch()
    members = getattr(load(), module)._mx_members()
    source = ("import mxnet as mx\nfrom mxnet import gluon\nfrom mxnet.gluon import nn\n"
              "from mxnet.gluon.data.vision import transforms\n"
              + "".join(f"v{i} = {spelling}.{name}\n" for i, name in enumerate(members)))
    lines = convert_source(source).output.splitlines()
    for i, (name, helper) in enumerate(members.items()):
        assert f"v{i} = {helper.__qualname__}" in lines, (name, helper.__qualname__)


# a network and its loss built from a configuration (MX591 on gluon.nn and gluon.loss)
CONFIG_LAYERS = COMMON + '''
layers = [{'type': 'Conv2D', 'args': {'channels': 4, 'kernel_size': 3, 'padding': 1}}, {'type': 'BatchNorm'},
          {'type': 'Activation', 'args': {'activation': 'relu'}}, {'type': 'GlobalAvgPool2D'},
          {'type': 'Dense', 'args': {'units': 3}}]
net = nn.HybridSequential()
for layer in layers:
    net.add(getattr(nn, layer['type'])(**layer.get('args', {})))
net.initialize()
x = nd.array(rng.uniform(-1, 1, (2, 3, 5, 5)))
net(x)
set_weights(net)
loss = getattr(gluon.loss, 'SoftmaxCELoss')()
with autograd.record():
    out = net(x)
    value = loss(out, nd.array([0, 2]))
value.backward()
outs.append(out.asnumpy())
outs.append(value.asnumpy())
outs.append(net[0].weight.grad().asnumpy())
'''


def test_layers_and_a_loss_read_by_name_compute_what_gluon_computes():
    converted = _same_numbers(CONFIG_LAYERS)
    assert "getattr(_mx_nn_module, layer['type'])" in converted and "getattr(_mx_loss_module, 'SoftmaxCELoss')" in converted


# Note [a base class's hybrid_forward by name]: the explicit spelling of super().hybrid_forward, a base
# whose hybrid_forward became its forward (reached through a base that defines none), and one that keeps
# its hybrid_forward beside a forward of its own
BASE_HYBRID_FORWARD_BY_NAME = COMMON + '''
class Base(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super(Base, self).__init__(**kwargs)
        with self.name_scope():
            self.dense = nn.Dense(3, in_units=4, flatten=False)

    def hybrid_forward(self, F, x, mask=None):
        y = self.dense(x)
        return y if mask is None else F.broadcast_mul(y, F.expand_dims(mask, axis=-1))


class Middle(Base):
    pass


class Child(Middle):
    def hybrid_forward(self, F, x, mask):
        return F.relu(Middle.hybrid_forward(self, F, x, mask)) + 1


class Own(Base):
    def forward(self, x):
        return super(Own, self).forward(x) * 2

    def hybrid_forward(self, F, x):
        return F.tanh(Base.hybrid_forward(self, F, x))


class Twice(Own):
    def hybrid_forward(self, F, x):
        return Own.hybrid_forward(self, F, x) - 1


class Thrice(Own):
    def hybrid_forward(self, F, x):
        return super(Thrice, self).hybrid_forward(F, x) + 0.5


for net in (Child(), Own(), Twice(), Thrice()):
    net.initialize()
    set_weights(net)
    x = nd.array(rng.randn(2, 5, 4).astype('float32'))
    if isinstance(net, Child):
        outs.append(net(x, nd.array(rng.rand(2, 5).astype('float32'))).asnumpy())
    else:
        outs.append(net(x).asnumpy())
'''


def test_a_base_class_hybrid_forward_called_by_name():
    converted = _same_numbers(BASE_HYBRID_FORWARD_BY_NAME)
    assert "Middle.forward(self, x, mask)" in converted and "Base.forward(self, x)" in converted
    assert "Own.hybrid_forward(self, x)" in converted and ".hybrid_forward(self, None" not in converted
    assert "super(Thrice, self).hybrid_forward(x)" in converted


# Note [operators by name]: an operator looked up on the namespace by a literal name and by one known
# only at run time (an activation given as a string), and a module of the namespace bound to a name
# of its own in the function (Note [namespace aliases])
OPERATORS_BY_NAME = COMMON + '''
def activate(F, x, kind):
    return getattr(F, kind)(x)


class Head(gluon.HybridBlock):
    def __init__(self, act='tanh', **kwargs):
        super(Head, self).__init__(**kwargs)
        self._act = act
        with self.name_scope():
            self.dense = nn.Dense(4, in_units=3)

    def hybrid_forward(self, F, x):
        y = getattr(F, self._act)(self.dense(x))
        y = activate(F, y, 'sigmoid') + getattr(F, 'relu')(y)
        ops = F.contrib
        z = ops.BilinearResize2D(y.reshape((0, 1, 2, 2)), height=4, width=4)
        return y + z.reshape((0, -1)).mean(axis=1, keepdims=True)


for act in ('tanh', 'softsign'):
    net = Head(act)
    net.initialize()
    set_weights(net)
    outs.append(net(nd.array(rng.randn(2, 3).astype('float32'))).asnumpy())
outs.append(getattr(nd, 'exp')(nd.array([0.5, -1.0])).asnumpy())
# an operator of two inputs by name in a Lambda block (MXFusion's `HybridLambda(function='dot')`)
a, b = nd.array(rng.randn(2, 3).astype('float32')), nd.array(rng.randn(3, 4).astype('float32'))
outs.append(nn.HybridLambda(function='dot')(a, b).asnumpy())
outs.append(nn.HybridLambda('broadcast_add')(a, a * 2).asnumpy())
# a Lambda handed a parameter, which holds an operator's name or a function of F
def head(act):
    return nn.HybridLambda(act)
outs.append(head('tanh')(a).asnumpy())
outs.append(head(lambda F, x: F.relu(x) * 2)(a).asnumpy())
'''


def test_operators_looked_up_by_name_and_a_namespace_module_bound_to_a_name():
    converted = _same_numbers(OPERATORS_BY_NAME)
    assert "_mx_operator(self._act, {" in converted and "'softsign': torch.nn.functional.softsign" in converted
    assert "getattr(None" not in converted and "ops = None" in converted and "torch.relu(y)" in converted
    assert "_mx_Lambda(_mx_lambda_function(act, {" in converted


def test_an_operator_named_nowhere_in_the_file_raises_naming_itself():
    import pytest as _pytest
    from xlate.runtime import load

    with _pytest.raises(NotImplementedError, match="`gelu` looked up by name"):
        load()._mx_operator("gelu", {"tanh": None})
