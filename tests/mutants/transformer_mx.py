"""The MXNet side of the transformer pairs: gluonnlp 0.10's TransformerEncoder, small."""
from mxnet import gluon
from gluonnlp.model.transformer import TransformerEncoder


class Encoder(gluon.Block):
    """`forward(x)` returns the encoder's output only (gluonnlp returns `(outputs, [])`)."""

    def __init__(self, num_layers=1, units=8, hidden_size=16, num_heads=2, max_length=10, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.encoder = TransformerEncoder(num_layers=num_layers, units=units, hidden_size=hidden_size,
                                              num_heads=num_heads, max_length=max_length)

    def forward(self, x):
        return self.encoder(x)[0]
