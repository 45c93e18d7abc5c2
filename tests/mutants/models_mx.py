"""The MXNet side of the mutant pairs."""
from mxnet import gluon, nd
from mxnet.gluon import nn, rnn


class Scores(gluon.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.weight = self.params.get("weight", shape=(3, 4))

    def forward(self, x):
        return nd.softmax(nd.dot(x, self.weight.data()))


def Dense():
    return nn.Dense(4)  # flatten=True, in_units inferred: 15 for (2, 3, 5) input


def BatchNorm():
    return nn.BatchNorm(momentum=0.9, in_channels=3)


def Recurrent(mode="LSTM"):
    return getattr(rnn, mode)(4, layout="NTC", input_size=3)
