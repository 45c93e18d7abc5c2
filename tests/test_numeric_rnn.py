"""The recurrent helpers (xlate/runtime/rnn.py, cells.py) against live MXNet.

Every helper takes Gluon's arguments and follows Gluon's call convention, so one Python call
drives both sides: the same lambda calls the Gluon block and its helper (`layer(x, states)`,
`cell.unroll(...)`), and `check_models` compares them with random asymmetric weights copied
through the checker's tables: inference outputs and returned states (MXNet outside record(),
torch in eval()), then the training outputs, the gradients of every float input and every
parameter under a random head gradient (dropout rates zeroed on both sides). Sizes, layer
counts, directions, layouts, state use and merge/valid_length choices are drawn with
hypothesis. What MXNet's CPU build cannot show (cuDNN's lengths and clipping) is checked
against torch's own packed runs and a step-by-step reference instead.
"""
from __future__ import annotations

import inspect
import warnings

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mxnet.gluon import rnn  # noqa: E402
from mxnet.gluon.contrib import rnn as contrib_rnn  # noqa: E402

from xlate import runtime  # noqa: E402
from xlate.check.inputs import InputSpec  # noqa: E402
from xlate.check.pair import check_models  # noqa: E402
from xlate.check.samples import gluon_call, torch_call  # noqa: E402

