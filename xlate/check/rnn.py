"""Recurrent families: the fused `gluon.rnn` layers (RNN, LSTM, GRU) and their single-step cells.

Every fact used here was measured (/work/shared/semantics/sequence.md, sections 1-3):
- Gate order needs no permutation. The 4H axis of an LSTM is [i, f, g, o] and the 3H axis of a
  GRU is [r, z, n] in both frameworks; the GRU candidate is `tanh(W_in x + b_in + r*(W_hn h + b_hn))`
  in both. Every array is therefore copied verbatim: no transpose, no reordering, no conversion.
- The two biases stay two biases. Summing them into one is exact for LSTM but not for GRU, where
  b_hn sits inside `r*(.)`; keeping both on both sides is right for every mode.
- The layout (`'TNC'`/`'NTC'` vs `batch_first`) lives in the call, not in the weights: the
  weights are the same either way, and the states are `(L*D, N, H)` in both for either layout.
- Gluon's `rnn.RNN` defaults to relu, torch's `nn.RNN` to tanh. The activation is not a weight,
  but weights copied into a module that computes a different recurrence are meaningless, so the
  pairing refuses a mode mismatch here rather than leaving it to the numbers.

No family declares a tolerance: the measured differences (forward 3.6e-7, parameter gradients
1.9e-6 at most) are well inside the float32 default.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from xlate.check.mapping import Family, MappingError, ParamMap, register


def _name(block) -> str:
    return f"{type(block).__name__} {getattr(block, 'name', '')}".rstrip()


# -- fused layers ---------------------------------------------------------------------------
# One row per (layer k, direction); MXNet's `l`/`r` prefix is torch's `''`/`'_reverse'` suffix.
# Copied verbatim (same gate order, same (G*H, in) layout); G = 1 (RNN), 4 (LSTM), 3 (GRU).
#   MXNet                 torch
#   l{k}_i2h_weight       weight_ih_l{k}        (G*H, in)  in = I for k = 0, else D*H (D*P)
#   l{k}_h2h_weight       weight_hh_l{k}        (G*H, H)   (G*H, P) with projection
#   l{k}_i2h_bias         bias_ih_l{k}          (G*H,)
#   l{k}_h2h_bias         bias_hh_l{k}          (G*H,)
#   l{k}_h2r_weight       weight_hr_l{k}        (P, H)     LSTM projection_size=P only
#   r{k}_...              ..._l{k}_reverse                 bidirectional only
_LAYER_ROWS = (("i2h_weight", "weight_ih"), ("h2h_weight", "weight_hh"),
               ("i2h_bias", "bias_ih"), ("h2h_bias", "bias_hh"))
_PROJECTION_ROW = ("h2r_weight", "weight_hr")

# MXNet `_mode` -> torch `mode`: the activation of a vanilla RNN is part of both.
_LAYER_MODES = {"rnn_relu": "RNN_RELU", "rnn_tanh": "RNN_TANH", "lstm": "LSTM", "gru": "GRU"}


def _layer_maps(mx_layer, pt_layer) -> tuple[ParamMap, ...]:
    mode, pt_mode = _LAYER_MODES.get(mx_layer._mode), getattr(pt_layer, "mode", None)
    if mode != pt_mode:
        hint = ""
        if mode and mode.startswith("RNN") and str(pt_mode).startswith("RNN"):
            hint = f"; pass nonlinearity='{mx_layer._mode[4:]}' (gluon.rnn.RNN defaults to relu, torch to tanh)"
        raise MappingError(f"{_name(mx_layer)} computes mode {mx_layer._mode!r}, torch "
                           f"{type(pt_layer).__name__} computes {pt_mode!r}{hint}")
    rows = _LAYER_ROWS + ((_PROJECTION_ROW,) if mx_layer._projection_size else ())
    return tuple(
        ParamMap(f"{prefix}{k}_{mx}", f"{pt}_l{k}{suffix}")
        for k in range(mx_layer._num_layers)
        for prefix, suffix in (("l", ""), ("r", "_reverse"))[:mx_layer._dir]
        for mx, pt in rows)


RNN_LAYERS = register(Family(
    name="rnn layers",
    mx_types=("RNN", "LSTM", "GRU"),
    pt_types=("RNN", "LSTM", "GRU"),
    expand=_layer_maps,
))


# -- cells ----------------------------------------------------------------------------------
# Same arrays as one direction of one layer, without the layer suffix; copied verbatim.
_CELL_PARAMS = (
    ParamMap("i2h_weight", "weight_ih"),  # (G*H, I)
    ParamMap("h2h_weight", "weight_hh"),  # (G*H, H)
    ParamMap("i2h_bias", "bias_ih"),      # (G*H,)
    ParamMap("h2h_bias", "bias_hh"),      # (G*H,)
)
_CELL_PAIRS = {"RNNCell": "RNNCell", "LSTMCell": "LSTMCell", "GRUCell": "GRUCell"}


def _cell_maps(mx_cell, pt_cell) -> tuple[ParamMap, ...]:
    kind = next(c.__name__ for c in type(mx_cell).__mro__ if c.__name__ in _CELL_PAIRS)
    if type(pt_cell).__name__ != _CELL_PAIRS[kind]:
        raise MappingError(f"{_name(mx_cell)} is paired with torch {type(pt_cell).__name__}; "
                           f"expected {_CELL_PAIRS[kind]}")
    # Gluon's cells take activations; torch's fix tanh/sigmoid, except RNNCell's nonlinearity.
    mx_act = (getattr(mx_cell, "_activation", "tanh"), getattr(mx_cell, "_recurrent_activation", "sigmoid"))
    pt_act = (getattr(pt_cell, "nonlinearity", "tanh"), "sigmoid")
    if mx_act != pt_act:
        fix = (f"pass nonlinearity={mx_act[0]!r}" if kind == "RNNCell" and mx_act[0] in ("tanh", "relu")
               else "torch has no such cell; write the step by hand")
        raise MappingError(f"{_name(mx_cell)} computes activations {mx_act}, torch {type(pt_cell).__name__} "
                           f"{pt_act}; {fix}")
    return _CELL_PARAMS


RNN_CELLS = register(Family(
    name="rnn cells",
    mx_types=tuple(_CELL_PAIRS),
    pt_types=tuple(_CELL_PAIRS.values()),
    expand=_cell_maps,
))


# -- sample configurations --------------------------------------------------------------------
@dataclass(frozen=True)
class RNNSample:
    """One configuration to check; its torch translation follows sequence.md sections 1-3."""

    mode: str  # rnn_relu | rnn_tanh | lstm | gru
    kind: str = "layer"  # layer | cell (one step) | unroll (a cell over the sequence)
    num_layers: int = 1
    bidirectional: bool = False
    layout: str = "TNC"
    states: Optional[str] = None  # None: no states argument; "begin": begin_state (zeros); "random"
    projection: Optional[int] = None  # LSTM projection_size

    @property
    def backward(self) -> bool:
        return not self.projection  # MXNet CPU cannot back-propagate an LSTM with projection

    @property
    def id(self) -> str:
        parts = [self.mode, self.kind]
        if self.kind == "layer":
            parts.append(f"L{self.num_layers}" + ("-bi" if self.bidirectional else ""))
        if self.projection:
            parts.append(f"proj{self.projection}")
        if self.kind != "cell":
            parts.append(self.layout)
        parts.append(f"states-{self.states}")
        return "-".join(parts)


_MODES = ("rnn_relu", "rnn_tanh", "lstm", "gru")
LAYER_SAMPLES = tuple(
    RNNSample(mode, "layer", layers, bidi, layout, states)
    for mode in _MODES for layers in (1, 2) for bidi in (False, True)
    for layout in ("TNC", "NTC") for states in (None, "begin", "random"))
PROJECTION_SAMPLES = tuple(  # forward only
    RNNSample("lstm", "layer", layers, bidi, layout, states, projection=3)
    for layers in (1, 2) for bidi in (False, True) for layout in ("TNC", "NTC") for states in (None, "random"))
CELL_SAMPLES = tuple(
    RNNSample(mode, kind, layout=layout, states=states)
    for mode in _MODES for kind in ("cell", "unroll")
    for layout in (("TNC", "NTC") if kind == "unroll" else ("TNC",))
    # a single step always takes states in MXNet; `unroll` may leave them out (zeros)
    for states in ((None,) if kind == "unroll" else ()) + ("begin", "random"))
