"""Gluon's recurrent cells (gluon.rnn RNNCell, LSTMCell, GRUCell, the containers and modifier
cells, contrib.rnn LSTMPCell and VariationalDropoutCell) as torch modules with Gluon's
signatures, step convention and `unroll`.

The converter never imports this module: it copies the text of each `_mx_*` class or
function a converted file needs (see xlate/runtime/__init__.py), so the text may use `torch` and other
`_mx_*` helpers only. tests/test_numeric_rnn.py compares every helper with live MXNet.

Note [recurrent cells]
A Gluon cell step is `out, states = cell(x, states)` with `states` a list (`[h]`, `[h, c]`),
`out` being `states[0]`; `cell.unroll(length, inputs, begin_state=None, layout='NTC',
merge_outputs=None, valid_length=None)` runs it over a sequence given as one array or a list
of per-step arrays, returns a list of per-step outputs unless merge_outputs (None: merged
exactly when `valid_length` is given or a container merged them), and with `valid_length`
zeroes the outputs past each length and returns the states of each sequence's last valid
step. The helpers port Gluon 1.9.1's code (rnn_cell.py) line for line onto torch: the same
order of operations, the same list-or-array rules, SequenceLast/SequenceReverse by index.
RNNCell, LSTMCell and GRUCell subclass torch's cells (tensor names `weight_ih`, `weight_hh`,
`bias_ih`, `bias_hh`; Gluon's `i2h_weight`... read the same tensors), LSTMPCell a one-layer
torch LSTM with `proj_size` (`weight_hr_l0`), so the checker pairs them and a converted
`.params` file loads. Gluon's defaults are kept: `unroll`'s layout is 'NTC' (the fused layers'
is 'TNC'), RNNCell's activation tanh. Dropout (DropoutCell, ZoneoutCell,
VariationalDropoutCell) follows the module's training mode, where MXNet follows
autograd.record(); the random masks differ from MXNet's.
"""
import torch


def _mx_format_sequence(length, inputs, layout, merge, in_layout=None):
    """Gluon's _format_sequence: (inputs as a list of steps or one array, time axis, batch size)."""
    axis, batch_axis = layout.find("T"), layout.find("N")
    in_axis = in_layout.find("T") if in_layout is not None else axis
    if isinstance(inputs, torch.Tensor):
        batch_size = inputs.shape[batch_axis]
        if merge is False:
            if length is not None and length != inputs.shape[in_axis]:
                raise ValueError(f"unroll length {length} != the input's {inputs.shape[in_axis]} steps")
            inputs = list(torch.unbind(inputs, in_axis))
    else:
        if length is not None and len(inputs) != length:
            raise ValueError(f"unroll length {length} != {len(inputs)} input steps")
        batch_size = inputs[0].shape[0]
        if merge is True:
            inputs = torch.stack(list(inputs), axis)
            in_axis = axis
    if isinstance(inputs, torch.Tensor) and axis != in_axis:
        inputs = inputs.transpose(axis, in_axis)
    return inputs, axis, batch_size


def _mx_mask_sequence(data, length, valid_length, time_axis, merge):
    """Gluon's _mask_sequence_variable_length: zeros past each valid length."""
    if not isinstance(data, torch.Tensor):
        data = torch.stack(list(data), time_axis)
    outputs = _mx_sequence_mask(data, valid_length, True, 0.0, time_axis)
    return outputs if merge else list(torch.unbind(outputs, time_axis))


def _mx_sequence_last(stacked, valid_length):
    """MXNet SequenceLast on a time-major stack: each sequence's element at its length - 1."""
    index = valid_length.to(stacked.device).long() - 1
    return stacked[index, torch.arange(stacked.shape[1], device=stacked.device)]


def _mx_reverse_sequences(sequences, unroll_step, valid_length=None):
    """Gluon's _reverse_sequences: the steps reversed, only the valid part of each sequence with
    `valid_length` (MXNet SequenceReverse; the padded steps stay where they are)."""
    if valid_length is None:
        return list(reversed(sequences))
    stacked = torch.stack(list(sequences), 0)
    steps = torch.arange(stacked.shape[0], device=stacked.device)[:, None]
    lengths = valid_length.to(stacked.device).long()[None, :]
    index = torch.where(steps < lengths, lengths - 1 - steps, steps)
    gathered = stacked[index, torch.arange(stacked.shape[1], device=stacked.device)[None, :]]
    return list(torch.unbind(gathered, 0))


