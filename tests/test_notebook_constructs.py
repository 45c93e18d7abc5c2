"""Constructs of d2l's notebooks that ran differently converted (issue 25), each program run with
live MXNet and, converted, with torch, and the values it names compared (value and dtype):

- `x.attach_grad()` allocates a zero gradient in MXNet: `x.grad` before any backward, and
  arithmetic on it, are zeros (torch's is None until a backward reaches x; `_mx_attach_grad`), and
  so is a Gluon Parameter's `p.grad()` (`_mx_with_grad`);
- Gluon's parameter API on blocks xlate cannot type (a model from another cell, a block a method
  is given): d2l's `MySequential.add(block)` keying children by `block.name` (`_mx_block_name`),
  a layer's own `.params` (`_mx_block_params`) and `.data()` off its entries (`_mx_param_data`),
  with the same weights on both sides (set through `collect_params()` from one NumPy stream), and
  `.data()` of a `params.get_constant(...)` in a forward, and a layer sharing another's
  parameters through `params=` (`_mx_shared`: a write through one is seen by the other);
- `x.copyto(ctx)` / `x.copyto(y)` on mx.np arrays (MX743 -> MX046): a new array on the device,
  or a write into y;
- `npx.save` / `npx.load` (MX747): what each side saves loads back the same, and a file MXNet
  wrote loads the same on both sides;
- d2l's pick `y_hat[range(len(y_hat)), y]` with labels a function is given (MX085: float32
  labels index as integers), and the same function given int64 labels;
- `npx.roi_pooling` (MX748): regions at the edges, past them, of one pixel, of another batch
  element and of a batch index outside the data, over a random map, against MXNet's kernel.
"""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet


@pytest.fixture(autouse=True)
def _leave_mxnet_in_its_nd_mode():
    """The programs run `npx.set_np()`, which is process-wide: undo it for the next file's tests."""
    yield
    import_mxnet().util.reset_np()


def _plain(value, np, torch):
    if isinstance(value, dict):
        return {k: _plain(v, np, torch) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v, np, torch) for v in value]
    if isinstance(value, torch.Tensor):
        return str(value.dtype).rsplit(".", 1)[-1], value.detach().double().numpy()
    if hasattr(value, "asnumpy"):
        return np.dtype(value.dtype).name, value.asnumpy().astype("float64")
    return value


def _same(a, b, np) -> bool:
    """Equal structure and dtypes; arrays of the same shape within float32 rounding."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k], np) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y, np) for x, y in zip(a, b))
    if isinstance(a, tuple) and len(a) == 2 and isinstance(a[1], np.ndarray):
        return isinstance(b, tuple) and a[0] == b[0] and a[1].shape == b[1].shape \
            and np.allclose(a[1], b[1], rtol=1e-5, atol=1e-6)
    return a == b


def _compare(source: str, names: tuple) -> None:
    np, torch = import_numpy(), import_torch()
    import_mxnet()
    result = convert_source(source)
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    ref, got = {}, {}
    exec(compile(source, "<original>", "exec"), ref)
    exec(compile(result.output, "<converted>", "exec"), got)
    bad = [f"{n}: MXNet {_plain(ref[n], np, torch)} converted {_plain(got[n], np, torch)}"
           for n in names if not _same(_plain(ref[n], np, torch), _plain(got[n], np, torch), np)]
    assert not bad, "\n".join(bad)


ATTACH = """
from mxnet import autograd, nd, np, npx
npx.set_np()
x = np.arange(4.0) * 0.75 - 1
x.attach_grad()
before = x.grad + 1
with autograd.record():
    y = 2 * np.dot(x, x)
y.backward()
after = x.grad * 1
w = np.array([[1.5, -2.0], [0.25, 3.0]])
w.attach_grad(grad_req='add')
w_before = w.grad - 2
for _ in range(2):
    with autograd.record():
        z = (w * w).sum()
    z.backward()
w_after = w.grad * 1
v = np.ones(3)
shown = v.attach_grad()  # a notebook displays what a cell's last line gives: MXNet's None
"""


def test_attach_grad_gives_a_zero_gradient_before_any_backward():
    _compare(ATTACH, ("before", "after", "w_before", "w_after", "shown"))


BLOCKS = """
import numpy as onp
from mxnet import np, npx
from mxnet.gluon import nn
npx.set_np()
class MySequential(nn.Block):
    def add(self, block):
        self._children[block.name] = block
    def forward(self, X):
        for block in self._children.values():
            X = block(X)
        return X
def build():
    net = MySequential()
    net.add(nn.Dense(6, activation='relu'))
    net.add(nn.Dense(3))
    return net
