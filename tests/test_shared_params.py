"""Parameters shared with `params=other.params` (`_mx_shared` in
xlate/runtime/naming.py): a decoder tied to an embedding, a Dense sharing another's through
`collect_params()`, and two BatchNorms sharing gamma, beta and running statistics; the script
trains two steps in MXNet and, converted, in torch, and what it appends must agree."""
from __future__ import annotations

import pytest

from test_execution_model import COMMON, _same_numbers

pytestmark = pytest.mark.mxnet

TIED = COMMON + '''
class LM(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.embedding = nn.Embedding(10, 4)
            self.decoder = nn.Dense(10, flatten=False, in_units=4, params=self.embedding.params)
            self.twin = nn.Dense(4, activation='relu', flatten=False)
            self.other = nn.Dense(4, activation='tanh', flatten=False, params=self.twin.collect_params())
            self.bn = nn.BatchNorm(axis=-1, in_channels=4)
            self.bn2 = nn.BatchNorm(axis=-1, params=self.bn.params)

    def hybrid_forward(self, F, x):
        return self.decoder(self.bn2(self.other(self.bn(self.twin(self.embedding(x))))))


net = LM()
net.initialize(mx.init.Xavier())
x = nd.array(rng.randint(0, 10, (5, 3)).astype('float32'))
y = nd.array(rng.randint(0, 10, (5, 3)).astype('float32'))
net(x)
set_weights(net)
outs.append(len(list(net.collect_params().keys())))
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
for i in range(2):
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    trainer.step(5)
    outs.append(loss.asnumpy())
outs.append(net.embedding.weight.data().asnumpy())
outs.append(net.bn.running_mean.data().asnumpy())
outs.append(net.bn2.running_var.data().asnumpy())
outs.append(net(x).asnumpy())
'''


def test_parameters_shared_through_params_train_as_one():
    converted = _same_numbers(TIED)
    assert "_mx_shared(nn.Linear(4, 10), _mx_block_params(self.embedding))" in converted
    assert "_mx_shared(_mx_BatchNorm(axis=-1), _mx_block_params(self.bn))" in converted


# the decoder's input size deferred (gluonnlp's language models and BERT's tied decoder): the shared
# weight gives it, and the layer must be usable (and listed once) before and after its first call
TIED_DEFERRED = TIED.replace("nn.Dense(10, flatten=False, in_units=4, params=self.embedding.params)",
                             "nn.Dense(10, flatten=False, params=self.embedding.params)")


def test_a_deferred_dense_tied_to_an_embedding_trains_as_one():
    assert TIED_DEFERRED != TIED
    converted = _same_numbers(TIED_DEFERRED)
    assert "_mx_shared(nn.LazyLinear(10), _mx_block_params(self.embedding))" in converted


# a Gluon Constant kept in an attribute of another name (gluonnlp's Transformer encoder:
# `self.position_weight = self.params.get_constant('const', table)`): hybrid_forward receives it by
# the attribute, and the converted block holds it as a buffer under that name
CONSTANT = COMMON + '''
class Enc(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.proj = nn.Dense(4, flatten=False, in_units=4)
            self.position_weight = self.params.get_constant('const', nd.array(det((5, 4))) * 3.0)

    def hybrid_forward(self, F, x, position_weight):
        return self.proj(F.broadcast_add(x, F.slice_axis(position_weight, axis=0, begin=0, end=3)))


net = Enc()
net.initialize()
set_weights(net)
x = nd.array(det((2, 3, 4)) + 0.5)
outs.append(net(x).asnumpy())
'''


def test_a_constant_in_an_attribute_of_another_name():
    converted = _same_numbers(CONSTANT)
    assert "self.register_buffer('position_weight'" in converted
