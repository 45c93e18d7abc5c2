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

import numpy as np

from xlate.check.mapping import Family, MappingError, ParamMap, register

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