net = build()
net.initialize()
X = np.array(onp.random.RandomState(0).randn(2, 5), dtype='float32')
net(X)
rs = onp.random.RandomState(1)
for p in net.collect_params().values():
    p.set_data(np.array(rs.randn(*p.shape), dtype='float32'))
out = net(X)
children = len(net._children)
dicts = [blk.params for blk in net._children.values()]
own = [k[len(d.prefix):] for d in dicts for k in d.keys()]
own_values = [d[k].data() for d in dicts for k in d.keys()]
class Fixed(nn.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.c = self.params.get_constant('c', np.array(onp.random.RandomState(2).rand(6, 4), dtype='float32'))
        self.dense = nn.Dense(6, in_units=5)
    def forward(self, X):
        return np.dot(self.dense(X), self.c.data())
fixed = Fixed()
fixed.initialize()
for p in fixed.dense.collect_params().values():
    p.set_data(np.array(rs.randn(*p.shape), dtype='float32'))
fixed_out = fixed(X)
grad_before = fixed.dense.weight.grad() + 1
snet = nn.Sequential()
shared = nn.Dense(4, activation='relu')
snet.add(nn.Dense(4, activation='relu'), shared, nn.Dense(4, activation='relu', params=shared.params), nn.Dense(2))
snet.initialize()
snet(X)
for p in snet.collect_params().values():
    p.set_data(np.array(rs.randn(*p.shape), dtype='float32'))
shared_out = snet(X)
snet[1].weight.data()[0, 0] = 3.5
shared_after = snet(X)
tied = snet[2].weight.data()[0]
"""


def test_gluon_parameter_api_on_blocks_of_unknown_kind():
    _compare(BLOCKS, ("out", "children", "own", "own_values", "fixed_out", "grad_before", "shared_out", "shared_after", "tied"))


COPYTO = """
from mxnet import np, npx
npx.set_np()
def device(i=0):
    return npx.gpu(i) if npx.num_gpus() >= i + 1 else npx.cpu()
X = np.array([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]])
Z = X.copyto(device(1))
Z[0, 0] = 7
W = np.zeros((2, 3))
X.copyto(W)
"""


def test_copyto_on_numpy_dialect_arrays():
    _compare(COPYTO, ("X", "Z", "W"))


SAVE_LOAD = '''
from mxnet import np, npx
npx.set_np()
x = np.arange(4) * 1.5 - 2
npx.save(OWN, x)
x2 = npx.load(OWN)
npx.save(OWN, {'w': x.reshape(2, 2), 'n': np.array([3, -1], dtype='int32')})
d = npx.load(OWN)
written = npx.load(MXNET)
'''


def test_npx_save_and_load(tmp_path):
    mx = import_mxnet()
    mx.npx.set_np()  # the programs set it too: MXNet saves mx.np arrays only under it
    mx.npx.save(str(tmp_path / "mx.params"), [mx.np.array([[0.5, -1.25]]), mx.np.array([7, 8], dtype="int64")])
    _compare(SAVE_LOAD.replace("OWN", repr(str(tmp_path / "own"))).replace("MXNET", repr(str(tmp_path / "mx.params"))),
             ("x2", "d", "written"))


ROI = '''
import numpy as onp
from mxnet import np, npx
npx.set_np()
X = np.array(onp.random.RandomState(3).randn(2, 3, 9, 11), dtype='float32')
rois = np.array([[0, 0, 0, 20, 20], [0, 0, 10, 30, 30], [1, 15, 5, 104, 86], [1, 45, 45, 45, 45],
                 [0, -20, -20, 8, 15], [1, 95, 75, 140, 120], [2, 0, 0, 10, 10], [0, 25, 35, 64, 49]])
small = npx.roi_pooling(X, rois, pooled_size=(2, 2), spatial_scale=0.1)
wide = npx.roi_pooling(X, rois, pooled_size=(3, 4), spatial_scale=0.25)
'''


def test_roi_pooling():
    _compare(ROI, ("small", "wide"))


PICK = '''
from mxnet import np, npx
npx.set_np()
def cross_entropy(y_hat, y):
    return -np.log(y_hat[range(len(y_hat)), y])
preds = np.array([[0.3, 0.6, 0.1], [0.2, 0.3, 0.5], [0.7, 0.1, 0.2]])
ce = cross_entropy(preds, np.array([0, 2, 1]))
ce_int = cross_entropy(preds, np.array([1, 1, 0], dtype='int64'))
'''


def test_d2l_pick_with_float_labels():
    _compare(PICK, ("ce", "ce_int"))
