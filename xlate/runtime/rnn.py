"""Gluon's fused recurrent layers (gluon.rnn.RNN, LSTM, GRU) as torch modules that take Gluon's
constructor arguments and follow Gluon's call convention.

The converter never imports this module: it copies the text of each `_mx_*` class or
function a converted file needs (see xlate/runtime/__init__.py), so the text may use `torch` and other
`_mx_*` helpers only. tests/test_numeric_rnn.py compares every helper with live MXNet.

Note [recurrent call convention]
Gluon's `layer(x)` returns the output alone and `layer(x, states)` returns `(output, states)`,
the states a list (`[h, c]` for an LSTM, `[h]` otherwise, even when a bare array was passed);
torch's modules always return `(output, h_n)` or `(output, (h_n, c_n))`. The helpers subclass
torch's RNN/LSTM/GRU (so `weight_ih_l0`, the state_dict keys and `isinstance(m, nn.LSTM)` are
torch's) and their `forward` takes and returns what Gluon's does, so converted call sites
need no rewriting: `out, states = lstm(x, states)`, `states[0]`, states passed on to the next
call. States are `(L*D, N, H)` in both frameworks for either layout, and the weights need no
permutation or transpose (gate order i, f, g, o and r, z, n in both; sequence.md section 1).
`begin_state(batch_size, func, ctx=...)` gives Gluon's list of start states on the device
asked for (by default the layer's own).

Gluon's deferred `input_size=0` makes the first layer's input weights lazy: they take their
size from the first input, like the lazy layers (`_mx_Deferred`). Options MXNet honours only
with cuDNN (`use_sequence_length=True` with `sequence_length`, LSTM `state_clip_min/max`) get
cuDNN's meaning: padded steps give zero outputs and leave the states alone (the reverse
direction starts at each sequence's last valid step), the cell state is clipped at every
step before the output is computed. MXNet's CPU kernel ignores both, so no CPU reference
confirms them; the rules say so. Inter-layer dropout applies in training mode, as on GPU
(MXNet's default CPU kernel never applies it).
"""
import torch


def _mx_state_like(shape, ctx, dtype, like):
    """(device, dtype) for a start state: `ctx`/`dtype` when given, else those of `like`."""
    device = ctx if ctx is not None else getattr(like, "device", None)
    chosen = _mx_dtype(dtype) if dtype is not None else getattr(like, "dtype", torch.float32)
    return device, chosen


def _mx_zeros(shape, ctx=None, dtype=None, stype=None, **kwargs):
    """`nd.zeros` passed as a value (`begin_state(func=mx.nd.zeros)`): MXNet's signature,
    float32 unless told, on `ctx` (a torch device). Gluon also passes `name=`/`__layout__=`,
    which only name the array."""
    if stype not in (None, "default"):
        raise NotImplementedError(f"stype={stype!r}: sparse arrays are not translated")
    return torch.zeros(shape, dtype=_mx_dtype(dtype) or torch.float32, device=ctx)


def _mx_ones(shape, ctx=None, dtype=None, stype=None, **kwargs):
    """`nd.ones` passed as a value: MXNet's signature, float32 unless told, on `ctx`."""
    if stype not in (None, "default"):
        raise NotImplementedError(f"stype={stype!r}: sparse arrays are not translated")
    return torch.ones(shape, dtype=_mx_dtype(dtype) or torch.float32, device=ctx)


def _mx_begin_states(shapes, func, kwargs, like):
    """Gluon's begin_state: one array per shape, made by `func` as Gluon calls it
    (`func(shape=..., ctx=..., dtype=..., **kwargs)`); torch's own factories
    (`torch.zeros`, ...) are called torch's way."""
    kwargs = dict(kwargs)
    ctx, dtype = kwargs.pop("ctx", None), kwargs.pop("dtype", None)
    device, chosen = _mx_state_like(None, ctx, dtype, like)
    func = _mx_zeros if func is None else func
    states = []
    for shape in shapes:
        if func in (torch.zeros, torch.ones, torch.empty, torch.rand, torch.randn):
            states.append(func(shape, dtype=chosen, device=device, **kwargs))
        else:
            states.append(func(shape=shape, ctx=device, dtype=chosen, **kwargs))
    return states