def _mx_get_begin_state(cell, begin_state, inputs, batch_size):
    if begin_state is None:
        like = inputs if isinstance(inputs, torch.Tensor) else inputs[0]
        begin_state = cell.begin_state(func=_mx_zeros, batch_size=batch_size, ctx=like.device, dtype=like.dtype)
    return begin_state


def _mx_cell_activation(x, activation):
    """Gluon's RecurrentCell._get_activation: a name, a LeakyReLU block or any callable."""
    if isinstance(activation, str):
        return _mx_activation(x, activation)
    return activation(x)


class _mx_RecurrentCell:
    """What every Gluon cell does besides its step (Note [recurrent cells])."""

    _mx_modified = False
    # Gluon's step counters: `__call__` counts the steps since `reset()` (`unroll` resets), and
    # subclasses name their per-step operators by it (`prefix = 't%d_' % self._counter`)
    _counter = -1
    _init_counter = -1

    def reset(self):
        self._init_counter = -1
        self._counter = -1
        for cell in self.children():
            if isinstance(cell, _mx_RecurrentCell):
                cell.reset()

    def __call__(self, *args, **kwargs):
        self._counter += 1
        return super().__call__(*args, **kwargs)

    def state_info(self, batch_size=0):
        raise NotImplementedError()

    def begin_state(self, batch_size=0, func=_mx_zeros, **kwargs):
        if self._mx_modified:
            raise AssertionError("After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be called "
                                 "directly. Call the modifier cell instead.")
        like = next(iter(self.parameters()), None)
        return _mx_begin_states([info["shape"] for info in self.state_info(batch_size)], func, kwargs, like)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        inputs, axis, batch_size = _mx_format_sequence(length, inputs, layout, False)
        states = _mx_get_begin_state(self, begin_state, inputs, batch_size)
        outputs, all_states = [], []
        for i in range(length):
            output, states = self(inputs[i], states)
            outputs.append(output)
            if valid_length is not None:
                all_states.append(states)
        if valid_length is not None:
            states = [_mx_sequence_last(torch.stack(list(each), 0), valid_length) for each in zip(*all_states)]
            outputs = _mx_mask_sequence(outputs, length, valid_length, axis, True)
        outputs, _, _ = _mx_format_sequence(length, outputs, layout, merge_outputs)
        return outputs, states


class _mx_StepCell(_mx_RecurrentCell, _mx_Deferred):
    """Gluon's RNNCell/LSTMCell/GRUCell on torch's cells: Gluon's names for the tensors, the
    deferred input size, the step returning (output, [states])."""

    _mx_gates = 1

    def _mx_cell(self, hidden_size, input_size, inits, params, activations=None):
        super().__init__(input_size or 1, hidden_size, **({"nonlinearity": activations[0]}
                                                          if self._mx_gates == 1 else {}))
        self._hidden_size, self._input_size = hidden_size, input_size
        self._mx_activations = activations
        if not input_size:
            self.input_size = 0
            self._mx_defer("weight_ih")
        _mx_setup(self, params, dict(zip(("weight_ih", "weight_hh", "bias_ih", "bias_hh"), inits)))

    def _mx_materialize(self, x):
        self.input_size = self._input_size = x.shape[-1]
        self.weight_ih.materialize((self._mx_gates * self.hidden_size, self.input_size))

    def initialize_parameters(self, x, *args, **kwargs):
        if self.has_uninitialized_params():
            with torch.no_grad():
                self._mx_materialize(x)
                self.weight_ih.uniform_(-self.hidden_size ** -0.5, self.hidden_size ** -0.5)

    def _mx_sized_by_loading(self):
        """A deferred size a loaded state_dict gave (torch's lazy load hook sets no input_size)."""
        if not self.input_size and not torch.nn.parameter.is_lazy(self.weight_ih):
            self.input_size = self._input_size = self.weight_ih.shape[1]

    def __call__(self, *args, **kwargs):
        self._mx_sized_by_loading()
        return super().__call__(*args, **kwargs)

    @property
    def i2h_weight(self):
        return self.weight_ih

    @property
    def h2h_weight(self):
        return self.weight_hh

    @property
    def i2h_bias(self):
        return self.bias_ih

    @property
    def h2h_bias(self):
        return self.bias_hh

    def state_info(self, batch_size=0):
        count = 2 if self._mx_gates == 4 else 1
        return [{"shape": (batch_size, self.hidden_size), "__layout__": "NC"} for _ in range(count)]

    def _mx_gates_of(self, inputs, h):
        return (torch.nn.functional.linear(inputs, self.weight_ih, self.bias_ih)
                + torch.nn.functional.linear(h, self.weight_hh, self.bias_hh))


