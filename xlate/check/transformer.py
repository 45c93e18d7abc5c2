"""gluonnlp 0.10 `TransformerEncoder` and its attention: weight mappings onto PyTorch.

Measured facts (/work/shared/semantics/sequence.md section 4, re-checked in
tests/test_check_transformer.py):

- The encoder block itself owns one parameter: `position_weight` (max_length, units), a
  gluon *Constant* (grad_req 'null') holding gluonnlp's own sinusoid table
  `PE[p, j] = sin|cos(p / 10000**(2*j/units))` (sin on even j, cos on odd j). This is NOT the
  Vaswani table (`10000**(2*(j//2)/units)`). It is copied verbatim into a torch buffer
  `position_weight` (the `gluonnlp_encoder` family below).
- Its other leaves are plain Gluon blocks that the `dense` and `layernorm` families already
  map, in this registration order per cell i:
      transformer_cells.i.attention_cell.proj_query   Dense, weight (E, E), NO bias
      transformer_cells.i.attention_cell.proj_key     Dense, weight (E, E), NO bias
      transformer_cells.i.attention_cell.proj_value   Dense, weight (E, E), NO bias
      transformer_cells.i.proj                        Dense, weight (E, E), NO bias
      transformer_cells.i.ffn.ffn_1                   Dense, weight (H, E), bias (H,)
      transformer_cells.i.ffn.ffn_2                   Dense, weight (E, H), bias (E,)
      transformer_cells.i.ffn.layer_norm              LayerNorm (norm2, after the FFN)
      transformer_cells.i.layer_norm                  LayerNorm (norm1, after attention)
  preceded by the encoder's input `layer_norm` (norm_inputs=True). Note that the FFN's
  LayerNorm registers BEFORE the cell's attention LayerNorm.
- q/k/v packing: torch `nn.MultiheadAttention.in_proj_weight` (3E, E) is
  `cat([W_query, W_key, W_value], 0)`, no transposes; gluonnlp's Dense weights are already
  (out, in). `out_proj.weight` is the cell's `proj.weight`. Biases: none on either side when
  the torch module is built with `bias=False` (gluonnlp's attention_use_bias=False and
  attention_proj_use_bias=False are the encoder's fixed choices). Gradients split the same way:
  `in_proj_weight.grad[0:E] / [E:2E] / [2E:3E]` are the query / key / value gradients.

Why there is no `MultiHeadAttentionCell <-> MultiheadAttention` family: models are paired leaf
by leaf (xlate.check.mapping), and gluonnlp's attention cell owns no parameter itself; its three
Dense children are three leaves while `nn.MultiheadAttention` is one. A translation that keeps
three `nn.Linear(bias=False)` leaves and packs them at call time (`pack_qkv`, then
`F.multi_head_attention_forward`) pairs with the existing `dense` family; a translation that
holds a real `nn.MultiheadAttention` needs a composite pairing that mapping.py does not have
(see `QKV_ROWS` for the table such a family would declare).
"""
from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from xlate.check.registry import Family, MappingError, ParamMap, register
from xlate.check.samples import Sample, check_knobs, floats, gluon_call, register_sample, strategies

# (gluonnlp attention-cell child, rows of in_proj_weight as a fraction of 3E)
QKV_ROWS = (("proj_query", 0), ("proj_key", 1), ("proj_value", 2))


def gluonnlp_position_table(max_length: int, units: int) -> np.ndarray:
    """gluonnlp 0.10's `_position_encoding_init`, float32 (sin on even columns, cos on odd)."""
    angle = np.arange(max_length)[:, None] / np.power(10000, (2.0 / units) * np.arange(units)[None, :])
    table = np.empty_like(angle)
    table[:, 0::2], table[:, 1::2] = np.sin(angle[:, 0::2]), np.cos(angle[:, 1::2])
    return table.astype(np.float32)


