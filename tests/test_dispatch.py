"""Values whose kind xlate cannot prove (issue 21 items 6 and 8, issue 25 items 3 and 4): each
program runs with live MXNet and, converted, with torch, and the values it names are compared.

- a table of expression shapes (comparison, arithmetic, subscript, method chains) whose
  operands are NumPy arrays, MXNet arrays, or either (a function called with both): a NumPy
  operand keeps NumPy's meaning, an MXNet one gets MXNet's, statically where proven and through
  the run-time helpers otherwise (Note [sound kinds] in xlate/convert/names.py);
- `.add` on a receiver a library function is given (`_mx_add`): a Sequential's output and a
  set's contents;
- MXNet-only methods on untyped values (`_mx_asnumpy`, `_mx_asscalar`, `_mx_as_in_context`,
  `_mx_expand_dims`, Note [untyped receivers]) on MXNet arrays and on an object of the user's
  that has methods of those names;
- d2l's grad_clipping over a Block (one of its layers never called) and a from-scratch model,
  with its state carried over backwards by `s.detach()` (`_mx_detach_spent`; the same statement
  on a live graph is rule_cases.check_detach_statement, in test_numeric_ndarray.py).
"""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet


def _run(source: str) -> dict:
    scope = {"__name__": "__probe__"}
    exec(compile(source, "<probe>", "exec"), scope)
    return scope


def _plain(value, np, torch):
    """A value of either side as NumPy/Python data: arrays as float64 arrays with their dtype's name."""
    if isinstance(value, torch.Tensor):
        return ("array", str(value.dtype).rsplit(".", 1)[-1], value.detach().cpu().double().numpy())
    if hasattr(value, "asnumpy"):
        return ("array", np.dtype(value.dtype).name, value.asnumpy().astype("float64"))
    if isinstance(value, np.ndarray):
        return ("numpy", value.dtype.name, value.astype("float64"))
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_plain(v, np, torch) for v in value]
    return value


def _same(a, b, np) -> bool:
    if isinstance(a, tuple) and len(a) == 3 and a[0] in ("array", "numpy"):
        return isinstance(b, tuple) and len(b) == 3 and a[:2] == b[:2] and a[2].shape == b[2].shape \
            and np.allclose(a[2], b[2], rtol=1e-5, atol=1e-6)
    if isinstance(a, tuple) and len(a) == 2 and isinstance(a[1], list):
        return isinstance(b, tuple) and a[0] == b[0] and len(a[1]) == len(b[1]) \
            and all(_same(x, y, np) for x, y in zip(a[1], b[1]))
    if isinstance(a, float):
        return isinstance(b, float) and abs(a - b) <= 1e-5 * max(1.0, abs(a))
    return a == b


def _compare(source: str, names: tuple) -> str:
    """'' when every name has the same value in MXNet and converted; else what differs."""
    np, torch = import_numpy(), import_torch()
    import_mxnet()
    result = convert_source(source)
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    ref, got = _run(source), _run(result.output)
    bad = [f"{n}: MXNet {_plain(ref[n], np, torch)!r} converted {_plain(got[n], np, torch)!r}"
           for n in names if not _same(_plain(ref[n], np, torch), _plain(got[n], np, torch), np)]
    return "\n".join(bad)


# -- item 8: expression shapes over NumPy and MXNet operands ---------------------------------------

EXPRESSIONS = {
    "comparison of a sum": "(X[:, 0] + 0.5 * X[:, 1] > 0).astype(np.float32)",
    "comparison of two subscripts": "(X[:, 1] < X[:, 0]).astype('float32')",
    "arithmetic with itself": "(X * 2 - X / 4).astype('float64')",
    "negation then number": "(-X + 1).astype(np.float32)",
    "subscript": "X[1:, :2].astype(np.float32)",
    "method chain": "(X - X.mean(axis=0)).astype('float32').transpose()",
    "transpose chain": "X.T.transpose()",
}
MAKERS = {"numpy": "np.random.RandomState(7).randn(4, 3).astype('float32')",
          "mxnet": "nd.array(np.random.RandomState(7).randn(4, 3))"}