pytestmark = pytest.mark.mxnet
PROFILE = dict(derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
rt = runtime.load()

LAYERS = {"RNN": (rnn.RNN, rt._mx_RNN), "LSTM": (rnn.LSTM, rt._mx_LSTM), "GRU": (rnn.GRU, rt._mx_GRU)}
TORCH = {"RNN": torch.nn.RNN, "LSTM": torch.nn.LSTM, "GRU": torch.nn.GRU}
CELLS = {"RNNCell": (rnn.RNNCell, rt._mx_RNNCell), "LSTMCell": (rnn.LSTMCell, rt._mx_LSTMCell),
         "GRUCell": (rnn.GRUCell, rt._mx_GRUCell), "LSTMPCell": (contrib_rnn.LSTMPCell, rt._mx_LSTMPCell)}
ALL = {**LAYERS, **CELLS,
       "SequentialRNNCell": (rnn.SequentialRNNCell, rt._mx_SequentialRNNCell),
       "HybridSequentialRNNCell": (rnn.HybridSequentialRNNCell, rt._mx_HybridSequentialRNNCell),
       "BidirectionalCell": (rnn.BidirectionalCell, rt._mx_BidirectionalCell),
       "ResidualCell": (rnn.ResidualCell, rt._mx_ResidualCell), "ZoneoutCell": (rnn.ZoneoutCell, rt._mx_ZoneoutCell),
       "DropoutCell": (rnn.DropoutCell, rt._mx_DropoutCell),
       "VariationalDropoutCell": (contrib_rnn.VariationalDropoutCell, rt._mx_VariationalDropoutCell)}


@pytest.mark.parametrize("name", sorted(ALL))
def test_helper_takes_gluons_own_signature(name):
    gluon, helper = ALL[name]
    assert inspect.signature(helper) == inspect.signature(gluon)


@pytest.mark.parametrize("method", ["unroll", "begin_state"])
def test_cell_methods_take_gluons_own_signature(method):
    ours = inspect.signature(getattr(rt._mx_RecurrentCell, method))
    theirs = inspect.signature(getattr(rnn.RecurrentCell, method))
    assert list(ours.parameters) == list(theirs.parameters)
    defaults = {k: p.default for k, p in ours.parameters.items() if k != "func"}
    assert defaults == {k: p.default for k, p in theirs.parameters.items() if k != "func"}


def compare(mx_block, pt_module, call, specs, seed=0):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = check_models(gluon_call(mx_block, call), torch_call(pt_module, call), specs, seed=seed)
    failed = [c.mismatch.format() for c in result.checks if not c.ok]
    assert not failed, "\n".join(failed)
    whats = {c.what for c in result.checks}
    assert any(w.startswith("training: gradient of") and "inner" in w for w in whats), whats
    return result


def floats(name, *shape):
    return InputSpec(name, "float32", tuple(shape))


def lengths_spec(batch, steps):
    # lengths 1..steps: drawn in [0, steps), one added in the call
    return InputSpec("vl", "int32", (batch,), steps)


# -- fused layers ------------------------------------------------------------------------------
@st.composite
def layer_configs(draw):
    return dict(kind=draw(st.sampled_from(sorted(LAYERS))), activation=draw(st.sampled_from(["relu", "tanh"])),
                layers=draw(st.integers(1, 3)), bidirectional=draw(st.booleans()),
                layout=draw(st.sampled_from(["TNC", "NTC"])), states=draw(st.sampled_from([None, "begin", "given"])),
                batch=draw(st.integers(1, 4)), steps=draw(st.integers(1, 5)), features=draw(st.integers(1, 6)),
                hidden=draw(st.integers(1, 6)), sized=draw(st.booleans()))


def _layer_args(c):
    kw = dict(layout=c["layout"], bidirectional=c["bidirectional"], input_size=c["features"] if c["sized"] else 0)
    if c["kind"] == "RNN" and c["activation"] == "tanh":
        kw["activation"] = "tanh"
    return (c["hidden"], c["layers"]), kw


@settings(max_examples=40, **PROFILE)
@given(layer_configs())
def test_fused_layers_compute_what_gluon_computes(c):
    gluon, helper = LAYERS[c["kind"]]
    args, kw = _layer_args(c)
    n, t = c["batch"], c["steps"]
    x = floats("x", *((t, n, c["features"]) if c["layout"] == "TNC" else (n, t, c["features"])))
    ld = c["layers"] * (2 if c["bidirectional"] else 1)
    count = 2 if c["kind"] == "LSTM" else 1
    state_specs = [floats(f"s{i}", ld, n, c["hidden"]) for i in range(count)] if c["states"] == "given" else []

    def call(layer, x, *states):
        if c["states"] is None:
            return layer(x)
        begin = list(states) if states else layer.begin_state(batch_size=n)
        out, new = layer(x, begin)
        assert isinstance(new, list) and len(new) == count
        return [out, *new]

    compare(gluon(*args, **kw), helper(*args, **kw), call, [x, *state_specs])


def test_a_single_state_array_is_accepted_as_gluon_does():
    layer = rt._mx_GRU(3, input_size=2)
    out, states = layer(torch.randn(4, 2, 2), torch.zeros(1, 2, 3))
    assert isinstance(states, list) and len(states) == 1 and tuple(states[0].shape) == (1, 2, 3)


def test_wrong_state_shapes_raise_as_in_gluon():
    layer = rt._mx_LSTM(3, layout="NTC", input_size=2)
    with pytest.raises(ValueError, match="Invalid recurrent state shape"):
        layer(torch.randn(2, 4, 2), [torch.zeros(1, 4, 3), torch.zeros(1, 4, 3)])  # batch is 2, not 4


def test_projection_forward_matches_gluon():
    # MXNet's CPU build cannot back-propagate an LSTM with projection (sequence.md 0.3): forward only
    rng = np.random.default_rng(3)
    for layers, bi, layout in [(1, False, "TNC"), (2, True, "NTC"), (3, True, "TNC")]:
        mx_layer = rnn.LSTM(5, layers, layout=layout, bidirectional=bi, projection_size=3)
        mx_layer.initialize()
        pt_layer = rt._mx_LSTM(5, layers, layout=layout, bidirectional=bi, projection_size=3)
        x = rng.uniform(-1, 1, (4, 2, 6)).astype("float32")
        mx_layer(mx.nd.array(x))
        pt_layer(torch.tensor(x))
        from xlate.check.mapping import transfer
        for p in mx_layer.collect_params().values():
            p.set_data(mx.nd.array(rng.uniform(-0.5, 0.5, p.shape)))
        transfer(mx_layer, pt_layer)
        states = [rng.uniform(-1, 1, s["shape"]).astype("float32") for s in mx_layer.state_info(2 if layout == "TNC" else 4)]
        out_mx, new_mx = mx_layer(mx.nd.array(x), [mx.nd.array(s) for s in states])
        out_pt, new_pt = pt_layer(torch.tensor(x), [torch.tensor(s) for s in states])
        np.testing.assert_allclose(out_pt.detach().numpy(), out_mx.asnumpy(), atol=1e-6)
        for a, b in zip(new_pt, new_mx):
            np.testing.assert_allclose(a.detach().numpy(), b.asnumpy(), atol=1e-6)


def test_begin_state_is_gluons_on_the_device_asked_for():
    layer = rt._mx_LSTM(4, 2, bidirectional=True, projection_size=3, input_size=2)
    h, c = layer.begin_state(batch_size=5)
    assert (tuple(h.shape), tuple(c.shape)) == ((4, 5, 3), (4, 5, 4)) and not h.any() and not c.any()
    ones = layer.begin_state(batch_size=2, func=rt._mx_ones, ctx=torch.device("cpu"))
    assert all(bool((s == 1).all()) for s in ones) and ones[0].device.type == "cpu"
    gluon = rnn.LSTM(4, 2, bidirectional=True, projection_size=3, input_size=2)
    assert [tuple(s.shape) for s in gluon.begin_state(batch_size=5)] == [(4, 5, 3), (4, 5, 4)]
    with pytest.raises(ValueError, match="batch_size"):
        layer.begin_state()


def test_gluon_parameter_names_read_the_torch_tensors():
    layer = rt._mx_GRU(3, 2, bidirectional=True, input_size=4)
    assert layer.l1_h2h_weight is layer.weight_hh_l1 and layer.r0_i2h_bias is layer.bias_ih_l0_reverse


# -- cuDNN-only options: against torch's packed runs and a step-by-step reference ------------
@settings(max_examples=25, **PROFILE)
@given(st.sampled_from(sorted(LAYERS)), st.integers(1, 3), st.booleans(), st.sampled_from(["TNC", "NTC"]),
       st.integers(1, 4), st.integers(1, 5), st.integers(0, 10**6))
def test_sequence_length_is_cudnns_packed_run(kind, layers, bi, layout, batch, steps, seed):
    gen = torch.Generator().manual_seed(seed)
    helper = LAYERS[kind][1](4, layers, layout=layout, bidirectional=bi, input_size=3, use_sequence_length=True)
    plain = LAYERS[kind][1](4, layers, layout=layout, bidirectional=bi, input_size=3)
    plain.load_state_dict(helper.state_dict())
    shape = (steps, batch, 3) if layout == "TNC" else (batch, steps, 3)
    x = torch.rand(shape, generator=gen) * 2 - 1
    lengths = torch.randint(1, steps + 1, (batch,), generator=gen)
    count = 2 if kind == "LSTM" else 1
    states = [torch.rand(layers * (2 if bi else 1), batch, 4, generator=gen) for _ in range(count)]
    out, new = helper(x, states, lengths)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=layout == "NTC", enforce_sorted=False)
    ref, ref_states = TORCH[kind].forward(plain, packed, tuple(states) if count == 2 else states[0])
    ref, _ = torch.nn.utils.rnn.pad_packed_sequence(ref, batch_first=layout == "NTC", total_length=steps)
    torch.testing.assert_close(out, ref)
    for a, b in zip(new, ref_states if count == 2 else [ref_states]):
        torch.testing.assert_close(a, b)


