"""gluonnlp 0.10's attention cells, Transformer encoder and BERT as torch modules with gluonnlp's
signatures, structure and return values.

The converter never imports this module: it copies the text of each `_mx_*` class or
function a converted file needs (see xlate/runtime/__init__.py), so the text may use `torch` and other
`_mx_*` helpers only. tests/test_numeric_nlp.py compares every helper with live gluonnlp.

Note [gluonnlp modules]
gluonnlp's encoder is not torch's nn.TransformerEncoder (sequence.md 4): before the first cell
it scales the input by sqrt(units), adds its own sinusoid table (sin/cos of
p / 10000**(2j/units), not Vaswani's 10000**(2(j//2)/units)) read at positions clipped to
max_length - 1, and applies an input LayerNorm; its attention has no q/k/v or output biases;
padded outputs are zeroed; it returns `(outputs, additional_outputs)`. A torch encoder with
those steps bolted on would still differ in a fully masked row (torch's attention gives NaN
or SDPA's value where gluonnlp gives zeros), in where dropout sits and in the parameter
layout. So the helpers port gluonnlp's code onto torch, block for block: the same children
under the same names in the same order (`transformer_cells.0.attention_cell.proj_query`,
`ffn.ffn_1`, ...), each a translated Gluon layer (`_mx_Dense`, `_mx_LayerNorm`), so a
gluonnlp `.params` file maps onto the state_dict name for name (gamma/beta are weight/bias)
and the checker pairs every leaf through the dense and layernorm families. The attention is
gluonnlp's own arithmetic (project, split heads, scaled dot product, mask with -1e18, softmax,
multiply by the mask, dropout, read values), masks 1 = attend as in gluonnlp. Dropout follows
the module's training mode (gluonnlp's default rate is 0).
"""
import torch


def _mx_length_softmax(score, length):
    """MXNet softmax(use_length=True) over the last axis: positions at or past `length` get 0
    (a length of 0 gives a row of zeros)."""
    keep = torch.arange(score.shape[-1], device=score.device) < length.to(score.device).long()[..., None]
    weights = torch.softmax(torch.where(keep, score, torch.full_like(score, -1e18)), -1)
    return weights * keep.to(weights.dtype)


def _mx_position_encoding(max_length, dim):
    """gluonnlp's `_position_encoding_init`: p / 10000**(2j/dim), sin on even j, cos on odd j."""
    position = torch.arange(max_length, dtype=torch.float64)[:, None]
    table = position / torch.pow(torch.tensor(10000.0, dtype=torch.float64),
                                 (2.0 / dim) * torch.arange(dim, dtype=torch.float64)[None, :])
    table[:, 0::2] = torch.sin(table[:, 0::2])
    table[:, 1::2] = torch.cos(table[:, 1::2])
    return table.to(torch.float32)