@pytest.mark.parametrize("callers", ["numpy", "mxnet", "both"])
@pytest.mark.parametrize("shape", list(EXPRESSIONS), ids=list(EXPRESSIONS))
def test_expression_kinds(shape, callers):
    """The function's parameter is given NumPy arrays, MXNet arrays, or both (then untyped)."""
    kinds = ["numpy", "mxnet"] if callers == "both" else [callers]
    calls = "\n".join(f"out_{k} = f({MAKERS[k]})" for k in kinds)
    source = f"import numpy as np\nfrom mxnet import nd\n\n\ndef f(X):\n    return {EXPRESSIONS[shape]}\n\n\n{calls}\n"
    assert _compare(source, tuple(f"out_{k}" for k in kinds)) == ""


@pytest.mark.parametrize("shape", list(EXPRESSIONS), ids=list(EXPRESSIONS))
def test_expression_kinds_at_module_level(shape):
    """Proven kinds: a module-level NumPy array and an MXNet one, each in its own expression."""
    numpy_side = EXPRESSIONS[shape]
    mxnet_side = EXPRESSIONS[shape].replace("X", "A")
    source = (f"import numpy as np\nfrom mxnet import nd\nX = {MAKERS['numpy']}\nA = {MAKERS['mxnet']}\n"
              f"out_numpy = {numpy_side}\nout_mxnet = {mxnet_side}\n")
    assert _compare(source, ("out_numpy", "out_mxnet")) == ""


# -- issue 25 item 4: `.add` on what a library function is given ------------------------------------

ADD = """
import numpy as np
from mxnet import nd
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


net = nn.Sequential()
add_layers(net, [nn.Dense(5, in_units=3, activation="relu")])
add_pair(net, nn.Dense(4, in_units=5), nn.Dense(2, in_units=4))
net.initialize()
rs = np.random.RandomState(11)
for p in net.collect_params().values():
    p.set_data(nd.array(rs.normal(0, 0.5, p.shape)))
out = net(nd.array(rs.randn(2, 3)))
seen = sorted(register(register(set(), 3), 1))
numbers = sorted(add_layers(set(), [4, 2]))  # the same helper given a set
count = len(net)
"""


def test_add_on_untyped_receivers():
    out = convert_source(ADD).output
    assert "_mx_add(net, layer)" in out and "blk.extend([a, b])" in out  # add_pair is only given the Sequential
    assert _compare(ADD, ("out", "seen", "numbers", "count")) == ""


# -- issue 21 item 6: MXNet-only methods on untyped values -----------------------------------------

METHODS = """
import numpy as np
import mxnet as mx
from mxnet import nd


class Box:
    context, ctx = "box-context", "box-ctx"

    def as_in_context(self, ctx):
        return "moved"

    def as_in_ctx(self, ctx):
        return "moved too"

    def expand_dims(self, axis, inplace=False):
        return ("expanded", axis, inplace)

    def copyto(self, other):
        return ("copied", other)

    def asnumpy(self):
        return "as numpy"

    def asscalar(self):
        return 2.5


def use(x, ctx):
    return [x.as_in_context(ctx), x.expand_dims(axis=1), x.expand_dims(0, inplace=True), x.asnumpy(),
            x.context == x.ctx]


def move(x, ctx):
    return x.as_in_ctx(ctx)  # the numpy dialect's spelling: here only on the user's object


def flat(x):
    return x.flatten()  # MXNet's keeps the first axis, NumPy's gives 1-D


def scalar(x):
    return x.asscalar()


a = nd.array(np.random.RandomState(3).randn(2, 3))
on_array = use(a, mx.cpu())
on_box = use(Box(), mx.cpu())
first = scalar(a[0, 1])
boxed = scalar(Box())
dst = nd.zeros((2, 3))
copied = Box().copyto(dst)
moved = move(Box(), mx.cpu())
flats = [flat(nd.array(np.arange(24.).reshape(2, 3, 4))), flat(nd.array(np.arange(3.))),
         flat(np.arange(6.).reshape(2, 3))]
"""


def test_array_methods_on_untyped_values():
    out = convert_source(METHODS).output
    for helper in ("_mx_as_in_context(x", "_mx_as_in_ctx(x", "_mx_expand_dims(x", "_mx_asnumpy(x", "_mx_asscalar(x",
                   "_mx_flatten_method(x"):
        assert helper in out
    assert _compare(METHODS, ("on_array", "on_box", "first", "boxed", "moved", "copied", "flats")) == ""


