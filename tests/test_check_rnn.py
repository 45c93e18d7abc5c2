"""The recurrent families (xlate/check/rnn.py), checked against live MXNet.

For every sample configuration the Gluon block is built, initialised, run once (Gluon defers
the input size), and every parameter is overwritten with random asymmetric non-zero values.
The correct torch translation (sequence.md sections 1-3: `batch_first` for NTC, the RNN
activation spelled out, states `(L*D, N, H)` in both layouts) receives them through
`mapping.transfer`; outputs, returned states, input and state gradients and every parameter
gradient (MXNet's through the family's `to_pt`) must agree within the float32 tolerance.
Gradients come from one scalar loss `sum(out*g) + sum(state_i*g_i)` with random g: an MXNet
cell returns the same array as its output and `states[0]`, so per-array head gradients would
count it twice.

The traps below are translations that are wrong; the checker must reject each of them, by a
MappingError when the weights cannot pair, by a Mismatch when only the numbers can tell.
"""
from __future__ import annotations

import re

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch, make_input, seed_for

np = import_numpy()
mx = import_mxnet()
torch = import_torch()

from xlate.check import mapping, rnn  # noqa: E402  (after the skips: mapping needs numpy)
from xlate.check.compare import Mismatch, compare, tolerance_for  # noqa: E402