class _mx_RNNLayer(_mx_Deferred):
    """What Gluon's RNN, LSTM and GRU share (Note [recurrent call convention]); the classes
    below fix Gluon's signatures."""

    def _mx_rnn(self, mode, hidden_size, num_layers, layout, dropout, bidirectional, input_size, inits,
                projection_size, clip, dtype, kwargs):
        extra = dict(kwargs)
        self._mx_use_sequence_length = bool(extra.pop("use_sequence_length", False))
        params = extra.pop("params", None)
        extra.pop("prefix", None)
        if extra:
            raise TypeError(f"unexpected arguments {sorted(extra)} (Gluon passes these to HybridBlock)")
        if layout not in ("TNC", "NTC"):
            raise ValueError(f"Invalid layout {layout}; must be one of ['TNC' or 'NTC']")
        if clip[2] and (clip[0] is not None or clip[1] is not None):
            raise NotImplementedError("state_clip_nan=True is not translated: cuDNN's NaN handling could not be "
                                      "measured; clip the NaNs by hand")
        options = {"nonlinearity": mode[4:]} if mode.startswith("rnn_") else {}
        if mode == "lstm":
            options["proj_size"] = projection_size or 0
        # dropout is set afterwards: torch warns about it on one layer, where both ignore it
        super().__init__(input_size or 1, hidden_size, num_layers, bias=True, batch_first=layout == "NTC",
                         dropout=0.0, bidirectional=bidirectional, dtype=_mx_dtype(dtype), **options)
        self.dropout = float(dropout)
        self._mode, self._layout, self._hidden_size, self._num_layers = mode, layout, hidden_size, num_layers
        self._dropout, self._dir, self._input_size = dropout, 2 if bidirectional else 1, input_size
        self._projection_size = projection_size or None
        self._lstm_state_clip_min, self._lstm_state_clip_max, self._lstm_state_clip_nan = clip
        self._mx_state_clip = clip[0] is not None or clip[1] is not None
        if not input_size:
            self.input_size = 0
            self._mx_defer(*self._mx_first_layer())
        names = {}
        for name in self._flat_weights_names:
            kind = name.split("_l")[0]  # weight_ih, weight_hh, bias_ih, bias_hh, weight_hr
            names[name] = inits[{"weight_ih": 0, "weight_hh": 1, "bias_ih": 2, "bias_hh": 3, "weight_hr": 4}[kind]]
        _mx_setup(self, params, names)

    def _mx_first_layer(self):
        return ["weight_ih_l0"] + (["weight_ih_l0_reverse"] if self.bidirectional else [])

    def _mx_materialize(self, x):
        gates = {"LSTM": 4, "GRU": 3}.get(self.mode, 1)
        self.input_size = self._input_size = x.shape[-1]
        for name in self._mx_first_layer():
            getattr(self, name).materialize((gates * self.hidden_size, self.input_size))

    def initialize_parameters(self, x, *args, **kwargs):
        # only the new tensors get torch's draw: the others may hold Gluon's initial values already
        if self.has_uninitialized_params():
            with torch.no_grad():
                self._mx_materialize(x)
                bound = self.hidden_size ** -0.5
                for name in self._mx_first_layer():
                    getattr(self, name).uniform_(-bound, bound)
                self._init_flat_weights()

    # Gluon's parameter names read the torch tensors (`layer.l0_i2h_weight` is `weight_ih_l0`)
    def __getattr__(self, name):
        parts = name.split("_")
        if len(parts) == 3 and parts[0][:1] in ("l", "r") and parts[0][1:].isdigit() \
                and parts[1] in ("i2h", "h2h", "h2r") and parts[2] in ("weight", "bias"):
            kind = {"i2h": "ih", "h2h": "hh", "h2r": "hr"}[parts[1]]
            suffix = "_reverse" if parts[0][0] == "r" else ""
            return super().__getattr__(f"{parts[2]}_{kind}_l{parts[0][1:]}{suffix}")
        return super().__getattr__(name)

    def state_info(self, batch_size=0):
        ld = self.num_layers * (2 if self.bidirectional else 1)
        if self.mode == "LSTM":
            return [{"shape": (ld, batch_size, self.proj_size or self.hidden_size), "__layout__": "LNC"},
                    {"shape": (ld, batch_size, self.hidden_size), "__layout__": "LNC"}]
        return [{"shape": (ld, batch_size, self.hidden_size), "__layout__": "LNC"}]

    def begin_state(self, batch_size=0, func=_mx_zeros, **kwargs):
        """Gluon's start states: zeros (or `func`'s) of shape (L*D, N, H) each, in a list."""
        if not batch_size:
            raise ValueError("begin_state needs batch_size (MXNet fails on 0, its 'unknown size')")
        shapes = [info["shape"] for info in self.state_info(batch_size)]
        return _mx_begin_states(shapes, func, kwargs, self.weight_hh_l0)

    def _mx_sized_by_loading(self):
        """A deferred size a loaded state_dict gave (torch's lazy load hook sets no input_size)."""
        if not self.input_size and not torch.nn.parameter.is_lazy(self.weight_ih_l0):
            self.input_size = self._input_size = self.weight_ih_l0.shape[1]

    def forward(self, inputs, states=None, sequence_length=None):
        self._mx_sized_by_loading()
        skip_states = states is None
        if states is not None:
            states = [states] if isinstance(states, torch.Tensor) else list(states)
            batch = inputs.shape[self._layout.find("N")]
            expected = [info["shape"] for info in self.state_info(batch)]
            if len(states) != len(expected):
                raise ValueError(f"{self._mode} takes {len(expected)} states, got {len(states)}")
            for state, shape in zip(states, expected):
                if tuple(state.shape) != shape:
                    raise ValueError(f"Invalid recurrent state shape. Expecting {shape}, got {tuple(state.shape)}.")
            hx = tuple(states) if self.mode == "LSTM" else states[0]
        else:
            hx = None
        if self._mx_use_sequence_length and sequence_length is None:
            raise ValueError("use_sequence_length=True needs the sequence_length argument")
        if self._mx_use_sequence_length or self._mx_state_clip:
            out, new = self._mx_loop(inputs, hx, sequence_length if self._mx_use_sequence_length else None)
        else:
            out, new = super().forward(inputs, hx)
        new = list(new) if self.mode == "LSTM" else [new]
        return out if skip_states else (out, new)

    def _mx_loop(self, inputs, hx, lengths):
        """The recurrence step by step, for what torch's fused kernel lacks (cuDNN's lengths
        and state clipping); same weights, same gates."""
        x = inputs.transpose(0, 1) if self.batch_first else inputs
        steps, batch = x.shape[0], x.shape[1]
        lstm, directions = self.mode == "LSTM", 2 if self.bidirectional else 1
        size = (self.proj_size or self.hidden_size) if lstm else self.hidden_size
        if hx is None:
            zeros = x.new_zeros(self.num_layers * directions, batch, size)
            hx = (zeros, x.new_zeros(self.num_layers * directions, batch, self.hidden_size)) if lstm else zeros
        h0, c0 = hx if lstm else (hx, None)
        valid = None
        if lengths is not None:  # MXNet truncates fractional lengths
            valid = torch.arange(steps, device=x.device)[:, None] < lengths.to(x.device).long()[None, :]
        last_h, last_c, layer_in = [], [], x
        for layer in range(self.num_layers):
            outs = []
            for d in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if d else "")
                w = [getattr(self, f"{n}{suffix}") for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
                w_hr = getattr(self, f"weight_hr{suffix}") if lstm and self.proj_size else None
                h, c = h0[layer * directions + d], c0[layer * directions + d] if lstm else None
                out = [None] * steps
                for t in (range(steps - 1, -1, -1) if d else range(steps)):
                    h_new, c_new = self._mx_step(layer_in[t], h, c, w, w_hr)
                    if valid is None:
                        h, c, out[t] = h_new, c_new, h_new
                    else:  # a padded step leaves the states alone and outputs zeros
                        keep = valid[t][:, None]
                        h = torch.where(keep, h_new, h)
                        c = torch.where(keep, c_new, c) if lstm else None
                        out[t] = torch.where(keep, h_new, torch.zeros_like(h_new))
                outs.append(torch.stack(out))
                last_h.append(h)
                last_c.append(c)
            layer_in = torch.cat(outs, -1) if directions == 2 else outs[0]
            if layer < self.num_layers - 1 and self.dropout and self.training:
                layer_in = torch.nn.functional.dropout(layer_in, self.dropout, True)
        out = layer_in.transpose(0, 1) if self.batch_first else layer_in
        h_n = torch.stack(last_h)
        return out, ((h_n, torch.stack(last_c)) if lstm else h_n)

    def _mx_step(self, x, h, c, w, w_hr):
        gi = torch.nn.functional.linear(x, w[0], w[2])
        gh = torch.nn.functional.linear(h, w[1], w[3])
        if self.mode == "GRU":
            i_r, i_z, i_n = gi.chunk(3, -1)
            h_r, h_z, h_n = gh.chunk(3, -1)
            r, z = torch.sigmoid(i_r + h_r), torch.sigmoid(i_z + h_z)
            n = torch.tanh(i_n + r * h_n)
            return (1 - z) * n + z * h, None
        if self.mode != "LSTM":
            return (torch.relu if self.mode == "RNN_RELU" else torch.tanh)(gi + gh), None
        i, f, g, o = (gi + gh).chunk(4, -1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        if self._mx_state_clip:  # cuDNN clips the cell state before the output reads it
            c = c.clamp(self._lstm_state_clip_min, self._lstm_state_clip_max)
        h = torch.sigmoid(o) * torch.tanh(c)
        return (torch.nn.functional.linear(h, w_hr) if w_hr is not None else h), c


class _mx_RNN(_mx_RNNLayer, torch.nn.RNN):
    """Gluon rnn.RNN: relu by default (torch's nn.RNN defaults to tanh)."""

    def __init__(self, hidden_size, num_layers=1, activation="relu", layout="TNC", dropout=0, bidirectional=False,
                 i2h_weight_initializer=None, h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", input_size=0, dtype="float32", **kwargs):
        if activation not in ("relu", "tanh"):
            raise ValueError(f"activation={activation!r}: Gluon's RNN takes 'relu' or 'tanh'")
        inits = (i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer, None)
        self._mx_rnn("rnn_" + activation, hidden_size, num_layers, layout, dropout, bidirectional, input_size, inits,
                     None, (None, None, False), dtype, kwargs)


class _mx_LSTM(_mx_RNNLayer, torch.nn.LSTM):
    """Gluon rnn.LSTM: states [h, c]; `projection_size` is torch's proj_size."""

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False, input_size=0,
                 i2h_weight_initializer=None, h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", projection_size=None, h2r_weight_initializer=None, state_clip_min=None,
                 state_clip_max=None, state_clip_nan=False, dtype="float32", **kwargs):
        inits = (i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                 h2r_weight_initializer)
        self._mx_rnn("lstm", hidden_size, num_layers, layout, dropout, bidirectional, input_size, inits,
                     projection_size, (state_clip_min, state_clip_max, state_clip_nan), dtype, kwargs)


class _mx_GRU(_mx_RNNLayer, torch.nn.GRU):
    """Gluon rnn.GRU."""

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False, input_size=0,
                 i2h_weight_initializer=None, h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", dtype="float32", **kwargs):
        inits = (i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer, None)
        self._mx_rnn("gru", hidden_size, num_layers, layout, dropout, bidirectional, input_size, inits, None,
                     (None, None, False), dtype, kwargs)


def _mx_sequence_lengths(sequence_length, steps, device):
    """MXNet's lengths as indices: fractions truncated (its kernel casts to int); a length outside
    [1, steps] makes MXNet read outside the sequence (undefined values), so it is refused here."""
    lengths = sequence_length.to(device).long()
    if lengths.numel() and (int(lengths.min()) < 1 or int(lengths.max()) > steps):
        raise ValueError(f"sequence lengths must lie in [1, {steps}] (MXNet reads undefined memory past them)")
    return lengths


def _mx_SequenceLast(data=None, sequence_length=None, use_sequence_length=False, axis=0, out=None, name=None):
    """MXNet SequenceLast: the last step of each sequence along `axis` (0: (T, N, ...), 1: (N, T, ...)),
    the step at each length - 1 with use_sequence_length."""
    _mx_no_out(out)
    if axis not in (0, 1):
        raise ValueError("Current implementation expects axis to be 0 or 1.")
    steps = data.shape[axis]
    if not use_sequence_length:
        return data.select(axis, steps - 1)
    index = _mx_sequence_lengths(sequence_length, steps, data.device) - 1
    batch = torch.arange(data.shape[1 - axis], device=data.device)
    return data[index, batch] if axis == 0 else data[batch, index]


def _mx_SequenceReverse(data=None, sequence_length=None, use_sequence_length=False, axis=0, out=None, name=None):
    """MXNet SequenceReverse on (T, N, ...): the steps reversed, with use_sequence_length only each
    sequence's first `length` steps (the padded steps stay where they are)."""
    _mx_no_out(out)
    if axis != 0:
        raise ValueError("Current implementation expects axis to be 0.")
    if not use_sequence_length:
        return data.flip(0)
    steps = torch.arange(data.shape[0], device=data.device)[:, None]
    lengths = _mx_sequence_lengths(sequence_length, data.shape[0], data.device)[None, :]
    index = torch.where(steps < lengths, lengths - 1 - steps, steps)
    return data[index, torch.arange(data.shape[1], device=data.device)[None, :]]
