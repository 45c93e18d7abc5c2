"""PyTorch translations of gluonnlp 0.10's TransformerEncoder (batch-major (N, T, C), no
valid_length), the correct one and wrong ones selected by `mutant`:

- None: correct: the package's reference translation, xlate.check.transformer.torch_encoder_types()
  (x*sqrt(units); + gluonnlp's own sinusoid table (a buffer); input LayerNorm; per cell: attention
  with q/k/v packed into one in_proj_weight (no biases), proj (no bias), residual + LayerNorm,
  FFN relu, residual + LayerNorm; dropout 0, gluonnlp's default). The mutants below subclass it
  and replace one step each.
- 'no_scale': forgets x*sqrt(units).
- 'no_input_norm': keeps the input LayerNorm module but never applies it (norm_inputs ignored).
- 'vaswani_table': builds the standard (Vaswani) sinusoid table and uses it instead of the buffer
  it was given (a table computed at call time).
- 'vaswani_buffer': the standard table stored in the `position_weight` buffer at construction.
- 'dropout_0.1': torch's TransformerEncoderLayer default dropout 0.1, applied with `F.dropout`
  and a stored rate (the way gluonnlp itself and many hand translations write it).
- 'dropout_module_0.1': the same rate, as `nn.Dropout(0.1)` modules.
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from xlate.check.transformer import torch_encoder_types

_REFERENCE = torch_encoder_types()


def vaswani_table(max_length, units):
    angle = np.arange(max_length)[:, None] / np.power(10000, 2.0 * (np.arange(units)[None, :] // 2) / units)
    angle[:, 0::2], angle[:, 1::2] = np.sin(angle[:, 0::2]), np.cos(angle[:, 1::2])
    return torch.tensor(angle, dtype=torch.float32)


class _RateDropout:
    """Dropout with a stored float rate, applied with F.dropout (not an nn.Dropout module)."""

    def __init__(self, owner, p):
        self.owner, self.p = owner, p

    def __call__(self, x):
        return F.dropout(x, self.p, self.owner.training)


class Encoder(_REFERENCE.Encoder):
    MUTANTS = (None, "no_scale", "no_input_norm", "vaswani_table", "vaswani_buffer", "dropout_0.1",
               "dropout_module_0.1")

    def __init__(self, num_layers=1, units=8, hidden_size=16, num_heads=2, max_length=10, mutant=None):
        if mutant not in self.MUTANTS:
            raise ValueError(f"unknown mutant {mutant!r}")
        self.mutant = mutant  # read by the make_* steps during the reference __init__
        super().__init__(num_layers=num_layers, units=units, hidden_size=hidden_size, num_heads=num_heads,
                         max_length=max_length)

    def make_table(self, max_length, units):
        if self.mutant == "vaswani_buffer":
            return vaswani_table(max_length, units)
        return super().make_table(max_length, units)

    def make_dropout(self):
        if self.mutant == "dropout_0.1":
            return _RateDropout(self, 0.1)
        if self.mutant == "dropout_module_0.1":
            return nn.Dropout(0.1)
        return super().make_dropout()

    def scale(self, x):
        return x if self.mutant == "no_scale" else super().scale(x)

    def table(self, x):
        if self.mutant == "vaswani_table":
            return vaswani_table(self.max_length, self.units).to(x.device)
        return super().table(x)

    def normalize_inputs(self, x):
        return x if self.mutant == "no_input_norm" else super().normalize_inputs(x)
