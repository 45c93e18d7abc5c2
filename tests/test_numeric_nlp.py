"""gluonnlp's attention cells, Transformer encoder and BERT (xlate/runtime/nlp.py) against live
gluonnlp 0.10.

Each helper takes gluonnlp's arguments, keeps its children and returns what it returns, so one
Python call drives both sides (the same lambda) and `check_models` compares them with random
asymmetric weights copied leaf by leaf (dense, layernorm, embedding families; the encoder's
position table is compared, not copied): inference outputs, training outputs, gradients of
every float input and parameter, dropout zeroed. Sizes, layer counts, heads, lengths past the
position table and valid lengths (0 included) are drawn with hypothesis.
"""
from __future__ import annotations

import inspect
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

from gluonnlp.model import attention_cell, bert, transformer  # noqa: E402

from xlate import runtime  # noqa: E402
from xlate.check.inputs import InputSpec  # noqa: E402
from xlate.check.noise import NoiseFloor  # noqa: E402
from xlate.check.pair import check_models  # noqa: E402
from xlate.check.samples import gluon_call, torch_call  # noqa: E402

pytestmark = pytest.mark.mxnet
PROFILE = dict(derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
rt = runtime.load()

PAIRS = {
    "TransformerEncoder": (transformer.TransformerEncoder, rt._mx_TransformerEncoder),
    "TransformerEncoderCell": (transformer.TransformerEncoderCell, rt._mx_TransformerEncoderCell),
    "PositionwiseFFN": (transformer.PositionwiseFFN, rt._mx_PositionwiseFFN),
    "MultiHeadAttentionCell": (attention_cell.MultiHeadAttentionCell, rt._mx_MultiHeadAttentionCell),
    "DotProductAttentionCell": (attention_cell.DotProductAttentionCell, rt._mx_DotProductAttentionCell),
    "MLPAttentionCell": (attention_cell.MLPAttentionCell, rt._mx_MLPAttentionCell),
    "GELU": (nlp.model.GELU, rt._mx_nlp_GELU),
    "BERTEncoder": (bert.BERTEncoder, rt._mx_BERTEncoder),
    "BERTModel": (bert.BERTModel, rt._mx_BERTModel),
    "BERTClassifier": (bert.BERTClassifier, rt._mx_BERTClassifier),
    "RoBERTaModel": (bert.RoBERTaModel, rt._mx_RoBERTaModel),
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_helper_takes_gluonnlps_own_signature(name):
    theirs, ours = (inspect.signature(c) for c in PAIRS[name])
    assert list(ours.parameters) == list(theirs.parameters)
    for key, param in theirs.parameters.items():
        if key == "act":  # MLPAttentionCell's default is one shared Activation('tanh') block: None here
            assert ours.parameters[key].default is None
            continue
        assert (ours.parameters[key].default, ours.parameters[key].kind) == (param.default, param.kind), key


def compare(mx_block, pt_module, call, specs, seed=0):
    # noise mode: stacked post-norm cells over a few features amplify float32 rounding past the
    # strict tolerance (1.5e-5 on gradients of 3.5, 3 layers of 3 units) where both sides are
    # right; every quantity is then judged against a float64 run of the translation
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = check_models(gluon_call(mx_block, call), torch_call(pt_module, call), specs, seed=seed,
                              noise_floor=NoiseFloor())
    failed = [c.mismatch.format() for c in result.checks if not c.ok]
    assert not failed, "\n".join(failed) + f"\n{result.divergence}"
    assert any(c.what.startswith("training: gradient of inner") for c in result.checks)
    return result


def floats(name, *shape):
    return InputSpec(name, "float32", tuple(shape))


@st.composite
def encoder_configs(draw):
    heads = draw(st.integers(1, 3))
    # at least 3 units: a LayerNorm over one or two features has exactly-zero gradients, left as float noise
    units = heads * draw(st.integers(3 if heads == 1 else 2, 3))
    return dict(num_layers=draw(st.integers(1, 3)), units=units, num_heads=heads,
                hidden_size=draw(st.integers(2, 8)), max_length=draw(st.integers(3, 8)),
                scale_embed=draw(st.booleans()), norm_inputs=draw(st.booleans()), scaled=draw(st.booleans()),
                use_residual=draw(st.booleans()), output_attention=draw(st.booleans()),
                output_all_encodings=draw(st.booleans()),
                attention_cell=draw(st.sampled_from(["multi_head", "multi_head", "scaled_dot", "dot", "cosine"])),
                batch=draw(st.integers(1, 3)), length=draw(st.integers(1, 10)), valid=draw(st.booleans()))


def _valid_call(c, valid_key="valid"):
    def call(block, x, *rest):
        out, extra = block(x, None, rest[0]) if c[valid_key] else block(x)
        return [out, extra]
    return call


@settings(max_examples=40, **PROFILE)
@given(encoder_configs())
def test_transformer_encoder_computes_what_gluonnlp_computes(c):
    kw = {k: c[k] for k in ("num_layers", "units", "num_heads", "hidden_size", "max_length", "scale_embed",
                            "norm_inputs", "scaled", "use_residual", "output_attention", "output_all_encodings",
                            "attention_cell")}
    if c["attention_cell"] != "multi_head":
        kw["output_attention"] = False  # single-head cells: weights (B, T, T), compared like the others
    specs = [floats("x", c["batch"], c["length"], c["units"])]
    if c["valid"]:  # lengths 0..T: a fully masked sequence gives zeros in both
        specs.append(InputSpec("vl", "int32", (c["batch"],), c["length"] + 1))
    mx_encoder = transformer.TransformerEncoder(**kw)
    call = _valid_call(c)
    if c["valid"]:
        call = (lambda inner: lambda block, x, vl: inner(block, x, vl.astype("float32") if hasattr(vl, "asnumpy")
                                                         else vl.float()))(call)
    compare(mx_encoder, rt._mx_TransformerEncoder(**kw), call, specs)


def test_position_table_is_gluonnlps_not_vaswanis():
    ours = rt._mx_position_encoding(20, 6).numpy()
    theirs = transformer._position_encoding_init(20, 6).astype("float32")
    np.testing.assert_allclose(ours, theirs, atol=1e-6)


@settings(max_examples=25, **PROFILE)
@given(st.integers(1, 3), st.integers(3, 4), st.integers(1, 4), st.integers(1, 5), st.booleans(), st.booleans(),
       st.sampled_from(["relu", "gelu", "approx_gelu", "tanh"]), st.booleans())
def test_transformer_cell_with_a_mask_computes_what_gluonnlp_computes(heads, per_head, batch, length, use_bias,
                                                                      proj_bias, activation, masked):
    units = heads * per_head
    kw = dict(units=units, hidden_size=5, num_heads=heads, attention_use_bias=use_bias,
              attention_proj_use_bias=proj_bias, activation=activation, output_attention=True)
    specs = [floats("x", batch, length, units)]
    if masked:  # an arbitrary 0/1 (N, T, T) mask, rows of zeros included
        specs.append(InputSpec("mask", "int32", (batch, length, length), 2))

    def call(cell, x, *mask):
        out, extra = cell(x, mask[0].astype("float32") if mask and hasattr(mask[0], "asnumpy")
                          else (mask[0].float() if mask else None))
        return [out, extra]

    compare(transformer.TransformerEncoderCell(**kw), rt._mx_TransformerEncoderCell(**kw), call, specs)


@settings(max_examples=30, **PROFILE)
@given(st.sampled_from(["scaled_luong", "scaled_dot", "dot", "cosine", "mlp", "normed_mlp", "multi_head"]),
       st.integers(1, 3), st.integers(1, 4), st.integers(1, 4), st.booleans(), st.booleans())
def test_attention_cells_compute_what_gluonnlp_computes(kind, batch, query_len, memory_len, masked, use_bias):
    units = 4

    def make(side):
        get = attention_cell._get_attention_cell if side == "mx" else rt._mx_get_attention_cell
        return get(kind, units=units, num_heads=2, use_bias=use_bias)

    specs = [floats("q", batch, query_len, units), floats("k", batch, memory_len, units),
             floats("v", batch, memory_len, 3)]
    if masked:
        specs.append(InputSpec("mask", "int32", (batch, query_len, memory_len), 2))

    def call(cell, q, k, v, *mask):
        m = (mask[0].astype("float32") if hasattr(mask[0], "asnumpy") else mask[0].float()) if mask else None
        return list(cell(q, k, v, m))

    compare(make("mx"), make("pt"), call, specs)


@st.composite
def bert_configs(draw):
    heads = draw(st.integers(1, 2))
    units = heads * draw(st.integers(3 if heads == 1 else 2, 3))  # >= 3: see encoder_configs
    return dict(num_layers=draw(st.integers(1, 2)), units=units, num_heads=heads,
                hidden_size=draw(st.integers(3, 6)), max_length=draw(st.integers(3, 6)),
                activation=draw(st.sampled_from(["gelu", "relu"])), output_attention=draw(st.booleans()),
                output_all_encodings=draw(st.booleans()), batch=draw(st.integers(1, 3)),
                length=draw(st.integers(1, 7)), valid=draw(st.booleans()), vocab=draw(st.integers(5, 12)),
                flags=draw(st.sampled_from([(True, True, True), (True, False, False), (False, False, False),
                                            (True, True, False)])))


@settings(max_examples=25, **PROFILE)
@given(bert_configs())
def test_bert_model_computes_what_gluonnlp_computes(c):
    enc_kw = {k: c[k] for k in ("num_layers", "units", "num_heads", "hidden_size", "max_length", "activation",
                                "output_attention", "output_all_encodings")}
    use_pooler, use_classifier, use_decoder = c["flags"]

    def build(side):
        encoder = (bert.BERTEncoder if side == "mx" else rt._mx_BERTEncoder)(**enc_kw)
        model = bert.BERTModel if side == "mx" else rt._mx_BERTModel
        return model(encoder, vocab_size=c["vocab"], token_type_vocab_size=2, units=c["units"],
                     embed_size=c["units"], use_pooler=use_pooler, use_classifier=use_classifier,
                     use_decoder=use_decoder)

    n, t = c["batch"], c["length"]
    specs = [InputSpec("tokens", "int32", (n, t), c["vocab"]), InputSpec("types", "int32", (n, t), 2)]
    if c["valid"]:
        specs.append(InputSpec("vl", "int32", (n,), t))  # 0..T-1, one added: 1..T
    if use_decoder:
        specs.append(InputSpec("positions", "int32", (n, 2), t))

    def call(model, tokens, types, *rest):
        rest = list(rest)
        mx_side = hasattr(tokens, "asnumpy")
        vl = (rest.pop(0) + 1) if c["valid"] else None
        if vl is not None:
            vl = vl.astype("float32") if mx_side else vl.float()
        positions = rest.pop(0) if use_decoder else None
        if mx_side:
            tokens, types = tokens.astype("float32"), types.astype("float32")
        return model(tokens, types, vl, positions)

    compare(build("mx"), build("pt"), call, specs)


def test_bert_decoder_shares_the_word_embedding_as_gluonnlp_does():
    encoder = rt._mx_BERTEncoder(num_layers=1, units=4, hidden_size=6, num_heads=2, max_length=5)
    model = rt._mx_BERTModel(encoder, vocab_size=9, token_type_vocab_size=2, units=4, embed_size=4)
    assert model.decoder[3].weight is model.word_embed[0].weight
    assert sum(p is model.word_embed[0].weight for p in model.parameters()) == 1


def test_bert_classifier_computes_what_gluonnlp_computes():
    def build(side):
        enc = (bert.BERTEncoder if side == "mx" else rt._mx_BERTEncoder)(num_layers=2, units=4, hidden_size=6,
                                                                          num_heads=2, max_length=8)
        model = (bert.BERTModel if side == "mx" else rt._mx_BERTModel)(
            enc, vocab_size=10, token_type_vocab_size=2, units=4, embed_size=4, use_decoder=False,
            use_classifier=False)
        return (bert.BERTClassifier if side == "mx" else rt._mx_BERTClassifier)(model, num_classes=3, dropout=0.1)

    def call(clf, tokens, types, vl):
        if hasattr(tokens, "asnumpy"):
            return clf(tokens.astype("float32"), types.astype("float32"), (vl + 1).astype("float32"))
        return clf(tokens, types, (vl + 1).float())

    specs = [InputSpec("tokens", "int32", (3, 6), 10), InputSpec("types", "int32", (3, 6), 2),
             InputSpec("vl", "int32", (3,), 6)]
    compare(build("mx"), build("pt"), call, specs)


def test_get_model_builds_gluonnlps_architecture_without_downloads():
    vocab = rt._mx_Vocab(rt._mx_count_tokens("a b c a d e a b".split()))
    kw = dict(pretrained=False, vocab=vocab, hparam_allow_override=True, num_layers=1, units=8, hidden_size=12,
              num_heads=2, max_length=9, embed_size=8, use_decoder=False, dropout=0.0)
    mx_vocab = nlp.Vocab(nlp.data.count_tokens("a b c a d e a b".split()))
    mx_model, got_vocab = nlp.model.get_model("bert_12_768_12", **{**kw, "vocab": mx_vocab})
    pt_model, pt_vocab = rt._mx_get_model("bert_12_768_12", **kw)
    assert pt_vocab is vocab and got_vocab is mx_vocab
    assert pt_model.word_embed[0].weight.shape == (len(mx_vocab), 8)

    def call(model, tokens, types, vl):
        if hasattr(tokens, "asnumpy"):
            return model(tokens.astype("float32"), types.astype("float32"), (vl + 1).astype("float32"))
        return model(tokens, types, (vl + 1).float())

    specs = [InputSpec("tokens", "int32", (2, 5), len(mx_vocab)), InputSpec("types", "int32", (2, 5), 2),
             InputSpec("vl", "int32", (2,), 5)]
    compare(mx_model, pt_model, call, specs)


def test_get_model_refuses_downloads():
    vocab = rt._mx_Vocab(rt._mx_count_tokens(["a"]))
    with pytest.raises(NotImplementedError, match="pretrained"):
        rt._mx_get_model("bert_12_768_12", vocab=vocab)
    with pytest.raises(NotImplementedError, match="dataset_name"):
        rt._mx_get_model("bert_12_768_12", pretrained=False, dataset_name="book_corpus_wiki_en_uncased")
    with pytest.raises(NotImplementedError, match="BERT family"):
        rt._mx_get_nlp_model("elmo_2x1024_128_2048cnn_1xhighway", pretrained=False, vocab=vocab)
    with pytest.raises(NotImplementedError, match="pretrained"):
        rt._mx_get_nlp_model("awd_lstm_lm_1150", pretrained=True, vocab=vocab)
    with pytest.raises(NotImplementedError, match="dataset_name"):
        rt._mx_get_nlp_model(name="standard_lstm_lm_200", dataset_name="wikitext-2")
    assert isinstance(rt._mx_get_nlp_model(**{"name": "standard_lstm_lm_200", "vocab": vocab})[0], rt._mx_StandardRNN)
    assert isinstance(rt._mx_get_nlp_model("bert_12_768_12", pretrained=False, vocab=vocab, hparam_allow_override=True,
                                           num_layers=1, units=4, hidden_size=4, num_heads=2, max_length=4,
                                           embed_size=4)[0], rt._mx_BERTModel)


def test_gelu_forms():
    x = torch.linspace(-6, 6, 101)
    exact = nlp.model.GELU()(mx.nd.array(x.numpy())).asnumpy()
    approx = nlp.model.GELU(approximate=True)(mx.nd.array(x.numpy())).asnumpy()
    np.testing.assert_allclose(rt._mx_nlp_GELU()(x).numpy(), exact, atol=2e-6)
    np.testing.assert_allclose(rt._mx_nlp_GELU(approximate=True)(x).numpy(), approx, atol=2e-6)


# -- language models (Note [gluonnlp language models]) ------------------------------------------
from gluonnlp.model import language_model, train  # noqa: E402

LM_PAIRS = {"AWDRNN": (language_model.AWDRNN, rt._mx_AWDRNN), "StandardRNN": (language_model.StandardRNN,
                                                                              rt._mx_StandardRNN),
            "train.AWDRNN": (train.AWDRNN, rt._mx_train_AWDRNN),
            "train.StandardRNN": (train.StandardRNN, rt._mx_train_StandardRNN)}


@pytest.mark.parametrize("name", sorted(LM_PAIRS))
def test_language_model_helpers_take_gluonnlps_arguments(name):
    theirs, ours = (inspect.signature(c) for c in LM_PAIRS[name])
    named = [k for k, p in theirs.parameters.items() if p.kind != p.VAR_KEYWORD]
    assert list(ours.parameters)[:len(named)] == named
    for key in named:  # the training forms' defaults (the inference forms have none)
        if theirs.parameters[key].default is not inspect.Parameter.empty:
            assert ours.parameters[key].default == theirs.parameters[key].default, key


@st.composite
def lm_configs(draw):
    kind = draw(st.sampled_from(sorted(LM_PAIRS)))
    mode = draw(st.sampled_from(["lstm", "gru", "rnn_tanh", "rnn_relu"]))
    tie = draw(st.booleans())
    embed = draw(st.integers(2, 6))
    hidden = embed if tie and kind.endswith("StandardRNN") else draw(st.integers(2, 6))
    rates = [round(draw(st.floats(0.0, 0.6)), 2) for _ in range(5)]
    return dict(kind=kind, mode=mode, vocab=draw(st.integers(3, 12)), embed=embed, hidden=hidden,
                layers=draw(st.integers(1, 3)), tie=tie, rates=rates, batch=draw(st.integers(1, 3)),
                length=draw(st.integers(1, 5)), states=draw(st.booleans()))


def _lm_args(c):
    if c["kind"].endswith("AWDRNN"):
        return (c["mode"], c["vocab"], c["embed"], c["hidden"], c["layers"], c["tie"], *c["rates"])
    return (c["mode"], c["vocab"], c["embed"], c["hidden"], c["layers"], c["rates"][0], c["tie"])


@settings(max_examples=12, **PROFILE)
@given(lm_configs())
def test_language_models_compute_what_gluonnlp_computes(c):
    """Outputs and every layer's states, gradients of every parameter (the tied decoder's under
    both names); dropout and weight drop are zeroed on both sides by the checker, after it has
    compared their rates."""
    theirs, ours = LM_PAIRS[c["kind"]]
    args = _lm_args(c)
    mx_model, pt_model = theirs(*args), ours(*args)
    n = c["batch"]

    def call(model, tokens):  # the training forms' extra lists repeat the outputs: left out
        if c["states"]:
            begin = model.begin_state(batch_size=n)  # non-zero: one state list per layer for AWD
            if c["kind"].endswith("AWDRNN"):
                begin = [[s + 0.5 for s in layer] for layer in begin]
            else:
                begin = [s + 0.5 for s in begin]
            out = model(tokens, begin)
        else:
            out = model(tokens)
        return out[0], out[1]

    compare(mx_model, pt_model, call, [InputSpec("tokens", "int32", (c["length"], n), c["vocab"])])


def test_language_model_from_get_model_matches_gluonnlp():
    words = "the cat sat on the mat the end".split()
    mx_vocab = nlp.Vocab(nlp.data.count_tokens(words))
    vocab = rt._mx_Vocab(rt._mx_count_tokens(words))
    kw = dict(hparam_allow_override=True, embed_size=5, hidden_size=6, num_layers=2)
    mx_model, _ = nlp.model.get_model("awd_lstm_lm_600", vocab=mx_vocab, **kw)
    pt_model, got = rt._mx_get_language_model("awd_lstm_lm_600", vocab=vocab, **kw)
    assert got is vocab and pt_model._drop_h == 0.1 and pt_model._drop_e == 0.05  # gluonnlp's hyper-parameters
    compare(mx_model, pt_model, lambda m, x: m(x), [InputSpec("tokens", "int32", (4, 2), len(mx_vocab))])
    with pytest.raises(AssertionError, match="predefined"):
        rt._mx_get_language_model("standard_lstm_lm_200", vocab=vocab, num_layers=3)


def test_language_model_hyper_parameters_are_gluonnlps():
    ours = {name: params for name, (_, params) in rt._mx_lm_hparams().items()}
    assert ours == {**language_model.awd_lstm_lm_hparams, **language_model.standard_lstm_lm_hparams}


def test_awd_regularisers_act_in_training_only():
    """Weight drop (h2h weights, embedding rows) and dropout over time: two training runs differ,
    evaluation is deterministic, and the parameters themselves are never overwritten."""
    torch.manual_seed(0)
    model = rt._mx_AWDRNN("lstm", 10, 4, 5, 2, True, 0.0, 0.5, 0.0, 0.0, 0.5)
    rt._mx_initialize(model)
    x = torch.randint(0, 10, (6, 3))
    before = {k: v.clone() for k, v in model.state_dict().items()}
    model.eval()
    assert torch.equal(model(x)[0], model(x)[0])
    model.train()
    first, second = model(x)[0], model(x)[0]
    assert not torch.allclose(first, second)
    first.sum().backward()
    assert model.encoder[0].weight_hh_l0.grad is not None and model.embedding[0].weight.grad is not None
    assert all(torch.equal(v, model.state_dict()[k]) for k, v in before.items())


def test_gluonnlp_dropout_rates_are_compared_then_zeroed():
    """Non-zero rates: the checker counts each block's `_dropout` on both sides (gluonnlp's cells
    keep one next to their Dropout children), compares them, then runs with dropout off."""
    kw = dict(num_layers=2, units=8, hidden_size=16, num_heads=2, max_length=6)

    def call(m, x, v):
        return m(x, None, v.astype("float32") + 1 if hasattr(v, "asnumpy") else v.float() + 1)[0]

    specs = [InputSpec("x", "float32", (2, 5, 8)), InputSpec("v", "int32", (2,), 5)]
    compare(transformer.TransformerEncoder(dropout=0.1, **kw), rt._mx_TransformerEncoder(dropout=0.1, **kw), call,
            specs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = check_models(gluon_call(transformer.TransformerEncoder(dropout=0.1, **kw), call),
                              torch_call(rt._mx_TransformerEncoder(dropout=0.2, **kw), call), specs)
    assert [c.what for c in result.checks if not c.ok] == ["dropout rates"]
