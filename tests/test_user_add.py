"""A Gluon class of the user's own with an `add` method (d2l's MySequential): `net.add(...)` is
that method, never a Gluon container's (it stayed `.append`, a crash with no report), and the
method's write into `self._children[...]` is torch's `self._modules[...]` (a subscript inside
an assignment target is read: Converter._value_in). Compared with live MXNet, weights copied."""
import numpy as onp
import pytest

from mxsupport import import_mxnet, import_torch

mx = import_mxnet()
torch = import_torch()

from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet

SOURCE = '''
from mxnet import nd
from mxnet.gluon import nn

class MySequential(nn.Block):
    def add(self, block):
        self._children[str(len(self._children))] = block

    def forward(self, X):
        for block in self._children.values():
            X = block(X)
        return X

class Deeper(MySequential):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add(nn.Dense(5, in_units=8))

def build():
    net = Deeper()
    net.add(nn.Dense(8, activation='relu', in_units=5))
    net.add(nn.Dense(3, in_units=8))
    net.initialize()
    return net
'''


def test_a_users_own_add_is_called_and_its_children_are_torchs_modules():
    result = convert_source(SOURCE)
    out = result.output
    assert "net.add(" in out and "self.add(" in out and ".append(" not in out, out
    assert "self._modules[str(len(self._modules))] = block" in out, out
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    mx_ns, pt_ns = {}, {"__name__": "converted"}
    exec(compile(SOURCE, "<mxnet>", "exec"), mx_ns)
    exec(compile(out, "<converted>", "exec"), pt_ns)
    mx_net, pt_net = mx_ns["build"](), pt_ns["build"]()
    mx_layers, pt_layers = list(mx_net._children.values()), list(pt_net._modules.values())
    assert len(mx_layers) == len(pt_layers) == 3
    rng = onp.random.default_rng(3)
    with torch.no_grad():
        for m, p in zip(mx_layers, pt_layers):
            w = rng.standard_normal(m.weight.shape).astype("float32")
            b = rng.standard_normal(m.bias.shape).astype("float32")
            m.weight.set_data(mx.nd.array(w))
            m.bias.set_data(mx.nd.array(b))
            lin = p if isinstance(p, torch.nn.Linear) else next(c for c in p.modules() if isinstance(c, torch.nn.Linear))
            lin.weight.copy_(torch.from_numpy(w))
            lin.bias.copy_(torch.from_numpy(b))
    x = rng.standard_normal((4, 8)).astype("float32")
    want = mx_net(mx.nd.array(x)).asnumpy()
    got = pt_net(torch.from_numpy(x)).detach().numpy()
    onp.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
