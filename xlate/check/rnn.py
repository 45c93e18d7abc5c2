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

from xlate.check.registry import Family, MappingError, ParamMap, register
from xlate.check.samples import (Sample, check_knobs, floats, gluon_call, register_sample, strategies,
                                 torch_call)


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
    if _CELL_PAIRS[kind] not in {c.__name__ for c in type(pt_cell).__mro__}:
        raise MappingError(f"{_name(mx_cell)} is paired with torch {type(pt_cell).__name__}; "
                           f"expected {_CELL_PAIRS[kind]}")
    # Gluon's cells take activations; torch's fix tanh/sigmoid, except RNNCell's nonlinearity.
    # A Gluon-signature helper (`_mx_LSTMCell`) applies Gluon's own and says which.
    mx_act = (getattr(mx_cell, "_activation", "tanh"), getattr(mx_cell, "_recurrent_activation", "sigmoid"))
    helper = getattr(pt_cell, "_mx_activations", None)
    if helper is not None:
        pt_act = (helper[0], helper[1] if helper[1] is not None else "sigmoid")
    else:
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


# contrib.rnn.LSTMPCell: one step of a one-layer LSTM with a projection (torch has no such cell;
# its translation is a one-layer nn.LSTM with proj_size), copied verbatim as the layers are.
#   MXNet        torch
#   i2h_weight   weight_ih_l0   (4H, I)
#   h2h_weight   weight_hh_l0   (4H, P)
#   h2r_weight   weight_hr_l0   (P, H)
#   i2h_bias     bias_ih_l0     (4H,)
#   h2h_bias     bias_hh_l0     (4H,)
RNN_PROJECTION_CELLS = register(Family(
    name="rnn projection cells",
    mx_types=("LSTMPCell",),
    pt_types=("LSTM",),
    params=(ParamMap("i2h_weight", "weight_ih_l0"), ParamMap("h2h_weight", "weight_hh_l0"),
            ParamMap("h2r_weight", "weight_hr_l0"), ParamMap("i2h_bias", "bias_ih_l0"),
            ParamMap("h2h_bias", "bias_hh_l0")),
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


# -- both sides of a sample (the test suite and `xlate check --rules` build them here) --------
# Translation (sequence.md sections 1-3): `batch_first` for NTC, the RNN activation spelled
# out, states `(L*D, N, H)` in either layout, `begin_state` = zeros. A cell's step returns
# its output as `states[0]` too, so the sample's call returns the states alone: the same
# array twice would receive two head gradients.
def state_shapes(s: RNNSample, *, batch: int, hidden: int) -> list[tuple[int, ...]]:
    if s.kind != "layer":
        return [(batch, hidden)] * (2 if s.mode == "lstm" else 1)
    ld = s.num_layers * (2 if s.bidirectional else 1)
    if s.mode == "lstm":
        return [(ld, batch, s.projection or hidden), (ld, batch, hidden)]
    return [(ld, batch, hidden)]


def gluon_block(s: RNNSample, *, hidden: int, input_size: int = 0):
    """The Gluon layer or cell of `s`, not initialised."""
    from mxnet.gluon import rnn as g

    if s.kind == "layer":
        kw = dict(layout=s.layout, bidirectional=s.bidirectional, input_size=input_size)
        return {"rnn_relu": lambda: g.RNN(hidden, s.num_layers, **kw),  # relu is Gluon's default
                "rnn_tanh": lambda: g.RNN(hidden, s.num_layers, activation="tanh", **kw),
                "lstm": lambda: g.LSTM(hidden, s.num_layers, projection_size=s.projection, **kw),
                "gru": lambda: g.GRU(hidden, s.num_layers, **kw)}[s.mode]()
    return {"rnn_relu": lambda: g.RNNCell(hidden, activation="relu", input_size=input_size),
            "rnn_tanh": lambda: g.RNNCell(hidden, input_size=input_size),  # tanh is the cell's default
            "lstm": lambda: g.LSTMCell(hidden, input_size=input_size),
            "gru": lambda: g.GRUCell(hidden, input_size=input_size)}[s.mode]()


def _batch(s: RNNSample, x) -> int:
    return x.shape[0] if s.kind == "cell" or s.layout == "NTC" else x.shape[1]


def gluon_run(s: RNNSample, block, x, states):
    """(output, returned states) of the Gluon call; `states` is used when s.states == 'random'."""
    begin = block.begin_state(batch_size=_batch(s, x)) if s.states == "begin" else states
    if s.kind == "layer":
        if begin is None:
            return block(x), []  # without states a Gluon layer returns the output alone
        out, new = block(x, begin)
    elif s.kind == "cell":
        out, new = block(x, begin)
    else:
        steps = x.shape[s.layout.index("T")]
        out, new = block.unroll(steps, x, begin_state=begin, layout=s.layout, merge_outputs=True)
    return out, list(new)


def torch_module(s: RNNSample, *, input_size: int, hidden: int, batch_first=None, nonlinearity=None,
                 bidirectional=None):
    """The correct torch translation; the keywords build wrong ones (for the traps in the tests)."""
    import torch

    nn = torch.nn
    if s.kind == "layer":
        kw = dict(batch_first=(s.layout == "NTC") if batch_first is None else batch_first,
                  bidirectional=s.bidirectional if bidirectional is None else bidirectional)
        if s.mode.startswith("rnn"):
            return nn.RNN(input_size, hidden, s.num_layers, nonlinearity=nonlinearity or s.mode[4:], **kw)
        if s.mode == "lstm":
            return nn.LSTM(input_size, hidden, s.num_layers, proj_size=s.projection or 0, **kw)
        return nn.GRU(input_size, hidden, s.num_layers, **kw)
    if s.mode.startswith("rnn"):
        return nn.RNNCell(input_size, hidden, nonlinearity=nonlinearity or s.mode[4:])
    return {"lstm": nn.LSTMCell, "gru": nn.GRUCell}[s.mode](input_size, hidden)


def torch_run(s: RNNSample, module, x, states):
    """The torch side of the same call: (output, states as MXNet lists them)."""
    import torch

    lstm = s.mode == "lstm"
    if s.states == "begin":
        hidden = module.hidden_size
        states = [x.new_zeros(shape) for shape in state_shapes(s, batch=_batch(s, x), hidden=hidden)]
    hx = None if states is None else (tuple(states) if lstm else states[0])
    if s.kind == "layer":
        out, new = module(x, hx)
        if s.states is None:
            return out, []
        return out, list(new) if lstm else [new]
    if s.kind == "cell":
        new = module(x, hx)
        return (new[0], list(new)) if lstm else (new, [new])
    outs, time_axis = [], 1 if s.layout == "NTC" else 0
    for step in x.unbind(time_axis):
        hx = module(step, hx)
        outs.append(hx[0] if lstm else hx)
    return torch.stack(outs, time_axis), list(hx) if lstm else [hx]


def _returned(s: RNNSample, out, new: list) -> tuple:
    return tuple(new) if s.kind == "cell" else (out, *new)


def rnn_configs(*, kinds: tuple = ("layer",), max_batch: int = 4, max_length: int = 5, max_features: int = 6,
                max_layers: int = 2):
    """Layers (or, with kinds=('cell', 'unroll'), cells) of every mode, layout and state use.
    No projection: MXNet's CPU build cannot back-propagate an LSTM with one."""
    check_knobs(max_batch=max_batch, max_length=max_length, max_features=max_features, max_layers=max_layers)
    st = strategies()

    @st.composite
    def configs(draw):
        kind = draw(st.sampled_from(kinds))
        layout = "TNC" if kind == "cell" else draw(st.sampled_from(["TNC", "NTC"]))
        return {"mode": draw(st.sampled_from(_MODES)), "kind": kind,
                "num_layers": draw(st.integers(1, max_layers)) if kind == "layer" else 1,
                "bidirectional": draw(st.booleans()) if kind == "layer" else False, "layout": layout,
                # a single step always takes states in MXNet
                "states": draw(st.sampled_from(([None] if kind != "cell" else []) + ["begin", "random"])),
                "batch": draw(st.integers(1, max_batch)), "length": draw(st.integers(1, max_length)),
                "features": draw(st.integers(1, max_features)), "hidden": draw(st.integers(1, max_features))}

    return configs()


def build_rnn(c: dict):
    s = RNNSample(c["mode"], c["kind"], c["num_layers"], c["bidirectional"], c["layout"], c["states"])
    n, t, i, h = c["batch"], c["length"], c["features"], c["hidden"]
    x = floats("x", n, i) if s.kind == "cell" else floats("x", *{"TNC": (t, n, i), "NTC": (n, t, i)}[s.layout])
    names = ["h0", "c0"] if s.mode == "lstm" else ["h0"]
    states = ([floats(name, *shape) for name, shape in zip(names, state_shapes(s, batch=n, hidden=h))]
              if s.states == "random" else [])
    mx_block = gluon_call(gluon_block(s, hidden=h, input_size=i),
                          lambda b, x, *st: _returned(s, *gluon_run(s, b, x, list(st) or None)))
    pt_module = torch_call(torch_module(s, input_size=i, hidden=h),
                           lambda m, x, *st: _returned(s, *torch_run(s, m, x, list(st) or None)))
    return mx_block, pt_module, [x, *states]


register_sample(Sample("rnn layers", "rnn layers", rnn_configs, build_rnn))
register_sample(Sample("rnn cells", "rnn cells", lambda: rnn_configs(kinds=("cell", "unroll")), build_rnn))


# contrib.rnn.LSTMPCell, one step: a one-layer nn.LSTM with proj_size over a length-1 sequence;
# states are MXNet's `[r (N, P), c (N, H)]`, torch's `(L=1, N, .)`.
def projection_cell_configs(*, max_batch: int = 4, max_features: int = 6):
    check_knobs(max_batch=max_batch, max_features=max_features)
    st = strategies()

    @st.composite
    def configs(draw):
        hidden = draw(st.integers(2, max_features))
        return {"batch": draw(st.integers(1, max_batch)), "features": draw(st.integers(1, max_features)),
                "hidden": hidden, "projection": draw(st.integers(1, hidden - 1))}

    return configs()


def build_projection_cell(c: dict):
    import torch
    from mxnet.gluon.contrib import rnn as contrib_rnn

    n, i, h, p = c["batch"], c["features"], c["hidden"], c["projection"]

    def gluon_step(cell, x, r0, c0):
        _, new = cell(x, [r0, c0])
        return tuple(new)  # the output is new[0] itself (see the cells' note above)

    def torch_step(lstm, x, r0, c0):
        _, (r, c_) = lstm(x[None], (r0[None], c0[None]))
        return r[0], c_[0]

    mx_block = gluon_call(contrib_rnn.LSTMPCell(h, p, input_size=i), gluon_step)
    pt_module = torch_call(torch.nn.LSTM(i, h, 1, proj_size=p), torch_step)
    return mx_block, pt_module, [floats("x", n, i), floats("r0", n, p), floats("c0", n, h)]


register_sample(Sample("rnn projection cells", "rnn projection cells", projection_cell_configs,
                       build_projection_cell))