class _mx_nlp_GELU(torch.nn.Module):
    """gluonnlp.model.GELU: the erf form (torch's nn.GELU), or with approximate=True the tanh
    form gluonnlp writes out."""

    def __init__(self, approximate=False, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        self._approximate = approximate

    def forward(self, x):
        if not self._approximate:
            return torch.nn.functional.gelu(x)
        return 0.5 * x * (1 + torch.tanh((2 / 3.141592653589793) ** 0.5 * (x + 0.044715 * x ** 3)))


class _mx_L2Normalization(torch.nn.Module):
    """gluonnlp.model.L2Normalization: x / (||x|| + eps) along `axis`."""

    def __init__(self, axis=-1, eps=1e-06, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        self._axis, self._eps = axis, eps

    def forward(self, x):
        return x / (torch.linalg.vector_norm(x, dim=self._axis, keepdim=True) + self._eps)


class _mx_AttentionCell(torch.nn.Module):
    """gluonnlp's AttentionCell: `cell(query, key, value=None, mask=None)` returns
    (context_vec, att_weights); subclasses give `_compute_weight` (and `_read_by_weight`)."""

    def __init__(self, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)

    def _compute_weight(self, query, key, mask=None):
        raise NotImplementedError

    def _read_by_weight(self, att_weights, value):
        return torch.matmul(att_weights, value)

    def forward(self, query, key, value=None, mask=None):
        if value is None:
            value = key
        att_weights = self._compute_weight(query, key, mask)
        return self._read_by_weight(att_weights, value), att_weights


class _mx_DotProductAttentionCell(_mx_AttentionCell):
    """gluonnlp DotProductAttentionCell: score <W_q q, W_k k> (or <W q, k> luong_style, or the
    raw vectors with units=None), cosine with normalized, / sqrt(dim) when scaled."""

    def __init__(self, units=None, luong_style=False, scaled=True, normalized=False, use_bias=True, dropout=0.0,
                 weight_initializer=None, bias_initializer="zeros", prefix=None, params=None):
        super().__init__(params=params)
        if luong_style and units is None:
            raise AssertionError("Luong style attention is not available without explicitly setting the units")
        self._units, self._scaled, self._normalized, self._use_bias = units, scaled, normalized, use_bias
        self._luong_style, self._dropout = luong_style, dropout
        self._dropout_layer = torch.nn.Dropout(dropout)
        if units is not None:
            self._proj_query = _mx_Dense(units, use_bias=use_bias, flatten=False, weight_initializer=weight_initializer,
                                         bias_initializer=bias_initializer)
            if not luong_style:
                self._proj_key = _mx_Dense(units, use_bias=use_bias, flatten=False,
                                           weight_initializer=weight_initializer, bias_initializer=bias_initializer)
        if normalized:
            self._l2_norm = _mx_L2Normalization(axis=-1)

    def _compute_score(self, query, key, mask=None):
        if self._units is not None:
            query = self._proj_query(query)
            if not self._luong_style:
                key = self._proj_key(key)
        if self._normalized:
            query, key = self._l2_norm(query), self._l2_norm(key)
        if self._scaled:
            query = query / query.shape[-1] ** 0.5  # MXNet's div_sqrt_dim
        score = torch.matmul(query, key.transpose(-1, -2))
        if mask is not None:
            score = torch.where(mask != 0, score, torch.full_like(score, -1e18))
        return score

    def _compute_weight(self, query, key, mask=None):
        weights = torch.softmax(self._compute_score(query, key, mask), -1)
        if mask is not None:
            weights = weights * mask.to(weights.dtype)
        return self._dropout_layer(weights)


class _mx_MLPAttentionCell(_mx_AttentionCell):
    """gluonnlp MLPAttentionCell: score v . act(W_q q + W_k k + b) (normalized: g v/||v||)."""

    def __init__(self, units, act=None, normalized=False, dropout=0.0, weight_initializer=None,
                 bias_initializer="zeros", prefix=None, params=None):
        super().__init__(params=params)
        self._units, self._act = units, act if act is not None else _mx_Activation("tanh")
        self._normalized, self._dropout = normalized, dropout
        self._dropout_layer = torch.nn.Dropout(dropout)
        self._query_mid_layer = _mx_Dense(units, flatten=False, use_bias=True, weight_initializer=weight_initializer,
                                          bias_initializer=bias_initializer)
        self._key_mid_layer = _mx_Dense(units, flatten=False, use_bias=False, weight_initializer=weight_initializer)
        if normalized:
            self._attention_score = _mx_NormalizedScoreProj(units, weight_initializer=weight_initializer)
        else:
            self._attention_score = _mx_Dense(1, in_units=units, flatten=False, use_bias=False,
                                              weight_initializer=weight_initializer)

    def _compute_weight(self, query, key, mask=None):
        mid = self._act(self._query_mid_layer(query)[:, :, None, :] + self._key_mid_layer(key)[:, None, :, :])
        score = self._attention_score(mid)[..., 0]
        if mask is not None:
            score = torch.where(mask != 0, score, torch.full_like(score, -1e18))
        weights = torch.softmax(score, -1)
        if mask is not None:
            weights = weights * mask.to(weights.dtype)
        return self._dropout_layer(weights)


class _mx_NormalizedScoreProj(torch.nn.Module):
    """MLPAttentionCell's normalized score projection: x . (g v / ||v||), parameters g and v."""

    def __init__(self, in_units, weight_initializer=None, prefix=None, params=None):
        super().__init__()
        self.g = _mx_parameter((1,), init=_mx_constant(1.0 / in_units ** 0.5))
        self.v = _mx_parameter((1, in_units), init=_mx_initializer(weight_initializer))

    def forward(self, x):
        v = self.v / torch.sqrt(torch.matmul(self.v, self.v.t()))
        return torch.nn.functional.linear(x, self.g * v)


class _mx_MultiHeadAttentionCell(_mx_AttentionCell):
    """gluonnlp MultiHeadAttentionCell: query/key/value projected (proj_query/proj_key/
    proj_value), split into heads, `base_cell` applied per head, heads concatenated; no output
    projection. att_weights are (batch, heads, query length, memory length)."""

    def __init__(self, base_cell, query_units, key_units, value_units, num_heads, use_bias=True,
                 weight_initializer=None, bias_initializer="zeros", prefix=None, params=None):
        super().__init__(params=params)
        self._base_cell, self._num_heads, self._use_bias = base_cell, num_heads, use_bias
        for name, unit in (("query", query_units), ("key", key_units), ("value", value_units)):
            if unit % num_heads != 0:
                raise ValueError(f"In MultiHeadAttetion, the {name}_units should be divided exactly by the number "
                                 f"of heads. Received {name}_units={unit}, num_heads={num_heads}")
            setattr(self, f"_{name}_units", unit)
            setattr(self, f"proj_{name}", _mx_Dense(unit, use_bias=use_bias, flatten=False,
                                                     weight_initializer=weight_initializer,
                                                     bias_initializer=bias_initializer))

    def _project(self, name, x):
        x = getattr(self, f"proj_{name}")(x)
        batch, length = x.shape[0], x.shape[1]
        x = x.reshape(batch, length, self._num_heads, -1).transpose(1, 2)
        return x.reshape(batch * self._num_heads, length, x.shape[-1])

    def _compute_weight(self, query, key, mask=None):
        query, key = self._project("query", query), self._project("key", key)
        if mask is not None:
            mask = mask[:, None].expand(-1, self._num_heads, -1, -1).reshape(-1, *mask.shape[1:])
        weights = self._base_cell._compute_weight(query, key, mask)
        return weights.reshape(-1, self._num_heads, *weights.shape[1:])

    def _read_by_weight(self, att_weights, value):
        att_weights = att_weights.reshape(-1, *att_weights.shape[2:])
        value = self._project("value", value)
        context = self._base_cell._read_by_weight(att_weights, value)
        context = context.reshape(-1, self._num_heads, *context.shape[1:]).transpose(1, 2)
        return context.reshape(context.shape[0], context.shape[1], -1)


def _mx_get_attention_cell(attention_cell, units=None, scaled=True, num_heads=None, use_bias=False, dropout=0.0):
    """gluonnlp's _get_attention_cell: a name, or an attention cell passed as it is."""
    if not isinstance(attention_cell, str):
        if not isinstance(attention_cell, _mx_AttentionCell):
            raise AssertionError("attention_cell must be either string or AttentionCell")
        return attention_cell
    dot = {"scaled_luong": dict(scaled=True, normalized=False, luong_style=True),
           "scaled_dot": dict(scaled=True, normalized=False, luong_style=False),
           "dot": dict(scaled=False, normalized=False, luong_style=False),
           "cosine": dict(scaled=False, normalized=True)}
    if attention_cell in dot:
        return _mx_DotProductAttentionCell(units=units, use_bias=use_bias, dropout=dropout, **dot[attention_cell])
    if attention_cell in ("mlp", "normed_mlp"):
        return _mx_MLPAttentionCell(units=units, normalized=attention_cell == "normed_mlp")
    if attention_cell == "multi_head":
        base = _mx_DotProductAttentionCell(scaled=scaled, dropout=dropout)
        return _mx_MultiHeadAttentionCell(base_cell=base, query_units=units, use_bias=use_bias, key_units=units,
                                          value_units=units, num_heads=num_heads)
    raise NotImplementedError(attention_cell)


def _mx_nlp_activation(act):
    """gluonnlp's PositionwiseFFN._get_activation."""
    if isinstance(act, str):
        if act.lower() == "gelu":
            return _mx_nlp_GELU()
        if act.lower() == "approx_gelu":
            return _mx_nlp_GELU(approximate=True)
        return _mx_Activation(act)
    if not isinstance(act, torch.nn.Module):
        raise AssertionError(f"activation {act!r} is neither a name nor a block")
    return act


class _mx_PositionwiseFFN(torch.nn.Module):
    """gluonnlp PositionwiseFFN: LayerNorm(x + dropout(ffn_2(act(ffn_1(x))))), post-norm."""

    def __init__(self, *, units=512, hidden_size=2048, dropout=0.0, use_residual=True, ffn1_dropout=False,
                 activation="relu", layer_norm_eps=1e-5, weight_initializer=None, bias_initializer="zeros",
                 prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        self._use_residual, self._dropout, self._ffn1_dropout = use_residual, dropout, ffn1_dropout
        self.ffn_1 = _mx_Dense(hidden_size, flatten=False, weight_initializer=weight_initializer,
                               bias_initializer=bias_initializer)
        self.activation = _mx_nlp_activation(activation) if activation else None
        self.ffn_2 = _mx_Dense(units, flatten=False, weight_initializer=weight_initializer,
                               bias_initializer=bias_initializer)
        if dropout:
            self.dropout_layer = torch.nn.Dropout(dropout)
        self.layer_norm = _mx_LayerNorm(in_channels=units, epsilon=layer_norm_eps)

    def forward(self, inputs):
        outputs = self.ffn_1(inputs)
        if self.activation:
            outputs = self.activation(outputs)
        if self._dropout and self._ffn1_dropout:
            outputs = self.dropout_layer(outputs)
        outputs = self.ffn_2(outputs)
        if self._dropout:
            outputs = self.dropout_layer(outputs)
        if self._use_residual:
            outputs = outputs + inputs
        return self.layer_norm(outputs)


class _mx_TransformerEncoderCell(torch.nn.Module):
    """gluonnlp TransformerEncoderCell: self-attention (no biases by default), its projection
    `proj`, residual and LayerNorm, then the PositionwiseFFN; returns (outputs,
    [attention weights] if output_attention else [])."""

    def __init__(self, *, attention_cell="multi_head", units=128, hidden_size=512, num_heads=4, scaled=True,
                 dropout=0.0, use_residual=True, output_attention=False, attention_proj_use_bias=False,
                 attention_use_bias=False, weight_initializer=None, bias_initializer="zeros", prefix=None,
                 params=None, activation="relu", layer_norm_eps=1e-5):
        super().__init__()
        _mx_no_params(params)
        self._dropout, self._use_residual, self._output_attention = dropout, use_residual, output_attention
        if dropout:
            self.dropout_layer = torch.nn.Dropout(dropout)
        self.attention_cell = _mx_get_attention_cell(attention_cell, units=units, num_heads=num_heads, scaled=scaled,
                                                     dropout=dropout, use_bias=attention_use_bias)
        self.proj = _mx_Dense(units, flatten=False, use_bias=attention_proj_use_bias,
                              weight_initializer=weight_initializer, bias_initializer=bias_initializer)
        self.ffn = _mx_PositionwiseFFN(units=units, hidden_size=hidden_size, dropout=dropout, use_residual=use_residual,
                                       weight_initializer=weight_initializer, bias_initializer=bias_initializer,
                                       activation=activation, layer_norm_eps=layer_norm_eps)
        self.layer_norm = _mx_LayerNorm(in_channels=units, epsilon=layer_norm_eps)

    def forward(self, inputs, mask=None):
        outputs, attention_weights = self.attention_cell(inputs, inputs, inputs, mask)
        outputs = self.proj(outputs)
        if self._dropout:
            outputs = self.dropout_layer(outputs)
        if self._use_residual:
            outputs = outputs + inputs
        outputs = self.ffn(self.layer_norm(outputs))
        return outputs, [attention_weights] if self._output_attention else []


class _mx_TransformerEncoder(torch.nn.Module):
    """gluonnlp TransformerEncoder (Note [gluonnlp modules]): batch-major (N, T, C) input,
    `encoder(inputs, states=None, valid_length=None)` -> (outputs, additional_outputs)."""

    def __init__(self, *, attention_cell="multi_head", num_layers=2, units=512, hidden_size=2048, max_length=50,
                 num_heads=4, scaled=True, scale_embed=True, norm_inputs=True, dropout=0.0, use_residual=True,
                 output_attention=False, output_all_encodings=False, weight_initializer=None,
                 bias_initializer="zeros", prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        if units % num_heads:
            raise AssertionError(f"In TransformerEncoder, The units should be divided exactly by the number of heads. "
                                 f"Received units={units}, num_heads={num_heads}")
        self._max_length, self._units = max_length, units
        self._output_attention, self._output_all_encodings = output_attention, output_all_encodings
        self._dropout, self._scale_embed, self._norm_inputs = dropout, scale_embed, norm_inputs
        if dropout:
            self.dropout_layer = torch.nn.Dropout(dropout)
        if norm_inputs:
            self.layer_norm = _mx_LayerNorm(in_channels=units, epsilon=1e-5)
        self.register_buffer("position_weight", _mx_position_encoding(max_length, units))  # a constant in gluonnlp
        self.transformer_cells = torch.nn.Sequential(*[
            _mx_TransformerEncoderCell(units=units, hidden_size=hidden_size, num_heads=num_heads,
                                       attention_cell=attention_cell, weight_initializer=weight_initializer,
                                       bias_initializer=bias_initializer, dropout=dropout, use_residual=use_residual,
                                       scaled=scaled, output_attention=output_attention)
            for _ in range(num_layers)])

    def forward(self, inputs, states=None, valid_length=None):
        steps = torch.arange(inputs.shape[1], device=inputs.device)
        mask = None
        if valid_length is not None:
            valid = (steps[None, :] < valid_length.to(inputs.device)[:, None]).to(inputs.dtype)  # (N, T)
            mask = valid[:, None, :].expand(-1, inputs.shape[1], -1)  # (N, T, T): 1 = attend
            states = [mask] if states is None else _mx_appended(states, mask)
        states = [steps] if states is None else _mx_appended(states, steps)
        if self._scale_embed:
            inputs = inputs * self._units ** 0.5
        inputs = inputs + self.position_weight[steps.clamp(max=self._max_length - 1)][None]
        if self._dropout:
            inputs = self.dropout_layer(inputs)
        if self._norm_inputs:
            inputs = self.layer_norm(inputs)
        all_encodings, additional = [], []
        outputs = inputs
        for cell in self.transformer_cells:
            outputs, attention_weights = cell(inputs, mask)
            inputs = outputs
            if self._output_all_encodings:
                if valid_length is not None:
                    outputs = _mx_sequence_mask(outputs, valid_length, True, 0.0, 1)
                all_encodings.append(outputs)
            if self._output_attention:
                additional.append(attention_weights)
        if valid_length is not None and not self._output_all_encodings:
            outputs = _mx_sequence_mask(outputs, valid_length, True, 0.0, 1)
        return (all_encodings if self._output_all_encodings else outputs), additional


def _mx_appended(states, value):
    """gluonnlp's encoders append to the `states` list they are given (the caller sees it)."""
    states.append(value)
    return states


class _mx_DotProductSelfAttentionCell(torch.nn.Module):
    """gluonnlp's BERT self-attention on time-major (T, N, C) input: parameters query_weight,
    key_weight, value_weight (C, C) and their biases (gluonnlp's own names; its interleaved
    per-head layout is only how MXNet packs them for one matmul, the per-head products are
    these), scores scaled by 1 / sqrt(head size), softmax over each sequence's valid length
    (MXNet's softmax(use_length=True): zeros past it). Returns (context (T, N, C), weights
    (N, heads, T, T))."""

    def __init__(self, units, num_heads, dropout=0.0, use_bias=True, weight_initializer=None,
                 bias_initializer="zeros", prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        self._num_heads, self._use_bias, self._dropout, self.units = num_heads, use_bias, dropout, units
        init, bias_init = _mx_initializer(weight_initializer), _mx_initializer(bias_initializer)
        if use_bias:
            self.query_bias = _mx_parameter((units,), init=bias_init)
            self.key_bias = _mx_parameter((units,), init=bias_init)
            self.value_bias = _mx_parameter((units,), init=bias_init)
        self.query_weight = _mx_parameter((units, units), init=init)
        self.key_weight = _mx_parameter((units, units), init=init)
        self.value_weight = _mx_parameter((units, units), init=init)
        self.dropout_layer = torch.nn.Dropout(dropout)

    def _mx_heads(self, x, name):
        bias = getattr(self, name + "_bias") if self._use_bias else None
        y = torch.nn.functional.linear(x, getattr(self, name + "_weight"), bias)  # (T, N, C)
        steps, batch = y.shape[0], y.shape[1]
        return y.reshape(steps, batch * self._num_heads, -1).transpose(0, 1)  # (N*heads, T, d)

    def forward(self, qkv, valid_len=None):
        query, key, value = (self._mx_heads(qkv, n) for n in ("query", "key", "value"))
        score = torch.matmul(query, key.transpose(1, 2)) / query.shape[-1] ** 0.5
        if valid_len is not None:
            lengths = valid_len[:, None].expand(-1, self._num_heads, -1).reshape(-1, valid_len.shape[-1])
            weights = _mx_length_softmax(score, lengths)
        else:
            weights = torch.softmax(score, -1)
        weights = self.dropout_layer(weights)
        context = torch.matmul(weights, value)  # (N*heads, T, d)
        steps = qkv.shape[0]
        context = context.transpose(0, 1).reshape(steps, qkv.shape[1], -1)
        return context, weights.reshape(-1, self._num_heads, steps, steps)


class _mx_BERTEncoderCell(torch.nn.Module):
    """gluonnlp BERTEncoderCell: self-attention, proj (with bias), residual and LayerNorm, then
    the PositionwiseFFN (gelu)."""

    def __init__(self, units=128, hidden_size=512, num_heads=4, dropout=0.0, output_attention=False,
                 attention_use_bias=True, weight_initializer=None, bias_initializer="zeros", prefix=None,
                 params=None, activation="gelu", layer_norm_eps=1e-5):
        super().__init__()
        _mx_no_params(params)
        self._dropout, self._output_attention = dropout, output_attention
        if dropout:
            self.dropout_layer = torch.nn.Dropout(dropout)
        self.attention_cell = _mx_DotProductSelfAttentionCell(units, num_heads, use_bias=attention_use_bias,
                                                              dropout=dropout)
        self.proj = _mx_Dense(units, flatten=False, use_bias=True, weight_initializer=weight_initializer,
                              bias_initializer=bias_initializer)
        self.ffn = _mx_PositionwiseFFN(units=units, hidden_size=hidden_size, dropout=dropout,
                                       weight_initializer=weight_initializer, bias_initializer=bias_initializer,
                                       activation=activation, layer_norm_eps=layer_norm_eps)
        self.layer_norm = _mx_LayerNorm(in_channels=units, epsilon=layer_norm_eps)

    def forward(self, inputs, valid_len=None):
        outputs, attention_weights = self.attention_cell(inputs, valid_len)
        outputs = self.proj(outputs)
        if self._dropout:
            outputs = self.dropout_layer(outputs)
        outputs = self.ffn(self.layer_norm(outputs + inputs))
        return outputs, [attention_weights] if self._output_attention else []


class _mx_BERTEncoder(torch.nn.Module):
    """gluonnlp BERTEncoder: TIME-major (T, N, C) input; a learned position_weight (no
    sqrt(units) scaling), input LayerNorm (eps 1e-12 by default), BERT cells;
    `encoder(inputs, states=None, valid_length=None)` -> (outputs, additional_outputs)."""

    def __init__(self, *, num_layers=2, units=512, hidden_size=2048, max_length=50, num_heads=4, dropout=0.0,
                 output_attention=False, output_all_encodings=False, weight_initializer=None,
                 bias_initializer="zeros", prefix=None, params=None, activation="gelu", layer_norm_eps=1e-12):
        super().__init__()
        _mx_no_params(params)
        if units % num_heads:
            raise AssertionError(f"In BERTEncoder, The units should be divided exactly by the number of heads. "
                                 f"Received units={units}, num_heads={num_heads}")
        self._max_length, self._units, self._dropout = max_length, units, dropout
        self._output_attention, self._output_all_encodings = output_attention, output_all_encodings
        self._layer_norm_eps = layer_norm_eps
        if dropout:
            self.dropout_layer = torch.nn.Dropout(dropout)
        self.layer_norm = _mx_LayerNorm(in_channels=units, epsilon=layer_norm_eps)
        self.position_weight = _mx_parameter((max_length, units), init=_mx_initializer(weight_initializer))
        self.transformer_cells = torch.nn.Sequential(*[
            _mx_BERTEncoderCell(units=units, hidden_size=hidden_size, num_heads=num_heads,
                                weight_initializer=weight_initializer, bias_initializer=bias_initializer,
                                dropout=dropout, output_attention=output_attention, activation=activation,
                                layer_norm_eps=layer_norm_eps)
            for _ in range(num_layers)])

    def forward(self, inputs, states=None, valid_length=None):
        steps = torch.arange(inputs.shape[0], device=inputs.device)
        attn_valid_len = None
        if valid_length is not None:  # (N, T): each row the sequence's length (MXNet casts it to int32)
            attn_valid_len = valid_length.to(inputs.device).reshape(-1, 1).expand(-1, inputs.shape[0]).int()
            states = [attn_valid_len] if states is None else _mx_appended(states, attn_valid_len)
        states = [steps] if states is None else _mx_appended(states, steps)
        inputs = inputs + self.position_weight[steps.clamp(max=self._max_length - 1)][:, None, :]
        if self._dropout:
            inputs = self.dropout_layer(inputs)
        inputs = self.layer_norm(inputs)
        outputs, all_encodings, additional = inputs, [], []
        for cell in self.transformer_cells:
            outputs, attention_weights = cell(inputs, attn_valid_len)
            inputs = outputs
            if self._output_all_encodings:
                if valid_length is not None:
                    outputs = _mx_sequence_mask(outputs, valid_length, True, 0.0, 0)
                all_encodings.append(outputs)
            if self._output_attention:
                additional.append(attention_weights)
        if valid_length is not None and not self._output_all_encodings:
            outputs = _mx_sequence_mask(outputs, valid_length, True, 0.0, 0)
        return (all_encodings if self._output_all_encodings else outputs), additional


class _mx_BERTModel(torch.nn.Module):
    """gluonnlp BERTModel: word (+ token type) embeddings, the encoder (batch-major in and out),
    a tanh pooler on the first token, a next-sentence classifier and a masked-LM decoder whose
    last Dense shares the word embedding's weight; `model(inputs, token_types,
    valid_length=None, masked_positions=None)` returns gluonnlp's tuple (or its single item)."""

    def __init__(self, encoder, vocab_size=None, token_type_vocab_size=None, units=None, embed_size=None,
                 embed_initializer=None, word_embed=None, token_type_embed=None, use_pooler=True, use_decoder=True,
                 use_classifier=True, use_token_type_embed=True, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        self._use_decoder, self._use_classifier, self._use_pooler = use_decoder, use_classifier, use_pooler
        self._use_token_type_embed, self._units = use_token_type_embed, units
        self.encoder = encoder
        self.word_embed = self._get_embed(word_embed, vocab_size, embed_size, embed_initializer)
        if use_token_type_embed:
            self.token_type_embed = self._get_embed(token_type_embed, token_type_vocab_size, embed_size,
                                                    embed_initializer)
        if use_pooler:
            self.pooler = _mx_Dense(units, flatten=False, activation="tanh")
            if use_classifier:
                self.classifier = _mx_Dense(2)
        elif use_classifier:
            raise AssertionError("Cannot use classifier if use_pooler is False")
        if use_decoder:
            self.decoder = self._get_decoder(units, vocab_size, self.word_embed[0])

    def _get_embed(self, embed, vocab_size, embed_size, initializer):
        if embed is None:
            if embed_size is None:
                raise AssertionError('"embed_size" cannot be None if "word_embed" or token_type_embed is not given.')
            embed = torch.nn.Sequential(_mx_Embedding(vocab_size, embed_size, weight_initializer=initializer))
        return embed

    def _get_decoder(self, units, vocab_size, embed):
        out = _mx_Dense(vocab_size, flatten=False, in_units=embed.weight.shape[1])
        out.weight = embed.weight  # tied, as gluonnlp shares the embedding's parameters
        return torch.nn.Sequential(_mx_Dense(units, flatten=False), _mx_nlp_GELU(),
                                   _mx_LayerNorm(in_channels=units, epsilon=self.encoder._layer_norm_eps), out)

    def forward(self, inputs, token_types, valid_length=None, masked_positions=None):
        outputs = []
        seq_out, attention_out = self._encode_sequence(inputs, token_types, valid_length)
        outputs.append(seq_out)
        output = seq_out[-1] if self.encoder._output_all_encodings else seq_out
        if attention_out:
            outputs.append(attention_out)
        if self._use_pooler:
            pooled_out = self._apply_pooling(output)
            outputs.append(pooled_out)
            if self._use_classifier:
                outputs.append(self.classifier(pooled_out))
        if self._use_decoder:
            if masked_positions is None:
                raise AssertionError("masked_positions tensor is required for decoding masked language model")
            outputs.append(self._decode(output, masked_positions))
        return tuple(outputs) if len(outputs) > 1 else outputs[0]

    def _encode_sequence(self, inputs, token_types, valid_length=None):
        embedding = self.word_embed(inputs)
        if self._use_token_type_embed:
            embedding = embedding + self.token_type_embed(token_types)
        outputs, additional_outputs = self.encoder(embedding.transpose(0, 1), valid_length=valid_length)
        if isinstance(outputs, (list, tuple)):
            outputs = [o.transpose(0, 1) for o in outputs]
        else:
            outputs = outputs.transpose(0, 1)
        return outputs, additional_outputs

    def _apply_pooling(self, sequence):
        return self.pooler(sequence[:, 0].reshape(-1, self._units))

    def _decode(self, sequence, masked_positions):
        positions = masked_positions.long()  # MXNet casts to int32: fractions truncated
        batch = torch.arange(sequence.shape[0], device=sequence.device)[:, None]
        return self.decoder(sequence[batch, positions])


class _mx_RoBERTaModel(_mx_BERTModel):
    """gluonnlp RoBERTaModel: a BERTModel without token types, pooler or classifier."""

    def __init__(self, encoder, vocab_size=None, units=None, embed_size=None, embed_initializer=None,
                 word_embed=None, use_decoder=True, prefix=None, params=None):
        super().__init__(encoder, vocab_size=vocab_size, token_type_vocab_size=None, units=units,
                         embed_size=embed_size, embed_initializer=embed_initializer, word_embed=word_embed,
                         token_type_embed=None, use_pooler=False, use_decoder=use_decoder, use_classifier=False,
                         use_token_type_embed=False, params=params)

    def forward(self, inputs, valid_length=None, masked_positions=None):
        return super().forward(inputs, [], valid_length=valid_length, masked_positions=masked_positions)


class _mx_BERTClassifier(torch.nn.Module):
    """gluonnlp BERTClassifier: the pooled output of a BERTModel (built with use_decoder=False,
    use_classifier=False) through dropout and a Dense(num_classes)."""

    def __init__(self, bert, num_classes=2, dropout=0.0, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        self.bert = bert
        layers = [torch.nn.Dropout(dropout)] if dropout else []
        self.classifier = torch.nn.Sequential(*layers, _mx_Dense(num_classes))

    def forward(self, inputs, token_types, valid_length=None):
        _, pooler_out = self.bert(inputs, token_types, valid_length)
        return self.classifier(pooler_out)


def _mx_bert_hparams():
    """gluonnlp 0.10's hyper-parameters of the BERT family (gluonnlp/model/bert.py)."""
    return {
    "bert_12_768_12": dict(num_layers=12, units=768, hidden_size=3072, max_length=512, num_heads=12, dropout=0.1,
                           embed_size=768, token_type_vocab_size=2, word_embed=None),
    "bert_24_1024_16": dict(num_layers=24, units=1024, hidden_size=4096, max_length=512, num_heads=16, dropout=0.1,
                            embed_size=1024, token_type_vocab_size=2, word_embed=None),
    "ernie_12_768_12": dict(num_layers=12, units=768, hidden_size=3072, max_length=513, num_heads=12, dropout=0.1,
                            embed_size=768, token_type_vocab_size=2, word_embed=None, activation="relu",
                            layer_norm_eps=1e-5),
    "roberta_12_768_12": dict(num_layers=12, units=768, hidden_size=3072, max_length=512, num_heads=12, dropout=0.1,
                              embed_size=768, word_embed=None, layer_norm_eps=1e-5),
    "roberta_24_1024_16": dict(num_layers=24, units=1024, hidden_size=4096, max_length=512, num_heads=16,
                               dropout=0.1, embed_size=1024, word_embed=None, layer_norm_eps=1e-5),
    }


def _mx_get_model(name, **kwargs):
    """gluonnlp.model.get_model for the BERT family without pretrained weights: builds the
    architecture (uninitialised, as gluonnlp leaves it) and returns (model, vocab). Pretrained
    weights and vocabularies named by `dataset_name` would be downloaded by gluonnlp: refused,
    convert the .params file with `xlate convert-weights` and pass `vocab=` instead."""
    hparams = _mx_bert_hparams()
    if name not in hparams:
        raise NotImplementedError(f"get_model({name!r}) is not translated here: only the BERT family "
                                  f"({', '.join(sorted(hparams))}) is (_mx_get_language_model builds the "
                                  f"language models)")
    kwargs = dict(kwargs)
    if kwargs.pop("pretrained", True):
        raise NotImplementedError("pretrained=True downloads gluonnlp's weights: build with pretrained=False and "
                                  "load the .params file converted by `xlate convert-weights`")
    dataset_name, vocab = kwargs.pop("dataset_name", None), kwargs.pop("vocab", None)
    if dataset_name:
        raise NotImplementedError(f"dataset_name={dataset_name!r} downloads gluonnlp's vocabulary: pass vocab= "
                                  f"(a translated Vocab) instead")
    if vocab is None:
        raise AssertionError("Must specify vocab if not loading from predefined datasets.")
    for unused in ("ctx", "root", "pretrained_allow_missing", "ignore_extra"):  # they only load weights
        kwargs.pop(unused, None)
    flags = {k: kwargs.pop(k, True) for k in ("use_pooler", "use_decoder", "use_classifier", "use_token_type_embed")}
    output_attention = kwargs.pop("output_attention", False)
    output_all_encodings = kwargs.pop("output_all_encodings", False)
    predefined = dict(hparams[name])
    if not kwargs.pop("hparam_allow_override", False):
        if any(k in kwargs and k not in ("use_residual", "dropout", "word_embed") for k in predefined):
            raise AssertionError("Cannot override predefined model settings.")
    predefined.update(kwargs)
    roberta = name.startswith("roberta")
    encoder = _mx_BERTEncoder(num_layers=predefined["num_layers"], units=predefined["units"],
                              hidden_size=predefined["hidden_size"], max_length=predefined["max_length"],
                              num_heads=predefined["num_heads"], dropout=predefined["dropout"],
                              output_attention=output_attention, output_all_encodings=output_all_encodings,
                              activation=predefined.get("activation", "gelu"),
                              layer_norm_eps=predefined.get("layer_norm_eps", 1e-5 if roberta else 1e-12))
    if roberta:
        net = _mx_RoBERTaModel(encoder, len(vocab), units=predefined["units"], embed_size=predefined["embed_size"],
                               word_embed=predefined["word_embed"], use_decoder=flags["use_decoder"])
    else:
        net = _mx_BERTModel(encoder, len(vocab), token_type_vocab_size=predefined["token_type_vocab_size"],
                            units=predefined["units"], embed_size=predefined["embed_size"],
                            word_embed=predefined["word_embed"], **flags)
    return net, vocab


# Note [gluonnlp language models]
# gluonnlp.model.AWDRNN and StandardRNN (language_model.py; their training twins in
# model/train/language_model.py return two more lists) ported block for block: `embedding`
# (Embedding, then Dropout), `encoder` (AWDRNN: one single-layer Gluon RNN per layer, the last
# one sized to embed_size when weights are tied; StandardRNN: one multi-layer Gluon RNN),
# `decoder` (Dense(vocab_size, flatten=False) whose weight IS the embedding's when tied, as
# gluonnlp shares the embedding's parameters), so a gluonnlp .params file maps name for name.
# Time-major (T, N) ids in; `model(x)` starts from zeros. AWD's regularisers act in training
# mode only: weight drop (gluonnlp's apply_weight_drop: DropConnect on each layer's h2h weight,
# whole embedding rows dropped with drop_e) and dropout masks shared over time (axes=(0,)); their
# random masks differ from MXNet's.
def _mx_weight_dropped(module, names, rate, axes, *args):
    """`module(*args)` with the parameters `names` dropped (MXNet Dropout with `axes`) in training."""
    if not module.training or not rate:
        return module(*args)
    dropped = {n: _mx_dropout(getattr(module, n), rate, axes=axes, training=True) for n in names}
    return torch.func.functional_call(module, dropped, args)


def _mx_uniform_01(tensor):
    """gluonnlp's language-model embedding initializer, mx.init.Uniform(0.1)."""
    return torch.nn.init.uniform_(tensor, -0.1, 0.1)


def _mx_rnn_layer(mode, num_layers, input_size, hidden_size, dropout):
    """gluonnlp's _get_rnn_layer: the Gluon recurrent layer for `mode`."""
    layers = {"rnn_relu": lambda *a, **k: _mx_RNN(*a, activation="relu", **k),
              "rnn_tanh": lambda *a, **k: _mx_RNN(*a, activation="tanh", **k), "lstm": _mx_LSTM, "gru": _mx_GRU}
    return layers[mode](hidden_size, num_layers, dropout=dropout, input_size=input_size)


class _mx_LanguageModel(torch.nn.Module):
    """What AWDRNN and StandardRNN share: the tied decoder, begin_state, dropout over time."""

    def _mx_decoder(self, vocab_size, embed_size, hidden_size, tie_weights, params):
        _mx_no_params(params)
        dense = _mx_Dense(vocab_size, flatten=False, in_units=embed_size if tie_weights else hidden_size)
        if tie_weights:
            dense.weight = self.embedding[0].weight
        return torch.nn.Sequential(dense)

    def _mx_embed(self, inputs):
        embedding = self.embedding[0]
        drop_e = getattr(self, "_drop_e", 0)
        encoded = _mx_weight_dropped(embedding, ["weight"], drop_e, (1,), inputs)
        for block in list(self.embedding)[1:]:
            encoded = block(encoded)
        return encoded

    def _mx_time_dropout(self, x, rate):
        return _mx_dropout(x, rate, axes=(0,), training=self.training)


class _mx_AWDRNN(_mx_LanguageModel):
    """gluonnlp.model.AWDRNN (Note [gluonnlp language models]): `model(inputs, begin_state=None)`
    returns `(out, out_states)`, one state list per layer."""

    _mx_train_outputs = False

    def __init__(self, mode, vocab_size, embed_size=400, hidden_size=1150, num_layers=3, tie_weights=True, dropout=0.4,
                 weight_drop=0.5, drop_h=0.2, drop_i=0.65, drop_e=0.1, prefix=None, params=None):
        super().__init__()
        self._mode, self._vocab_size, self._embed_size, self._hidden_size = mode, vocab_size, embed_size, hidden_size
        self._num_layers, self._dropout, self._drop_h, self._drop_i, self._drop_e = (num_layers, dropout, drop_h,
                                                                                   drop_i, drop_e)
        self._weight_drop, self._tie_weights = weight_drop, tie_weights
        embedding = [_mx_Embedding(vocab_size, embed_size, weight_initializer=_mx_uniform_01)]
        if drop_i:
            embedding.append(_mx_Dropout(drop_i, axes=(0,)))
        self.embedding = torch.nn.Sequential(*embedding)
        self.encoder = torch.nn.Sequential(*(
            _mx_rnn_layer(mode, 1, embed_size if i == 0 else hidden_size,
                          hidden_size if i != num_layers - 1 or not tie_weights else embed_size, 0)
            for i in range(num_layers)))
        self.decoder = self._mx_decoder(vocab_size, embed_size, hidden_size, tie_weights, params)

    def begin_state(self, *args, **kwargs):
        return [c.begin_state(*args, **kwargs) for c in self.encoder]

    def state_info(self, *args, **kwargs):
        return [c.state_info(*args, **kwargs) for c in self.encoder]

    def forward(self, inputs, begin_state=None):
        encoded = self._mx_embed(inputs)
        if not begin_state:
            begin_state = self.begin_state(batch_size=inputs.shape[1])
        out_states, encoded_raw, encoded_dropped = [], [], []
        for i, (e, s) in enumerate(zip(self.encoder, begin_state)):
            encoded, state = _mx_weight_dropped(e, [n for n, _ in e.named_parameters() if n.startswith("weight_hh")],
                                                self._weight_drop, (), encoded, s)
            encoded_raw.append(encoded)
            out_states.append(state)
            if self._drop_h and i != len(self.encoder) - 1:
                encoded = self._mx_time_dropout(encoded, self._drop_h)
                encoded_dropped.append(encoded)
        if self._dropout:
            encoded = self._mx_time_dropout(encoded, self._dropout)
        encoded_dropped.append(encoded)
        out = self.decoder(encoded)
        if self._mx_train_outputs:
            return out, out_states, encoded_raw, encoded_dropped
        return out, out_states


class _mx_StandardRNN(_mx_LanguageModel):
    """gluonnlp.model.StandardRNN (Note [gluonnlp language models]): `model(inputs,
    begin_state=None)` returns `(out, state)`, the multi-layer layer's state list."""

    _mx_train_outputs = False

    def __init__(self, mode, vocab_size, embed_size, hidden_size, num_layers, dropout=0.5, tie_weights=False,
                 prefix=None, params=None):
        if tie_weights and embed_size != hidden_size:
            raise AssertionError("Embedding dimension must be equal to hidden dimension in order to tie weights. "
                                 f"Got: emb: {embed_size}, hid: {hidden_size}.")
        super().__init__()
        self._mode, self._embed_size, self._hidden_size, self._num_layers = mode, embed_size, hidden_size, num_layers
        self._dropout, self._tie_weights, self._vocab_size = dropout, tie_weights, vocab_size
        embedding = [_mx_Embedding(vocab_size, embed_size, weight_initializer=_mx_uniform_01)]
        if dropout:
            embedding.append(_mx_Dropout(dropout))
        self.embedding = torch.nn.Sequential(*embedding)
        self.encoder = _mx_rnn_layer(mode, num_layers, embed_size, hidden_size, dropout)
        self.decoder = self._mx_decoder(vocab_size, embed_size, hidden_size, tie_weights, params)

    def begin_state(self, *args, **kwargs):
        return self.encoder.begin_state(*args, **kwargs)

    def state_info(self, *args, **kwargs):
        return self.encoder.state_info(*args, **kwargs)

    def forward(self, inputs, begin_state=None):
        encoded = self._mx_embed(inputs)
        if not begin_state:
            begin_state = self.begin_state(batch_size=inputs.shape[1])
        encoded, state = self.encoder(encoded, begin_state)
        encoded_raw = [encoded]
        if self._dropout:
            encoded = self._mx_time_dropout(encoded, self._dropout)
        out = self.decoder(encoded)
        if self._mx_train_outputs:
            return out, state, encoded_raw, [encoded]
        return out, state


class _mx_train_AWDRNN(_mx_AWDRNN):
    """gluonnlp.model.train.AWDRNN: also returns the encoder's raw and dropped outputs."""

    _mx_train_outputs = True


class _mx_train_StandardRNN(_mx_StandardRNN):
    """gluonnlp.model.train.StandardRNN: also returns the encoder's raw and dropped outputs."""

    _mx_train_outputs = True


def _mx_lm_hparams():
    """gluonnlp 0.10's hyper-parameters of its language models (gluonnlp/model/language_model.py)."""
    awd = dict(mode="lstm", tie_weights=True, dropout=0.4, weight_drop=0.5, drop_h=0.2, drop_i=0.65, drop_e=0.1)
    return {
        "awd_lstm_lm_1150": (_mx_AWDRNN, dict(awd, embed_size=400, hidden_size=1150, num_layers=3)),
        "awd_lstm_lm_600": (_mx_AWDRNN, dict(awd, embed_size=200, hidden_size=600, num_layers=3, dropout=0.2,
                                             weight_drop=0.2, drop_h=0.1, drop_i=0.3, drop_e=0.05)),
        "standard_lstm_lm_200": (_mx_StandardRNN, dict(mode="lstm", embed_size=200, hidden_size=200, num_layers=2,
                                                       dropout=0.2, tie_weights=True)),
        "standard_lstm_lm_650": (_mx_StandardRNN, dict(mode="lstm", embed_size=650, hidden_size=650, num_layers=2,
                                                       dropout=0.5, tie_weights=True)),
        "standard_lstm_lm_1500": (_mx_StandardRNN, dict(mode="lstm", embed_size=1500, hidden_size=1500,
                                                        num_layers=2, dropout=0.65, tie_weights=True)),
    }


def _mx_get_language_model(name, dataset_name=None, vocab=None, pretrained=False, ctx=None, root=None,
                           hparam_allow_override=False, **kwargs):
    """gluonnlp's awd_lstm_lm_* / standard_lstm_lm_* functions without downloads: (model, vocab)."""
    if pretrained:
        raise NotImplementedError("pretrained=True downloads gluonnlp's weights: build with pretrained=False and "
                                  "load the .params file converted by `xlate convert-weights`")
    if dataset_name:
        raise NotImplementedError(f"dataset_name={dataset_name!r} downloads gluonnlp's vocabulary: pass vocab= "
                                  f"(a translated Vocab) instead")
    if vocab is None:
        raise AssertionError("Must specify vocab if not loading from predefined datasets.")
    cls, predefined = _mx_lm_hparams()[name]
    predefined = dict(predefined)
    mutable = {"dropout", "weight_drop", "drop_h", "drop_i", "drop_e"} if cls is _mx_AWDRNN else {"dropout"}
    if not hparam_allow_override and any(k in kwargs and k not in mutable for k in predefined):
        raise AssertionError("Cannot override predefined model settings.")
    predefined.update(kwargs)
    return cls(vocab_size=len(vocab), **predefined), vocab


def _mx_get_nlp_model(name, **kwargs):
    """gluonnlp.model.get_model with the name known only at run time: the language models or the
    BERT family, without downloads; raises on another name."""
    if name in _mx_lm_hparams():
        return _mx_get_language_model(name, **kwargs)
    if name in _mx_bert_hparams():
        return _mx_get_model(name, **kwargs)
    raise NotImplementedError(f"get_model({name!r}) is not translated: only the BERT family "
                              f"({', '.join(sorted(_mx_bert_hparams()))}) and the language models "
                              f"({', '.join(sorted(_mx_lm_hparams()))}) are")