FORWARDED = """
import numpy as np
import mxnet as mx
from mxnet import nd


def dims(*args, **kwargs):
    return nd.array(np.arange(6.).reshape(2, 3)).expand_dims(*args, **kwargs)


def moved(*args):
    return nd.array(np.arange(3.)).as_in_context(*args)


def scalar(*args):
    return nd.array([4.5]).asscalar(*args)


first, second = dims(1), dims(axis=0, inplace=True)
third, fourth = moved(mx.cpu()), scalar()
"""


def test_forwarded_arguments_go_to_the_untyped_helper():
    # a method's arguments forwarded with */** bind at run time by MXNet's signature, through the
    # same helper an untyped receiver gets (catalogue: `method_runtime` defaults to `untyped`)
    converted = convert_source(FORWARDED)
    assert not [d for d in converted.diagnostics if d.status == "manual"]
    assert "_mx_expand_dims(" in converted.output and "_mx_as_in_context(" in converted.output
    assert _compare(FORWARDED, ("first", "second", "third", "fourth")) == ""


# -- issue 25 item 3: d2l's grad_clipping and a state carried over backwards -------------------------

CLIPPING = """
import math
import numpy as np
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn


def grad_clipping(net, theta):
    if isinstance(net, gluon.Block):
        params = [p.data() for p in net.collect_params().values()]
    else:
        params = net.params
    norm = math.sqrt(sum((p.grad ** 2).sum().asscalar() for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


class Scratch:
    def __init__(self, params):
        self.params = params

    def __call__(self, X, state):
        W, U = self.params
        H = nd.tanh(nd.dot(X, W) + nd.dot(state[0], U))
        return H, (H,)


rs = np.random.RandomState(5)
W, U = nd.array(rs.randn(3, 4)), nd.array(rs.randn(4, 4))
for p in (W, U):
    p.attach_grad()
scratch = Scratch([W, U])
class Head(nn.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = nn.Dense(4, in_units=3)
        self.spare = nn.Dense(2, in_units=2)  # never called: no backward reaches it

    def forward(self, x):
        return self.dense(x)


block = Head()
block.initialize()
block.dense.weight.set_data(nd.array(rs.randn(4, 3)))
block.dense.bias.set_data(nd.array(rs.randn(4)))
state = (nd.array(rs.randn(2, 4)),)
X = nd.array(rs.randn(2, 3))
losses = []
for step in range(3):
    with autograd.record():
        H, state = scratch(X, state)
        l = (H * H).sum() + (block(X) ** 2).sum()
    l.backward()
    for s in state:
        s.detach()
    grad_clipping(scratch, 0.5)
    grad_clipping(block, 0.5)
    for p in (W, U):
        p[:] = p - 0.1 * p.grad
    losses.append(l.asscalar())
w_grad, block_grad, spare_grad = W.grad, block.dense.weight.grad(), block.spare.weight.grad()
"""


def test_grad_clipping_and_a_state_carried_over():
    out = convert_source(CLIPPING).output
    assert "_mx_detach_spent(s)" in out and "[_mx_with_grad(p) for p in " in out
    assert _compare(CLIPPING, ("losses", "w_grad", "block_grad", "spare_grad", "W", "U")) == ""


ELEMENTS = """
import numpy as np
from mxnet import nd

y = nd.array(np.random.RandomState(5).randn(4, 3))
labels = nd.array([2, 0, 1])
table = nd.array(np.arange(12.).reshape(4, 3))
first = y[1, 2].asnumpy()[0]        # MXNet's own examples' idiom: an element is (1,)
last = y[-1, 0]
row = y[2]
width = len(labels[0])
picked = table[labels[0]]           # a (1,) index keeps an axis in MXNet
summed = nd.concat(labels[1], labels[2], dim=0)
y[0, 0] = 9.0                       # a write stays a write
corner = y[0, 0]
"""


def test_an_element_of_an_ndarray_is_1d():
    """MX017: MXNet 1.x has no 0-d arrays; an element read by integers is (1,) converted too."""
    assert _compare(ELEMENTS, ("first", "last", "row", "width", "picked", "summed", "corner", "y")) == ""