class _mx_RNNCell(_mx_StepCell, torch.nn.RNNCell):
    """Gluon RNNCell: tanh by default; 'relu' is torch's own, other activations are applied
    to the same sum of the two projections."""

    _mx_gates = 1

    def __init__(self, hidden_size, activation="tanh", i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, prefix=None, params=None):
        native = activation if activation in ("tanh", "relu") else "tanh"
        self._mx_cell(hidden_size, input_size, (i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                                                h2h_bias_initializer), params, (native, None))
        self._mx_activations = (activation, None)
        self._activation = activation

    def forward(self, inputs, states):
        if self._activation in ("tanh", "relu"):
            out = super().forward(inputs, states[0])
        else:
            out = _mx_cell_activation(self._mx_gates_of(inputs, states[0]), self._activation)
        return out, [out]


class _mx_LSTMCell(_mx_StepCell, torch.nn.LSTMCell):
    """Gluon LSTMCell: gates i, f, g, o as torch's; states [h, c]."""

    _mx_gates = 4

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, prefix=None, params=None,
                 activation="tanh", recurrent_activation="sigmoid"):
        self._mx_cell(hidden_size, input_size, (i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                                                h2h_bias_initializer), params, (activation, recurrent_activation))
        self._activation, self._recurrent_activation = activation, recurrent_activation

    def forward(self, inputs, states):
        if (self._activation, self._recurrent_activation) == ("tanh", "sigmoid"):
            h, c = super().forward(inputs, (states[0], states[1]))
            return h, [h, c]
        i, f, g, o = self._mx_gates_of(inputs, states[0]).chunk(4, -1)
        act, rec = self._activation, self._recurrent_activation
        c = _mx_cell_activation(f, rec) * states[1] + _mx_cell_activation(i, rec) * _mx_cell_activation(g, act)
        # Gluon applies `activation` to the cell state by name (F.Activation)
        h = _mx_cell_activation(o, rec) * _mx_activation(c, act)
        return h, [h, c]


class _mx_GRUCell(_mx_StepCell, torch.nn.GRUCell):
    """Gluon GRUCell: gates r, z, n and the candidate `tanh(W_in x + b_in + r * (W_hn h + b_hn))` as torch's."""

    _mx_gates = 3

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, prefix=None, params=None):
        self._mx_cell(hidden_size, input_size, (i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                                                h2h_bias_initializer), params, ("tanh", "sigmoid"))

    def forward(self, inputs, states):
        h = super().forward(inputs, states[0])
        return h, [h]


class _mx_LSTMPCell(_mx_RecurrentCell, _mx_Deferred, torch.nn.LSTM):
    """Gluon contrib LSTMPCell: an LSTM step whose output r = W_hr h is also the recurrent
    state; one step of a one-layer torch LSTM with proj_size (tensors `weight_ih_l0`,
    `weight_hh_l0`, `weight_hr_l0`, `bias_ih_l0`, `bias_hh_l0`); states [r, c]."""

    def __init__(self, hidden_size, projection_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 h2r_weight_initializer=None, i2h_bias_initializer="zeros", h2h_bias_initializer="zeros",
                 input_size=0, prefix=None, params=None):
        super().__init__(input_size or 1, hidden_size, 1, proj_size=projection_size)
        self._hidden_size, self._projection_size, self._input_size = hidden_size, projection_size, input_size
        if not input_size:
            self.input_size = 0
            self._mx_defer("weight_ih_l0")
        _mx_setup(self, params, {"weight_ih_l0": i2h_weight_initializer, "weight_hh_l0": h2h_weight_initializer,
                                 "weight_hr_l0": h2r_weight_initializer, "bias_ih_l0": i2h_bias_initializer,
                                 "bias_hh_l0": h2h_bias_initializer})

    def _mx_materialize(self, x):
        self.input_size = self._input_size = x.shape[-1]
        self.weight_ih_l0.materialize((4 * self.hidden_size, self.input_size))

    def initialize_parameters(self, x, *args, **kwargs):
        if self.has_uninitialized_params():
            with torch.no_grad():
                self._mx_materialize(x)
                self.weight_ih_l0.uniform_(-self.hidden_size ** -0.5, self.hidden_size ** -0.5)
                self._init_flat_weights()

    def __call__(self, *args, **kwargs):
        if not self.input_size and not torch.nn.parameter.is_lazy(self.weight_ih_l0):  # sized by loading
            self.input_size = self._input_size = self.weight_ih_l0.shape[1]
        return super().__call__(*args, **kwargs)

    @property
    def i2h_weight(self):
        return self.weight_ih_l0

    @property
    def h2h_weight(self):
        return self.weight_hh_l0

    @property
    def h2r_weight(self):
        return self.weight_hr_l0

    @property
    def i2h_bias(self):
        return self.bias_ih_l0

    @property
    def h2h_bias(self):
        return self.bias_hh_l0

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self.proj_size), "__layout__": "NC"},
                {"shape": (batch_size, self.hidden_size), "__layout__": "NC"}]

    def forward(self, inputs, states):
        out, (r, c) = super().forward(inputs[None], (states[0][None], states[1][None]))
        return out[0], [r[0], c[0]]


