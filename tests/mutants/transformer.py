"""PyTorch translations of gluonnlp 0.10's TransformerEncoder (batch-major (N, T, C), no
valid_length), the correct one and wrong ones selected by `mutant`:

- None: correct. x*sqrt(units); + gluonnlp's own sinusoid table (a buffer); input LayerNorm;
  per cell: attention with q/k/v packed into one in_proj_weight (no biases), proj (no bias),
  residual + LayerNorm, FFN relu, residual + LayerNorm. Dropout 0 (gluonnlp's default).
- 'no_scale': forgets x*sqrt(units).
- 'no_input_norm': keeps the input LayerNorm module but never applies it (norm_inputs ignored).
- 'vaswani_table': builds the standard (Vaswani) sinusoid table and uses it instead of the buffer
  it was given (a table computed at call time).
- 'vaswani_buffer': the standard table stored in the `position_weight` buffer at construction.
- 'dropout_0.1': torch's TransformerEncoderLayer default dropout 0.1, applied with `F.dropout`
  and a stored rate (the way gluonnlp itself and many hand translations write it).
- 'dropout_module_0.1': the same rate, as `nn.Dropout(0.1)` modules.

Leaves (modules owning parameters or buffers), in order, mirror gluonnlp's registration order:
the encoder (position_weight), layer_norm, then per cell q, k, v, proj, ffn_1, ffn_2, the FFN's
LayerNorm, the cell's LayerNorm.
"""
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def gluonnlp_table(max_length, units):
    angle = np.arange(max_length)[:, None] / np.power(10000, (2.0 / units) * np.arange(units)[None, :])
    angle[:, 0::2], angle[:, 1::2] = np.sin(angle[:, 0::2]), np.cos(angle[:, 1::2])
    return torch.tensor(angle, dtype=torch.float32)


def vaswani_table(max_length, units):
    angle = np.arange(max_length)[:, None] / np.power(10000, 2.0 * (np.arange(units)[None, :] // 2) / units)
    angle[:, 0::2], angle[:, 1::2] = np.sin(angle[:, 0::2]), np.cos(angle[:, 1::2])
    return torch.tensor(angle, dtype=torch.float32)


class Attention(nn.Module):
    """gluonnlp's MultiHeadAttentionCell (proj_query/key/value, no bias) computed by torch's
    multi-head attention with the three weights packed into in_proj_weight."""

    def __init__(self, units, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.proj_query = nn.Linear(units, units, bias=False)
        self.proj_key = nn.Linear(units, units, bias=False)
        self.proj_value = nn.Linear(units, units, bias=False)

    def forward(self, x, out_proj_weight):  # x: (N, T, C)
        in_proj_weight = torch.cat([self.proj_query.weight, self.proj_key.weight, self.proj_value.weight], 0)
        h = x.transpose(0, 1)  # (T, N, C)
        out, _ = F.multi_head_attention_forward(
            h, h, h, h.shape[-1], self.num_heads, in_proj_weight, None, None, None, False, 0.0,
            out_proj_weight, None, training=self.training, need_weights=False)
        return out.transpose(0, 1)


class FFN(nn.Module):
    def __init__(self, units, hidden_size, dropout):
        super().__init__()
        self.ffn_1 = nn.Linear(units, hidden_size)
        self.ffn_2 = nn.Linear(hidden_size, units)
        self.layer_norm = nn.LayerNorm(units, eps=1e-5)
        self.dropout = dropout

    def forward(self, x):
        return self.layer_norm(x + self.dropout(self.ffn_2(F.relu(self.ffn_1(x)))))


class Cell(nn.Module):
    def __init__(self, units, hidden_size, num_heads, dropout):
        super().__init__()
        self.attention_cell = Attention(units, num_heads)
        self.proj = nn.Linear(units, units, bias=False)
        self.ffn = FFN(units, hidden_size, dropout)
        self.layer_norm = nn.LayerNorm(units, eps=1e-5)
        self.dropout = dropout

    def forward(self, x):
        a = self.attention_cell(x, self.proj.weight)  # the cell's proj is the attention's out_proj
        return self.ffn(self.layer_norm(x + self.dropout(a)))


class _RateDropout:
    """Dropout with a stored float rate, applied with F.dropout (not an nn.Dropout module)."""

    def __init__(self, owner, p):
        self.owner, self.p = owner, p

    def __call__(self, x):
        return F.dropout(x, self.p, self.owner.training)


class Encoder(nn.Module):
    def __init__(self, num_layers=1, units=8, hidden_size=16, num_heads=2, max_length=10, mutant=None):
        super().__init__()
        self.units, self.max_length, self.mutant = units, max_length, mutant
        table = vaswani_table if mutant == "vaswani_buffer" else gluonnlp_table
        self.register_buffer("position_weight", table(max_length, units))
        self.layer_norm = nn.LayerNorm(units, eps=1e-5)
        if mutant == "dropout_0.1":
            dropout = _RateDropout(self, 0.1)
        else:
            dropout = nn.Dropout(0.1 if mutant == "dropout_module_0.1" else 0.0)
        self.dropout = dropout
        self.transformer_cells = nn.ModuleList(
            Cell(units, hidden_size, num_heads, dropout) for _ in range(num_layers))

    def forward(self, x):  # (N, T, C)
        if self.mutant != "no_scale":
            x = x * math.sqrt(self.units)
        steps = torch.arange(x.shape[1], device=x.device).clamp(max=self.max_length - 1)
        table = self.position_weight
        if self.mutant == "vaswani_table":
            table = vaswani_table(self.max_length, self.units).to(x.device)
        x = self.dropout(x + table[steps][None])
        if self.mutant != "no_input_norm":
            x = self.layer_norm(x)
        for cell in self.transformer_cells:
            x = cell(x)
        return x
