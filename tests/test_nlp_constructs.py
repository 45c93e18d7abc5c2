"""Constructs of two packages nobody tuned xlate to (issue 21: sknlp, a Gluon/gluonnlp text
classification package, and a one-shot NAS supernet), each as a class every Gluon package can
write: a script runs in MXNet and, converted, in torch, and what it appends to `outs` must agree
(tests/test_execution_model.py's `_same_numbers`: weights from `det`, inputs from a seeded
RandomState, rtol 1e-4)."""
from __future__ import annotations

import pytest

from test_execution_model import COMMON, _same_numbers

pytestmark = pytest.mark.mxnet
pytest.importorskip("gluonnlp")

# gluonnlp's building blocks inside a package's own block (MX324): a Highway, a ConvolutionalEncoder
# over a masked time-major batch, an LSTMPCellWithClip stepped with clipping that bites, and a Gluon
# LSTM with state_clip_nan=True and no clip range (MXNet ignores it); outputs and every input's
# gradient. A block's own BatchNorm parameters of deferred size, trained or not by run-time flags
# (MX105: `differentiable=scale`), fed to F.BatchNorm, which infers their size; `F.slice` with bare
# ints (MXNet's 1-tuples). gluonnlp's SplitSampler (MX325), seeded, with even_size and shuffle. An
# adaptive softmax's tail through contrib.cond/boolean_mask/index_copy (MX875), an empty cluster included,
# its weights rescaled through a function's `collect_params().values()` (MX164's run-time set_data) and
# through `enumerate(collect_params().values())` (evident: MX164's static set_data).
# gluonnlp's losses (MX307): MaskedSoftmaxCELoss on ids and on smoothed labels, its gradient, LabelSmoothing
# on ids and on distributions, the AR/TAR regularisers (the last state only; a zero factor).
# A quantization library's per-instance patches (MX157, MX839; Quantization.MXNet): Conv2D, BatchNorm, Activation and
# Dense whose hybrid_forward is replaced by `types.MethodType(f, m)`, f fake-quantizing through a straight-through
# autograd.Function and calling the layer's own hybrid_forward read before the patch with the weights it computed
# (a BatchNorm's by Gluon's names gamma/beta), a parameter registered on the layer after it was built, the layers
# picked by their exact Gluon class (a table keyed by classes, `type(m) in (...)`: MX158): outputs
# in training and predict mode, the input's and the weights' gradients. A parameter declared only when a flag
# says so (`self.bias = self.params.get(...) if use_bias else None`) is still read from the block, and an
# NDArray's `.pad` method (MX065).
BLOCKS = COMMON + '''
import random
import types
import gluonnlp as nlp
from gluonnlp.model import Highway, ConvolutionalEncoder, LSTMPCellWithClip
from gluonnlp.data.sampler import SplitSampler
from gluonnlp.loss import MaskedSoftmaxCELoss, LabelSmoothing
from mxnet.gluon import rnn


class Norm(gluon.HybridBlock):
    def __init__(self, scale=True, center=False, **kwargs):
        super().__init__(**kwargs)
        self.gamma = self.params.get('gamma', grad_req='write' if scale else 'null', shape=(0,), init='ones',
                                     allow_deferred_init=True, differentiable=scale)
        self.beta = self.params.get('beta', shape=(0,), init='zeros', allow_deferred_init=True,
                                    differentiable=center)
        self.running_mean = self.params.get('running_mean', grad_req='null', shape=(0,), init='zeros',
                                            allow_deferred_init=True, differentiable=False)
        self.running_var = self.params.get('running_var', grad_req='null', shape=(0,), init='ones',
                                           allow_deferred_init=True, differentiable=False)

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        return F.BatchNorm(x, gamma, beta, running_mean, running_var, fix_gamma=False, eps=1e-5)


class Encoder(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.highway = Highway(4, 2, activation='tanh')
            self.cnn = ConvolutionalEncoder(embed_size=4, num_filters=(3, 2), ngram_filter_sizes=(1, 2),
                                            num_highway=1, output_size=5)
            self.cell = LSTMPCellWithClip(6, 3, cell_clip=0.3, projection_clip=0.2, input_size=4)
            self.lstm = rnn.LSTM(3, input_size=4, state_clip_nan=True)
            self.norm = Norm(scale=False, center=True)

    def hybrid_forward(self, F, x, mask):
        h = self.highway(x)
        states = [F.zeros((2, 3)), F.zeros((2, 6))]
        steps = []
        for t in range(4):
            out, states = self.cell(F.slice(h, begin=t, end=t + 1).reshape((2, 4)), states)
            steps.append(out)
        normed = self.norm(F.transpose(h, axes=(1, 2, 0)))
        return self.cnn(h, mask), F.stack(*steps), states[1], self.lstm(h), normed


class Tail(gluon.HybridBlock):  # an adaptive softmax's tail: rows of a cluster by mask, losses copied back by index
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.proj = nn.Dense(3, in_units=4, flatten=False, use_bias=False)

    def hybrid_forward(self, F, x, labels, idx):
        loss = F.zeros_like(labels)
        for low, high in ((0, 2), (2, 5), (5, 9)):
            mask = (labels >= low) * (labels < high)

            def update(loss=loss, mask=mask, low=low):
                picked = -F.log_softmax(self.proj(F.contrib.boolean_mask(x, mask)), axis=-1)
                rows = F.contrib.boolean_mask(labels - low, mask)
                return F.contrib.index_copy(loss, F.contrib.boolean_mask(idx, mask), F.pick(picked, rows))
            loss = F.contrib.cond(F.sum(mask) > 0, update, lambda: loss)
        return loss


tail = Tail()
tail.initialize()
set_weights(tail)
def values_of(block):
    return block.collect_params().values()


for i, item in enumerate(values_of(tail.proj)):  # an untyped receiver of set_data (MX164)
    item.set_data(item.data() * (i + 0.5))
for i, param in enumerate(tail.proj.collect_params().values()):  # evident through enumerate: static
    param.set_data(param.data() * (i + 0.5))
feats = nd.array(rng.randn(5, 4).astype('float32'))
feats.attach_grad()
with autograd.record():
    tail_loss = tail(feats, nd.array([0, 3, 1, 4, 2]), nd.arange(5))
tail_loss.backward()
outs.extend([tail_loss.asnumpy(), feats.grad.asnumpy(), tail.proj.weight.grad().asnumpy()])

x = nd.array(rng.randn(4, 2, 4).astype('float32') * 2)
mask = nd.array([[1, 1], [1, 1], [1, 0], [1, 0]])
net = Encoder()
net.initialize()
net(x, mask)
outs.append(net.highway.hnet[1].bias.data().asnumpy())  # gluonnlp's HighwayBias: 0.0 and -2.0 halves
outs.append(np.array([p.grad_req == 'write' for p in (net.norm.gamma, net.norm.beta)]))
set_weights(net)
x.attach_grad()
with autograd.record():
    got = net(x, mask)
    total = sum((g * nd.array(det(g.shape))).sum() for g in got)
total.backward()
outs.extend([g.asnumpy() for g in got] + [x.grad.asnumpy()])
for parts, index, even in ((3, 2, True), (3, 0, False)):
    random.seed(3)
    outs.append(np.array(list(SplitSampler(10, num_parts=parts, part_index=index, even_size=even, repeat=2))))
pred = nd.array(rng.randn(2, 4, 5).astype('float32'))
pred.attach_grad()
ids = nd.array([[1, 4, 0, 2], [3, 3, 1, 0]])
with autograd.record():
    ce = MaskedSoftmaxCELoss()(pred, ids, nd.array([4, 2]))
ce.backward()
soft = LabelSmoothing(epsilon=0.2, units=5)(ids)
outs.extend([ce.asnumpy(), pred.grad.asnumpy(), soft.asnumpy(),
             nlp.loss.MaskedSoftmaxCrossEntropyLoss(sparse_label=False)(pred, soft, nd.array([3, 1])).asnumpy(),
             LabelSmoothing(sparse_label=False, epsilon=0.3, units=5)(soft).asnumpy()])
h = nd.array(rng.randn(4, 2, 3).astype('float32'))
outs.extend([nlp.loss.ActivationRegularizationLoss(2.0)(h, h * 2).asnumpy(),
             nlp.loss.TemporalActivationRegularizationLoss(1.5)(h).asnumpy(),
             nlp.loss.ActivationRegularizationLoss(0)(h).asnumpy()])


class STE(autograd.Function):  # fake quantization with a straight-through gradient
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return (x / self.scale).round() * self.scale

    def backward(self, dy):
        return dy


def _quantized(self, F, x, weight, bias=None, input_max=None):
    x = STE(input_max.asscalar() / 15)(x)
    w = STE(F.max(F.abs(weight)).asscalar() / 7)(weight)
    return self.origin_forward(F, x, w, bias)


def _bn_scaled(self, F, x, gamma, beta, running_mean, running_var):
    return self.origin_forward(F, x, gamma * 0.5, beta, running_mean, running_var)


def _capped(self, F, x):
    return F.clip(self.origin_forward(F, x), 0, 0.5)


def patch(m, fn):
    m.origin_forward = m.hybrid_forward
    m.hybrid_forward = types.MethodType(fn, m)


qnet = nn.HybridSequential()
qnet.add(nn.Conv2D(3, 3, in_channels=2), nn.BatchNorm(in_channels=3), nn.Activation('relu'), nn.Dense(4, in_units=12))
qnet.initialize()
set_weights(qnet)
PATCHES = {nn.Conv2D: _quantized, nn.Dense: _quantized, nn.BatchNorm: _bn_scaled, nn.Activation: _capped}


def _convert(m):  # layers picked by their exact Gluon class
    if type(m) in (nn.Conv2D, nn.Dense):
        m.input_max = m.params.get('input_max', shape=(1,), init='zeros', differentiable=False)
    if PATCHES.get(type(m)) is not None:
        patch(m, PATCHES[type(m)])


qnet.apply(_convert)
for m in qnet:
    for name in ('input_max', 'act_max'):
        if hasattr(m, name):
            getattr(m, name).initialize(init.Constant(2.0))  # a parameter, on a receiver xlate cannot type
qx = nd.array(rng.randn(2, 2, 4, 4).astype('float32'))
qx.attach_grad()
with autograd.record():
    qy = qnet(qx)
qy.backward(nd.array(det(qy.shape)))
outs.extend([qy.asnumpy(), qx.grad.asnumpy(), qnet[0].weight.grad().asnumpy(), qnet[1].gamma.grad().asnumpy(),
             qnet[3].bias.grad().asnumpy(), qnet(qx).asnumpy()])


class CondBias(gluon.HybridBlock):
    def __init__(self, use_bias, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.weight = self.params.get('weight', shape=(3, 4))
            self.bias = self.params.get('bias', shape=(3,), init='zeros') if use_bias else None

    def hybrid_forward(self, F, x, weight, bias=None):
        y = F.dot(x, weight, transpose_b=True)
        if bias is not None:
            y = y + bias
        return y.reshape((1, 1, 2, 3)).pad(mode='constant', constant_value=0.5, pad_width=(0, 0, 0, 0, 1, 2, 0, 1))


for flag in (True, False):
    cb = CondBias(flag)
    cb.initialize()
    set_weights(cb)
    outs.append(cb(nd.array(rng.randn(2, 4).astype('float32'))).asnumpy())
'''


def test_gluonnlp_building_blocks_and_deferred_norm_parameters():
    converted = _same_numbers(BLOCKS)
    assert "_mx_ConvolutionalEncoder(" in converted and "_mx_LSTMPCellWithClip(" in converted
    assert "requires_grad=bool(scale)" in converted and "requires_grad=bool(center)" in converted
    assert "_mx_SplitSampler(" in converted and "_mx_set_data_method(item, " in converted
    assert "    _mx_set_data(param, " in converted
    assert "_mx_MaskedSoftmaxCrossEntropyLoss(" in converted and "_mx_TemporalActivationRegularizationLoss(" in converted
    assert "import mxnet" not in converted
    assert "_mx_set_hybrid_forward(m, types.MethodType(fn, m))" in converted
    assert "if _mx_type(m) in (_mx_Conv2D, _mx_Dense):" in converted
