"""gluonnlp 0.10's building blocks that packages compose their own encoders from (Highway,
ConvolutionalEncoder, LSTMPCellWithClip: what gluonnlp's ELMo is made of) and its SplitSampler,
as torch modules with gluonnlp's signatures, children and return values.

The converter never imports this module: it copies the text of each `_mx_*` class or function
a converted file needs. tests/test_nlp_constructs.py compares them with live gluonnlp.

Note [gluonnlp building blocks]
A package builds its encoders from these (sknlp's TextCNN holds a ConvolutionalEncoder, its
BiLSTMWithClip stacks LSTMPCellWithClip cells, its ConvEncoder a Highway). Left as gluonnlp's
Gluon blocks inside a torch module, the torch side fails at build (`is not a Module subclass`).
Each helper keeps gluonnlp's children in gluonnlp's order (`hnet` of Dense layers, `_convs` of
conv/max/activation chains, `_highways`, `_projection`), so the checker and a parameter file
pair them leaf by leaf. Highway's bias initialiser is gluonnlp's HighwayBias: the first half of
each bias (the nonlinear transform) 0.0, the second (the transform gate) -2.0, by default.
LSTMPCellWithClip is MXNet's LSTMP step with the new cell state clipped to +-cell_clip before
the output reads it and the projection clipped to +-projection_clip (None: no clip), gate order
in, forget, transform, out (torch's i, f, g, o).
"""
import torch


class _mx_HighwayBias:
    """gluonnlp.initializer.HighwayBias: a bias's first half `nonlinear_transform_bias`, its
    second half `transform_gate_bias`."""

    def __init__(self, nonlinear_transform_bias=0.0, transform_gate_bias=-2.0):
        self.nonlinear_transform_bias, self.transform_gate_bias = nonlinear_transform_bias, transform_gate_bias

    def __call__(self, tensor):
        with torch.no_grad():
            half = int(tensor.shape[0] / 2)
            tensor[:half] = self.nonlinear_transform_bias
            tensor[half:] = self.transform_gate_bias
        return tensor


