"""Explicit base-class calls (MX151, MX152) and HybridLambda/Lambda (MX108), converted and run
against live MXNet: random non-zero inputs and random weights copied across."""
import numpy as onp
import pytest

from mxsupport import import_mxnet, import_torch

mx = import_mxnet()
torch = import_torch()

from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet


def _both(source: str):
    result = convert_source(source)
    assert "mxnet" not in result.output, result.output
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    mx_ns, pt_ns = {}, {"__name__": "converted"}
    exec(compile(source, "<mxnet>", "exec"), mx_ns)
    exec(compile(result.output, "<converted>", "exec"), pt_ns)
    return mx_ns, pt_ns


BASE_CALLS = '''
import mxnet as mx
from mxnet import gluon
from mxnet.gluon import nn
from mxnet.gluon.nn import HybridBlock

class Gate(HybridBlock):
    def __init__(self, **kwargs):
        HybridBlock.__init__(self, **kwargs)
        with self.name_scope():
            self.w = self.params.get('w', shape=(4,))
    def forward(self, x):
        self.seen = x.shape[0]
        return HybridBlock.forward(self, x)
    def hybrid_forward(self, F, x, w):
        return F.broadcast_mul(F.tanh(x), w)

class Shift(nn.HybridBlock):
    def __init__(self, prefix=None, params=None):
        nn.HybridBlock.__init__(self, prefix=prefix, params=params)
    def forward(self, x):
        return super(Shift, self).forward(x) - 0.5
    def hybrid_forward(self, F, x):
        return F.sigmoid(x) * 3

class Twice(nn.Dense):
    def __init__(self, units, **kwargs):
        nn.Dense.__init__(self, units, **kwargs)
    def hybrid_forward(self, F, x, weight, bias=None):
        return nn.Dense.hybrid_forward(self, F, x, weight, bias) * 2

class Net(gluon.Block):
    def __init__(self, **kwargs):
        gluon.Block.__init__(self, **kwargs)
        self.gate = Gate()
        self.shift = Shift()
        self.dense = Twice(3, in_units=4, activation='relu')
    def forward(self, x):
        return self.dense(self.shift(self.gate(x)))
'''


def test_explicit_base_calls_match_mxnet():
    mx_ns, pt_ns = _both(BASE_CALLS)
    rng = onp.random.default_rng(0)
    w, weight, bias = rng.normal(size=4), rng.normal(size=(3, 4)), rng.normal(size=3)
    x = rng.uniform(0.2, 1.5, size=(5, 4)) * rng.choice([-1, 1], size=(5, 4))
    net = mx_ns["Net"]()
    net.initialize()
    net.gate.w.set_data(mx.nd.array(w))
    net.dense.weight.set_data(mx.nd.array(weight))
    net.dense.bias.set_data(mx.nd.array(bias))
    expected = net(mx.nd.array(x)).asnumpy()
    model = pt_ns["Net"]()
    with torch.no_grad():
        model.gate.w.copy_(torch.tensor(w))
        model.dense.weight.copy_(torch.tensor(weight))
        model.dense.bias.copy_(torch.tensor(bias))
    actual = model(torch.tensor(x, dtype=torch.float32)).detach().numpy()
    assert model.gate.seen == 5 and isinstance(model, torch.nn.Module)
    assert onp.abs(expected).max() > 0
    onp.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


def test_init_calls_name_the_translated_base():
    out = convert_source(BASE_CALLS).output
    assert "nn.Module.__init__(self)" in out and "_mx_Dense.__init__(self, units, **kwargs)" in out
    assert "self.hybrid_forward(x)" in out and "_mx_Dense.forward(self, x) * 2" in out


LAMBDAS = '''
from mxnet import nd
from mxnet.gluon import nn

def act(F, x):
    return F.relu(x) * 2 + F.sigmoid(x)

p, d = 3, 2
nets = {}
for key, block in [
        ("reshape", nn.HybridLambda(lambda F, o: F.reshape(o, (-1, p, d)))),
        ("relu2", nn.HybridLambda(lambda F, x: F.relu(x) * 2)),
        ("named", nn.HybridLambda(act)),
        ("tanh", nn.HybridLambda('tanh')),
        ("softmax", nn.Lambda('softmax')),
        ("log_softmax", nn.HybridLambda('log_softmax')),
        ("sumsq", nn.HybridLambda(lambda F, x: F.sum(F.square(x), axis=-1))),
        ("plain", nn.Lambda(lambda x: nd.flip(x, axis=1)))]:
    net = nn.Sequential()
    net.add(nn.Dense(6, in_units=4))
    net.add(block)
    nets[key] = net
'''