def test_the_step_loop_without_options_equals_torchs_fused_kernel():
    torch.manual_seed(0)
    for kind in LAYERS:
        layer = LAYERS[kind][1](5, 2, bidirectional=True, input_size=3)
        x = torch.randn(6, 2, 3)
        fused, fused_states = TORCH[kind].forward(layer, x)
        looped, looped_states = layer._mx_loop(x, None, None)
        torch.testing.assert_close(looped, fused)
        for a, b in zip(*((s if isinstance(s, tuple) else (s,)) for s in (looped_states, fused_states))):
            torch.testing.assert_close(a, b)


def test_state_clipping_bounds_the_cell_state_at_every_step():
    torch.manual_seed(1)
    layer = rt._mx_LSTM(4, 1, input_size=3, state_clip_min=-0.3, state_clip_max=0.3)
    x = torch.randn(7, 2, 3) * 3
    out, (h, c) = layer(x, layer.begin_state(batch_size=2))
    assert float(c.abs().max()) <= 0.3 + 1e-7
    # by hand: the same recurrence with the clip after each cell update, before h reads it
    w_ih, w_hh, b_ih, b_hh = layer.weight_ih_l0, layer.weight_hh_l0, layer.bias_ih_l0, layer.bias_hh_l0
    hh, cc = torch.zeros(2, 4), torch.zeros(2, 4)
    for t in range(7):
        i, f, g, o = (x[t] @ w_ih.T + b_ih + hh @ w_hh.T + b_hh).chunk(4, -1)
        cc = (torch.sigmoid(f) * cc + torch.sigmoid(i) * torch.tanh(g)).clamp(-0.3, 0.3)
        hh = torch.sigmoid(o) * torch.tanh(cc)
        torch.testing.assert_close(out[t], hh)
    unclipped = rt._mx_LSTM(4, 1, input_size=3)
    unclipped.load_state_dict(layer.state_dict())
    assert float(unclipped(x, unclipped.begin_state(batch_size=2))[1][1].abs().max()) > 0.3


