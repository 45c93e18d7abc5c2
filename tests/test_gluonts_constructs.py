"""Constructs of a production forecasting package (gluonts v0.6.9, issue 21), each as a class
every Gluon package can write: a script runs in MXNet and, converted, in torch, and what it appends
to `outs` must agree (tests/test_execution_model.py's `_same_numbers`: weights from `det`, inputs
from a seeded RandomState, rtol 1e-4)."""
from __future__ import annotations

import pytest

from test_execution_model import COMMON, _same_numbers

pytestmark = pytest.mark.mxnet

# operators with no torch function of their own, inside a hybrid_forward and on nd, with gradients:
# split_v2 by a count and by indices (squeezed too), scatter_nd, the gamma function across its poles;
# and the block asking which namespace it runs in
OPERATORS = COMMON + '''
class Pieces(gluon.HybridBlock):
    def hybrid_forward(self, F, x, k):
        if F is mx.sym:  # which namespace runs: imperative (Note [the symbol namespace as a value])
            raise ValueError("not hybridizable")
        x = x * 2.0 if F is mx.nd else x
        a, b, c = F.split_v2(x, (2, 3), axis=1)
        rows = F.split_v2(x, 6, axis=1, squeeze_axis=True)
        first, rest = F.split_v2(x, (4,), axis=1)
        one = F.split_v2(x, 1, axis=2)
        y = F.scatter_nd(k, F.array([[0, 1, 1], [2, 0, 1]]), shape=(2, 3))
        return a * 2 + c.sum(axis=1, keepdims=True) * b, rows[4] * 3, rest.mean() + first, one, y * F.gamma(k)


x = nd.array(rng.randn(2, 6, 3).astype('float32'))
k = nd.array([-2.5, -0.5, 1.7])
for t in (x, k):
    t.attach_grad()
net = Pieces()
with autograd.record():
    got = net(x, k)
    total = sum((g * nd.array(det(g.shape))).sum() for g in got)
total.backward()
outs.extend([g.asnumpy() for g in got] + [x.grad.asnumpy(), k.grad.asnumpy()])
outs.extend(p.asnumpy() for p in nd.split_v2(nd.arange(10), (3, 7)))
'''

# a package's own Python operator (gluonts' digitize binning): a registered Prop with two inputs,
# two outputs and a keyword argument (a string in the Prop, as MXNet passes it), a forward computing
# in NumPy, a backward of its own; called through F.Custom in a block and through nd.Custom
CUSTOM_OP = COMMON + '''
class ScaledSquare(mx.operator.CustomOp):
    def __init__(self, scale):
        super(ScaledSquare, self).__init__()
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        x, bins = in_data[0].asnumpy(), in_data[1].asnumpy()
        self.assign(out_data[0], req[0], mx.nd.array(self.scale * x * x))
        self.assign(out_data[1], req[1], mx.nd.array(np.digitize(x, bins=bins, right=False)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * in_data[0] * (2 * self.scale))
        self.assign(in_grad[1], req[1], nd.zeros_like(in_data[1]))


@mx.operator.register("scaled_square")
class ScaledSquareProp(mx.operator.CustomOpProp):
    def __init__(self, scale="1.0"):
        super(ScaledSquareProp, self).__init__(need_top_grad=True)
        self.scale = float(scale)

    def list_arguments(self):
        return ["data", "bins"]

    def list_outputs(self):
        return ["output", "index"]

    def infer_shape(self, in_shapes):
        return in_shapes, (in_shapes[0], in_shapes[0]), ()

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return ScaledSquare(self.scale)


class Binned(gluon.HybridBlock):
    def hybrid_forward(self, F, x, bins):
        sq, idx = F.Custom(x, bins, op_type="scaled_square", scale=1.5)
        return sq * idx + x


x = nd.array(rng.randn(3, 4).astype('float32'))
bins = nd.array([-1.0, 0.0, 0.5])
x.attach_grad()
with autograd.record():
    y = Binned()(x, bins)
    loss = (y * nd.array(det(y.shape))).sum()
loss.backward()
outs.extend([y.asnumpy(), x.grad.asnumpy()])
outs.extend(o.asnumpy() for o in nd.Custom(x, bins, op_type="scaled_square"))
'''