def pack_qkv(w_query: np.ndarray, w_key: np.ndarray, w_value: np.ndarray) -> np.ndarray:
    """gluonnlp proj_query/proj_key/proj_value weights -> torch `in_proj_weight` (3E, E)."""
    shapes = {w.shape for w in (w_query, w_key, w_value)}
    if len(shapes) != 1 or len(w_query.shape) != 2:
        raise MappingError(f"query/key/value weights must share one (E, C) shape to pack into "
                           f"in_proj_weight; got {[w.shape for w in (w_query, w_key, w_value)]}")
    return np.concatenate([w_query, w_key, w_value], axis=0)


def split_qkv(in_proj: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """torch `in_proj_weight` (or its gradient, or in_proj_bias) -> (query, key, value)."""
    if in_proj.shape[0] % 3:
        raise MappingError(f"in_proj {in_proj.shape}: the first axis is not 3*E")
    q, k, v = np.split(in_proj, 3, axis=0)
    return q, k, v


# -- gluonnlp_encoder -----------------------------------------------------------------------
# | gluonnlp TransformerEncoder        | torch                          | conversion |
# | position_weight (max_length, E)    | buffer position_weight         | none       |
# The table is a Constant: the torch side keeps it as a buffer (`register_buffer`), read as
# `position_weight[clamp(arange(L), max=max_length-1)]`. Any torch module may hold it (the
# translation's top-level module), so the family accepts every nn.Module subclass.
def _encoder_maps(mx_block, pt_module) -> tuple[ParamMap, ...]:
    if set(mx_block._reg_params) != {"position_weight"}:  # another library's block of that name
        return tuple(ParamMap(n, n) for n in mx_block._reg_params)
    table = getattr(pt_module, "position_weight", None)
    if table is None or "position_weight" in pt_module._parameters:
        raise MappingError(
            f"gluonnlp {type(mx_block).__name__} {mx_block.name}: its position table "
            f"position_weight {mx_block._reg_params['position_weight'].shape} is a constant; "
            f"{type(pt_module).__name__} must hold it as a buffer (register_buffer('position_weight', ...))")
    return (ParamMap("position_weight", "position_weight"),)


ENCODER = register(Family(
    "gluonnlp_encoder", ("TransformerEncoder",), ("Module",),
    params=(ParamMap("position_weight", "position_weight"),), expand=_encoder_maps,
))


# -- the reference translation --------------------------------------------------------------
# gluonnlp 0.10 TransformerEncoder (attention_cell='multi_head', scaled=True, dropout=0,
# use_residual=True, no valid_length, outputs of the last cell only), batch-major (N, T, C):
#   x * sqrt(units) (scale_embed) + position_weight[clip(arange(T), max_length-1)]
#   -> input LayerNorm (norm_inputs) -> per cell:
#      LayerNorm(x + proj(attention(x))), then LayerNorm(x + ffn_2(relu(ffn_1(x))))
# The attention keeps gluonnlp's three bias-free Dense leaves as three nn.Linear(bias=False) and
# packs them into one in_proj_weight at call time (`pack_qkv`'s layout), the cell's `proj` being
# the attention's out_proj, so every leaf pairs with the `dense`/`layernorm` families and the
# encoder itself (its position_weight buffer) with `gluonnlp_encoder`. Leaves register in
# gluonnlp's order: encoder, layer_norm, then per cell q, k, v, proj, ffn_1, ffn_2, the FFN's
# LayerNorm, the cell's LayerNorm. The dropout modules are nn.Dropout(0.0) (gluonnlp's default).
# tests/mutants/transformer.py subclasses these classes for its wrong translations.
@lru_cache(maxsize=None)
def torch_encoder_types() -> SimpleNamespace:
    """The translation's torch classes (Attention, FFN, Cell, Encoder), made on first use."""
    import math

    import torch
    import torch.nn.functional as F
    from torch import nn

    class Attention(nn.Module):
        """gluonnlp's MultiHeadAttentionCell (proj_query/key/value, no bias, scaled dot product)
        computed by torch's multi-head attention with the three weights packed into in_proj_weight."""

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

    class Encoder(nn.Module):
        """`Encoder(**kw)(x)` == gluonnlp `TransformerEncoder(**kw)(x)[0]` for the keywords below."""

        def __init__(self, num_layers=2, units=512, hidden_size=2048, num_heads=4, max_length=50,
                     scale_embed=True, norm_inputs=True):
            super().__init__()
            if units % num_heads:
                raise ValueError(f"units={units} is not divisible by num_heads={num_heads}")
            self.units, self.max_length = units, max_length
            self.scale_embed, self.norm_inputs = scale_embed, norm_inputs
            self.register_buffer("position_weight", self.make_table(max_length, units))
            if norm_inputs:  # gluonnlp creates the input LayerNorm only then
                self.layer_norm = nn.LayerNorm(units, eps=1e-5)
            self.dropout = dropout = self.make_dropout()
            self.transformer_cells = nn.ModuleList(
                Cell(units, hidden_size, num_heads, dropout) for _ in range(num_layers))

        # the steps below are methods so that a subclass (a mutant) can replace one of them
        def make_table(self, max_length, units):
            return torch.as_tensor(gluonnlp_position_table(max_length, units))

        def make_dropout(self):
            return nn.Dropout(0.0)

        def scale(self, x):
            return x * math.sqrt(self.units) if self.scale_embed else x

        def table(self, x):
            return self.position_weight

        def normalize_inputs(self, x):
            return self.layer_norm(x) if self.norm_inputs else x

        def forward(self, x):  # (N, T, C)
            x = self.scale(x)
            steps = torch.arange(x.shape[1], device=x.device).clamp(max=self.max_length - 1)
            x = self.normalize_inputs(self.dropout(x + self.table(x)[steps][None]))
            for cell in self.transformer_cells:
                x = cell(x)
            return x

    return SimpleNamespace(Attention=Attention, FFN=FFN, Cell=Cell, Encoder=Encoder)


def torch_encoder(**kwargs):
    """The reference translation of `TransformerEncoder(**kwargs)` (see torch_encoder_types)."""
    return torch_encoder_types().Encoder(**kwargs)


# -- sample ---------------------------------------------------------------------------------
_ENCODER_KEYS = ("num_layers", "units", "hidden_size", "num_heads", "max_length", "scale_embed", "norm_inputs")


def encoder_configs(*, max_layers: int = 2, max_units: int = 8, max_heads: int = 2, max_hidden: int = 16,
                    max_positions: int = 10, max_batch: int = 3, max_length: int = 12):
    """Small encoders: units in [min(4, max_units), max_units] with num_heads dividing it,
    position tables of [min(6, max_positions), max_positions] rows, sequences of 1..max_length
    steps (longer than the table too: gluonnlp clips the positions), both scale_embed and
    norm_inputs. Fixed: multi-head attention, scaled, dropout 0, use_residual, no valid_length."""
    check_knobs(max_layers=max_layers, max_units=max_units, max_heads=max_heads, max_hidden=max_hidden,
                max_positions=max_positions, max_batch=max_batch, max_length=max_length)
    st = strategies()

    @st.composite
    def configs(draw):
        units = draw(st.integers(min(4, max_units), max_units))
        return {"num_layers": draw(st.integers(1, max_layers)), "units": units,
                "hidden_size": draw(st.integers(min(4, max_hidden), max_hidden)),
                "num_heads": draw(st.sampled_from([h for h in range(1, max_heads + 1) if units % h == 0])),
                "max_length": draw(st.integers(min(6, max_positions), max_positions)),
                "scale_embed": draw(st.booleans()), "norm_inputs": draw(st.booleans()),
                "batch": draw(st.integers(1, max_batch)), "length": draw(st.integers(1, max_length))}

    return configs()


def build_encoder(c: dict):
    from gluonnlp.model.transformer import TransformerEncoder

    kw = {k: c[k] for k in _ENCODER_KEYS}
    mx_block = gluon_call(TransformerEncoder(**kw), lambda b, x: b(x)[0])  # gluonnlp returns (outputs, [])
    return mx_block, torch_encoder(**kw), [floats("x", c["batch"], c["length"], c["units"])]


register_sample(Sample("gluonnlp encoder", "gluonnlp_encoder", encoder_configs, build_encoder))