def test_state_clip_nan_is_refused():
    with pytest.raises(NotImplementedError, match="state_clip_nan"):
        rt._mx_LSTM(4, state_clip_min=-1, state_clip_max=1, state_clip_nan=True)


# -- cells --------------------------------------------------------------------------------------
def _make_cell(kind, hidden, sized, features, side, activation=None):
    gluon, helper = CELLS[kind]
    cls = gluon if side == "mx" else helper
    size = features if sized else 0
    if kind == "LSTMPCell":
        return cls(hidden, max(1, hidden - 1), input_size=size)
    if kind == "RNNCell":
        return cls(hidden, activation=activation or "tanh", input_size=size)
    if kind == "LSTMCell" and activation:
        return cls(hidden, input_size=size, activation=activation)
    return cls(hidden, input_size=size)


@st.composite
def cell_configs(draw):
    kind = draw(st.sampled_from(sorted(CELLS)))
    activations = {"RNNCell": [None, "relu", "softsign", "sigmoid"], "LSTMCell": [None, "softsign", "relu"]}
    return dict(kind=kind, activation=draw(st.sampled_from(activations.get(kind, [None]))),
                batch=draw(st.integers(1, 4)), steps=draw(st.integers(1, 5)), features=draw(st.integers(1, 5)),
                hidden=draw(st.integers(2, 5)), sized=draw(st.booleans()), layout=draw(st.sampled_from(["NTC", "TNC"])),
                merge=draw(st.sampled_from([None, True, False])), valid=draw(st.booleans()),
                states=draw(st.sampled_from([None, "given"])), as_list=draw(st.booleans()))


def _state_specs(cell_mx, batch):
    return [floats(f"s{i}", batch, *info["shape"][1:]) for i, info in enumerate(cell_mx.state_info(batch))]


def _unroll_call(c, steps):
    def call(cell, x, *rest):
        vl = rest[-1] + 1 if c["valid"] else None
        states = list(rest[:-1] if c["valid"] else rest) or None
        inputs = x
        if c["as_list"]:  # a list of per-step (N, C) arrays
            axis = c["layout"].find("T")
            inputs = [x[i] if axis == 0 else x[:, i] for i in range(steps)]
        outs, new = cell.unroll(steps, inputs, begin_state=states, layout=c["layout"], merge_outputs=c["merge"],
                                valid_length=vl)
        assert isinstance(new, list)
        # a state may be the very array of the last output: MXNet's backward mishandles an array
        # passed twice (sequence.md 3), so each state is returned as a new array
        return [outs, *(s * 1 for s in new)]
    return call