pytestmark = [pytest.mark.mxnet,
              pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")]

T, N, C, H = 5, 3, 4, 6  # T != N, so a layout mix-up that still runs changes the state shapes


# -- building both sides -------------------------------------------------------------------------
def _values(rng, shape, scale=0.4):
    return make_input(rng, tuple(shape)) * np.float32(scale)


def mx_block(s: rnn.RNNSample, rng, x):
    """The Gluon block (built by rnn.gluon_block), initialised, run once on `x`, every parameter
    then overwritten."""
    block = rnn.gluon_block(s, hidden=H)
    block.initialize()
    first = mx.nd.array(x)
    if s.kind == "layer":
        block(first)
    elif s.kind == "cell":
        block(first, block.begin_state(batch_size=N))
    else:
        block.unroll(first.shape[s.layout.index("T")], first, layout=s.layout)
    for p in block.collect_params().values():
        p.set_data(mx.nd.array(_values(rng, p.shape)))
    return block


def state_shapes(s: rnn.RNNSample) -> list:
    return rnn.state_shapes(s, batch=N, hidden=H)


mx_run = rnn.gluon_run
pt_run = rnn.torch_run


def pt_module(s: rnn.RNNSample, **wrong):
    """The correct torch translation; the keywords build the wrong ones for the traps."""
    return rnn.torch_module(s, input_size=C, hidden=H, **wrong)


# -- running a sample -----------------------------------------------------------------------------
class Case:
    """One sample with its seeded inputs, the MXNet block and a paired torch module."""

    def __init__(self, s: rnn.RNNSample, *, steps: int = T, **wrong):
        self.s = s
        rng = np.random.default_rng(seed_for(s.id))
        shape = {"TNC": (steps, N, C), "NTC": (N, steps, C)}[s.layout] if s.kind != "cell" else (N, C)
        self.x = make_input(rng, shape)
        self.states = [_values(rng, sh, 0.8) for sh in state_shapes(s)] if s.states == "random" else None
        out_shape = (shape[:-1] + ((2 if s.bidirectional else 1) * (s.projection or H),))
        self.heads = [make_input(rng, out_shape)] + [make_input(rng, sh) for sh in state_shapes(s)]
        self.mx = mx_block(s, rng, self.x)
        self.pt = pt_module(s, **wrong)

    def transfer(self):
        self.pairs = mapping.transfer(self.mx, self.pt)
        return self

    @property
    def tol(self):
        return tolerance_for("float32", self.pairs[0].family.tolerance)

    def forward(self, *, grad: bool):
        """Run both sides; returns {name: (mxnet, torch)} numpy arrays."""
        mx_x = mx.nd.array(self.x)
        mx_states = None if self.states is None else [mx.nd.array(a) for a in self.states]
        pt_x = torch.from_numpy(self.x.copy()).requires_grad_(grad)
        pt_states = None if self.states is None else [
            torch.from_numpy(a.copy()).requires_grad_(grad) for a in self.states]
        if grad:
            for a in [mx_x] + (mx_states or []):
                a.attach_grad()
            with mx.autograd.record():
                mx_out, mx_new = mx_run(self.s, self.mx, mx_x, mx_states)
                loss = self._loss(mx_out, mx_new, mx.nd.array)
            loss.backward()
            pt_out, pt_new = pt_run(self.s, self.pt, pt_x, pt_states)
            self._loss(pt_out, pt_new, torch.from_numpy).backward()
        else:
            mx_out, mx_new = mx_run(self.s, self.mx, mx_x, mx_states)
            with torch.no_grad():
                pt_out, pt_new = pt_run(self.s, self.pt, pt_x, pt_states)
        got = {"output": (mx_out.asnumpy(), pt_out.detach().numpy())}
        assert len(mx_new) == len(pt_new), f"MXNet returns {len(mx_new)} states, torch {len(pt_new)}"
        got.update({f"state[{i}]": (m.asnumpy(), p.detach().numpy()) for i, (m, p) in enumerate(zip(mx_new, pt_new))})
        if grad:
            got["input grad"] = (mx_x.grad.asnumpy(), pt_x.grad.numpy())
            for i, (m, p) in enumerate(zip(mx_states or [], pt_states or [])):
                got[f"state[{i}] grad"] = (m.grad.asnumpy(), p.grad.numpy())
            for pr in self.pairs:
                pt_params = dict(pr.pt_module.named_parameters())
                for m in pr.maps:
                    mx_grad = pr.mx_block._reg_params[m.mx].grad().asnumpy()
                    got[f"{m.mx} -> {m.pt} grad"] = (mapping.mx_to_pt_value(m, mx_grad, pr),
                                                     pt_params[m.pt].grad.numpy())
        return got

    def _loss(self, out, states, array):
        # only as many states as this call returns (none for a layer called without states)
        terms = [(out * array(self.heads[0])).sum()]
        terms += [(st * array(h)).sum() for st, h in zip(states, self.heads[1:])]
        return sum(terms[1:], terms[0])

    def mismatches(self, *, grad: bool) -> list[Mismatch]:
        got = self.forward(grad=grad)
        found = [compare(what, e, a, self.tol) for what, (e, a) in got.items()]
        return [m for m in found if m is not None]


def _report(found: list[Mismatch]) -> str:
    return "\n".join(m.format() for m in found)


SAMPLES = rnn.LAYER_SAMPLES + rnn.PROJECTION_SAMPLES + rnn.CELL_SAMPLES


@pytest.mark.parametrize("s", SAMPLES, ids=lambda s: s.id)
def test_translation_matches(s):
    case = Case(s).transfer()
    assert not (found := case.mismatches(grad=False)), _report(found)
    if s.backward:
        assert not (found := case.mismatches(grad=True)), _report(found)


def test_every_parameter_is_mapped_and_random():
    """The samples exercise every row of both tables, with values no initialiser gives."""
    seen = set()
    for s in rnn.LAYER_SAMPLES[::7] + rnn.PROJECTION_SAMPLES[-1:] + rnn.CELL_SAMPLES[::3]:
        case = Case(s).transfer()
        for pr in case.pairs:
            assert {m.mx for m in pr.maps} == set(pr.mx_block._reg_params)
            for m in pr.maps:
                value = pr.mx_block._reg_params[m.mx].data().asnumpy()
                assert (value != 0).all() and len(np.unique(value)) > value.size // 2
                seen.add(re.sub(r"_l\d+(_reverse)?$", "", m.pt))
    assert seen >= {"weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr"}


def test_families_are_registered():
    from xlate.check import families

    assert families.rnn is rnn
    assert mapping.FAMILIES["rnn layers"] is rnn.RNN_LAYERS
    assert mapping.FAMILIES["rnn cells"] is rnn.RNN_CELLS
    for name in ("RNN", "LSTM", "GRU"):
        assert mapping.family_of(getattr(mx.gluon.rnn, name)(H)) is rnn.RNN_LAYERS
    for name in ("RNNCell", "LSTMCell", "GRUCell"):
        assert mapping.family_of(getattr(mx.gluon.rnn, name)(H)) is rnn.RNN_CELLS
    assert rnn.RNN_LAYERS.tolerance is None and rnn.RNN_CELLS.tolerance is None


# -- wrong translations are caught ----------------------------------------------------------------
def _values_mismatch(case: Case, *, grad: bool = False) -> list[Mismatch]:
    found = case.mismatches(grad=grad)
    assert found, f"{case.s.id}: a wrong translation passed the check"
    return found


def test_ntc_without_batch_first_is_caught():
    # T == N: the wrong module runs and returns the right shapes; only the values differ
    s = rnn.RNNSample("lstm", "layer", 1, False, "NTC", "random")
    found = _values_mismatch(Case(s, steps=N, batch_first=False).transfer(), grad=True)
    assert {m.reason for m in found} == {"values"}
    assert "output" in {m.what for m in found}


def test_ntc_without_batch_first_changes_state_shapes():
    s = rnn.RNNSample("gru", "layer", 2, True, "NTC", "random")
    with pytest.raises(RuntimeError):  # torch reads (N, T, C) as (T=N, N=T, C): h0's batch is wrong
        Case(s, batch_first=False).transfer().mismatches(grad=False)
    s = rnn.RNNSample("gru", "layer", 2, True, "NTC", None)
    found = _values_mismatch(Case(s, batch_first=False).transfer())
    assert [m.what for m in found] == ["output"]


def _wrong_copy(case: Case, change) -> Case:
    """Transfer correctly, then apply `change(name, tensor)` to every torch parameter."""
    case.transfer()
    with torch.no_grad():
        for name, p in case.pt.named_parameters():
            change(name, p)
    return case


def test_gru_with_merged_biases_is_caught():
    def merge(name, p):  # torch holds b_ih + b_hh in bias_ih and zeros in bias_hh
        if name.startswith("bias_ih"):
            p += getattr(case.pt, name.replace("bias_ih", "bias_hh"))
        elif name.startswith("bias_hh"):
            p.zero_()

    case = Case(rnn.RNNSample("gru", "layer", 2, True, "TNC", "random"))
    found = _values_mismatch(_wrong_copy(case, merge), grad=True)
    assert any(m.what == "output" for m in found), _report(found)
    # the same merge is harmless for an LSTM (both biases add before the gates), so the check is
    # not merely sensitive to any change of the biases
    case = Case(rnn.RNNSample("lstm", "layer", 2, True, "TNC", "random"))
    assert not (found := _wrong_copy(case, merge).mismatches(grad=False)), _report(found)


def test_lstm_gates_permuted_is_caught():
    def swap_i_f(name, p):  # the 4H axis is [i, f, g, o]; exchange the i and f blocks
        if not name.startswith("weight_hr"):
            p.copy_(torch.cat([p[H:2 * H], p[:H], p[2 * H:]]))

    case = Case(rnn.RNNSample("lstm", "layer", 1, False, "TNC", "random"))
    found = _values_mismatch(_wrong_copy(case, swap_i_f), grad=True)
    assert any(m.what == "output" for m in found), _report(found)
    cell = Case(rnn.RNNSample("lstm", "cell", states="random"))
    _values_mismatch(_wrong_copy(cell, swap_i_f))


def test_gluon_rnn_relu_translated_as_tanh_is_caught():
    s = rnn.RNNSample("rnn_relu", "layer", 2, False, "TNC", "random")
    # the pairing refuses it, and says what to write
    with pytest.raises(mapping.MappingError, match=r"rnn_relu.*RNN_TANH.*nonlinearity='relu'"):
        Case(s, nonlinearity="tanh").transfer()
    # and were the weights copied anyway, the numbers would tell
    right = Case(s).transfer()
    wrong = pt_module(s, nonlinearity="tanh")
    wrong.load_state_dict(right.pt.state_dict())
    right.pt = right.pairs[0].pt_module = wrong
    found = _values_mismatch(right, grad=True)
    assert any(m.what == "output" for m in found), _report(found)


def test_rnn_cell_activation_mismatch_is_caught():
    with pytest.raises(mapping.MappingError, match=r"relu.*tanh.*nonlinearity='relu'"):
        Case(rnn.RNNSample("rnn_relu", "cell", states="random"), nonlinearity="tanh").transfer()
    with pytest.raises(mapping.MappingError, match=r"tanh.*relu.*nonlinearity='tanh'"):
        Case(rnn.RNNSample("rnn_tanh", "cell", states="random"), nonlinearity="relu").transfer()
    cell = mx.gluon.rnn.LSTMCell(H, recurrent_activation="tanh")
    cell.initialize()
    cell(mx.nd.ones((N, C)), cell.begin_state(batch_size=N))
    with pytest.raises(mapping.MappingError, match="no such cell"):
        mapping.pair(cell, torch.nn.LSTMCell(C, H))


def test_bidirectional_paired_with_unidirectional_is_caught():
    s = rnn.RNNSample("lstm", "layer", 2, True, "TNC", None)
    with pytest.raises(mapping.MappingError) as err:
        Case(s, bidirectional=False).transfer()
    message = str(err.value)
    for k in (0, 1):
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            assert f"{name}_l{k}_reverse" in message, message
    # the other way round names torch's parameters that nothing fills
    s = rnn.RNNSample("gru", "layer", 1, False, "TNC", None)
    with pytest.raises(mapping.MappingError, match="bias_hh_l0_reverse.*weight_ih_l0_reverse"):
        Case(s, bidirectional=True).transfer()


def test_projection_and_layer_count_mismatches_are_caught():
    s = rnn.RNNSample("lstm", "layer", 1, False, "TNC", None, projection=3)
    case = Case(s)
    with pytest.raises(mapping.MappingError, match="weight_hr_l0"):
        mapping.pair(case.mx, torch.nn.LSTM(C, H))
    case = Case(rnn.RNNSample("gru", "layer", 2, False, "TNC", None))
    with pytest.raises(mapping.MappingError, match="bias_hh_l1.*weight_ih_l1"):
        mapping.pair(case.mx, torch.nn.GRU(C, H, 1))


def test_mode_mismatches_are_caught():
    case = Case(rnn.RNNSample("lstm", "layer", 1, False, "TNC", None))
    with pytest.raises(mapping.MappingError, match="'lstm'.*GRU"):
        mapping.pair(case.mx, torch.nn.GRU(C, H))
    case = Case(rnn.RNNSample("gru", "cell", states="begin"))
    with pytest.raises(mapping.MappingError, match="GRUCell.*paired with torch LSTMCell"):
        mapping.pair(case.mx, torch.nn.LSTMCell(C, H))
    # a layer is not a cell: the family's torch types differ
    with pytest.raises(mapping.MappingError, match="expected one of RNNCell, LSTMCell, GRUCell"):
        mapping.pair(case.mx, torch.nn.GRU(C, H))


def test_projection_samples_are_forward_only_because_mxnet_cpu_cannot_train_them():
    """If a later MXNet can, the projection samples should check gradients too."""
    case = Case(rnn.PROJECTION_SAMPLES[0])
    x = mx.nd.array(case.x)
    x.attach_grad()
    with pytest.raises(mx.base.MXNetError, match="No training support for LSTM with projection"):
        with mx.autograd.record():
            out = case.mx(x)
        out.backward()
        mx.nd.waitall()