# a package's own cells on Gluon's cell bases: a ModifierCell (gluonts' VariationalZoneoutCell's
# shape) around an LSTMCell, a HybridRecurrentCell with its own state_info, stepped and unrolled,
# and isinstance against the bases
CELL_BASES = COMMON + '''
from mxnet.gluon import rnn


class Scaled(rnn.ModifierCell):
    def __init__(self, base_cell, scale=2.0):
        super(Scaled, self).__init__(base_cell)
        self.scale = scale
        self._prev = None

    def reset(self):
        super(Scaled, self).reset()
        self._prev = None

    def hybrid_forward(self, F, inputs, states):
        out, states = self.base_cell(inputs, states)
        prev = self._prev if self._prev is not None else F.zeros_like(out)
        self._prev = out
        return F.tanh(out) * self.scale + prev, states


class Leaky(rnn.HybridRecurrentCell):
    def __init__(self, hidden, **kwargs):
        super(Leaky, self).__init__(**kwargs)
        self.hidden = hidden
        with self.name_scope():
            self.w = self.params.get('w', shape=(3, hidden))

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self.hidden), "__layout__": "NC"}]

    def hybrid_forward(self, F, inputs, states, w):
        h = 0.5 * states[0] + F.tanh(F.dot(inputs, w))
        return h, [h]


for cell in (Scaled(rnn.LSTMCell(4, input_size=3)), Leaky(4)):
    cell.initialize()
    set_weights(cell)
    x = nd.array(rng.randn(2, 5, 3).astype('float32'))
    x.attach_grad()
    with autograd.record():
        out, states = cell.unroll(5, x, layout='NTC', merge_outputs=True)
        loss = (out * nd.array(det(out.shape))).sum()
    loss.backward()
    outs.extend([out.asnumpy(), states[0].asnumpy(), x.grad.asnumpy()])
    outs.append(isinstance(cell, rnn.RecurrentCell))
    outs.append(isinstance(cell, rnn.ModifierCell))
    cell.reset()
    step, _ = cell(x[:, 0], cell.begin_state(batch_size=2, func=nd.zeros))
    outs.append(step.asnumpy())
'''

# MXNet's types and functions used as values: the error class raised and caught, gluon.tensor_types
# and Symbol in tests, autograd's scopes chosen as values, the current context, a module as an
# annotation of a singledispatch registration, ndarray reached through another MXNet module,
# MXNet's module given its own submodule (which must not keep `import mxnet`), and a block's
# hybrid_forward read for its input names
VALUES = COMMON + '''
from functools import singledispatch
from mxnet.metric import ndarray as held_nd

mx.autograd = autograd  # MXNet's module given its own submodule: a no-op


def kind_of(var):
    if isinstance(var, mx.nd.NDArray):
        return 1
    elif isinstance(var, mx.sym.Symbol):
        return 2
    return 3


outs.extend([kind_of(nd.ones((2,))), kind_of(3.0), held_nd.sum(nd.array([1.5, 2.0])).asnumpy()])


def checked(x):
    if not isinstance(x, mx.gluon.tensor_types):
        raise mx.base.MXNetError("not an array")
    return x * 2


try:
    checked([1.0])
    outs.append(0)
except mx.base.MXNetError:
    outs.append(1)
outs.append(checked(nd.array([1.5, -2.0])).asnumpy())
for training in (True, False):
    mode = autograd.train_mode if training else autograd.predict_mode
    with mode():
        outs.append(autograd.is_training())
outs.append(nd.ones((2, 2), ctx=mx.current_context()).asnumpy())


@singledispatch
def predict(net, inputs):
    raise NotImplementedError


@predict.register(gluon.Block)
def _(net: gluon.Block, inputs: mx.ndarray):
    return net(*inputs).asnumpy()


net = nn.Dense(2, in_units=3)
net.initialize()
set_weights(net)
outs.append(predict(net, [nd.array(rng.randn(4, 3).astype('float32'))]))


class Network(gluon.HybridBlock):
    def hybrid_forward(self, F, past_target, future_target, *args):
        return past_target + future_target


def input_names(hb: gluon.HybridBlock):  # gluonts' get_hybrid_forward_input_names
    import inspect
    params = inspect.signature(hb.hybrid_forward).parameters
    names = [k for k, v in params.items() if not str(v).startswith("*")]
    assert names[0] == "F"
    return names[1:]


outs.append(input_names(Network()) == ["past_target", "future_target"])


class BoxCox:  # an operator chosen as a value through the namespace (Note [a function value as an operand])
    def __init__(self, lam, F=None):
        self.F = F if F else mx.nd
        self.lam = lam
        self._power = self.F.power if self.F == mx.nd else self.F.pow

    def f(self, x):
        return (self._power(x, self.lam) - 1.0) / self.lam


outs.append(BoxCox(0.5).f(nd.array([1.5, 2.0, 4.0])).asnumpy())
holder = gluon.HybridBlock()  # an empty block made directly, children set on it
holder.fc = nn.Dense(2, in_units=3)
holder.initialize()
outs.append(len(list(holder.collect_params().keys())))
outs.append(type(holder.collect_params()) != gluon.ParameterDict)  # an exact type compared
base = rng.randn(3, 4).astype('float32')
nan = np.full((3, 4), np.nan)
for a, b, kw in [(base, base + 1e-7, {}), (base, base + 1e-3, {}), (base, base * (1 + 2e-5), {}),
                 (base, base + 1e-3, {'atol': 1e-2}), (base, base[:1], {}), (nan, nan, {'equal_nan': True}),
                 (nan, nan, {}), (holder.fc.weight.data().asnumpy(), holder.fc.weight.data().asnumpy(), {})]:
    outs.append(mx.test_utils.almost_equal(a, b, **kw))

'''