@settings(max_examples=60, **PROFILE)
@given(cell_configs())
def test_cell_unroll_computes_what_gluon_computes(c):
    n, t = c["batch"], c["steps"]
    mx_cell = _make_cell(c["kind"], c["hidden"], c["sized"], c["features"], "mx", c["activation"])
    pt_cell = _make_cell(c["kind"], c["hidden"], c["sized"], c["features"], "pt", c["activation"])
    x = floats("x", *((n, t, c["features"]) if c["layout"] == "NTC" else (t, n, c["features"])))
    specs = [x] + (_state_specs(mx_cell, n) if c["states"] == "given" else [])
    specs += [lengths_spec(n, t)] if c["valid"] else []
    compare(mx_cell, pt_cell, _unroll_call(c, t), specs)


@settings(max_examples=25, **PROFILE)
@given(cell_configs())
def test_cell_step_returns_gluons_output_and_states(c):
    mx_cell = _make_cell(c["kind"], c["hidden"], c["sized"], c["features"], "mx", c["activation"])
    pt_cell = _make_cell(c["kind"], c["hidden"], c["sized"], c["features"], "pt", c["activation"])

    def call(cell, x, *states):
        out, new = cell(x, list(states))
        return [out, *new[1:]]  # new[0] is `out` itself: one head gradient, not two

    compare(mx_cell, pt_cell, call, [floats("x", c["batch"], c["features"]), *_state_specs(mx_cell, c["batch"])])


def _stack(side, kinds, hidden, features, wrap=None):
    """A (Hybrid)SequentialRNNCell of cells, some wrapped in ResidualCell/ZoneoutCell/
    VariationalDropoutCell, DropoutCells between them."""
    seq = (rnn.HybridSequentialRNNCell if side == "mx" else rt._mx_HybridSequentialRNNCell)()
    size = features
    for i, kind in enumerate(kinds):
        cell = _make_cell(kind, hidden if kind != "LSTMPCell" else hidden, True, size, side)
        out = cell.state_info(1)[0]["shape"][1]
        if wrap == "residual" and out == size:
            cell = (rnn.ResidualCell if side == "mx" else rt._mx_ResidualCell)(cell)
        elif wrap == "zoneout":
            cell = (rnn.ZoneoutCell if side == "mx" else rt._mx_ZoneoutCell)(cell, 0.3, 0.2)
        elif wrap == "vardrop":
            cls = contrib_rnn.VariationalDropoutCell if side == "mx" else rt._mx_VariationalDropoutCell
            cell = cls(cell, 0.2, 0.0, 0.3)
        seq.add(cell)
        if i < len(kinds) - 1:
            seq.add((rnn.DropoutCell if side == "mx" else rt._mx_DropoutCell)(0.4))
        size = out
    return seq


@settings(max_examples=30, **PROFILE)
@given(st.lists(st.sampled_from(["LSTMCell", "GRUCell", "RNNCell", "LSTMPCell"]), min_size=1, max_size=3),
       st.sampled_from([None, "residual", "zoneout", "vardrop"]), st.integers(1, 3), st.integers(1, 4),
       st.sampled_from(["NTC", "TNC"]), st.sampled_from([None, True, False]), st.booleans())
def test_stacked_and_modified_cells_compute_what_gluon_computes(kinds, wrap, batch, steps, layout, merge, valid):
    features = hidden = 4  # equal sizes, so that ResidualCell applies
    mx_seq, pt_seq = (_stack(side, kinds, hidden, features, wrap) for side in ("mx", "pt"))
    c = dict(layout=layout, merge=merge, valid=valid, as_list=False)
    x = floats("x", *((batch, steps, features) if layout == "NTC" else (steps, batch, features)))
    compare(mx_seq, pt_seq, _unroll_call(c, steps), [x] + ([lengths_spec(batch, steps)] if valid else []))