@pytest.mark.parametrize("key", ["reshape", "relu2", "named", "tanh", "softmax", "log_softmax", "sumsq", "plain"])
def test_hybrid_lambdas_match_mxnet(key):
    mx_ns, pt_ns = _both(LAMBDAS)
    rng = onp.random.default_rng(1)
    weight, bias = rng.normal(size=(6, 4)), rng.normal(size=6)
    x = rng.uniform(0.2, 1.5, size=(2, 4)) * rng.choice([-1, 1], size=(2, 4))
    net = mx_ns["nets"][key]
    net.initialize()
    net[0].weight.set_data(mx.nd.array(weight))
    net[0].bias.set_data(mx.nd.array(bias))
    expected = net(mx.nd.array(x)).asnumpy()
    model = pt_ns["nets"][key]
    with torch.no_grad():
        model[0].weight.copy_(torch.tensor(weight))
        model[0].bias.copy_(torch.tensor(bias))
    actual = model(torch.tensor(x, dtype=torch.float32)).detach().numpy()
    assert actual.shape == expected.shape and onp.abs(expected).max() > 0
    onp.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


SELF_CALLED = '''
import mxnet as mx
from mxnet import gluon

class Penalty(gluon.HybridBlock):
    def __init__(self, alpha=1.0, beta=0.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha, self.beta = alpha, beta
    def forward(self, lengths):
        if isinstance(lengths, mx.nd.NDArray) or isinstance(lengths, mx.sym.Symbol):
            return super().forward(lengths)
        return self.hybrid_forward(None, lengths)
    def hybrid_forward(self, F, lengths):
        if self.alpha == 0.0:
            if F is None:
                return 1.0
            return F.ones_like(lengths)
        return (self.beta + lengths) ** self.alpha / (self.beta + 1.0) ** self.alpha

class Brevity(gluon.HybridBlock):
    def __init__(self, weight=0.5, **kwargs):
        gluon.HybridBlock.__init__(self, **kwargs)
        self.weight = weight
    def forward(self, hyp, ref):
        if isinstance(hyp, mx.nd.NDArray):
            return gluon.HybridBlock.forward(self, hyp, ref)
        return self.hybrid_forward(None, hyp, ref)
    def hybrid_forward(self, F, hyp, ref):
        if F is None:
            return self.weight * min(0.0, 1.0 - ref / float(hyp))
        return self.weight * F.minimum(F.zeros_like(hyp), 1.0 - ref / hyp)
'''


@pytest.mark.parametrize("alpha", [0.0, 1.0, 2.0])
def test_hybrid_forward_called_with_none_for_numbers_keeps_its_namespace(alpha):
    """sockeye's length and brevity penalties run their hybrid_forward on Python numbers with
    `None` for F, and on arrays through Gluon's forward (Note [hybrid_forward called with
    something else than F])."""
    mx_ns, pt_ns = _both(SELF_CALLED)
    lengths = onp.array([3.0, 7.0, 1.5], dtype="float32")
    for kwargs in ({"alpha": alpha}, {"alpha": alpha, "beta": 2.0}):
        a, b = mx_ns["Penalty"](**kwargs), pt_ns["Penalty"](**kwargs)
        onp.testing.assert_allclose(b(torch.tensor(lengths)).numpy(), a(mx.nd.array(lengths)).asnumpy(), rtol=1e-6)
        assert b(4.0) == pytest.approx(a(4.0)) and type(b(4.0)) is type(a(4.0))
    ref = onp.array([5.0, 2.0, 1.0], dtype="float32")
    a, b = mx_ns["Brevity"](), pt_ns["Brevity"]()
    onp.testing.assert_allclose(b(torch.tensor(lengths), torch.tensor(ref)).numpy(),
                                a(mx.nd.array(lengths), mx.nd.array(ref)).asnumpy(), rtol=1e-6)
    assert b(4, 9) == pytest.approx(a(4, 9))


ABSTRACT_BASE = '''
from abc import ABC
import mxnet as mx

class Encoder(ABC, mx.gluon.HybridBlock):
    def __init__(self, **kwargs):
        mx.gluon.HybridBlock.__init__(self, **kwargs)
    def forward(self, inputs, valid_length):
        return mx.gluon.HybridBlock.forward(self, inputs, valid_length)

class Scale(Encoder):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.w = self.params.get('w', shape=(3,))
    def hybrid_forward(self, F, data, valid_length, w):
        return F.broadcast_mul(data, w), valid_length

class Twice(Encoder):
    def forward(self, inputs, valid_length):
        out, vl = super().forward(inputs, valid_length)
        return out * 2, vl
    def hybrid_forward(self, F, data, valid_length):
        return F.relu(data), valid_length - 1
'''