def _mx_cells_state_info(cells, batch_size):
    return sum([c.state_info(batch_size) for c in cells], [])


def _mx_cells_begin_state(cells, **kwargs):
    return sum([c.begin_state(**kwargs) for c in cells], [])


class _mx_SequentialRNNCell(_mx_RecurrentCell, torch.nn.Module):
    """Gluon SequentialRNNCell: cells stacked, their states concatenated in one list
    ([h0, c0, h1, c1, ...] for LSTM cells); children are `0`, `1`, ... as in Gluon."""

    def __init__(self, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)

    def add(self, cell):
        self.add_module(str(len(self._modules)), cell)

    append = add

    def __getitem__(self, i):
        return self._modules[str(i)]

    def __len__(self):
        return len(self._modules)

    def state_info(self, batch_size=0):
        return _mx_cells_state_info(self._modules.values(), batch_size)

    def begin_state(self, **kwargs):
        if self._mx_modified:
            raise AssertionError("After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be called "
                                 "directly. Call the modifier cell instead.")
        return _mx_cells_begin_state(self._modules.values(), **kwargs)

    def forward(self, inputs, states):
        next_states, p = [], 0
        for cell in self._modules.values():
            if isinstance(cell, _mx_BidirectionalCell):
                raise AssertionError("a BidirectionalCell cannot be stepped: use unroll")
            n = len(cell.state_info())
            inputs, state = cell(inputs, states[p:p + n])
            p += n
            next_states.append(state)
        return inputs, sum(next_states, [])

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        inputs, _, batch_size = _mx_format_sequence(length, inputs, layout, None)
        num_cells = len(self._modules)
        begin_state = _mx_get_begin_state(self, begin_state, inputs, batch_size)
        p, next_states = 0, []
        for i, cell in enumerate(self._modules.values()):
            n = len(cell.state_info())
            states = begin_state[p:p + n]
            p += n
            inputs, states = cell.unroll(length, inputs=inputs, begin_state=states, layout=layout,
                                         merge_outputs=None if i < num_cells - 1 else merge_outputs,
                                         valid_length=valid_length)
            next_states.extend(states)
        return inputs, next_states


class _mx_HybridSequentialRNNCell(_mx_SequentialRNNCell):
    """Gluon HybridSequentialRNNCell: the same as SequentialRNNCell in torch."""


class _mx_DropoutCell(_mx_RecurrentCell, torch.nn.Dropout):
    """Gluon DropoutCell(rate, axes): dropout on the step's input, states passed through; a mask
    shared along `axes` (MXNet's Dropout)."""

    def __init__(self, rate, axes=(), prefix=None, params=None):
        if not isinstance(rate, (int, float)):
            raise TypeError("rate must be a number")
        super().__init__(rate)
        _mx_no_params(params)
        self._rate, self._axes = rate, tuple(axes)

    def state_info(self, batch_size=0):
        return []

    def forward(self, inputs, states):
        if self.p > 0:
            inputs = _mx_dropout(inputs, p=self.p, axes=self._axes, training=self.training)
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        inputs, _, _ = _mx_format_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, torch.Tensor):
            return self(inputs, begin_state if begin_state else [])
        return _mx_RecurrentCell.unroll(self, length, inputs, begin_state=begin_state, layout=layout,
                                        merge_outputs=merge_outputs, valid_length=None)


class _mx_HybridRecurrentCell(_mx_RecurrentCell, torch.nn.Module):
    """Gluon's RecurrentCell / HybridRecurrentCell as the base class of a package's own cell: a
    torch module with Gluon's reset, begin_state and unroll (which steps `self`); the step is the
    subclass's forward (its hybrid_forward, converted), its state_info the subclass's own."""

    def __init__(self, prefix=None, params=None):
        super().__init__()