@settings(max_examples=30, **PROFILE)
@given(st.sampled_from(["LSTMCell", "GRUCell", "RNNCell"]), st.integers(1, 3), st.integers(1, 4),
       st.sampled_from(["TNC", "NTC"]), st.sampled_from([None, True, False]), st.booleans(), st.booleans())
def test_bidirectional_cell_computes_what_gluon_computes(kind, batch, steps, layout, merge, valid, given_states):
    if valid and merge is None and layout == "NTC":
        merge = True  # Gluon's merge_outputs=None with valid_length stacks the wrong axis in NTC (see the helper)
    cells = {side: [_make_cell(kind, 3, False, 2, side) for _ in range(2)] for side in ("mx", "pt")}
    mx_bi = rnn.BidirectionalCell(*cells["mx"])
    pt_bi = rt._mx_BidirectionalCell(*cells["pt"])
    c = dict(layout=layout, merge=merge, valid=valid, as_list=False, states=given_states)
    x = floats("x", *((batch, steps, 2) if layout == "NTC" else (steps, batch, 2)))
    specs = [x] + (_state_specs(mx_bi, batch) if given_states else [])
    compare(mx_bi, pt_bi, _unroll_call(c, steps), specs + ([lengths_spec(batch, steps)] if valid else []))


def test_bidirectional_cell_cannot_be_stepped():
    bi = rt._mx_BidirectionalCell(rt._mx_GRUCell(2, input_size=2), rt._mx_GRUCell(2, input_size=2))
    with pytest.raises(NotImplementedError, match="unroll"):
        bi(torch.zeros(1, 2), bi.begin_state(batch_size=1))


def test_a_modified_cell_refuses_its_own_begin_state_as_gluon_does():
    base = rt._mx_LSTMCell(3, input_size=2)
    wrapped = rt._mx_ZoneoutCell(base, 0.5)
    with pytest.raises(AssertionError, match="modifier"):
        base.begin_state(batch_size=2)
    assert [tuple(s.shape) for s in wrapped.begin_state(batch_size=2)] == [(2, 3), (2, 3)]


def test_dropout_cells_drop_only_in_training_mode():
    torch.manual_seed(0)
    cell = rt._mx_DropoutCell(0.5)
    x = torch.ones(200, 10)
    assert torch.equal(cell.eval()(x, [])[0], x)
    dropped = cell.train()(x, [])[0]
    kept = dropped[dropped != 0]
    assert 0.35 < float((dropped == 0).float().mean()) < 0.65 and torch.allclose(kept, torch.full_like(kept, 2.0))
    zone = rt._mx_ZoneoutCell(rt._mx_GRUCell(4, input_size=3), zoneout_outputs=0.5, zoneout_states=0.5).eval()
    plain = rt._mx_GRUCell(4, input_size=3)
    plain.load_state_dict(zone.base_cell.state_dict())
    x = torch.randn(2, 3, 3)
    torch.testing.assert_close(zone.unroll(3, x, merge_outputs=True)[0], plain.unroll(3, x, merge_outputs=True)[0])
    assert not torch.equal(zone.train().unroll(3, x, merge_outputs=True)[0], plain.unroll(3, x, merge_outputs=True)[0])


def test_sequence_last_and_reverse_refuse_lengths_mxnet_reads_past():
    """MXNet reads undefined memory for a length of 0 or past T (measured: 2e20 for length 5 of 4)."""
    x = torch.randn(4, 3, 2)
    for lengths in ([0.0, 2.0, 3.0], [5.0, 2.0, 3.0]):
        with pytest.raises(ValueError, match="lengths"):
            rt._mx_SequenceLast(x, torch.tensor(lengths), use_sequence_length=True)
        with pytest.raises(ValueError, match="lengths"):
            rt._mx_SequenceReverse(x, torch.tensor(lengths), use_sequence_length=True)
    with pytest.raises(ValueError, match="axis"):
        rt._mx_SequenceReverse(x, axis=1)