def test_operators_without_a_torch_function():
    converted = _same_numbers(OPERATORS)
    assert "_mx_split_v2(x, (2, 3), axis=1)" in converted and "_mx_gamma(k)" in converted


def test_cells_on_gluons_cell_bases():
    converted = _same_numbers(CELL_BASES)
    assert "class Scaled(_mx_ModifierCell):" in converted and "class Leaky(_mx_HybridRecurrentCell):" in converted


def test_mxnet_types_and_functions_as_values():
    converted = _same_numbers(VALUES)
    assert "raise RuntimeError(" in converted and "inputs: torch.Tensor" in converted
    assert "import mxnet" not in converted


def test_a_packages_own_python_operator():
    converted = _same_numbers(CUSTOM_OP)
    assert "class ScaledSquareProp(_mx_CustomOpProp):" in converted and "_mx_Custom(x, bins" in converted


@pytest.mark.parametrize("name,bound", [
    ("'Xavier'", 0.02), ("'msraprelu'", 0.35), ("'Orthogonal'", 0.35),
    # mx.init.create with the class's arguments, as autogluon's configurations give them (MX527)
    ("mx.init.create(*['xavier', 'gaussian', 'in', 2.0])", 0.35), ("mx.init.create('MSRAPrelu', 'out', 0.5)", 0.35),
    ("mx.init.create('[\"orthogonal\", {\"scale\": 0.5, \"rand_type\": \"normal\"}]')", 0.35),
    ("mx.init.create('uniform', scale=0.3)", 0.02)])
def test_an_initializer_given_by_its_registered_name(name, bound):
    """`Dense(..., weight_initializer='Xavier')` (gluonts' low-rank GP head), or the initializer
    `mx.init.create` makes from a name and its class's arguments: MXNet's registry creates it; the
    converted layer draws from the same distribution (the streams differ, so the statistics are
    compared: the spread, the bound, and W W^T for Orthogonal)."""
    from mxsupport import import_mxnet, import_numpy, import_torch
    from xlate.convert.engine import convert_source
    import_mxnet(), import_torch()
    np = import_numpy()
    source = ("import mxnet as mx\nfrom mxnet.gluon import nn\n"
              f"layer = nn.Dense(150, in_units=250, weight_initializer={name})\n"
              "layer.initialize()\n"
              "w = layer.weight.data().asnumpy()\n")
    converted = convert_source(source).output
    assert "import mxnet" not in converted
    got = []
    for code in (source, converted):
        scope: dict = {}
        exec(compile(code, name, "exec"), scope)
        w = scope["w"] if isinstance(scope["w"], np.ndarray) else scope["w"].detach().numpy()
        got.append((w.shape, w.std(), np.abs(w).max(), np.abs(w @ w.T - np.diag(np.diag(w @ w.T))).max()))
    (shape_mx, std_mx, max_mx, off_mx), (shape_pt, std_pt, max_pt, off_pt) = got
    assert shape_mx == shape_pt and abs(std_pt / std_mx - 1) < 0.03
    assert abs(max_pt / max_mx - 1) < bound
    assert (off_pt < 1e-4) == (off_mx < 1e-4)


def test_initialize_on_a_value_of_unknown_kind():
    """`tool.initialize(...)` where nothing says `tool` is a Gluon block (gluonts' trainer):
    `_mx_initialize_method` initialises a torch module as Gluon does (here Constant(0.25), then the
    context) and hands any other object its own initialize with the same arguments."""
    from mxsupport import import_torch
    from xlate.convert.engine import convert_source
    torch = import_torch()
    converted = convert_source("import mxnet as mx\ndef fit(tool, options):\n    tool.initialize(options)\n").output
    assert "_mx_initialize_method(tool, options)" in converted
    scope: dict = {}
    exec(compile(converted, "pt", "exec"), scope)
    layer = torch.nn.Linear(2, 3)
    scope["fit"](layer, lambda w: torch.nn.init.constant_(w, 0.25))
    assert torch.equal(layer.weight, torch.full((3, 2), 0.25))

    class NotABlock:
        def initialize(self, options):
            self.got = options
    other = NotABlock()
    scope["fit"](other, {"k": 1})
    assert other.got == {"k": 1}