class _mx_ModifierCell(_mx_RecurrentCell, torch.nn.Module):
    """Gluon ModifierCell: wraps `base_cell` (child `base_cell`), which can then no longer be
    stepped on its own."""

    def __init__(self, base_cell):
        if base_cell._mx_modified:
            raise AssertionError("Cell is already modified. One cell cannot be modified twice")
        super().__init__()
        base_cell._mx_modified = True
        self.base_cell = base_cell

    def state_info(self, batch_size=0):
        return self.base_cell.state_info(batch_size)

    def begin_state(self, func=_mx_zeros, **kwargs):
        if self._mx_modified:
            raise AssertionError("After applying modifier cells (e.g. DropoutCell) the base cell cannot be called "
                                 "directly. Call the modifier cell instead.")
        self.base_cell._mx_modified = False
        try:
            return self.base_cell.begin_state(func=func, **kwargs)
        finally:
            self.base_cell._mx_modified = True


class _mx_ResidualCell(_mx_ModifierCell):
    """Gluon ResidualCell: the base cell's output plus its input."""

    def forward(self, inputs, states):
        output, states = self.base_cell(inputs, states)
        return output + inputs, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        self.base_cell._mx_modified = False
        try:
            outputs, states = self.base_cell.unroll(length, inputs=inputs, begin_state=begin_state, layout=layout,
                                                    merge_outputs=merge_outputs, valid_length=valid_length)
        finally:
            self.base_cell._mx_modified = True
        merge_outputs = isinstance(outputs, torch.Tensor) if merge_outputs is None else merge_outputs
        inputs, axis, _ = _mx_format_sequence(length, inputs, layout, merge_outputs)
        if valid_length is not None:
            inputs = _mx_mask_sequence(inputs, length, valid_length, axis, merge_outputs)
        if merge_outputs:
            return outputs + inputs, states
        return [i + j for i, j in zip(outputs, inputs)], states