class _mx_Highway(torch.nn.Module):
    """gluonnlp.model.Highway: per layer, a Dense to 2 * input_size split into a nonlinear
    transform (through `activation`) and a sigmoid gate g; out = (1 - g) * x + g * f(x)."""

    def __init__(self, input_size, num_layers, activation="relu", highway_bias=None, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        bias = highway_bias if highway_bias is not None else _mx_HighwayBias(0.0, -2.0)
        self._input_size, self._num_layers, self._act = input_size, num_layers, activation
        self.hnet = torch.nn.Sequential(*[_mx_Dense(input_size * 2, in_units=input_size, bias_initializer=bias,
                                                    flatten=False) for _ in range(num_layers)])

    def forward(self, inputs):
        current = inputs
        for layer in self.hnet:
            nonlinear, gate = layer(current).chunk(2, dim=-1)
            gate = torch.sigmoid(gate)
            current = (1 - gate) * current + gate * _mx_activation(nonlinear, self._act)
        return current


class _mx_MaxOverTime(torch.nn.Module):
    """gluonnlp's `HybridLambda(lambda F, x: F.max(x, axis=2))` followed by its Activation."""

    def __init__(self, activation):
        super().__init__()
        self._act = activation

    def forward(self, x):
        return _mx_activation(x.amax(dim=2), self._act)


class _mx_ConvolutionalEncoder(torch.nn.Module):
    """gluonnlp.model.ConvolutionalEncoder: time-major (T, N, C) input (times the mask, when
    given), one Conv1D + max over time + activation per n-gram size, concatenated, then the
    highway layers and an optional projection to output_size."""

    def __init__(self, embed_size=15, num_filters=(25, 50, 75, 100, 125, 150), ngram_filter_sizes=(1, 2, 3, 4, 5, 6),
                 conv_layer_activation="tanh", num_highway=1, highway_layer_activation="relu", highway_bias=None,
                 output_size=None, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        self._embed_size, self._num_filters, self._ngram_filter_sizes = embed_size, num_filters, ngram_filter_sizes
        self._num_highway = num_highway
        self._convs = _mx_Concurrent()
        for num_filter, ngram_size in zip(num_filters, ngram_filter_sizes):
            self._convs.append(torch.nn.Sequential(
                _mx_Conv1D(num_filter, ngram_size, in_channels=embed_size, use_bias=True),
                _mx_MaxOverTime(conv_layer_activation)))
        size = sum(num_filters)
        self._highways = _mx_Highway(size, num_highway, activation=highway_layer_activation,
                                     highway_bias=highway_bias) if num_highway else None
        self._projection = _mx_Dense(output_size, in_units=size, use_bias=True) if output_size else None
        self._output_size = output_size or size

    def forward(self, inputs, mask=None):
        if mask is not None:
            inputs = inputs * mask.unsqueeze(-1)
        output = self._convs(inputs.permute(1, 2, 0))
        if self._highways is not None:
            output = self._highways(output)
        if self._projection is not None:
            output = self._projection(output)
        return output


class _mx_LSTMPCellWithClip(_mx_LSTMPCell):
    """gluonnlp.model.LSTMPCellWithClip: Gluon's LSTMPCell (the same tensors) whose new cell
    state is clipped to +-cell_clip and whose projection to +-projection_clip (None: not)."""

    def __init__(self, hidden_size, projection_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 h2r_weight_initializer=None, i2h_bias_initializer="zeros", h2h_bias_initializer="zeros",
                 input_size=0, cell_clip=None, projection_clip=None, prefix=None, params=None):
        super().__init__(hidden_size, projection_size, i2h_weight_initializer, h2h_weight_initializer,
                         h2r_weight_initializer, i2h_bias_initializer, h2h_bias_initializer, input_size,
                         prefix=prefix, params=params)
        self._cell_clip, self._projection_clip = cell_clip, projection_clip

    def forward(self, inputs, states):
        if self.has_uninitialized_params():
            self.initialize_parameters(inputs)
        gates = torch.nn.functional.linear(inputs, self.weight_ih_l0, self.bias_ih_l0) + \
            torch.nn.functional.linear(states[0], self.weight_hh_l0, self.bias_hh_l0)
        in_gate, forget_gate, in_transform, out_gate = gates.chunk(4, dim=-1)
        next_c = torch.sigmoid(forget_gate) * states[1] + torch.sigmoid(in_gate) * torch.tanh(in_transform)
        if self._cell_clip is not None:
            next_c = next_c.clamp(-self._cell_clip, self._cell_clip)
        next_r = torch.nn.functional.linear(torch.sigmoid(out_gate) * torch.tanh(next_c), self.weight_hr_l0)
        if self._projection_clip is not None:
            next_r = next_r.clamp(-self._projection_clip, self._projection_clip)
        return next_r, [next_r, next_c]


class _mx_SplitSampler(torch.utils.data.Sampler):
    """gluonnlp.data.SplitSampler: the indices of part `part_index` of `num_parts` contiguous parts
    (the first `length % num_parts` parts one longer; with even_size every part the rounded-up
    length, topped up with random samples), `repeat` times, each time shuffled with Python's
    `random` as gluonnlp does. Its attributes are gluonnlp's: subclasses read `_start`/`_end`."""

    def __init__(self, length, num_parts=1, part_index=0, even_size=False, repeat=1, shuffle=True):
        assert length >= num_parts, \
            "Length (%d) must be greater than or equal to the number of partitions (%d)." % (length, num_parts)
        self.even_size, self.num_parts, self._total_length = even_size, num_parts, length
        if not even_size:
            part_len, remaining = length // num_parts, length % num_parts
            self._start = part_len * part_index + min(part_index, remaining)
            self._end = self._start + part_len + (part_index < remaining)
            self._len = self._end - self._start
        else:
            part_len = int(length + num_parts - 1) // num_parts
            self._start = min(part_len * part_index, length)
            self._end = min(part_len * part_index + part_len, length)
            self._len = part_len
        self._repeat, self._shuffle = repeat, shuffle

    def __iter__(self):
        import random  # gluonnlp draws with Python's generator; the helper module imports torch alone
        order = []
        for _ in range(self._repeat):
            indices = list(range(self._start, self._end))
            if self.even_size and len(indices) < self._len:
                indices.extend(random.sample(list(range(self._total_length)), k=self._len - len(indices)))
            if self._shuffle:
                random.shuffle(indices)
            order.extend(indices)
        return iter(order)

    def __len__(self):
        return self._len * self._repeat


# Note [gluonnlp's seq2seq scaffolding]
# gluonnlp's translation models (its GNMT, the book's) derive their encoder and decoders from
# three abstract Blocks and build their cells with two private helpers. The bases only fix the call
# order of the encoder, (inputs, valid_length, states) handed on to forward in that order, as
# gluonnlp's __call__ does; `_get_cell_type` names Gluon's recurrent cells, here the translated
# ones; `_nested_sequence_last` takes each sequence's last valid step of a list of steps (nested
# lists alike); MXNet's `base._as_list` wraps anything but a list in one.
class _mx_Seq2SeqEncoder(torch.nn.Module):
    """gluonnlp.model.Seq2SeqEncoder: called with (inputs, valid_length, states)."""

    def __init__(self, prefix=None, params=None):
        super().__init__()
        _mx_gluon_init(self, prefix, params)

    def __call__(self, inputs, valid_length=None, states=None):
        return super().__call__(inputs, valid_length, states)

    def forward(self, inputs, valid_length=None, states=None):
        raise NotImplementedError


class _mx_Seq2SeqDecoder(torch.nn.Module):
    """gluonnlp.model.Seq2SeqDecoder: init_state_from_encoder and forward are the subclass's."""

    def __init__(self, prefix=None, params=None):
        super().__init__()
        _mx_gluon_init(self, prefix, params)

    def init_state_from_encoder(self, encoder_outputs, encoder_valid_length=None):
        raise NotImplementedError

    def forward(self, step_input, states, valid_length=None):
        raise NotImplementedError


class _mx_Seq2SeqOneStepDecoder(torch.nn.Module):
    """gluonnlp.model.Seq2SeqOneStepDecoder: one decoding step, the subclass's."""

    def __init__(self, prefix=None, params=None):
        super().__init__()
        _mx_gluon_init(self, prefix, params)

    def init_state_from_encoder(self, encoder_outputs, encoder_valid_length=None):
        raise NotImplementedError

    def forward(self, step_input, states):
        raise NotImplementedError


def _mx_get_cell_type(cell_type):
    """gluonnlp.model.utils._get_cell_type: 'lstm', 'gru', 'relu_rnn', 'tanh_rnn' -> the cell class."""
    import functools

    if not isinstance(cell_type, str):
        return cell_type
    cells = {"lstm": _mx_LSTMCell, "gru": _mx_GRUCell,
             "relu_rnn": functools.partial(_mx_RNNCell, activation="relu"),
             "tanh_rnn": functools.partial(_mx_RNNCell, activation="tanh")}
    if cell_type not in cells:
        raise NotImplementedError
    return cells[cell_type]


def _mx_nested_sequence_last(data, valid_length):
    """gluonnlp's _nested_sequence_last: of a list of steps (each an array, or a list of them),
    each sequence's step at valid_length - 1."""
    if not isinstance(data, list):
        raise AssertionError()
    if isinstance(data[0], torch.Tensor):
        return _mx_sequence_last(torch.stack(data, dim=0), valid_length)
    if isinstance(data[0], list):
        return [_mx_nested_sequence_last([step[i] for step in data], valid_length) for i in range(len(data[0]))]
    raise NotImplementedError


def _mx_as_list(obj):
    """mxnet.base._as_list: a list stays, anything else becomes a one-element list."""
    return obj if isinstance(obj, list) else [obj]


class _mx_NMTModel(torch.nn.Module):
    """gluonnlp.model.translation.NMTModel(src_vocab, tgt_vocab, encoder, decoder,
    one_step_ahead_decoder, embed_size, embed_dropout, embed_initializer, src_embed, tgt_embed,
    share_embed, tie_weights, tgt_proj): source and target embeddings (Embedding then Dropout,
    named src_embed_/tgt_embed_ as in Gluon), the translated encoder and decoders, and the target
    projection (tgt_proj_, or the target embedding's weight when tie_weights); encode, decode_seq,
    decode_step and forward as gluonnlp's."""

    def __init__(self, src_vocab, tgt_vocab, encoder, decoder, one_step_ahead_decoder, embed_size=None,
                 embed_dropout=0.0, embed_initializer=None, src_embed=None, tgt_embed=None, share_embed=False,
                 tie_weights=False, tgt_proj=None, prefix=None, params=None):
        import warnings

        super().__init__()
        _mx_named(self, prefix=prefix, alias="nmtmodel")
        if embed_initializer is None:  # gluonnlp's default, mx.init.Uniform(0.1)
            embed_initializer = lambda w: torch.nn.init.uniform_(w, -0.1, 0.1)  # noqa: E731
        self.tgt_vocab, self.src_vocab = tgt_vocab, src_vocab
        self.encoder, self.decoder, self.one_step_ahead_decoder = encoder, decoder, one_step_ahead_decoder
        self._shared_embed = share_embed
        embed_dropout = 0.0 if embed_dropout is None else embed_dropout
        if share_embed and tgt_embed is not None:
            warnings.warn('"share_embed" is turned on and "tgt_embed" is not None. In this case, the provided '
                          '"tgt_embed" will be overwritten by the "src_embed". Is this intended?')

        def embedding(vocab, name):
            if embed_size is None:
                raise AssertionError(f'"embed_size" cannot be None if "{name}" is not given.')
            block = _mx_named(torch.nn.Sequential(), prefix=f"{name}_")
            block.append(_mx_Embedding(input_dim=len(vocab), output_dim=embed_size,
                                       weight_initializer=embed_initializer))
            block.append(torch.nn.Dropout(embed_dropout))
            return block

        self.src_embed = src_embed if src_embed is not None else embedding(src_vocab, "src_embed")
        if share_embed:
            self.tgt_embed = self.src_embed
        else:
            self.tgt_embed = tgt_embed if tgt_embed is not None else embedding(tgt_vocab, "tgt_embed")
        if tie_weights:  # Gluon names the tied Dense's parameters (its bias too) under the embedding's prefix
            own = "src_embed" if share_embed else ("tgt_embed" if tgt_embed is None else None)
            prefix = f"{own}_embedding0_" if own is not None else "tgt_proj_"
            self.tgt_proj = _mx_shared(_mx_named(torch.nn.LazyLinear(len(tgt_vocab)), prefix=prefix),
                                       _mx_block_params(self.tgt_embed[0]))
        else:
            self.tgt_proj = tgt_proj if tgt_proj is not None else \
                _mx_named(torch.nn.LazyLinear(len(tgt_vocab)), prefix="tgt_proj_")

    def encode(self, inputs, states=None, valid_length=None):
        return self.encoder(self.src_embed(inputs), states, valid_length)

    def decode_seq(self, inputs, states, valid_length=None):
        outputs, states, additional_outputs = self.decoder(self.tgt_embed(inputs), states, valid_length)
        return self.tgt_proj(outputs), states, additional_outputs

    def decode_step(self, step_input, states):
        step_output, states, step_additional_outputs = self.one_step_ahead_decoder(self.tgt_embed(step_input), states)
        return self.tgt_proj(step_output), states, step_additional_outputs

    def forward(self, src_seq, tgt_seq, src_valid_length=None, tgt_valid_length=None):
        encoder_outputs, encoder_additional_outputs = self.encode(src_seq, valid_length=src_valid_length)
        decoder_states = self.decoder.init_state_from_encoder(encoder_outputs, encoder_valid_length=src_valid_length)
        outputs, _, decoder_additional_outputs = self.decode_seq(tgt_seq, decoder_states, tgt_valid_length)
        return outputs, [encoder_additional_outputs, decoder_additional_outputs]