def test_hybridblock_forward_in_an_abstract_base_runs_the_subclasss_hybrid_forward():
    """sockeye's `Encoder(ABC, HybridBlock).forward` calls `HybridBlock.forward(self, ...)`: the
    subclass's hybrid_forward, which is either the subclass's forward (it overrides) or, beside a
    forward of its own that calls super().forward, its kept hybrid_forward."""
    mx_ns, pt_ns = _both(ABSTRACT_BASE)
    x = onp.random.default_rng(5).normal(size=(2, 3)).astype("float32")
    vl = onp.array([3.0, 1.0], dtype="float32")
    a, b = mx_ns["Scale"](), pt_ns["Scale"]()
    a.initialize(mx.init.Normal(1.0))
    with torch.no_grad():
        b.w.copy_(torch.as_tensor(a.w.data().asnumpy()))
    for name, (m, p) in {"Scale": (a, b), "Twice": (mx_ns["Twice"](), pt_ns["Twice"]())}.items():
        expected = [o.asnumpy() for o in m(mx.nd.array(x), mx.nd.array(vl))]
        got = [o.detach().numpy() for o in p(torch.tensor(x), torch.tensor(vl))]
        for e, g in zip(expected, got):
            onp.testing.assert_allclose(g, e, rtol=1e-6, err_msg=name)


ABSTRACT_BESIDE = '''
import mxnet as mx

class Decoder(mx.gluon.Block):
    def get_num_hidden(self):
        raise NotImplementedError()

class Doubling(Decoder, mx.gluon.HybridBlock):
    def __init__(self, **kwargs):
        mx.gluon.HybridBlock.__init__(self, **kwargs)
    def forward(self, step_input, states):
        target, new = super().forward(step_input, states)
        return target + 1, new
    def hybrid_forward(self, F, step_input, states):
        return F.relu(step_input) * 2, [s * 2 for s in states]

class Seq2SeqEncoder(mx.gluon.Block):
    def forward(self, step_input, states=None):
        raise NotImplementedError

class Encoding(mx.gluon.HybridBlock, Seq2SeqEncoder):
    def forward(self, step_input, states):
        out, new = super(Encoding, self).forward(step_input * 2, states)
        return out - 1, new
    def hybrid_forward(self, F, step_input, states):
        return F.tanh(step_input), [s + step_input for s in states]

class Abstract(Seq2SeqEncoder, mx.gluon.HybridBlock):
    def forward(self, step_input, states):
        return super().forward(step_input, states)
    def hybrid_forward(self, F, step_input, states):
        return step_input, states
'''


@pytest.mark.parametrize("name", ["Doubling", "Encoding", "Abstract"])
def test_super_forward_past_an_abstract_base_of_the_file_runs_hybrid_forward(name):
    """sockeye's `TransformerDecoder(Decoder, HybridBlock).forward` calls `super().forward`, which
    passes Decoder (no forward of its own) and runs HybridBlock's: the class's hybrid_forward.
    Left as it was, torch's Module.forward raised NotImplementedError. The MRO takes the bases in
    the order the class lists them: HybridBlock before a base whose forward raises (gluon-nlp's and
    the OCR package's `TransformerEncoder(HybridBlock, Seq2SeqEncoder)`) runs hybrid_forward, and
    after it the base's forward, which raises on both sides."""
    mx_ns, pt_ns = _both(ABSTRACT_BESIDE)
    x = onp.random.default_rng(6).normal(size=(2, 3)).astype("float32")
    if name == "Abstract":
        for ns, arr in ((mx_ns, mx.nd.array), (pt_ns, torch.tensor)):
            with pytest.raises(NotImplementedError):
                ns[name]()(arr(x), [arr(x)])
        return
    want = mx_ns[name]()(mx.nd.array(x), [mx.nd.array(x)])
    got = pt_ns[name]()(torch.tensor(x), [torch.tensor(x)])
    onp.testing.assert_allclose(got[0].numpy(), want[0].asnumpy(), rtol=1e-6)
    onp.testing.assert_allclose(got[1][0].numpy(), want[1][0].asnumpy(), rtol=1e-6)