class _mx_ZoneoutCell(_mx_ModifierCell):
    """Gluon ZoneoutCell: in training, each output (state) element keeps its previous value
    with probability zoneout_outputs (zoneout_states); at inference the base cell itself."""

    def __init__(self, base_cell, zoneout_outputs=0.0, zoneout_states=0.0):
        if isinstance(base_cell, _mx_BidirectionalCell):
            raise AssertionError("BidirectionalCell doesn't support zoneout since it doesn't support step. "
                                 "Please add ZoneoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.zoneout_outputs, self.zoneout_states = zoneout_outputs, zoneout_states
        self._prev_output = None

    def reset(self):
        super().reset()
        self._prev_output = None

    def _mx_mask(self, p, like):
        return _mx_dropout(torch.ones_like(like), p=p, training=self.training) != 0

    def forward(self, inputs, states):
        next_output, next_states = self.base_cell(inputs, states)
        prev_output = self._prev_output if self._prev_output is not None else torch.zeros_like(next_output)
        output = (torch.where(self._mx_mask(self.zoneout_outputs, next_output), next_output, prev_output)
                  if self.zoneout_outputs != 0.0 else next_output)
        if self.zoneout_states != 0.0:
            next_states = [torch.where(self._mx_mask(self.zoneout_states, new), new, old)
                           for new, old in zip(next_states, states)]
        self._prev_output = output
        return output, next_states


class _mx_VariationalDropoutCell(_mx_ModifierCell):
    """Gluon contrib VariationalDropoutCell: one dropout mask per unroll (or until reset())
    for the inputs, the first state and the outputs."""

    def __init__(self, base_cell, drop_inputs=0.0, drop_states=0.0, drop_outputs=0.0):
        if drop_states and isinstance(base_cell, _mx_BidirectionalCell):
            raise AssertionError("BidirectionalCell doesn't support variational state dropout. Please add "
                                 "VariationalDropoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.drop_inputs, self.drop_states, self.drop_outputs = drop_inputs, drop_states, drop_outputs
        self.drop_inputs_mask = self.drop_states_mask = self.drop_outputs_mask = None

    def reset(self):
        super().reset()
        self.drop_inputs_mask = self.drop_states_mask = self.drop_outputs_mask = None

    def _mx_drop(self, like, p):
        return _mx_dropout(torch.ones_like(like), p=p, training=self.training)

    def forward(self, inputs, states):
        if self.drop_states and self.drop_states_mask is None:
            self.drop_states_mask = self._mx_drop(states[0], self.drop_states)
        if self.drop_inputs and self.drop_inputs_mask is None:
            self.drop_inputs_mask = self._mx_drop(inputs, self.drop_inputs)
        if self.drop_states:
            states = list(states)
            states[0] = states[0] * self.drop_states_mask
        if self.drop_inputs:
            inputs = inputs * self.drop_inputs_mask
        next_output, next_states = self.base_cell(inputs, states)
        if self.drop_outputs and self.drop_outputs_mask is None:
            self.drop_outputs_mask = self._mx_drop(next_output, self.drop_outputs)
        if self.drop_outputs:
            next_output = next_output * self.drop_outputs_mask
        return next_output, next_states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        if self.drop_states:
            return _mx_RecurrentCell.unroll(self, length, inputs, begin_state, layout, merge_outputs,
                                            valid_length=valid_length)
        self.reset()
        inputs, axis, batch_size = _mx_format_sequence(length, inputs, layout, True)
        states = _mx_get_begin_state(self, begin_state, inputs, batch_size)
        if self.drop_inputs:
            inputs = _mx_dropout(inputs, p=self.drop_inputs, axes=(axis,), training=self.training)
        outputs, states = self.base_cell.unroll(length, inputs, states, layout, merge_outputs=True,
                                                valid_length=valid_length)
        if self.drop_outputs:
            outputs = _mx_dropout(outputs, p=self.drop_outputs, axes=(axis,), training=self.training)
        merge_outputs = isinstance(outputs, torch.Tensor) if merge_outputs is None else merge_outputs
        outputs, _, _ = _mx_format_sequence(length, outputs, layout, merge_outputs)
        if valid_length is not None:
            outputs = _mx_mask_sequence(outputs, length, valid_length, axis, merge_outputs)
        return outputs, states


class _mx_BidirectionalCell(_mx_RecurrentCell, torch.nn.Module):
    """Gluon BidirectionalCell(l_cell, r_cell): unroll only; outputs concatenated on the
    feature axis, states [l_states..., r_states...]; with valid_length the right cell reads
    each sequence's valid part reversed."""

    def __init__(self, l_cell, r_cell, output_prefix="bi_"):
        super().__init__()
        self.l_cell, self.r_cell = l_cell, r_cell
        self._output_prefix = output_prefix

    def forward(self, inputs, states):
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")

    def state_info(self, batch_size=0):
        return _mx_cells_state_info([self.l_cell, self.r_cell], batch_size)

    def begin_state(self, **kwargs):
        if self._mx_modified:
            raise AssertionError("After applying modifier cells (e.g. DropoutCell) the base cell cannot be called "
                                 "directly. Call the modifier cell instead.")
        return _mx_cells_begin_state([self.l_cell, self.r_cell], **kwargs)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        inputs, axis, batch_size = _mx_format_sequence(length, inputs, layout, False)
        reversed_inputs = _mx_reverse_sequences(inputs, length, valid_length)
        states = _mx_get_begin_state(self, begin_state, inputs, batch_size)
        n = len(self.l_cell.state_info(batch_size))
        l_outputs, l_states = self.l_cell.unroll(length, inputs=inputs, begin_state=states[:n], layout=layout,
                                                 merge_outputs=merge_outputs, valid_length=valid_length)
        r_outputs, r_states = self.r_cell.unroll(length, inputs=reversed_inputs, begin_state=states[n:],
                                                 layout=layout, merge_outputs=False, valid_length=valid_length)
        reversed_r_outputs = _mx_reverse_sequences(r_outputs, length, valid_length)
        if merge_outputs is None:
            merge_outputs = isinstance(l_outputs, torch.Tensor)
            l_outputs, _, _ = _mx_format_sequence(None, l_outputs, layout, merge_outputs)
            reversed_r_outputs, _, _ = _mx_format_sequence(None, reversed_r_outputs, layout, merge_outputs)
        if merge_outputs:
            # as Gluon: `F.stack(*outputs)` iterates axis 0 of an array that is already merged (with
            # valid_length in NTC layout that garbles or fails in MXNet and here alike)
            reversed_r_outputs = torch.stack(list(reversed_r_outputs), axis)
            outputs = torch.cat([l_outputs, reversed_r_outputs], 2)
        else:
            outputs = [torch.cat([l_o, r_o], 1) for l_o, r_o in zip(l_outputs, reversed_r_outputs)]
        if valid_length is not None:
            outputs = _mx_mask_sequence(outputs, length, valid_length, axis, merge_outputs)
        return outputs, l_states + r_states
