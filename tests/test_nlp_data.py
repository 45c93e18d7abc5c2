"""gluonnlp's data utilities (xlate/runtime/nlpdata.py) against live gluonnlp 0.10: the same
values and dtypes from batchify, the same indices from Vocab, the same batches from
FixedBucketSampler, over inputs drawn with hypothesis."""
from __future__ import annotations

import warnings

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
nlp = pytest.importorskip("gluonnlp")
pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from xlate import runtime  # noqa: E402

pytestmark = pytest.mark.mxnet
PROFILE = dict(derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
rt = runtime.load()
batchify = nlp.data.batchify


def same(ours, theirs):
    if isinstance(theirs, (tuple, list)):
        assert isinstance(ours, type(theirs)) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            same(a, b)
        return
    expected = theirs.asnumpy()
    assert isinstance(ours, torch.Tensor)
    assert str(ours.dtype).replace("torch.", "") == str(expected.dtype), (ours.dtype, expected.dtype)
    np.testing.assert_array_equal(ours.numpy(), expected)


sequences = st.lists(st.lists(st.integers(-5, 30), min_size=1, max_size=6), min_size=1, max_size=5)
float_sequences = st.lists(st.lists(st.floats(-3, 3, width=32), min_size=1, max_size=6), min_size=1, max_size=5)


@settings(max_examples=60, **PROFILE)
@given(st.one_of(sequences, float_sequences), st.sampled_from([None, 0, -1, 1.5]), st.booleans(),
       st.sampled_from([None, "int32", "float32", "int64"]), st.sampled_from([None, 1, 4]),
       st.sampled_from(["list", "numpy", "numpy32"]))
def test_pad_gives_gluonnlps_values_and_dtypes(data, pad_val, ret_length, dtype, round_to, form):
    if form != "list":
        data = [np.asarray(d, dtype="float32" if form == "numpy32" else None) for d in data]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = batchify.Pad(pad_val=pad_val, ret_length=ret_length, dtype=dtype, round_to=round_to)(data)
    same(rt._mx_Pad(pad_val=pad_val, ret_length=ret_length, dtype=dtype, round_to=round_to)(data), theirs)


def test_pad_of_tensors_and_along_another_axis():
    arrays = [np.random.RandomState(i).randn(2, n).astype("float32") for i, n in enumerate((3, 1, 2))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = batchify.Pad(axis=1, pad_val=-1)([mx.nd.array(a) for a in arrays])
    same(rt._mx_Pad(axis=1, pad_val=-1)([torch.tensor(a) for a in arrays]), theirs)


@settings(max_examples=30, **PROFILE)
@given(st.one_of(st.lists(st.integers(0, 9), min_size=1, max_size=5),
                 st.lists(st.floats(-2, 2, width=32), min_size=1, max_size=5),
                 st.lists(st.lists(st.integers(0, 9), min_size=3, max_size=3), min_size=1, max_size=4)),
       st.sampled_from([None, "float32", "int32"]))
def test_stack_and_tuple_give_gluonnlps_values_and_dtypes(data, dtype):
    same(rt._mx_Stack(dtype)(data), batchify.Stack(dtype)(data))
    samples = [(d, [1, 2, 3][: 1 + i % 3], i) for i, d in enumerate(data)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = batchify.Tuple(batchify.Stack(dtype), batchify.Pad(pad_val=0), batchify.List())(samples)
    ours = rt._mx_Tuple(rt._mx_Stack(dtype), rt._mx_Pad(pad_val=0), rt._mx_List())(samples)
    same(ours[:2], theirs[:2])
    assert ours[2] == theirs[2]


words = st.lists(st.sampled_from("the a cat sat on mat dog A The <unk> <pad> x y z".split()), max_size=30)


@settings(max_examples=60, **PROFILE)
@given(words, st.sampled_from([None, 3, 6]), st.integers(1, 3), st.sampled_from(["<unk>", None]),
       st.sampled_from([None, ["<cls>", "<sep>"]]), st.booleans(), st.booleans())
def test_vocab_assigns_gluonnlps_indices(tokens, max_size, min_freq, unknown, reserved, to_lower, no_pad):
    kw = dict(max_size=max_size, min_freq=min_freq, unknown_token=unknown, reserved_tokens=reserved)
    if no_pad:
        kw["padding_token"] = None
    if unknown is None and "<unk>" in tokens:
        tokens = [t for t in tokens if t != "<unk>"]
    theirs = nlp.Vocab(nlp.data.count_tokens(tokens, to_lower=to_lower), **kw)
    ours = rt._mx_Vocab(rt._mx_count_tokens(tokens, to_lower=to_lower), **kw)
    assert ours.idx_to_token == theirs.idx_to_token and ours.token_to_idx == theirs.token_to_idx
    assert ours.reserved_tokens == theirs.reserved_tokens and len(ours) == len(theirs)
    probe = ["the", "zzz", "cat"] if unknown else [t for t in ["the", "cat"] if t in theirs]
    assert ours[probe] == theirs[probe] and ours.to_tokens(list(range(len(ours)))) == theirs.to_tokens(
        list(range(len(theirs))))
    assert (ours.padding_token, ours.bos_token, ours.eos_token) == (theirs.padding_token, theirs.bos_token,
                                                                     theirs.eos_token)
    assert repr(ours) == repr(theirs)


def test_vocab_with_user_indices_and_counter_helpers():
    counter = rt._mx_count_tokens("b a c a b a".split())
    counter = rt._mx_count_tokens(["d"], counter=counter)
    theirs_counter = nlp.data.count_tokens(["d"], counter=nlp.data.count_tokens("b a c a b a".split()))
    assert dict(counter) == dict(theirs_counter) and counter.most_common(2) == theirs_counter.most_common(2)
    assert dict(counter.discard(2, "<unk>")) == dict(theirs_counter.discard(2, "<unk>"))
    theirs = nlp.Vocab(theirs_counter, token_to_idx={"d": 0, "a": 5})
    ours = rt._mx_Vocab(counter, token_to_idx={"d": 0, "a": 5})
    assert ours.idx_to_token == theirs.idx_to_token and ours.token_to_idx == theirs.token_to_idx


@settings(max_examples=40, **PROFILE)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=60), st.integers(1, 8), st.integers(1, 6),
       st.sampled_from([0, 0.5, 2]), st.booleans(), st.sampled_from([0, 2, 3]))
def test_fixed_bucket_sampler_gives_gluonnlps_batches(lengths, batch_size, num_buckets, ratio, average, shards):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = nlp.data.FixedBucketSampler(lengths, batch_size, num_buckets=num_buckets, ratio=ratio,
                                             use_average_length=average, num_shards=shards)
    ours = rt._mx_FixedBucketSampler(lengths, batch_size, num_buckets=num_buckets, ratio=ratio,
                                     use_average_length=average, num_shards=shards)
    assert list(ours) == list(theirs) and len(ours) == len(theirs) and ours.stats() == theirs.stats()


def test_fixed_bucket_sampler_with_pairs_of_lengths():
    rng = np.random.RandomState(0)
    lengths = [tuple(int(v) for v in rng.randint(1, 20, 2)) for _ in range(50)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for average in (False, True):
            theirs = nlp.data.FixedBucketSampler(lengths, 6, num_buckets=4, use_average_length=average)
            ours = rt._mx_FixedBucketSampler(lengths, 6, num_buckets=4, use_average_length=average)
            assert list(ours) == list(theirs)


@settings(max_examples=20, **PROFILE)
@given(st.lists(st.integers(1, 30), min_size=1, max_size=60), st.integers(1, 6), st.integers(1, 5),
       st.sampled_from([0, 2]), st.integers(0, 2 ** 31 - 1))
def test_shuffled_samplers_give_gluonnlps_order_from_a_numpy_seed(lengths, batch_size, buckets, shards, seed):
    """Note [random streams]: the same numpy calls on the same lists, so the same order."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pairs = [(nlp.data.FixedBucketSampler(lengths, batch_size, num_buckets=buckets, shuffle=True,
                                              num_shards=shards),
                  rt._mx_FixedBucketSampler(lengths, batch_size, num_buckets=buckets, shuffle=True,
                                            num_shards=shards)),
                 (nlp.data.SortedBucketSampler(lengths, batch_size, mult=buckets, shuffle=True),
                  rt._mx_SortedBucketSampler(lengths, batch_size, mult=buckets, shuffle=True)),
                 (nlp.data.SortedBucketSampler(lengths, batch_size, mult=buckets, reverse=False),
                  rt._mx_SortedBucketSampler(lengths, batch_size, mult=buckets, reverse=False)),
                 (nlp.data.SortedSampler(lengths, reverse=bool(shards)),
                  rt._mx_SortedSampler(lengths, reverse=bool(shards)))]
        for theirs, ours in pairs:
            np.random.seed(seed)
            expected = [_ints(b) for _ in range(2) for b in theirs]
            np.random.seed(seed)
            assert [_ints(b) for _ in range(2) for b in ours] == expected
            assert len(ours) == len(theirs)


def _ints(batch):
    return [_ints(b) for b in batch] if isinstance(batch, list) else int(batch)


# -- language-model corpora (CorpusBatchify, CorpusBPTTBatchify) -------------------------------
@settings(max_examples=25, **PROFILE)
@given(st.lists(st.sampled_from("abcdefgh"), min_size=6, max_size=40), st.integers(1, 4), st.integers(1, 5),
       st.sampled_from(["keep", "discard"]))
def test_corpus_batchify_gives_gluonnlps_batches(corpus, batch_size, seq_len, last_batch):
    mx_vocab = nlp.Vocab(nlp.data.count_tokens(corpus))
    vocab = rt._mx_Vocab(rt._mx_count_tokens(corpus))
    theirs = batchify.CorpusBatchify(mx_vocab, batch_size)(corpus)
    same(rt._mx_CorpusBatchify(vocab, batch_size)(corpus), theirs[:])
    if len(corpus) // batch_size < seq_len + 1 and last_batch == "discard":
        return  # gluonnlp makes no batch from a corpus shorter than one sample
    theirs = batchify.CorpusBPTTBatchify(mx_vocab, seq_len, batch_size, last_batch)(corpus)
    ours = rt._mx_CorpusBPTTBatchify(vocab, seq_len, batch_size, last_batch)(corpus)
    assert len(ours) == len(theirs) and len(ours) > 0
    for (data, label), (mx_data, mx_label) in zip(ours, theirs):
        same(data, mx_data)
        same(label, mx_label)


# GluonCV 0.10.5's data/batchify.py run on MXNet 1.9.1 (GluonCV does not install beside torch 2
# without MXNet), recorded once: (dtype, values) of each output (Note [GluonCV's batchify])
GLUONCV_BATCHIFY = {
    "stack-lists": ("Stack", {}, [[1, 2], [3, 4]], ("float32", [[1.0, 2.0], [3.0, 4.0]])),
    "stack-float64": ("Stack", {}, "f64", ("float32", [[1.5, 2.0], [3.0, 4.25]])),
    "stack-int32": ("Stack", {}, "i32", ("float32", [[1.0, 2.0], [3.0, 4.0]])),
    "stack-arrays": ("Stack", {}, "t32", ("int32", [[1, 2], [3, 4]])),
    "pad-lengths": ("Pad", dict(pad_val=-1, ret_length=True), "cols",
                    [("int64", [[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]], [[1, 1], [2, 2], [3, 3], [-1, -1], [-1, -1]]]),
                     ("int32", [5, 3])]),
    "pad-lists": ("Pad", {}, [[1, 2, 3], [4]], ("int64", [[1, 2, 3], [4, 0, 0]])),
    "pad-float-lists": ("Pad", dict(pad_val=-1), [[1.5, 2.5], [4.0]], ("float64", [[1.5, 2.5], [4.0, -1.0]])),
    "pad-two-axes": ("Pad", dict(axis=(0, 1), pad_val=7), "2d",
                     ("float32", [[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [7.0, 7.0, 7.0]],
                                  [[0.0, 7.0, 7.0], [0.0, 7.0, 7.0], [0.0, 7.0, 7.0]]])),
    "pad-shards": ("Pad", dict(num_shards=2, ret_length=True), [[1, 2, 3], [4], [5, 6], [7]],
                   [[("int64", [[1, 2, 3], [4, 0, 0]]), ("int64", [[5, 6], [7, 0]])],
                    [("int32", [3, 1]), ("int32", [2, 1])]]),
    "pad-uneven-shards": ("Pad", dict(num_shards=2, pad_val=9), [[1, 2, 3], [4], [5, 6], [7], [8, 8, 8, 8]],
                          [("int64", [[1, 2, 3], [4, 9, 9], [5, 6, 9]]), ("int64", [[7, 9, 9, 9], [8, 8, 8, 8]])]),
    "pad-int-val-float": ("Pad", dict(pad_val=-1.7), "i32ragged", ("int32", [[1, 2], [3, -1]])),
    "append": ("Append", {}, "mixed", [("float32", [[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]]), ("float32", [[[0.0, 0.0, 0.0]]])]),
    "append-axis1": ("Append", dict(batch_axis=1), "t2d",
                     [("float32", [[[1.0, 2.0]]]), ("float32", [[[3.0, 4.0]], [[5.0, 6.0]]])]),
}
_SAMPLES = {
    "f64": lambda: [np.array([1.5, 2.0]), np.array([3.0, 4.25])],
    "i32": lambda: [np.array([1, 2], dtype="int32"), np.array([3, 4], dtype="int32")],
    "t32": lambda: [torch.tensor([1, 2], dtype=torch.int32), torch.tensor([3, 4], dtype=torch.int32)],
    "cols": lambda: [np.array([[1, 2, 3, 4, 5]] * 2).T, np.array([[1, 2, 3]] * 2).T],
    "2d": lambda: [np.ones((2, 3), "float32"), np.zeros((3, 1), "float32")],
    "i32ragged": lambda: [np.array([1, 2], "int32"), np.array([3], "int32")],
    "mixed": lambda: [np.ones((2, 3), "int64"), np.zeros((1, 3))],
    "t2d": lambda: [torch.tensor([[1.0, 2.0]]), torch.tensor([[3.0, 4.0], [5.0, 6.0]])],
}


def _recorded(actual, expected):
    if isinstance(expected, list):
        assert isinstance(actual, (list, tuple)) and len(actual) == len(expected), actual
        for a, e in zip(actual, expected):
            _recorded(a, e)
        return
    dtype, values = expected
    assert isinstance(actual, torch.Tensor) and str(actual.dtype) == f"torch.{dtype}", (actual, dtype)
    assert actual.tolist() == values


@pytest.mark.parametrize("case", GLUONCV_BATCHIFY)
def test_gluoncv_batchify_gives_gluoncvs_batches(case):
    kind, kwargs, samples, expected = GLUONCV_BATCHIFY[case]
    helper = getattr(runtime.load(), f"_mx_gcv_{kind}")
    data = _SAMPLES[samples]() if isinstance(samples, str) else samples
    _recorded(helper(**kwargs)(data), expected)


def test_gluoncv_tuple_is_gluonnlps():
    rt = runtime.load()
    batch = rt._mx_Tuple(rt._mx_gcv_Stack(), rt._mx_gcv_Pad(pad_val=-1))([(np.ones(2), [1, 2]), (np.zeros(2), [3])])
    _recorded(list(batch), [("float32", [[1.0, 1.0], [0.0, 0.0]]), ("int64", [[1, 2], [3, -1]])])


class _MxToyDecoder:
    """A deterministic decoder for gluonnlp's sampler: log_softmax(E[word] + h W), h' = tanh(h + E[word]);
    its states are a list (gluonnlp's hybridized step takes lists), one of them time-major (TNC)
    when `layouts`."""

    def __init__(self, emb, w, layouts):
        self.emb, self.w, self.layouts = mx.nd.array(emb), mx.nd.array(w), layouts

    def state_info(self, batch_size=None):
        return [{"__layout__": "NC"}, {"__layout__": "TNC"}] if self.layouts else None

    def __call__(self, step_input, states):
        h, mem = states
        e = mx.nd.take(self.emb, step_input)
        logits = e + mx.nd.dot(h, self.w) + mx.nd.mean(mem, axis=0)
        return mx.nd.log_softmax(logits), [mx.nd.tanh(h + e), mem * 0.5]


class _PtToyDecoder(_MxToyDecoder):
    def __init__(self, emb, w, layouts):
        self.emb, self.w, self.layouts = torch.tensor(emb), torch.tensor(w), layouts

    def __call__(self, step_input, states):
        h, mem = states
        e = self.emb[step_input.long()]
        logits = e + h @ self.w + mem.mean(dim=0)
        return torch.log_softmax(logits, dim=-1), [torch.tanh(h + e), mem * 0.5]


@pytest.mark.parametrize("beam_size,alpha,max_length,layouts", [(3, 1.0, 6, True), (1, 0.6, 4, False),
                                                                 (4, 0.0, 12, True)])
def test_beam_search_gives_gluonnlps_samples_scores_and_lengths(beam_size, alpha, max_length, layouts):
    """MX308: samples, scores and valid lengths equal to gluonnlp 0.10's sampler on the same decoder,
    hypotheses that end (eos 0) and ones that run to max_length alike."""
    rng = np.random.RandomState(beam_size)
    vocab, hidden, batch = 7, 7, 2
    emb = rng.uniform(-2, 2, (vocab, hidden)).astype("float32")
    emb[:, 0] += 0.8  # the end token is likely enough that some beams finish
    w = rng.uniform(-1, 1, (hidden, vocab)).astype("float32")
    h0 = rng.uniform(-1, 1, (batch, hidden)).astype("float32")
    mem = rng.uniform(-1, 1, (3, batch, hidden)).astype("float32")
    inputs = np.array([2, 5], dtype="float32")
    theirs = nlp.model.BeamSearchSampler(beam_size, _MxToyDecoder(emb, w, layouts), eos_id=0,
                                         scorer=nlp.model.BeamSearchScorer(alpha=alpha, K=5),
                                         max_length=max_length)(
        mx.nd.array(inputs), [mx.nd.array(h0), mx.nd.array(mem if layouts else mem[0])])
    rt = runtime.load()
    ours = rt._mx_BeamSearchSampler(beam_size, _PtToyDecoder(emb, w, layouts), eos_id=0,
                                    scorer=rt._mx_BeamSearchScorer(alpha=alpha, K=5), max_length=max_length)(
        torch.tensor(inputs), [torch.tensor(h0), torch.tensor(mem if layouts else mem[0])])
    for name, a, e in zip(("samples", "scores", "valid_length"), ours, theirs):
        expected = e.asnumpy()
        assert str(a.dtype).replace("torch.", "") == str(expected.dtype), name
        np.testing.assert_allclose(a.numpy(), expected, rtol=1e-5, atol=1e-5, err_msg=name)
    assert (theirs[2].asnumpy() < theirs[0].shape[2]).any() or beam_size == 1  # some beam ended early


def test_seq2seq_scaffolding_is_gluonnlps():
    """MX309: _nested_sequence_last against gluonnlp's on nested steps, the encoder base's call
    order, and the cells _get_cell_type names."""
    from gluonnlp.model import seq2seq_encoder_decoder as s2s
    from gluonnlp.model.utils import _get_cell_type
    rt = runtime.load()
    rng = np.random.RandomState(4)
    steps = [[rng.uniform(-1, 1, (3, 2)).astype("float32") for _ in range(2)] for _ in range(4)]
    lengths = np.array([4, 1, 2], dtype="float32")
    theirs = s2s._nested_sequence_last([[mx.nd.array(a) for a in step] for step in steps], mx.nd.array(lengths))
    ours = rt._mx_nested_sequence_last([[torch.tensor(a) for a in step] for step in steps], torch.tensor(lengths))
    for a, e in zip(ours, theirs):
        np.testing.assert_array_equal(a.numpy(), e.asnumpy())
    flat = s2s._nested_sequence_last([mx.nd.array(step[0]) for step in steps], mx.nd.array(lengths))
    np.testing.assert_array_equal(rt._mx_nested_sequence_last([torch.tensor(step[0]) for step in steps],
                                                               torch.tensor(lengths)).numpy(), flat.asnumpy())

    class Echo(rt._mx_Seq2SeqEncoder):
        def forward(self, inputs, valid_length=None, states=None):
            return inputs, valid_length, states

    class MxEcho(s2s.Seq2SeqEncoder):
        def forward(self, inputs, valid_length=None, states=None):
            return inputs, valid_length, states

    class Named(rt._mx_Seq2SeqDecoder):  # gluonnlp's subclasses hand on prefix= and params= (the book's GNMT)
        def __init__(self, prefix=None, params=None):
            super().__init__(prefix=prefix, params=params)

    assert Named(prefix="dec_")._mx_prefix == "dec_"
    with pytest.raises(NotImplementedError, match="params="):
        Named(params={"w": 1})
    x = torch.ones(1)
    assert Echo()(x, "v", "s")[1:] == MxEcho()(mx.nd.ones(1), "v", "s")[1:] == ("v", "s")
    assert Echo()(x, states="s")[1:] == MxEcho()(mx.nd.ones(1), states="s")[1:]
    assert rt._mx_get_cell_type("lstm") is rt._mx_LSTMCell and rt._mx_get_cell_type("gru") is rt._mx_GRUCell
    relu, theirs_relu = rt._mx_get_cell_type("relu_rnn")(3, input_size=2), _get_cell_type("relu_rnn")(3, input_size=2)
    assert relu._activation == theirs_relu._activation == "relu"
    assert rt._mx_get_cell_type(rt._mx_GRUCell) is rt._mx_GRUCell and rt._mx_as_list(3) == [3]


class _MxEnc(mx.gluon.Block):
    def forward(self, inputs, states=None, valid_length=None):
        return [inputs * 2], ["enc"]


class _MxDec(mx.gluon.Block):
    def init_state_from_encoder(self, encoder_outputs, encoder_valid_length=None):
        return [encoder_outputs[0].mean(axis=1)]

    def forward(self, inputs, states, valid_length=None):
        return inputs + states[0].expand_dims(1), states, ["dec"]


class _MxStep(_MxDec):
    def forward(self, step_input, states):
        return step_input + states[0], states, ["step"]


class _PtEnc(torch.nn.Module):
    def forward(self, inputs, states=None, valid_length=None):
        return [inputs * 2], ["enc"]


class _PtDec(torch.nn.Module):
    def init_state_from_encoder(self, encoder_outputs, encoder_valid_length=None):
        return [encoder_outputs[0].mean(dim=1)]

    def forward(self, inputs, states, valid_length=None):
        return inputs + states[0].unsqueeze(1), states, ["dec"]


class _PtStep(_PtDec):
    def forward(self, step_input, states):
        return step_input + states[0], states, ["step"]


@pytest.mark.parametrize("tie,share,prefix", [(False, False, None), (True, False, None), (True, True, "nmt_")])
def test_nmt_model_computes_and_names_what_gluonnlp_does(tie, share, prefix):
    """MX310: NMTModel's parameters (Gluon's names, tied and shared ones alike), its forward and
    decode_step, with parameter-free encoder and decoders on both sides and the same weights."""
    rt = runtime.load()
    src = list("abcdef")
    tgt = src if share else list("wxyz")  # one shared embedding tied to the projection: one vocabulary
    kwargs = dict(embed_size=5, embed_dropout=0.0, tie_weights=tie, share_embed=share, prefix=prefix)
    theirs = nlp.model.translation.NMTModel(src, tgt, _MxEnc(), _MxDec(), _MxStep(), **kwargs)
    theirs.initialize(mx.init.Xavier())
    ours = rt._mx_NMTModel(src, tgt, _PtEnc(), _PtDec(), _PtStep(), **kwargs)
    src_ids = np.array([[1, 2, 3], [0, 4, 3]], dtype="float32")
    tgt_ids = np.array([[1, 2], [3, 0]], dtype="float32")
    ours(torch.tensor(src_ids).long(), torch.tensor(tgt_ids).long())  # sizes the lazy projection
    theirs(mx.nd.array(src_ids), mx.nd.array(tgt_ids))  # and Gluon's deferred one
    names = list(theirs.collect_params().keys())
    mine = rt._mx_collect_params(ours)
    if prefix is None:  # Gluon's counter of NMTModels is process-wide
        assert [n.split("_", 1)[1] for n in mine.keys()] == [n.split("_", 1)[1] for n in names]
    else:
        assert list(mine.keys()) == names
    with torch.no_grad():
        for name, value in zip(mine.keys(), names):
            mine[name].copy_(torch.tensor(theirs.collect_params()[value].data().asnumpy()))
    with mx.autograd.record():
        out, extra = theirs(mx.nd.array(src_ids), mx.nd.array(tgt_ids))
    out.backward()
    got, got_extra = ours(torch.tensor(src_ids).long(), torch.tensor(tgt_ids).long())
    got.sum().backward()
    np.testing.assert_allclose(got.detach().numpy(), out.asnumpy(), rtol=1e-5, atol=1e-6)
    assert got_extra == extra == [["enc"], ["dec"]]
    for name, value in zip(mine.keys(), names):
        np.testing.assert_allclose(mine[name].grad.numpy(), theirs.collect_params()[value].grad().asnumpy(),
                                   rtol=1e-5, atol=1e-6, err_msg=name)
    states = [mx.nd.ones((2, 5))]
    step, _, _ = theirs.decode_step(mx.nd.array([1, 2]), states)
    ours_step, _, _ = ours.decode_step(torch.tensor([1, 2]), [torch.ones(2, 5)])
    np.testing.assert_allclose(ours_step.detach().numpy(), step.asnumpy(), rtol=1e-5, atol=1e-6)
