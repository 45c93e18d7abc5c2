"""Real model classes of the gluonts (v0.11.12 and v0.6.9), sockeye (2.3.24 and 2.1.7), gluonnlp-pkg, mxnetseg,
centernet and autogluon015 corpora, built at small sizes on both sides
(bench/package_corpus.py, issue 21).

Each entry: `name`; `build`, an expression evaluated with `imp(rel)` importing `<top>.<rel>` (the
original package, or the converted `<top>_pt`); `inputs`, the checker's input specifications
(`x:float32[2,8]`); `fixed`, inputs whose values must mean something (lengths, 0/1 masks) given
as lists instead of drawn; `extra`, Python values passed after the drawn inputs on both sides
(`None` for an optional argument), or {position: value} inserted among them (a list: a constant
float32 array without a gradient); `call`, a lambda `(net, *inputs)` run as the forward on both sides
(a decoder given the states its encoder-side method makes), evaluated with the side's `imp` and
`zeros` (`mx.nd.zeros`, and what it becomes as a value converted, `_mx_zeros`); `mx_env`, environment variables
for that model's subprocess (an MXNet kernel switch). The harness pairs weights and compares outputs and
gradients with xlate.check.pair.check_models in noise mode.
"""

_TS = "imp('mx.distribution').StudentTOutput()"
_TRANSFORMER = ("{'model_dim': 8, 'pre_seq': 'dn', 'post_seq': 'drn', 'dropout_rate': 0.0, 'inner_ff_dim_scale': 2, "
                "'act_type': 'softrelu', 'num_heads': 2}")
_OBS8, _OBS4 = [[1.0] * 8, [1.0] * 6 + [0.0] * 2], [[1.0] * 4, [0.0] + [1.0] * 3]

GLUONTS = [
    dict(name="SimpleFeedForwardTrainingNetwork",
         build="imp('mx.model.simple_feedforward._network').SimpleFeedForwardTrainingNetwork("
               "num_hidden_dimensions=[6, 3], prediction_length=4, context_length=8, batch_normalization=False, "
               f"mean_scaling=True, distr_output={_TS})",
         inputs=["past_target:float32[2,8]", "future_target:float32[2,4]", "future_observed_values:float32[2,4]"],
         fixed={"future_observed_values": _OBS4}),
    dict(name="DeepARTrainingNetwork",
         build="imp('mx.model.deepar._network').DeepARTrainingNetwork("
               "num_layers=1, num_cells=5, cell_type='lstm', history_length=11, context_length=8, prediction_length=4, "
               f"distr_output={_TS}, dropout_rate=0.0, cardinality=[3], embedding_dimension=[2], lags_seq=[1, 3])",
         inputs=["feat_static_cat:int32[2,1]<3", "feat_static_real:float32[2,1]", "past_time_feat:float32[2,11,2]",
                 "past_target:float32[2,11]", "past_observed_values:float32[2,11]",
                 "future_time_feat:float32[2,4,2]", "future_target:float32[2,4]",
                 "future_observed_values:float32[2,4]"],
         fixed={"feat_static_cat": [[0], [2]], "past_observed_values": [[1.0] * 11, [1.0] * 9 + [0.0] * 2],
                "future_observed_values": _OBS4},
         extra={5: [[0.0] * 11, [1.0] * 2 + [0.0] * 9]}),  # past_is_pad: MXNet 1.9.1 segfaults on its gradient
    dict(name="NBEATSTrainingNetwork",
         build="imp('mx.model.n_beats._network').NBEATSTrainingNetwork(loss_function='MASE', freq='D', "
               "prediction_length=4, context_length=8, num_stacks=2, widths=[6, 6], num_blocks=[1, 1], "
               "num_block_layers=[2, 2], expansion_coefficient_lengths=[3, 2], sharing=[False, False], "
               "stack_types=['G', 'T'])",
         inputs=["past_target:float32[2,8]", "past_observed_values:float32[2,8]", "future_target:float32[2,4]",
                 "future_observed_values:float32[2,4]"],
         fixed={"past_observed_values": _OBS8, "future_observed_values": _OBS4}),
    dict(name="ForkingSeq2SeqTrainingNetwork (MQCNN)",
         build="imp('mx.model.seq2seq._forking_network').ForkingSeq2SeqTrainingNetwork("
               "encoder=imp('mx.block.encoder').HierarchicalCausalConv1DEncoder(dilation_seq=[1, 2], "
               "kernel_size_seq=[2, 2], channels_seq=[3, 3], use_residual=True, use_static_feat=True, "
               "use_dynamic_feat=True), "
               "enc2dec=imp('mx.block.enc2dec').FutureFeatIntegratorEnc2Dec(), "
               "decoder=imp('mx.block.decoder').ForkingMLPDecoder(dec_len=4, final_dim=3, hidden_dimension_sequence=[5]), "
               "context_length=8, cardinality=[3], embedding_dimension=[2], "
               "quantile_output=imp('mx.block.quantile_output').QuantileOutput(quantiles=[0.1, 0.5, 0.9]))",
         inputs=["past_target:float32[2,8,1]", "future_target:float32[2,8,4]", "past_feat_dynamic:float32[2,8,2]",
                 "future_feat_dynamic:float32[2,8,4,2]", "feat_static_cat:int32[2,1]<3",
                 "past_observed_values:float32[2,8,1]", "future_observed_values:float32[2,8,4]"],
         fixed={"feat_static_cat": [[1], [2]], "past_observed_values": [[[1.0]] * 8, [[1.0]] * 7 + [[0.0]]],
                "future_observed_values": [[[1.0] * 4] * 8, [[1.0] * 4] * 7 + [[0.0, 1.0, 1.0, 1.0]]]}),
    dict(name="GaussianProcessTrainingNetwork (RBF kernel)",
         build="imp('mx.model.gp_forecaster._network').GaussianProcessTrainingNetwork(prediction_length=4, "
               "context_length=8, cardinality=3, kernel_output=imp('mx.kernels').RBFKernelOutput(), "
               "params_scaling=True, float_type=__import__('numpy').float32, max_iter_jitter=10, jitter_method='iter')",
         inputs=["past_target:float32[2,8]", "past_time_feat:float32[2,8,1]", "feat_static_cat:int32[2,1]<3"],
         fixed={"feat_static_cat": [[0], [2]]}),
    dict(name="TransformerTrainingNetwork",
         build="imp('mx.model.transformer._network').TransformerTrainingNetwork("
               f"encoder=imp('mx.model.transformer.trans_encoder').TransformerEncoder(8, {_TRANSFORMER}, prefix='enc_'), "
               f"decoder=imp('mx.model.transformer.trans_decoder').TransformerDecoder(4, {_TRANSFORMER}, prefix='dec_'), "
               "history_length=11, context_length=8, prediction_length=4, "
               f"distr_output={_TS}, cardinality=[3], embedding_dimension=2, lags_seq=[1, 3])",
         inputs=["feat_static_cat:int32[2,1]<3", "past_time_feat:float32[2,11,2]", "past_target:float32[2,11]",
                 "past_observed_values:float32[2,11]", "future_time_feat:float32[2,4,2]",
                 "future_target:float32[2,4]"],
         fixed={"feat_static_cat": [[1], [0]], "past_observed_values": [[1.0] * 11, [1.0] * 9 + [0.0] * 2]}),
    dict(name="DeepStateTrainingNetwork (level-trend ISSM)",
         build="imp('mx.model.deepstate._network').DeepStateTrainingNetwork(num_layers=1, num_cells=5, "
               "cell_type='lstm', past_length=8, prediction_length=4, "
               "issm=imp('mx.model.deepstate.issm').LevelTrendISSM(), dropout_rate=0.0, cardinality=[3], "
               "embedding_dimension=[2])",
         inputs=["feat_static_cat:int32[2,1]<3", "past_observed_values:float32[2,8,1]",
                 "past_seasonal_indicators:int32[2,8,1]<1", "past_time_feat:float32[2,8,2]",
                 "past_target:float32[2,8,1]"],
         fixed={"feat_static_cat": [[2], [1]], "past_observed_values": [[[1.0]] * 8, [[1.0]] * 6 + [[0.0]] * 2]}),
    dict(name="WaveNetTraining",
         build="imp('mx.model.wavenet._network').WaveNetTraining(bin_values=[-1.0, -0.3, 0.2, 0.9, 1.5], n_residue=3, "
               "n_skip=4, dilation_depth=2, n_stacks=1, act_type='elu', cardinality=[3], embedding_dimension=2, "
               "pred_length=3)",
         inputs=["feat_static_cat:int32[2,1]<3", "past_observed_values:float32[2,4]",
                 "past_time_feat:float32[2,2,4]", "future_time_feat:float32[2,2,3]",
                 "future_observed_values:float32[2,3]", "scale:float32[2,1]"],
         fixed={"feat_static_cat": [[1], [2]], "past_observed_values": [[1.0] * 4, [0.0] + [1.0] * 3],
                "future_observed_values": [[1.0] * 3, [1.0, 0.0, 1.0]], "scale": [[1.5], [0.7]]},
         # the targets are bin indices (float32 arrays cast to int32 for an embedding, which MXNet gives no
         # input gradient): constants
         extra={1: [[0.0, 3.0, 4.0, 1.0], [2.0, 2.0, 0.0, 4.0]], 5: [[1.0, 0.0, 3.0], [4.0, 2.0, 2.0]]}),
]

# gluonts v0.13.9 (corpus gluonts-v0.13, kept out of tuning): v0.11's layout and the same network signatures
GLUONTS_V013 = [dict(e) for e in GLUONTS]

_CFG = ("imp('transformer').TransformerConfig(model_size=8, attention_heads=2, feed_forward_num_hidden=12, "
        "act_type='relu', num_layers=2, dropout_attention=0.0, dropout_act=0.0, dropout_prepost=0.0, "
        "positional_embedding_type='fixed', preprocess_sequence='n', postprocess_sequence='r', "
        "max_seq_len_source=10, max_seq_len_target=10)")

SOCKEYE = [
    dict(name="TransformerEncoder", build=f"imp('encoder').TransformerEncoder({_CFG})",
         inputs=["data:float32[2,5,8]", "valid_length:float32[2]"], fixed={"valid_length": [5.0, 3.0]}),
    dict(name="TransformerEncoderBlock",
         build=f"imp('transformer').TransformerEncoderBlock({_CFG}, prefix='b0_', dtype='float32')",
         inputs=["data:float32[5,2,8]", "lengths:int32[4,5]<6"], fixed={"lengths": [[5] * 5] * 2 + [[3] * 5] * 2}),
    dict(name="TransformerFeedForward",
         build="imp('transformer').TransformerFeedForward(num_hidden=12, num_model=8, act_type='relu', dropout=0.0, "
               "prefix='ff_', dtype='float32')",
         inputs=["x:float32[2,5,8]"]),
    dict(name="MultiHeadAttention",
         build="imp('layers').MultiHeadAttention(prefix='att_', depth_att=8, heads=2, depth_out=8)",
         inputs=["queries:float32[3,2,8]", "memory:float32[5,2,8]", "memory_lengths:int32[4,3]<6"],
         fixed={"memory_lengths": [[5] * 3] * 2 + [[2] * 3] * 2}),
    dict(name="OutputLayer", build="imp('layers').OutputLayer(hidden_size=8, vocab_size=11)",
         inputs=["data:float32[2,8]"], extra=[None]),
    dict(name="TransformerProcessBlock (layer norm + residual)",
         build="imp('transformer').TransformerProcessBlock(sequence='rn', dropout=0.0, prefix='p_', num_hidden=8)",
         inputs=["data:float32[2,5,8]", "prev:float32[2,5,8]"]),
    dict(name="OutputLayer (weight tied through self.params.update)",
         build="imp('layers').OutputLayer(hidden_size=8, vocab_size=11, "
               "weight=imp('layers').OutputLayer(hidden_size=8, vocab_size=11, prefix='emb_').weight)",
         inputs=["data:float32[2,8]"], extra=[None]),
    dict(name="SSRU (training: contrib.foreach over time)",
         build="imp('layers').SSRU(model_size=8, inference_only=False, prefix='ssru_')",
         inputs=["inputs:float32[5,2,8]", "previous_states:float32[1,2,8]"]),
]

SOCKEYE.append(dict(
    name="SockeyeModel (transformer, length task, tied source/target/softmax)",
    build="imp('model').SockeyeModel(imp('model').ModelConfig("
          "config_data=imp('data_io').DataConfig(data_statistics=None, max_seq_len_source=10, max_seq_len_target=10, "
          "num_source_factors=1, num_target_factors=1), vocab_source_size=11, vocab_target_size=11, "
          "config_embed_source=imp('encoder').EmbeddingConfig(vocab_size=11, num_embed=8, dropout=0.0), "
          "config_embed_target=imp('encoder').EmbeddingConfig(vocab_size=11, num_embed=8, dropout=0.0), "
          f"config_encoder={_CFG}, config_decoder={_CFG}, "
          "config_length_task=imp('layers').LengthRatioConfig(num_layers=2, weight=1.0), "
          "weight_tying_type='src_trg_softmax'))",
    inputs=["source:int32[2,5,1]<11", "target:int32[2,4,1]<11"], extra={1: [5.0, 3.0], 3: [4.0, 2.0]}))

# sockeye 2.1.7 (the corpus "sockeye21"): older than 2.3.24 in 36 of its 40 files; the same kinds of classes,
# built through 2.1.7's own signatures.
_CFG21 = _CFG.replace("max_seq_len_target=10)", "max_seq_len_target=10, lhuc=True)")
# The Embedding's weight has grad_stype='row_sparse', whose backward MXNet refuses unless sparse_grad is on
# (allow_sparse_grad=True). Lengths are float32 in 2.1.7's signatures; MXNet writes no meaningful gradient for them (SequenceMask's is
# uninitialised memory, 9e21 measured), so they are constants (`extra`), not drawn inputs.
SOCKEYE21 = [
    dict(name="TransformerEncoder (with LHUC)", build=f"imp('encoder').TransformerEncoder({_CFG21})",
         inputs=["data:float32[2,5,8]"], extra={1: [5.0, 3.0]}),
    dict(name="TransformerEncoderBlock",
         build=f"imp('transformer').TransformerEncoderBlock({_CFG}, prefix='b0_', dtype='float32')",
         inputs=["data:float32[2,5,8]", "bias:float32[4,1,5]"]),
    dict(name="TransformerDecoderBlock",
         build=f"imp('transformer').TransformerDecoderBlock({_CFG}, prefix='d0_', dtype='float32')",
         inputs=["target:float32[2,4,8]", "target_bias:float32[4,4,4]", "source:float32[2,5,8]",
                 "source_bias:float32[4,1,5]"]),
    dict(name="MultiHeadSelfAttention",
         build="imp('layers').MultiHeadSelfAttention(prefix='satt_', depth_att=8, heads=2, depth_out=8)",
         inputs=["inputs:float32[2,5,8]"], extra={1: [5.0, 2.0]}),
    dict(name="MultiHeadAttention",
         build="imp('layers').MultiHeadAttention(prefix='att_', depth_att=8, heads=2, depth_out=8, depth_key_value=6)",
         inputs=["queries:float32[2,3,8]", "memory:float32[2,5,6]"], extra={2: [5.0, 2.0]}),
    dict(name="OutputLayer", build="imp('layers').OutputLayer(hidden_size=8, vocab_size=11)",
         inputs=["data:float32[2,8]"], extra=[None]),
    dict(name="LengthRatio", build="imp('layers').LengthRatio(hidden_size=8, num_layers=2)",
         inputs=["source_encoded:float32[2,5,8]"], extra={1: [5.0, 3.0]}),
    dict(name="PositionalEmbeddings (learned)",
         build="imp('layers').PositionalEmbeddings(weight_type='learned', num_embed=8, max_seq_len=10, "
               "prefix='pos_', scale_up_input=True, scale_down_positions=False)",
         inputs=["data:float32[2,5,8]"], extra=[None]),
    dict(name="Embedding (source, one factor)",
         build="imp('encoder').Embedding(imp('encoder').EmbeddingConfig(vocab_size=7, num_embed=6, dropout=0.0, "
               "allow_sparse_grad=True, factor_configs=[imp('encoder').FactorConfig(vocab_size=5, num_embed=2, combine='concat', "
               "share_source_embedding=False)]), prefix='emb_', is_source=True)",
         inputs=["data:int32[2,5,2]<5"], extra={1: [5.0, 3.0]}),
    dict(name="SockeyeModel (transformer, length task, tied source/target/softmax)",
         build="imp('model').SockeyeModel(imp('model').ModelConfig("
               "config_data=imp('data_io').DataConfig(data_statistics=None, max_seq_len_source=10, "
               "max_seq_len_target=10, num_source_factors=1), vocab_source_size=11, vocab_target_size=11, "
               "config_embed_source=imp('encoder').EmbeddingConfig(vocab_size=11, num_embed=8, dropout=0.0), "
               "config_embed_target=imp('encoder').EmbeddingConfig(vocab_size=11, num_embed=8, dropout=0.0), "
               f"config_encoder={_CFG}, config_decoder={_CFG}, "
               "config_length_task=imp('layers').LengthRatioConfig(num_layers=2, weight=1.0), "
               "weight_tying_type='src_trg_softmax'))",
         inputs=["source:int32[2,5,1]<11", "target:int32[2,4]<11"], extra={1: [5.0, 3.0], 3: [4.0, 2.0]}),
]

# sockeye 2.2.8 (the corpus "sockeye22", kept out of tuning): 2.3.24's layout (batch-major encoder input, int32
# attention lengths of shape (batch * heads, query length), interleaved-matmul attention), with 2.1.7's config
# classes (no target factors) and a decoder block that takes its source lengths and autoregressive states.
_LEN35 = [[5] * 3] * 2 + [[2] * 3] * 2  # (batch * heads, query length): lengths 5 and 2, two heads
SOCKEYE22 = [
    dict(name="TransformerEncoder", build=f"imp('encoder').TransformerEncoder({_CFG})",
         inputs=["data:float32[2,5,8]"], extra={1: [5.0, 3.0]}),
    dict(name="TransformerEncoderBlock",
         build=f"imp('transformer').TransformerEncoderBlock({_CFG}, prefix='b0_', dtype='float32')",
         inputs=["data:float32[5,2,8]", "lengths:int32[4,5]<6"], fixed={"lengths": [[5] * 5] * 2 + [[3] * 5] * 2}),
    dict(name="TransformerDecoderBlock",
         build=f"imp('transformer').TransformerDecoderBlock({_CFG}, inference_only=False, prefix='d0_', "
               "dtype='float32')",
         inputs=["target:float32[3,2,8]", "target_bias:float32[1,3,3]", "source:float32[5,2,8]",
                 "source_att_lengths:int32[4,3]<6"], fixed={"source_att_lengths": _LEN35}, extra=[None]),
    dict(name="TransformerDecoderBlock (SSRU decoder type)",
         build="imp('transformer').TransformerDecoderBlock(" + _CFG.replace("max_seq_len_target=10)", "max_seq_len_target=10, "
               "decoder_type='ssru_transformer')") + ", inference_only=False, prefix='d0_', dtype='float32')",
         inputs=["target:float32[3,2,8]", "target_bias:float32[1,3,3]", "source:float32[5,2,8]",
                 "source_att_lengths:int32[4,3]<6", "autoregr_states:float32[1,2,8]"],
         fixed={"source_att_lengths": _LEN35}),
    dict(name="MultiHeadSelfAttention",
         build="imp('layers').MultiHeadSelfAttention(prefix='satt_', depth_att=8, heads=2, depth_out=8)",
         inputs=["inputs:float32[3,2,8]"], extra={1: None, 2: None}),
    dict(name="MultiHeadAttention",
         build="imp('layers').MultiHeadAttention(prefix='att_', depth_att=8, heads=2, depth_out=8, depth_key_value=6)",
         inputs=["queries:float32[3,2,8]", "memory:float32[5,2,6]", "memory_lengths:int32[4,3]<6"],
         fixed={"memory_lengths": _LEN35}),
    dict(name="TransformerFeedForward",
         build="imp('transformer').TransformerFeedForward(num_hidden=12, num_model=8, act_type='relu', dropout=0.0, "
               "prefix='ff_', dtype='float32')",
         inputs=["x:float32[2,5,8]"]),
    dict(name="OutputLayer", build="imp('layers').OutputLayer(hidden_size=8, vocab_size=11)",
         inputs=["data:float32[2,8]"], extra=[None]),
    dict(name="LengthRatio", build="imp('layers').LengthRatio(hidden_size=8, num_layers=2)",
         inputs=["source_encoded:float32[2,5,8]"], extra={1: [5.0, 3.0]}),
    dict(name="PositionalEmbeddings (learned)",
         build="imp('layers').PositionalEmbeddings(weight_type='learned', num_embed=8, max_seq_len=10, "
               "prefix='pos_', scale_up_input=True, scale_down_positions=False)",
         inputs=["data:float32[2,5,8]"], extra=[None]),
    dict(name="SSRU (training: contrib.foreach over time)",
         build="imp('layers').SSRU(model_size=8, inference_only=False, prefix='ssru_')",
         inputs=["inputs:float32[5,2,8]", "previous_states:float32[1,2,8]"]),
    dict(name="Embedding (source, one factor)",
         build="imp('encoder').Embedding(imp('encoder').EmbeddingConfig(vocab_size=7, num_embed=6, dropout=0.0, "
               "allow_sparse_grad=True, factor_configs=[imp('encoder').FactorConfig(vocab_size=5, num_embed=2, "
               "combine='concat', share_source_embedding=False)]), prefix='emb_', is_source=True)",
         inputs=["data:int32[2,5,2]<5"], extra={1: [5.0, 3.0]}),
    dict(name="SockeyeModel (transformer, length task, tied source/target/softmax)",
         build="imp('model').SockeyeModel(imp('model').ModelConfig("
               "config_data=imp('data_io').DataConfig(data_statistics=None, max_seq_len_source=10, "
               "max_seq_len_target=10, num_source_factors=1), vocab_source_size=11, vocab_target_size=11, "
               "config_embed_source=imp('encoder').EmbeddingConfig(vocab_size=11, num_embed=8, dropout=0.0), "
               "config_embed_target=imp('encoder').EmbeddingConfig(vocab_size=11, num_embed=8, dropout=0.0), "
               f"config_encoder={_CFG}, config_decoder={_CFG}, "
               "config_length_task=imp('layers').LengthRatioConfig(num_layers=2, weight=1.0), "
               "weight_tying_type='src_trg_softmax'))",
         inputs=["source:int32[2,5,1]<11", "target:int32[2,4]<11"], extra={1: [5.0, 3.0], 3: [4.0, 2.0]}),
]

# gluonnlp's own source (v0.10.x): its model classes, built at small sizes as a user of the package builds them.
_TE = "imp('model.transformer').get_transformer_encoder_decoder(num_layers=2, num_heads=2, units=8, hidden_size=12, " \
      "max_src_length=10, max_tgt_length=10)"
_BERT_ENC = "imp('model.bert').BERTEncoder(num_layers=2, units=8, hidden_size=12, max_length=10, num_heads=2)"
_VOCAB = "imp('vocab').Vocab(imp('data').count_tokens(list('abcdefg')))"  # 7 tokens + 4 special: 11
_MASK35 = [[[1.0] * 5] * 3, [[1.0] * 3 + [0.0] * 2] * 3]
_LM = "dropout=0.0, tie_weights=False"
_ELMO = "filters=[[1, 4], [2, 6]], char_embed_size=3, num_highway=1, conv_layer_activation='relu', " \
        "max_chars_per_token=5, char_vocab_size=20"

GLUONNLP = [
    dict(name="TransformerEncoder (get_transformer_encoder_decoder)", build=f"{_TE}[0]",
         inputs=["inputs:float32[2,5,8]", "valid_length:float32[2]"], fixed={"valid_length": [5.0, 3.0]},
         extra={1: None}),
    dict(name="TransformerDecoder (states from init_state_from_encoder)", build=f"{_TE}[1]",
         inputs=["tgt:float32[2,4,8]", "mem:float32[2,5,8]", "mem_length:float32[2]", "tgt_length:float32[2]"],
         fixed={"mem_length": [5.0, 2.0], "tgt_length": [4.0, 3.0]},
         call="lambda net, tgt, mem, mem_len, tgt_len: net(tgt, net.init_state_from_encoder(mem, mem_len), tgt_len)"),
    dict(name="BERTModel (pooler, decoder, classifier)",
         build=f"imp('model.bert').BERTModel({_BERT_ENC}, vocab_size=11, token_type_vocab_size=2, units=8, "
               "embed_size=8)",
         inputs=["inputs:int32[2,5]<11", "token_types:int32[2,5]<2", "valid_length:float32[2]",
                 "masked_positions:int32[2,2]<3"],
         fixed={"valid_length": [5.0, 3.0]}),
    dict(name="NMTModel (transformer encoder/decoder, vocabularies)",
         build=f"imp('model.translation').NMTModel({_VOCAB}, {_VOCAB}, *{_TE}, embed_size=8)",
         inputs=["src_seq:int32[2,5]<11", "tgt_seq:int32[2,4]<11", "src_valid_length:float32[2]",
                 "tgt_valid_length:float32[2]"],
         fixed={"src_valid_length": [5.0, 3.0], "tgt_valid_length": [4.0, 2.0]}),
    dict(name="AWDRNN (lstm, 2 layers)",
         build=f"imp('model.language_model').AWDRNN(mode='lstm', vocab_size=11, embed_size=6, hidden_size=7, "
               f"num_layers=2, {_LM}, weight_drop=0.0, drop_h=0.0, drop_i=0.0, drop_e=0.0)",
         inputs=["inputs:int32[5,2]<11"]),
    dict(name="StandardRNN (gru, tied weights)",
         build="imp('model.language_model').StandardRNN(mode='gru', vocab_size=11, embed_size=6, hidden_size=6, "
               "num_layers=2, dropout=0.0, tie_weights=True)",
         inputs=["inputs:int32[5,2]<11"]),
    dict(name="BigRNN (LSTMP, begin_state)",
         build="imp('model.language_model').BigRNN(vocab_size=11, embed_size=4, hidden_size=6, num_layers=1, "
               "projection_size=4)",
         inputs=["inputs:int32[5,2]<11"], call="lambda net, x: net(x, net.begin_state(batch_size=2))"),
    dict(name="ConvolutionalEncoder (HybridLambda max, highway, projection)",
         build="imp('model.convolutional_encoder').ConvolutionalEncoder(embed_size=4, num_filters=(3, 5), "
               "ngram_filter_sizes=(1, 2), num_highway=1, output_size=6)",
         inputs=["inputs:float32[5,2,4]", "mask:float32[5,2]"],
         fixed={"mask": [[1.0, 1.0]] * 3 + [[1.0, 0.0]] * 2}),
    dict(name="Highway", build="imp('model.highway').Highway(input_size=6, num_layers=2)",
         inputs=["inputs:float32[2,3,6]"]),
    dict(name="DotProductAttentionCell (projected, scaled, masked)",
         build="imp('model.attention_cell').DotProductAttentionCell(units=6, scaled=True)",
         inputs=["query:float32[2,3,4]", "key:float32[2,5,4]", "value:float32[2,5,4]", "mask:float32[2,3,5]"],
         fixed={"mask": _MASK35}),
    dict(name="MLPAttentionCell (normalized, masked)",
         build="imp('model.attention_cell').MLPAttentionCell(units=6, normalized=True)",
         inputs=["query:float32[2,3,4]", "key:float32[2,5,4]", "value:float32[2,5,4]", "mask:float32[2,3,5]"],
         fixed={"mask": _MASK35}),
    dict(name="MultiHeadAttentionCell (dot-product base)",
         build="imp('model.attention_cell').MultiHeadAttentionCell(base_cell=imp('model.attention_cell')."
               "DotProductAttentionCell(scaled=True), query_units=8, key_units=8, value_units=8, num_heads=2)",
         inputs=["query:float32[2,3,8]", "key:float32[2,5,8]", "value:float32[2,5,8]", "mask:float32[2,3,5]"],
         fixed={"mask": _MASK35}),
    dict(name="ELMoCharacterEncoder",
         build=f"imp('model.elmo').ELMoCharacterEncoder(output_size=6, {_ELMO})",
         inputs=["inputs:int32[2,3,5]<20"]),
    dict(name="BiLMEncoder (lstmpc, skip connection)",
         build="imp('model.bilm_encoder').BiLMEncoder(mode='lstmpc', num_layers=2, input_size=4, hidden_size=6, "
               "proj_size=4, cell_clip=3, proj_clip=3)",
         inputs=["inputs:float32[3,2,4]", "mask:float32[2,3]"], fixed={"mask": [[1.0] * 3, [1.0, 1.0, 0.0]]},
         call="lambda net, x, mask: net(x, net.begin_state(func=zeros, batch_size=2), mask)"),
    dict(name="BeamSearchScorer", build="imp('model.sequence_sampler').BeamSearchScorer(alpha=1.0, K=5.0)",
         inputs=["outputs:float32[2,6]", "scores:float32[2,1]"], extra={2: [3.0]}),  # step: an array in MXNet
]

# gluonts v0.6.9 (corpus gluonts-v0.6): models under model/, distributions, blocks and kernels under mx/. DeepAR has
# no past_is_pad there; the GP network takes a context (gluonts' own get_mxnet_context on each side).
_TS6 = "imp('mx.distribution').StudentTOutput()"
_EMB6 = "imp('mx.block.feature').FeatureEmbedder(cardinalities=[3], embedding_dims=[2])"
GLUONTS_V06 = [
    dict(name="SimpleFeedForwardTrainingNetwork",
         build="imp('model.simple_feedforward._network').SimpleFeedForwardTrainingNetwork("
               "num_hidden_dimensions=[6, 3], prediction_length=4, context_length=8, batch_normalization=False, "
               f"mean_scaling=True, distr_output={_TS6})",
         inputs=["past_target:float32[2,8]", "future_target:float32[2,4]", "future_observed_values:float32[2,4]"],
         fixed={"future_observed_values": _OBS4}),
    dict(name="DeepARTrainingNetwork",
         build="imp('model.deepar._network').DeepARTrainingNetwork("
               "num_layers=1, num_cells=5, cell_type='lstm', history_length=11, context_length=8, prediction_length=4, "
               f"distr_output={_TS6}, dropout_rate=0.0, cardinality=[3], embedding_dimension=[2], lags_seq=[1, 3])",
         inputs=["feat_static_cat:int32[2,1]<3", "feat_static_real:float32[2,1]", "past_time_feat:float32[2,11,2]",
                 "past_target:float32[2,11]", "past_observed_values:float32[2,11]",
                 "future_time_feat:float32[2,4,2]", "future_target:float32[2,4]",
                 "future_observed_values:float32[2,4]"],
         fixed={"feat_static_cat": [[0], [2]], "past_observed_values": [[1.0] * 11, [1.0] * 9 + [0.0] * 2],
                "future_observed_values": _OBS4}),
    dict(name="NBEATSTrainingNetwork",
         build="imp('model.n_beats._network').NBEATSTrainingNetwork(loss_function='MASE', freq='D', "
               "prediction_length=4, context_length=8, num_stacks=2, widths=[6, 6], num_blocks=[1, 1], "
               "num_block_layers=[2, 2], expansion_coefficient_lengths=[3, 2], sharing=[False, False], "
               "stack_types=['G', 'T'])",
         inputs=["past_target:float32[2,8]", "future_target:float32[2,4]"]),
    dict(name="ForkingSeq2SeqTrainingNetwork (MQCNN)",
         build="imp('model.seq2seq._forking_network').ForkingSeq2SeqTrainingNetwork("
               "encoder=imp('mx.block.encoder').HierarchicalCausalConv1DEncoder(dilation_seq=[1, 2], "
               "kernel_size_seq=[2, 2], channels_seq=[3, 3], use_residual=True, use_static_feat=True, "
               "use_dynamic_feat=True), "
               "enc2dec=imp('mx.block.enc2dec').FutureFeatIntegratorEnc2Dec(), "
               "decoder=imp('mx.block.decoder').ForkingMLPDecoder(dec_len=4, final_dim=3, hidden_dimension_sequence=[5]), "
               "context_length=8, cardinality=[3], embedding_dimension=[2], "
               "quantile_output=imp('mx.block.quantile_output').QuantileOutput(quantiles=[0.1, 0.5, 0.9]))",
         inputs=["past_target:float32[2,8,1]", "future_target:float32[2,8,4]", "past_feat_dynamic:float32[2,8,2]",
                 "future_feat_dynamic:float32[2,8,4,2]", "feat_static_cat:int32[2,1]<3",
                 "past_observed_values:float32[2,8,1]", "future_observed_values:float32[2,8,4]"],
         fixed={"feat_static_cat": [[1], [2]], "past_observed_values": [[[1.0]] * 8, [[1.0]] * 7 + [[0.0]]],
                "future_observed_values": [[[1.0] * 4] * 8, [[1.0] * 4] * 7 + [[0.0, 1.0, 1.0, 1.0]]]}),
    dict(name="GaussianProcessTrainingNetwork (RBF kernel)",
         build="imp('model.gp_forecaster._network').GaussianProcessTrainingNetwork(prediction_length=4, "
               "context_length=8, cardinality=3, kernel_output=imp('mx.kernels').RBFKernelOutput(), "
               "params_scaling=True, ctx=imp('mx.context').get_mxnet_context(), "
               "float_type=__import__('numpy').float32, max_iter_jitter=10, jitter_method='iter')",
         inputs=["past_target:float32[2,8]", "past_time_feat:float32[2,8,1]", "feat_static_cat:int32[2,1]<3"],
         fixed={"feat_static_cat": [[0], [2]]}),
    dict(name="TransformerTrainingNetwork",
         build="imp('model.transformer._network').TransformerTrainingNetwork("
               f"encoder=imp('model.transformer.trans_encoder').TransformerEncoder(8, {_TRANSFORMER}, prefix='enc_'), "
               f"decoder=imp('model.transformer.trans_decoder').TransformerDecoder(4, {_TRANSFORMER}, prefix='dec_'), "
               "history_length=11, context_length=8, prediction_length=4, "
               f"distr_output={_TS6}, cardinality=[3], embedding_dimension=2, lags_seq=[1, 3])",
         inputs=["feat_static_cat:int32[2,1]<3", "past_time_feat:float32[2,11,2]", "past_target:float32[2,11]",
                 "past_observed_values:float32[2,11]", "future_time_feat:float32[2,4,2]",
                 "future_target:float32[2,4]"],
         fixed={"feat_static_cat": [[1], [0]], "past_observed_values": [[1.0] * 11, [1.0] * 9 + [0.0] * 2]}),
    dict(name="DeepStateTrainingNetwork (level-trend ISSM)",
         build="imp('model.deepstate._network').DeepStateTrainingNetwork(num_layers=1, num_cells=5, "
               "cell_type='lstm', past_length=8, prediction_length=4, "
               "issm=imp('model.deepstate.issm').LevelTrendISSM(), dropout_rate=0.0, cardinality=[3], "
               "embedding_dimension=[2])",
         inputs=["feat_static_cat:int32[2,1]<3", "past_observed_values:float32[2,8,1]",
                 "past_seasonal_indicators:int32[2,8,1]<1", "past_time_feat:float32[2,8,2]",
                 "past_target:float32[2,8,1]"],
         fixed={"feat_static_cat": [[2], [1]], "past_observed_values": [[[1.0]] * 8, [[1.0]] * 6 + [[0.0]] * 2]}),
    dict(name="WaveNet",
         build="imp('model.wavenet._network').WaveNet(bin_values=[-1.0, -0.3, 0.2, 0.9, 1.5], n_residue=3, "
               "n_skip=4, dilation_depth=2, n_stacks=1, act_type='elu', cardinality=[3], embedding_dimension=2, "
               "pred_length=3)",
         inputs=["feat_static_cat:int32[2,1]<3", "past_observed_values:float32[2,4]",
                 "past_time_feat:float32[2,2,4]", "future_time_feat:float32[2,2,3]",
                 "future_observed_values:float32[2,3]", "scale:float32[2,1]"],
         fixed={"feat_static_cat": [[1], [2]], "past_observed_values": [[1.0] * 4, [0.0] + [1.0] * 3],
                "future_observed_values": [[1.0] * 3, [1.0, 0.0, 1.0]], "scale": [[1.5], [0.7]]},
         extra={1: [[0.0, 3.0, 4.0, 1.0], [2.0, 2.0, 0.0, 4.0]], 5: [[1.0, 0.0, 3.0], [4.0, 2.0, 2.0]]}),
    dict(name="DeepFactorTrainingNetwork",
         build="imp('model.deep_factor._network').DeepFactorTrainingNetwork("
               "global_model=imp('model.deep_factor.RNNModel').RNNModel(mode='lstm', num_hidden=5, num_layers=1, "
               "num_output=2), local_model=imp('model.deep_factor.RNNModel').RNNModel(mode='lstm', num_hidden=4, "
               f"num_layers=1, num_output=1), embedder={_EMB6})",
         inputs=["feat_static_cat:int32[2,1]<3", "past_time_feat:float32[2,8,2]", "past_target:float32[2,8]"],
         fixed={"feat_static_cat": [[2], [0]]}),
    dict(name="LSTNetTrain",
         build="imp('model.lstnet._network').LSTNetTrain(num_series=3, channels=4, kernel_size=2, "
               "rnn_cell_type='gru', rnn_num_layers=1, rnn_num_cells=5, skip_rnn_cell_type='gru', "
               "skip_rnn_num_layers=1, skip_rnn_num_cells=3, skip_size=2, ar_window=2, context_length=8, "
               "lead_time=0, prediction_length=1, dropout_rate=0.0, output_activation=None, scaling=True, "
               "dtype=__import__('numpy').float32)",
         inputs=["past_target:float32[2,3,8]", "past_observed_values:float32[2,3,8]", "future_target:float32[2,3,1]",
                 "future_observed_values:float32[2,3,1]"],
         fixed={"past_observed_values": [[[1.0] * 8] * 3, [[1.0] * 8] * 2 + [[0.0] + [1.0] * 7]],
                "future_observed_values": [[[1.0]] * 3, [[1.0], [0.0], [1.0]]]}),
    dict(name="CanonicalTrainingNetwork (RNN)",
         build="imp('model.canonical._network').CanonicalTrainingNetwork("
               "model=imp('mx.block.rnn').RNN(mode='gru', num_layers=1, num_hidden=5), "
               f"embedder={_EMB6}, distr_output={_TS6}, is_sequential=True)",
         inputs=["feat_static_cat:int32[2,1]<3", "past_time_feat:float32[2,8,2]", "past_target:float32[2,8]"],
         fixed={"feat_static_cat": [[1], [2]]}),
    dict(name="TemporalFusionTransformerTrainingNetwork",
         build="imp('model.tft._network').TemporalFusionTransformerTrainingNetwork(context_length=8, "
               "prediction_length=4, d_var=4, d_hidden=6, n_head=2, n_output=3, d_past_feat_dynamic_real=[1], "
               "c_past_feat_dynamic_cat=[3], d_feat_dynamic_real=[1, 1], c_feat_dynamic_cat=[3], "
               "d_feat_static_real=[1], c_feat_static_cat=[3], dropout=0.0)",
         inputs=["past_target:float32[2,8]", "future_target:float32[2,4]",
                 "future_observed_values:float32[2,4]", "past_feat_dynamic_real:float32[2,8,1]",
                 "past_feat_dynamic_cat:int32[2,8,1]<3", "feat_dynamic_real:float32[2,12,2]",
                 "feat_dynamic_cat:int32[2,12,1]<3", "feat_static_real:float32[2,1]", "feat_static_cat:int32[2,1]<3"],
         fixed={"future_observed_values": _OBS4},
         extra={1: _OBS8}),  # past_observed_values: MXNet 1.9.1 segfaults computing its gradient
    dict(name="ForkingSeq2SeqTrainingNetwork (MQRNN)",
         build="imp('model.seq2seq._forking_network').ForkingSeq2SeqTrainingNetwork("
               "encoder=imp('mx.block.encoder').RNNEncoder(mode='gru', hidden_size=4, num_layers=1, "
               "bidirectional=True, prefix='encoder_', use_static_feat=True, use_dynamic_feat=True), "
               "enc2dec=imp('mx.block.enc2dec').FutureFeatIntegratorEnc2Dec(), "
               "decoder=imp('mx.block.decoder').ForkingMLPDecoder(dec_len=4, final_dim=3, hidden_dimension_sequence=[5]), "
               "context_length=8, cardinality=[3], embedding_dimension=[2], "
               "quantile_output=imp('mx.block.quantile_output').QuantileOutput(quantiles=[0.1, 0.5, 0.9]))",
         inputs=["past_target:float32[2,8,1]", "future_target:float32[2,8,4]", "past_feat_dynamic:float32[2,8,2]",
                 "future_feat_dynamic:float32[2,8,4,2]", "feat_static_cat:int32[2,1]<3",
                 "past_observed_values:float32[2,8,1]", "future_observed_values:float32[2,8,4]"],
         fixed={"feat_static_cat": [[1], [2]], "past_observed_values": [[[1.0]] * 8, [[1.0]] * 7 + [[0.0]]],
                "future_observed_values": [[[1.0] * 4] * 8, [[1.0] * 4] * 7 + [[0.0, 1.0, 1.0, 1.0]]]}),
    dict(name="DeepVARTrainingNetwork (low-rank Gaussian)",
         build="imp('model.deepvar._network').DeepVARTrainingNetwork(num_layers=1, num_cells=5, cell_type='lstm', "
               "history_length=11, context_length=8, prediction_length=4, "
               "distr_output=imp('mx.distribution').LowrankMultivariateGaussianOutput(dim=3, rank=2), "
               "dropout_rate=0.0, lags_seq=[1, 3], target_dim=3, conditioning_length=8, cardinality=[3], "
               "embedding_dimension=2)",
         inputs=["target_dimension_indicator:int32[2,3]<3", "past_time_feat:float32[2,11,2]",
                 "past_target_cdf:float32[2,11,3]", "past_observed_values:float32[2,11,3]",
                 "future_time_feat:float32[2,4,2]", "future_target_cdf:float32[2,4,3]",
                 "future_observed_values:float32[2,4,3]"],
         fixed={"target_dimension_indicator": [[0, 1, 2], [0, 1, 2]],
                "past_observed_values": [[[1.0] * 3] * 11, [[1.0] * 3] * 10 + [[0.0, 1.0, 1.0]]],
                "future_observed_values": [[[1.0] * 3] * 4, [[1.0] * 3] * 3 + [[1.0, 0.0, 1.0]]]},
         extra={4: [[0.0] * 11, [1.0] * 2 + [0.0] * 9]}),  # past_is_pad, a constant
    dict(name="DeepARTrainingNetwork (negative binomial, 2 layers: a ResidualCell)",
         build="imp('model.deepar._network').DeepARTrainingNetwork("
               "num_layers=2, num_cells=5, cell_type='lstm', history_length=11, context_length=8, prediction_length=4, "
               "distr_output=imp('mx.distribution').NegativeBinomialOutput(), dropout_rate=0.0, cardinality=[3], "
               "embedding_dimension=[2], lags_seq=[1, 3])",
         inputs=["feat_static_cat:int32[2,1]<3", "feat_static_real:float32[2,1]", "past_time_feat:float32[2,11,2]",
                 "past_target:float32[2,11]", "past_observed_values:float32[2,11]",
                 "future_time_feat:float32[2,4,2]", "future_target:float32[2,4]",
                 "future_observed_values:float32[2,4]"],
         fixed={"feat_static_cat": [[0], [2]], "past_observed_values": [[1.0] * 11, [1.0] * 9 + [0.0] * 2],
                "future_observed_values": _OBS4,
                "past_target": [[3.0, 0.0, 1.0, 4.0, 2.0, 5.0, 1.0, 0.0, 2.0, 3.0, 1.0], [1.0] * 11],
                "future_target": [[2.0, 0.0, 1.0, 3.0], [4.0, 1.0, 0.0, 2.0]]}),
    dict(name="DeepARTrainingNetwork (piecewise-linear)",
         build="imp('model.deepar._network').DeepARTrainingNetwork("
               "num_layers=1, num_cells=5, cell_type='gru', history_length=11, context_length=8, prediction_length=4, "
               "distr_output=imp('mx.distribution').PiecewiseLinearOutput(num_pieces=3), dropout_rate=0.0, "
               "cardinality=[3], embedding_dimension=[2], lags_seq=[1, 3])",
         inputs=["feat_static_cat:int32[2,1]<3", "feat_static_real:float32[2,1]", "past_time_feat:float32[2,11,2]",
                 "past_target:float32[2,11]", "past_observed_values:float32[2,11]",
                 "future_time_feat:float32[2,4,2]", "future_target:float32[2,4]",
                 "future_observed_values:float32[2,4]"],
         fixed={"feat_static_cat": [[1], [2]], "past_observed_values": [[1.0] * 11, [1.0] * 9 + [0.0] * 2],
                "future_observed_values": _OBS4}),
    dict(name="DeepTPPTrainingNetwork (Weibull, temporal point process)",
         build="imp('model.tpp.deeptpp._network').DeepTPPTrainingNetwork(num_marks=3, interval_length=5.0, "
               "time_distr_output=imp('model.tpp.distribution').WeibullOutput(), embedding_dim=2, "
               "num_hidden_dimensions=4)",
         inputs=["target:float32[2,4,2]"],
         # inter-arrival times (positive, summing under the interval) beside mark ids; lengths a constant
         fixed={"target": [[[0.5, 1.0], [1.2, 0.0], [0.3, 2.0], [0.9, 1.0]], [[0.7, 2.0], [0.4, 1.0], [1.1, 0.0],
                                                                             [0.2, 2.0]]]},
         extra={1: [4.0, 2.0]}),
]


# gluonts v0.10.10 (corpus gluonts-v0.10): the v0.6 layout; the networks' signatures as of v0.10: DeepAR takes
# past_is_pad (a constant, as in the v0.11 list), N-BEATS observed values, the GP network no context, DeepVAR no
# conditioning_length, and WaveNet's training forward is WaveNetTraining's.
def _v010(entry: dict) -> dict:
    entry = dict(entry)
    name = entry["name"]
    if name.startswith("DeepARTrainingNetwork"):
        entry["extra"] = {5: [[0.0] * 11, [1.0] * 2 + [0.0] * 9]}
    elif name == "NBEATSTrainingNetwork":
        entry["inputs"] = ["past_target:float32[2,8]", "past_observed_values:float32[2,8]",
                           "future_target:float32[2,4]", "future_observed_values:float32[2,4]"]
        entry["fixed"] = {"past_observed_values": _OBS8, "future_observed_values": _OBS4}
    elif name.startswith("GaussianProcess"):
        entry["build"] = entry["build"].replace("ctx=imp('mx.context').get_mxnet_context(), ", "")
    elif name.startswith("DeepVAR"):
        entry["build"] = entry["build"].replace("conditioning_length=8, ", "")
    elif name == "WaveNet":
        entry["name"], entry["build"] = "WaveNetTraining", entry["build"].replace(").WaveNet(", ").WaveNetTraining(")
    return entry


GLUONTS_V010 = [_v010(e) for e in GLUONTS_V06]

# gluonts v0.8.1 (corpus gluonts-v0.8, kept out of tuning): the v0.6 layout; v0.10's signatures (DeepAR's past_is_pad,
# N-BEATS observed values, a GP network without a context, WaveNetTraining) but DeepVAR's conditioning_length still
# there; and two networks v0.6 lacks: the self-attention network (SAN) and the deep renewal process.
def _v08(entry: dict) -> dict:
    entry = _v010(entry)
    if entry["name"].startswith("DeepVAR"):
        entry["build"] = next(e["build"] for e in GLUONTS_V06 if e["name"] == entry["name"])
    return entry


GLUONTS_V08 = [_v08(e) for e in GLUONTS_V06] + [
    dict(name="SelfAttentionTrainingNetwork (SAN)",
         build="imp('model.san._network').SelfAttentionTrainingNetwork(context_length=8, prediction_length=4, "
               "d_hidden=6, m_ffn=2, n_head=2, n_layers=1, n_output=3, cardinalities=[3, 3], kernel_sizes=[3], "
               "dist_enc=None, pre_ln=True, dropout=0.0, temperature=1.0)",
         inputs=["past_target:float32[2,8]", "future_target:float32[2,4]", "past_feat_dynamic_real:float32[2,8,1]",
                 "past_feat_dynamic_cat:int32[2,8,1]<3", "future_feat_dynamic_real:float32[2,4,1]",
                 "future_feat_dynamic_cat:int32[2,4,1]<3", "feat_static_real:float32[2,1]",
                 "feat_static_cat:int32[2,1]<3"],
         # the observed-value masks and past_is_pad are constants: MXNet 1.9.1 segfaults computing the masks'
         # gradient (as TFT's)
         extra={1: _OBS8, 2: [[0.0] * 8, [1.0] * 2 + [0.0] * 6], 4: _OBS4}),
    dict(name="DeepRenewalTrainingNetwork (negative-binomial intervals and sizes)",
         build="imp('model.renewal._network').DeepRenewalTrainingNetwork(prediction_length=4, context_length=6, "
               "interval_distr_output=imp('mx.distribution').NegativeBinomialOutput(), "
               "size_distr_output=imp('mx.distribution').NegativeBinomialOutput(), num_cells=5, num_layers=1, "
               "dropout_rate=0.0)",
         inputs=["past_target:float32[2,6,2]"],
         # inter-demand intervals >= 1 and demand sizes >= 1 (counts), right-aligned (the padding too: a count of -1
         # has no log-likelihood gradient on either side); valid lengths a constant
         fixed={"past_target": [[[1.0, 2.0], [3.0, 1.0], [1.0, 4.0], [2.0, 2.0], [1.0, 1.0], [5.0, 3.0]],
                                [[1.0, 1.0], [1.0, 1.0], [2.0, 1.0], [1.0, 3.0], [4.0, 2.0], [1.0, 1.0]]]},
         extra={1: [[6.0], [4.0]]}),
]

# sknlp (nanaya-tachibana/sknlp-mxnet, the corpus "sknlp"): its encoders and layers, layout TNC (sequence, batch,
# features); masks are 0/1 constants (lengths 5 and 3), given without a gradient.
_MASK = [[1.0, 1.0]] * 3 + [[1.0, 0.0]] * 2
_RNN = "num_rnn_layers=1, projection_size=4, hidden_size=6, output_size=3, num_fc_layers=2, fc_hidden_size=5"
SKNLP = [
    dict(name="TextCNN", build="imp('encode').TextCNN(embed_size=6, num_filters=(3, 4), ngram_filter_sizes=(1, 2), "
                               "output_size=3, num_fc_layers=2, fc_hidden_size=5, prefix='encode_')",
         inputs=["input:float32[5,2,6]"], extra={1: _MASK}),
    dict(name="TextRNN", build=f"imp('encode').TextRNN({_RNN}, prefix='encode_')",
         inputs=["input:float32[5,2,6]"], extra={1: _MASK}),
    dict(name="TextRNN (dense_connection='last')", build=f"imp('encode').TextRNN({_RNN}, dense_connection='last')",
         inputs=["input:float32[5,2,6]"], extra={1: _MASK}),
    dict(name="TextRNN (dense_connection='attention')",
         build=f"imp('encode').TextRNN({_RNN}, dense_connection='attention')",
         inputs=["input:float32[5,2,6]"], extra={1: _MASK}),
    dict(name="TextRCNN", build="imp('encode').TextRCNN(num_rnn_layers=1, projection_size=4, hidden_size=6, kmax=2, "
                                "output_size=3, num_fc_layers=1, fc_hidden_size=5)",
         inputs=["input:float32[5,2,6]"], extra={1: _MASK}),
    dict(name="BiLSTM (2 layers)", build="imp('module').BiLSTM(2, 4, hidden_size=5, dropout=0.0)",
         inputs=["input:float32[5,2,6]"], extra={1: None, 2: _MASK}),
    dict(name="FCLayerWithAttention", build="imp('encode').FCLayerWithAttention(2, hidden_size=5, output_size=3)",
         inputs=["input:float32[5,2,6]"], extra={1: _MASK}),
    dict(name="Crf", build="imp('crf').Crf(4)",
         inputs=["emissions:float32[5,2,4]"], extra={1: [[0.0, 3.0], [1.0, 2.0], [3.0, 3.0], [2.0, 0.0], [1.0, 0.0]],
                                                     2: _MASK}),
    dict(name="AdaptiveSoftmax (2 tail clusters)",
         build="imp('loss').AdaptiveSoftmax(input_size=4, num_classes=9, cutoffs=[2, 5])",
         inputs=["input:float32[5,4]"], extra={1: [0.0, 3.0, 1.0, 7.0, 2.0], 2: [0.0, 1.0, 2.0, 3.0, 4.0]}),
    dict(name="TokenEmbedding", build="imp('embedding').TokenEmbedding(list('abcdefg'), 5)",
         inputs=["input:int32[5,2]<7"]),
]

# Single-Path-One-Shot NAS (CanyonWind/Single-Path-One-Shot-NAS-MXNet, the corpus "spos"): its flat modules
# import each other by bare name. The supernet at small widths (stage channels 24/32/48/64; 64x64 input: at 32x32
# the last BatchNorms see 2 values a channel and float32 cannot resolve their gradients) with a
# block choice per block and a channel mask per block (the first k channels of each block's widest mid layer);
# the fixed subnets through the same constructor.
_ARCH = [0, 1, 2, 3] * 5
_STAGES = [24] * 4 + [32] * 4 + [48] * 8 + [64] * 4
_CMASK = [[1.0] * max(1, c * (3 + i % 5) // 8) + [0.0] * (64 - max(1, c * (3 + i % 5) // 8))
          for i, c in enumerate(_STAGES)]
_NET = "input_size=64, n_class=5, stage_out_channels=[24, 32, 48, 64], last_conv_out_channel=24"
_SCALES = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0]
_FIX = f"architecture={_ARCH}, channel_scales={[_SCALES[(3 * i) % 10] for i in range(20)]}"
SPOS = [
    dict(name="ShuffleNasOneShot (supernet, BatchNorm)", build=f"imp('oneshot_nas_network').ShuffleNasOneShot({_NET})",
         inputs=["x:float32[2,3,64,64]"], extra={1: [float(a) for a in _ARCH], 2: _CMASK}),
    dict(name="ShuffleNasOneShot (supernet, NasBatchNorm, SE, conv after pooling)",
         build=f"imp('oneshot_nas_network').ShuffleNasOneShot({_NET}, bn=imp('oneshot_nas_blocks').NasBatchNorm, "
               "use_se=True, last_conv_after_pooling=True)",
         inputs=["x:float32[2,3,64,64]"], extra={1: [float(a) for a in _ARCH], 2: _CMASK}),
    dict(name="ShuffleNasOneShot (supernet, all blocks)",
         build=f"imp('oneshot_nas_network').ShuffleNasOneShot({_NET}, use_all_blocks=True)",
         inputs=["x:float32[2,3,64,64]"], extra={1: [float(a) for a in _ARCH], 2: _CMASK}),
    dict(name="ShuffleNasOneShotFix (fixed subnet, SE)",
         build=f"imp('oneshot_nas_network').ShuffleNasOneShotFix({_NET}, {_FIX}, use_se=True)",
         inputs=["x:float32[2,3,64,64]"]),
    dict(name="ShuffleNasOneShotFix (fixed subnet, channel shuffle by convolution)",
         build=f"imp('oneshot_nas_network').ShuffleNasOneShotFix({_NET}, {_FIX}, "
               "shuffle_method=imp('oneshot_nas_blocks').ShuffleChannelsConv, last_conv_after_pooling=True)",
         inputs=["x:float32[2,3,64,64]"]),
    dict(name="NasBatchNorm (channels deferred, scale=False)",
         build="imp('oneshot_nas_blocks').NasBatchNorm(scale=False)", inputs=["x:float32[2,3,4,4]"]),
]


# handwritten-text-recognition (the corpus "htr"): its networks take a resnet34_v1 with pretrained=True, which
# downloads. `setup` (run on each side before `build`, with the side's `imp`) puts in its place, in each module
# that calls it, the same network with random weights, its deferred first convolution shaped by one forward (the
# checker redraws and pairs every weight anyway), and gives `ctx` (the CPU: Network's default is mx.gpu(0)). The
# plotting, image and logging libraries these modules import and the harness lacks are stubs, and the modules'
# `np.seterr(all='raise')` is undone after their import (it would reach the checker's own arithmetic).
HTR_SETUP = '''
def setup(imp, torch_side):
    import importlib.util, sys, types
    import numpy as np
    class Stub(types.ModuleType):
        def __getattr__(self, name):
            if name.startswith('__'):
                raise AttributeError(name)
            return Stub(self.__name__ + '.' + name)
        def __call__(self, *args, **kwargs):
            return self
    import importlib.abc, importlib.machinery
    missing = {top for top in ('matplotlib', 'mxboard', 'skimage', 'pandas', 'tqdm', 'nltk', 'leven', 'enchant',
                               'sympound', 'weighted_levenshtein') if importlib.util.find_spec(top) is None}
    class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, name, path=None, target=None):
            if name.split('.')[0] in missing:
                return importlib.machinery.ModuleSpec(name, self, is_package=True)
        def create_module(self, spec):
            return Stub(spec.name)
        def exec_module(self, module):
            pass
    if not any(type(f).__name__ == 'Finder' for f in sys.meta_path):
        sys.meta_path.append(Finder())
    errors = np.geterr()
    if torch_side:
        import torch
        compat = imp('_mx_compat')
        make, name, x, ctx = compat._mx_resnet34_v1, '_mx_resnet34_v1', torch.zeros(1, 3, 32, 32), torch.device('cpu')
        init = compat._mx_initialize
    else:
        import mxnet as mx
        make, name, x, ctx = mx.gluon.model_zoo.vision.resnet34_v1, 'resnet34_v1', mx.nd.zeros((1, 3, 32, 32)), mx.cpu()
        init = lambda net: net.initialize()
    def standin(pretrained=False, ctx=None, **kwargs):
        net = make(**kwargs)
        init(net)
        net(x)
        return net
    for module in ('handwriting_line_recognition', 'word_and_line_segmentation', 'paragraph_segmentation_dcnn'):
        setattr(imp(module), name, standin)
    if not torch_side:
        mx.gluon.model_zoo.vision.resnet34_v1 = standin  # paragraph_segmentation_dcnn reads it there
    np.seterr(**errors)
    return {'ctx': ctx}
'''
_BOX = [[0.1, 0.2, 0.3, 0.4], [0.5, 0.1, 0.2, 0.2], [0.2, 0.3, 0.4, 0.3], [0.6, 0.6, 0.3, 0.2]]
_BOX2 = [[0.2, 0.25, 0.3, 0.3], [0.1, 0.5, 0.2, 0.2], [0.3, 0.2, 0.3, 0.5], [0.65, 0.5, 0.2, 0.4]]
HTR = [
    dict(name="Network (CNN-biLSTM line recognition)", setup=HTR_SETUP,
         build="imp('handwriting_line_recognition').Network(num_downsamples=2, resnet_layer_id=4, "
               "rnn_hidden_states=6, rnn_layers=1, max_seq_len=8, ctx=ctx)",
         inputs=["x:float32[2,1,32,64]"]),
    dict(name="SegmentationNetwork (paragraph box regression)", setup=HTR_SETUP,
         build="imp('paragraph_segmentation_dcnn').SegmentationNetwork(p_dropout=0.5, ctx=ctx)",
         inputs=["x:float32[2,1,32,32]"]),
    dict(name="SSD (word segmentation)", setup=HTR_SETUP,
         build="imp('word_and_line_segmentation').SSD(num_classes=1, ctx=ctx)",
         inputs=["x:float32[1,1,128,128]"]),
    # the SSD's training targets on its own anchors (MultiBoxTarget): two word boxes and a -1 row
    dict(name="SSD with its training_targets (MultiBoxTarget)", setup=HTR_SETUP,
         build="imp('word_and_line_segmentation').SSD(num_classes=1, ctx=ctx)",
         inputs=["x:float32[1,1,128,128]"],
         extra={1: [[[0.0, 0.1, 0.1, 0.3, 0.2], [0.0, 0.5, 0.4, 0.9, 0.55], [-1.0, -1.0, -1.0, -1.0, -1.0]]]},
         call="lambda net, x, y: (lambda anchors, classes, boxes: [classes, boxes, "
              "*net.training_targets(anchors, classes, y)])(*net(x))"),
    dict(name="Denoiser (transformer encoder-decoder)",
         build="imp('utils.encoder_decoder').Denoiser(alphabet_size=11, embed_size=8, max_src_length=10, "
               "max_tgt_length=10, num_heads=2, num_layers=1)",
         inputs=["src_seq:int32[2,5]<11", "tgt_seq:int32[2,4]<11"], extra={2: [5.0, 3.0], 3: [4.0, 2.0]}),
    dict(name="IOU_loss", build="imp('utils.iou_loss').IOU_loss()",
         inputs=["pred:float32[4,4]", "label:float32[4,4]"], fixed={"pred": _BOX, "label": _BOX2}),
    dict(name="SmoothL1Loss (SSD's)", setup=HTR_SETUP, build="imp('word_and_line_segmentation').SmoothL1Loss()",
         inputs=["output:float32[2,8]", "label:float32[2,8]", "mask:float32[2,8]"],
         fixed={"mask": [[1.0] * 6 + [0.0] * 2, [0.0] + [1.0] * 7]}),
    dict(name="SoftmaxCEMaskedLoss", build="imp('utils.encoder_decoder').SoftmaxCEMaskedLoss()",
         inputs=["pred:float32[2,4,5]", "label:int32[2,4]<5"], extra={2: [4.0, 2.0]}),
    # (its custom-operator path, sparse_label=False, fails in MXNet 1.9.1 itself: the operator passes an argument
    # to CustomOp.__init__, which takes none since 1.x)
    dict(name="LabelSmoothing (sparse labels)", build="imp('utils.encoder_decoder').LabelSmoothing(units=5)",
         inputs=["inputs:int32[2,3]<5"]),
]


# MXNetSeg (BebDong/MXNetSeg): segmentation models at 64x64 with 3 classes; backbones from GluonCV's zoo (ResNet-18
# v1b, dilated; MobileNetV2 x0.25) or MXNetSeg's own (EPRNet), random weights (pretrained_base=False). Models whose
# heads assume ResNet-50's 2048 channels (PSPNet, DenseASPP, CANetv1, DeepLabv3+ on ResNet) are left out.
_SEG_KW = "nclass=3, height=64, width=64, pretrained_base=False"
_SEG_IN = ["x:float32[1,3,64,64]"]
MXNETSEG = [dict(name=f"{cls} ({bb})", build=f"imp('models').{cls}({_SEG_KW}{', backbone=' + repr(bb) if bb else ''})",
                 inputs=_SEG_IN)
            for cls, bb in [("FCNResNet", "resnet18"), ("DeepLabv3", "resnet18"), ("SwiftResNet", "resnet18"),
                            ("SwiftResNetPr", "resnet18"), ("CANetv2", "resnet18"), ("BiSeNetR", "resnet18"),
                            ("DANet", "resnet18"), ("AttaNet", "resnet18"), ("GFFNet", "resnet18"),
                            ("SemanticFPN", "resnet18"), ("AlignSeg", "resnet18"), ("ACFNet", "resnet18"),
                            ("FaPN", "resnet18"), ("FCNMobileNet", "mobilenet_v2_0_25"), ("EPRNet", None)]]

# CenterNet (Guanghan/mxnet-centernet): its ResNet-18 pose network (deformable convolutions in the upsampling
# path, one head dict) and a small stacked hourglass (2 stacks, 2 levels; the stem fixes 256 channels).
_HEADS = "{'hm': 3, 'wh': 2, 'reg': 2}"
CENTERNET = [
    dict(name="PoseResNet (get_pose_net(18), deformable convolutions)",
         build=f"imp('resnet').get_pose_net(18, {_HEADS}, head_conv=8)", inputs=["x:float32[1,3,64,64]"]),
    dict(name="stacked_hourglass (2 stacks, 2 levels)",
         build=f"imp('hourglass').stacked_hourglass(2, 2, [256, 16, 16], [1, 1, 1], {_HEADS}, conv_dim=256)",
         inputs=["x:float32[1,3,32,32]"]),
    dict(name="ResNetV1 (CenterNet's resnet18_v1 classifier)",
         build="imp('resnet').resnet18_v1(classes=5)", inputs=["x:float32[2,3,32,32]"]),
]

# AutoGluon v0.0.15: the tabular network (EmbedNet over NumericBlock, EmbedBlock, Feedforward/WideAndDeep blocks,
# rebuilt from an architecture description as AutoGluon does when loading; the forward takes AutoGluon's batch
# dict), its model_zoo's EfficientNet and MBConv block at small sizes, and text classification's BERTClassifier
# over a small gluonnlp BERTModel (the torch side: the converted tree's, or xlate's, gluonnlp BERT). Dropout 0.
def _tabular(network_type, y_range, vector=True):
    params = {"numeric_embed_dim": 6, "activation": "relu", "layers": [8, 5], "use_batchnorm": True,
              "dropout_prob": 0.0, "network_type": network_type, "y_range": "Y_RANGE"}
    desc = {"has_vector_features": vector, "has_embed_features": True, "has_language_features": False,
            "from_logits": False, "num_net_outputs": 3, "params": params, "num_categs_per_feature": [4, 5],
            "embed_dims": [3, 2]}
    return f"imp('utils.tabular.ml.models.tabular_nn.embednet').EmbedNet(architecture_desc={desc!r})".replace(
        "'Y_RANGE'", y_range)  # source: `float('inf')` has no literal


_EMBED = ["e0:int32[2,1]<4", "e1:int32[2,1]<5"]
_EFF_ARGS = ("[imp('utils').EasyDict(kernel=3, num_repeat=1, channels=8, expand_ratio=1, stride=1, se_ratio=0.25, "
             "in_channels=8), imp('utils').EasyDict(kernel=5, num_repeat=2, channels=16, expand_ratio=3, stride=2, "
             "se_ratio=0.25, in_channels=8)]")
AGL_BERT_SETUP = r'''
def setup(imp, torch_side):
    # the BERT a user's script builds with gluonnlp, converted by xlate as a script (its helpers pasted after it)
    src = ("import gluonnlp\n"
           "def make():\n"
           "    enc = gluonnlp.model.BERTEncoder(num_layers=2, units=8, hidden_size=12, max_length=10, num_heads=2)\n"
           "    return gluonnlp.model.BERTModel(enc, 11, token_type_vocab_size=2, units=8, embed_size=8,\n"
           "                                    use_pooler=True, use_decoder=False, use_classifier=False)\n")
    if torch_side:
        from xlate.convert.engine import convert_source
        src = convert_source(src).output
    scope = {}
    exec(compile(src, '<bert>', 'exec'), scope)
    return {'bert': scope['make']()}
'''
AGL_ROBERTA_SETUP = AGL_BERT_SETUP.replace(
    "gluonnlp.model.BERTModel(enc, 11, token_type_vocab_size=2, units=8, embed_size=8,",
    "gluonnlp.model.RoBERTaModel(enc, 11, units=8, embed_size=8, use_decoder=False)\\n").replace(
    "use_pooler=True, use_decoder=False, use_classifier=False)", "").replace("'bert'", "'roberta'")
AUTOGLUON = [
    dict(name="EmbedNet (wide and deep, classification)", build=_tabular("widedeep", "None"),
         inputs=["vector:float32[2,7]"] + _EMBED, call="lambda net, v, e0, e1: net({'vector': v, 'embed': [e0, e1]})"),
    dict(name="EmbedNet (feedforward, bounded regression)", build=_tabular("feedforward", "(-1.0, 2.0)"),
         inputs=["vector:float32[2,7]"] + _EMBED, call="lambda net, v, e0, e1: net({'vector': v, 'embed': [e0, e1]})"),
    dict(name="EmbedNet (embeddings only, non-negative regression)", build=_tabular("feedforward", "(0.0, float('inf'))", False),
         inputs=_EMBED, call="lambda net, e0, e1: net({'embed': [e0, e1]})"),
    dict(name="MBConvBlock (squeeze-excite, shortcut)",
         build="imp('model_zoo.models.mbconv').MBConvBlock(8, 8, 3, 3, stride=1, se_ratio=0.25, input_size=8)",
         inputs=["x:float32[2,8,8,8]"]),
    dict(name="EfficientNet (2 stages, width 0.25)",
         build=f"imp('model_zoo.models.efficientnet').EfficientNet({_EFF_ARGS}, dropout_rate=0.0, num_classes=5, "
               "width_coefficient=0.25, depth_coefficient=1.0, depth_divisor=8, drop_connect_rate=0.0, input_size=32)",
         inputs=["x:float32[2,3,32,32]"]),
    # the Bayesian optimisation searcher's GP kernels: float64 parameters behind an encoding, F handed to helpers
    dict(name="SquaredDistance (ARD, GP searcher)",
         build="imp('searcher.bayesopt.gpmxnet.kernel.base').SquaredDistance(3, ARD=True)",
         inputs=["X1:float64[4,3]", "X2:float64[5,3]"]),
    dict(name="Matern52 (ARD, GP searcher)", build="imp('searcher.bayesopt.gpmxnet.kernel.base').Matern52(3, ARD=True)",
         inputs=["X1:float64[4,3]", "X2:float64[5,3]"]),
    dict(name="ProductKernelFunction (Matern52 x Matern52)",
         build="imp('searcher.bayesopt.gpmxnet.kernel.product_kernel').ProductKernelFunction("
               "imp('searcher.bayesopt.gpmxnet.kernel.base').Matern52(2, ARD=True), "
               "imp('searcher.bayesopt.gpmxnet.kernel.base').Matern52(1))",
         inputs=["X1:float64[4,3]", "X2:float64[5,3]"]),
    dict(name="ExponentialDecayResourcesKernelFunction (freeze-thaw)",
         build="imp('searcher.bayesopt.gpmxnet.kernel.exponential_decay').ExponentialDecayResourcesKernelFunction("
               "imp('searcher.bayesopt.gpmxnet.kernel.base').Matern52(2, ARD=True), "
               "imp('searcher.bayesopt.gpmxnet.mean').ScalarMeanFunction())",
         inputs=["X1:float64[4,3]", "X2:float64[5,3]"],
         fixed={"X1": [[0.1, 0.5, 0.2], [0.7, 0.3, 0.4], [0.2, 0.9, 0.6], [0.5, 0.5, 1.0]],
                "X2": [[0.3, 0.2, 0.8], [0.6, 0.1, 0.3], [0.9, 0.4, 0.5], [0.2, 0.7, 0.9], [0.4, 0.8, 0.1]]}),
    dict(name="Warping (Kumaraswamy input warping)",
         build="imp('searcher.bayesopt.gpmxnet.warping').Warping(3, {0: (0.0, 1.0), 2: (0.0, 1.0)})",
         inputs=["X:float64[4,3]"],
         fixed={"X": [[0.1, 0.5, 0.2], [0.7, -0.3, 0.4], [0.2, 0.9, 0.6], [0.5, 0.5, 0.95]]}),
    dict(name="BERTClassifier (text classification, small BERT)", setup=AGL_BERT_SETUP,
         build="imp('task.text_classification.network').BERTClassifier(bert, num_classes=3, dropout=0.0)",
         inputs=["inputs:int32[2,5]<11", "token_types:int32[2,5]<2", "valid_length:float32[2]"],
         fixed={"valid_length": [5.0, 3.0]}),
    dict(name="RoBERTaClassifier (text classification, small RoBERTa)", setup=AGL_ROBERTA_SETUP,
         build="imp('task.text_classification.network').RoBERTaClassifier(roberta, num_classes=3, dropout=0.0)",
         inputs=["inputs:int32[2,5]<11", "valid_length:float32[2]"], fixed={"valid_length": [5.0, 3.0]}),
]

# awslabs/mlm-scoring (the corpus "mlm-scoring", kept out of tuning): its GPT-2 (an imperative Block with mx.nd calls and
# an Embedding-tied output through params=) and its BERT heads on a small gluonnlp BERT (built as AutoGluon's are).
MLM = [
    dict(name="GPT2SelfAttentionLayer", build="imp('models.gpt2').GPT2SelfAttentionLayer(units=8, num_heads=2)",
         inputs=["data:float32[2,5,8]"]),
    dict(name="GPT2FFNLayer", build="imp('models.gpt2').GPT2FFNLayer(units=8, hidden_size=12)",
         inputs=["data:float32[2,5,8]"]),
    dict(name="GPT2Model (2 layers, tied output)",
         build="imp('models.gpt2').GPT2Model(units=8, vocab_size=11, max_length=10, num_layers=2, num_heads=2)",
         inputs=["data:int32[2,5]<11"]),
    dict(name="BERTRegression (small BERT)", setup=AGL_BERT_SETUP,
         build="imp('models.bert').BERTRegression(bert, dropout=0.0)",
         inputs=["inputs:int32[2,5]<11", "token_types:int32[2,5]<2", "valid_length:float32[2]"],
         fixed={"valid_length": [5.0, 3.0]}),
    dict(name="BERTClassifier (small BERT)", setup=AGL_BERT_SETUP,
         build="imp('models.bert').BERTClassifier(bert, num_classes=3, dropout=0.0)",
         inputs=["inputs:int32[2,5]<11", "token_types:int32[2,5]<2", "valid_length:float32[2]"],
         fixed={"valid_length": [5.0, 3.0]}),
]

# MXNet-Detector (DeepFocuser): each detector's network at a small input, pretrained=False (each root's own
# backbone: ResNetV2, EfficientNet + BiFPN, Darknet53, VGG16); `root`: the detector's folder (a sys.path root).
_DET_ANCH = "[8, 16, 32, 64, 128], [1, 2 ** 0.5], [0.5, 1, 2]"
_YOLO_ANCH = "{'shallow': [(10, 13), (16, 30), (33, 23)], 'middle': [(30, 61), (62, 45), (59, 119)], 'deep': [(116, 90), (156, 198), (373, 326)]}"
MXDET = [
    dict(name="CenterNet (ResNetV2-18 up-convolutions)", root="Center",
         build="imp('model.Center').CenterNet(base=18, heads=__import__('collections').OrderedDict([('heatmap', "
               "{'num_output': 3, 'bias': -2.19}), ('offset', {'num_output': 2}), ('wh', {'num_output': 2})]), "
               "head_conv_channel=8, pretrained=False, use_dcnv2=False)",
         inputs=["x:float32[1,3,64,64]"]),
    dict(name="Efficient (EfficientNet-B0 + BiFPN)", root="Efficient",
         build=f"imp('model.Efficient').Efficient(version=0, input_size=(128, 128), anchor_sizes=[8, 16, 32, 64, 128], "
               "anchor_size_ratios=[1, 2 ** 0.5], anchor_aspect_ratios=[0.5, 1, 2], num_classes=3, alloc_size=[16, 16])",
         inputs=["x:float32[1,3,128,128]"]),
    dict(name="RetinaNet (ResNetV2-18 FPN)", root="RETINA",
         build="imp('model.RETINA').RetinaNet(version=18, input_size=(128, 128), anchor_sizes=[8, 16, 32, 64, 128], "
               "anchor_size_ratios=[1, 2 ** 0.5], anchor_aspect_ratios=[0.5, 1, 2], num_classes=3, pretrained=False, "
               "alloc_size=[16, 16])",
         inputs=["x:float32[1,3,128,128]"]),
    dict(name="SSD_VGG16 (300)", root="SSD",
         build="imp('model.SSD').SSD_VGG16(version=300, input_size=(300, 300), box_sizes=[21, 45, 101.25, 157.5, "
               "213.75, 270, 326.25], box_ratios=[[1, 2, 0.5]] + [[1, 2, 0.5, 3, 1.0 / 3]] * 3 + [[1, 2, 0.5]] * 2, "
               "num_classes=3, pretrained=False, alloc_size=[38, 38])",
         inputs=["x:float32[1,3,300,300]"]),
    dict(name="Yolov3 (Darknet53)", root="YoloV3",
         build=f"imp('model.YOLOv3').Yolov3(Darknetlayer=53, input_size=(64, 64), anchors={_YOLO_ANCH}, num_classes=3, "
               "pretrained=False, alloc_size=(8, 8))",
         inputs=["x:float32[1,3,64,64]"]),
    dict(name="Gaussian Yolov3 (Darknet53)", root="GaussianYoloV3",
         build=f"imp('model.YOLOv3').Yolov3(Darknetlayer=53, input_size=(64, 64), anchors={_YOLO_ANCH}, num_classes=3, "
               "pretrained=False, alloc_size=(8, 8))",
         inputs=["x:float32[1,3,64,64]"]),
]
# the detectors' losses (HybridBlocks of each LOSS.py), labels and masks given where their values mean something
_HM_LABEL = [[[[1.0, 0.5, 0.0], [0.2, 1.0, 0.7], [0.0, 0.3, 0.9]], [[0.1, 0.0, 1.0], [0.4, 0.8, 0.0], [1.0, 0.6, 0.2]]]]
_MASK3 = [[[[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]]] * 2]
_SIGMA = [[[0.2, 0.5], [0.9, 0.3], [0.7, 0.1], [0.4, 0.6]]]
MXDET += [
    dict(name="HeatmapFocalLoss (Center, from logits)", root="Center",
         build="imp('model.LOSS').HeatmapFocalLoss(from_sigmoid=False)",
         inputs=["pred:float32[1,2,3,3]", "label:float32[1,2,3,3]"], fixed={"label": _HM_LABEL}),
    dict(name="NormedL1Loss (Center)", root="Center", build="imp('model.LOSS').NormedL1Loss()",
         inputs=["pred:float32[1,2,3,3]", "label:float32[1,2,3,3]", "mask:float32[1,2,3,3]"], fixed={"mask": _MASK3}),
    dict(name="FocalLoss (Efficient, sparse labels)", root="Efficient",
         build="imp('model.LOSS').FocalLoss(num_class=3)", inputs=["pred:float32[2,6,3]", "label:int64[2,6]<4"]),
    dict(name="HuberLoss (RETINA)", root="RETINA", build="imp('model.LOSS').HuberLoss(rho=0.5)",
         inputs=["pred:float32[2,6,4]", "label:float32[2,6,4]"]),
    dict(name="SoftmaxCrossEntropyLoss (SSD)", root="SSD", build="imp('model.LOSS').SoftmaxCrossEntropyLoss()",
         inputs=["pred:float32[2,6,4]", "label:int64[2,6]<4"]),
    dict(name="SigmoidBinaryCrossEntropyLoss (YoloV3)", root="YoloV3",
         build="imp('model.LOSS').SigmoidBinaryCrossEntropyLoss()", inputs=["pred:float32[2,6,3]", "label:float32[2,6,3]"]),
    dict(name="NegativeLogLikelihoodLoss (GaussianYoloV3)", root="GaussianYoloV3",
         build="imp('model.LOSS').NegativeLogLikelihoodLoss()",
         inputs=["u:float32[1,4,2]", "sigma:float32[1,4,2]", "x:float32[1,4,2]"], fixed={"sigma": _SIGMA}),
]

# MXNet-Deep-Learning-in-Action (the corpus "mxbook"): the book's Gluon networks are built at the top level of its
# chapter scripts, which then run them (one on mx.gpu(0)). `setup` gives `script(rel, upto)`: the script's statements
# before the first one whose text starts with `upto` (its imports, classes and network, not its run), executed from
# the side's tree (the corpus, or the converted one): harness plumbing, the same on both sides.
MXBOOK_SETUP = '''
def setup(imp, torch_side):
    import ast, json, sys
    cfg = json.loads(sys.argv[1])
    root = cfg["pt_root"] if torch_side else cfg["corpus"]
    def script(rel, upto):
        tree = ast.parse(open(root + "/" + rel, encoding="utf-8").read())
        body = []
        for node in tree.body:
            if ast.unparse(node).startswith(upto):
                break
            body.append(node)
        scope = {"__name__": "mxbook_script"}
        exec(compile(ast.Module(body, []), root + "/" + rel, "exec"), scope)
        return scope
    return {"script": script}
'''
_NN_API = "chapter11-Gluon/11.1-GluonBasis/11.1.2-nn-API/"
MXBOOK = [
    dict(name="Bottleneck (nn.Block, 11.1.2)", setup=MXBOOK_SETUP,
         build=f"script('{_NN_API}nn_block.py', 'net = ')['Bottleneck']()", inputs=["x:float32[2,256,6,6]"]),
    dict(name="Bottleneck (nn.HybridBlock, F.Activation, 11.1.2)", setup=MXBOOK_SETUP,
         build=f"script('{_NN_API}nn_hybridblock.py', 'data = ')['Bottleneck']()", inputs=["x:float32[2,256,6,6]"]),
    dict(name="LeNet-like nn.Sequential (11.1.2)", setup=MXBOOK_SETUP,
         build=f"script('{_NN_API}nn_sequential.py', 'net.initialize()')['net']", inputs=["x:float32[2,1,28,28]"]),
]

# Quantization.MXNet (the corpus "quantmx"): its im2col Conv2D (float, and quantized to uint8/int8 inside the
# forward), the quantized MobileNet of its tests (depthwise convolutions quantized), and a Gluon network put through
# its quantization-aware-training conversion (`convert_model`: Conv2D, Dense and Activation get a fake-quantizing
# hybrid_forward patched in per instance, with straight-through autograd.Functions, then `qparams_init`). Modules by
# bare name from the corpus root and tests/ (`flat`), as its tests arrange it with sys.path.
QUANTMX_SETUP = '''
def setup(imp, torch_side):
    def qat(with_act=False):
        if torch_side:
            L = imp("_mx_compat")
            import torch
            net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(), L._mx_Dense(5, in_units=64))
        else:
            from mxnet.gluon import nn
            net = nn.HybridSequential()
            net.add(nn.Conv2D(4, 3, in_channels=3), nn.Activation("relu"), nn.Dense(5, in_units=64))
            net.initialize()
        convert = imp("quantize.convert")
        fns = dict(convert.default_convert_fn)
        if with_act:  # the table's own key for Activation, the class Gluon's Activation is as a value on each side
            act = next(k for k in fns if k.__name__ in ("Activation", "_mx_Activation"))
            fns[act] = convert.gen_act_converter()
        convert.convert_model(net, convert_fn=fns)
        imp("quantize.initialize").qparams_init(net)
        return net
    return {"qat": qat}
'''
QUANTMX = [
    dict(name="Conv2D (im2col, float, 2 groups, bias)",
         build="imp('nn.quantized_conv').Conv2D(4, 3, 1, 1, in_channels=2, groups=2)", inputs=["x:float32[2,2,5,5]"]),
    dict(name="Conv2D (im2col, quantized uint8 x int8)",
         build="imp('nn.quantized_conv').Conv2D(4, 3, 1, 1, in_channels=2, quantized=True, input_dtype='uint8', "
               "weight_dtype='int8')", inputs=["x:float32[2,2,5,5]"]),
    dict(name="MobileNet 0.25 (quantized depthwise convolutions)",
         build="imp('models.quantized_mobilenet').mobilenet0_25(classes=5)", inputs=["x:float32[1,3,32,32]"]),
    dict(name="QAT network (convert_model: Conv2D, Dense)", setup=QUANTMX_SETUP, build="qat()",
         inputs=["x:float32[2,3,6,6]"]),
    dict(name="QAT network (convert_model, Activation quantized too)", setup=QUANTMX_SETUP, build="qat(True)",
         inputs=["x:float32[2,3,6,6]"]),
]

# BMXNet v2's examples (the corpus "bmx2"): the standard Gluon blocks of binary_models (channel shuffle, ReLU6 by
# F.clip), and models built of the fork's binary layers (nn.QConv2D, nn.QDense, nn.activated_conv), which MXNet 1.9.1
# cannot build: they count as built by neither side (stage original-build), their layers reported at their lines.
BMX2 = [
    dict(name="ChannelShuffle (F.reshape with -4/-3/-2 codes, F.swapaxes)",
         build="imp('common_layers').ChannelShuffle(groups=2)", inputs=["x:float32[2,6,3,4]"]),
    dict(name="RELU6 (F.clip)", build="imp('mobilenet').RELU6()", inputs=["x:float32[2,3,4,4]"]),
    dict(name="AlexNet (nn.QConv2D, nn.QDense: BMXNet only)", build="imp('alexnet').alexnet(classes=5)",
         inputs=["x:float32[1,3,64,64]"]),
    dict(name="MeliusNet22 (nn.activated_conv: BMXNet only)", build="imp('meliusnet').meliusnet22(classes=5)",
         inputs=["x:float32[1,3,32,32]"]),
]

# gregbugaj/mxnet-matchbox (the corpus "matchbox"): the classifier its training script builds (`mx.gluon.nn`
# spelled in full), imported from trainer/ by bare name (gluoncv and cv2 stubbed where not installed).
MATCHBOX = [
    dict(name="get_gluon_network_cnn (Sequential of mx.gluon.nn layers)",
         build="imp('train').get_gluon_network_cnn(5)", inputs=["x:float32[2,3,67,67]"]),
]

# dunzeng/FeaderatedLearning-Mxnet (the corpus "fedlearn"): the networks its clients train (functions building
# nn.Sequential), and its language model (gluon.Block with Embedding, rnn.LSTM/GRU and a Dense decoder, the state
# given as zeros: its begin_state reads a module-level [mx.gpu()]).
FEDLEARN = [
    dict(name="MLP (Algorithm/MLP.py)", build="imp('MLP').MLP()", inputs=["x:float32[2,1,8,8]"]),
    dict(name="LeNet_ (Algorithm/CNN.py, relu)", build="imp('CNN').LeNet_()", inputs=["x:float32[2,1,28,28]"]),
    dict(name="LeNet_ (Algorithm/CNNs/LeNet.py, sigmoid)", build="imp('LeNet').LeNet_()",
         inputs=["x:float32[2,1,28,28]"]),
    dict(name="vgg_ (Algorithm/CNNs/VGG.py, two small blocks)", build="imp('VGG').vgg_(((1, 4), (2, 8)))",
         inputs=["x:float32[2,1,16,16]"]),
    dict(name="RNN_Model (lstm)", build="imp('RNN').RNN_Model('lstm', 10, 4, 5, 1, dropout=0.0)",
         inputs=["x:int32[3,2]<10"], call="lambda net, x: net(x, [zeros((1, 2, 5)), zeros((1, 2, 5))])[0]"),
    dict(name="RNN_Model (gru)", build="imp('RNN').RNN_Model('gru', 10, 4, 5, 1, dropout=0.0)",
         inputs=["x:int32[3,2]<10"], call="lambda net, x: net(x, [zeros((1, 2, 5))])[0]"),
]

# WenmuZhou/crnn.gluon (the corpus "crnngluon"): its CRNN `Model` puts together a binarization net, a feature
# extractor, a sequence model and a CTC head by name from a config (eval in models/model.py); each part at small
# sizes where the part has a size knob. Images 32 high (each extractor brings the height to 1). Its TPS
# transformation is half ported from PyTorch (torch.bmm, register_buffer, `stride=` given to Conv2D): MXNet
# cannot build it, so it counts as built by neither side.
def _crnn(fe, seq=None, pred="CTC", seq_args=None, binar=None):
    cfg = {"feature_extraction": {"type": fe}, "prediction": {"type": pred}}
    if seq:
        cfg["sequence_model"] = {"type": seq, "args": seq_args}
    if binar:
        cfg["binarization"] = {"type": binar}
    return f"imp('models.model').Model(5, None, {cfg!r})"


CRNNGLUON = [
    dict(name="Model VGG + RNN (BiLSTM x2) + CTC", build=_crnn("VGG", "RNN", seq_args={"hidden_size": 16}),
         inputs=["x:float32[2,1,32,24]"], call="lambda net, x: net(x)[0]"),
    dict(name="Model CNN_lite + RNN + CTC_CNN", build=_crnn("CNN_lite", "RNN", "CTC_CNN", {"hidden_size": 8}),
         inputs=["x:float32[2,3,32,24]"], call="lambda net, x: net(x)[0]"),
    dict(name="Model ResNet (BasicBlockV2) + CTC, no sequence model", build=_crnn("ResNet"),
         inputs=["x:float32[1,3,32,16]"], call="lambda net, x: net(x)[0]"),
    # MXNet 1.9.1's oneDNN backward of the dense blocks' concatenations fails ("could not construct a sub-memory",
    # with MXNet alone): this model's MXNet side runs MXNet's own CPU kernels (whose RNN the other models cannot use)
    dict(name="Model DenseNet + CNN decoder + CTC", build=_crnn("DenseNet", "CNN", seq_args={"hidden_size": 8}),
         inputs=["x:float32[2,1,32,24]"], call="lambda net, x: net(x)[0]", mx_env={"MXNET_MKLDNN_ENABLED": "0"}),
    dict(name="Model UNet binarization + VGG + RNN + CTC",
         build=_crnn("VGG", "RNN", seq_args={"hidden_size": 8}, binar="UNet"),
         inputs=["x:float32[1,1,32,16]"], call="lambda net, x: net(x)[0]"),
    dict(name="BidirectionalGRU (2 layers, NTC)", build="imp('models.modules.sequence_modeling').BidirectionalGRU(6, 2, 5)",
         inputs=["x:float32[2,7,4]"]),
    dict(name="UNet (seg backbone: UpSampling, Crop, concat)", build="imp('models.modules.seg.unet').UNet()",
         inputs=["x:float32[1,3,24,20]"]),
    dict(name="DWConv (depthwise + 1x1, BatchNorm)",
         build="imp('models.modules.feature_extraction').DWConv(4, 6, 3, 1, 1, use_bn=True)",
         inputs=["x:float32[2,4,6,6]"]),
    dict(name="TPS_SpatialTransformerNetwork (half ported from PyTorch)",
         build="imp('models.modules.transformation').TPS_SpatialTransformerNetwork(4, (16, 32), (16, 32), 1)",
         inputs=["x:float32[1,1,16,32]"]),
]

# MXNet-Detector's inference heads and YOLOv3's loss (the decoding the detectors export with the network: topk,
# gather_nd, arange().slice_like, where, box_nms): positive widths and heights made inside `call`, on both sides
_NMS_OBJ = [[[1.0]] * 6 + [[0.0]] * 6 + [[1.0]] * 3 + [[0.0]] * 3]
# CenterNet's offset and size maps as constants: MXNet 1.9.1 itself segfaults in the backward of gather_nd on them
_CENTER_MAP = [[[[((7 * i + 3 * j + 5 * c) % 11) / 11.0 - 0.4 for j in range(6)] for i in range(6)] for c in range(2)]]
MXDET += [
    dict(name="Prediction (Center: heatmap peaks, topk, gather_nd, box_nms)", root="Center",
         build="imp('utils.dataprocessing.prediction').Prediction(batch_size=1, topk=10, scale=4.0, nms=True, "
               "except_class_thresh=0.01, nms_thresh=0.5)",
         inputs=["heatmap:float32[1,3,6,6]"], extra={1: _CENTER_MAP, 2: _CENTER_MAP},
         call="lambda net, h, o, wh: net(h, o, wh * wh * 3 + 0.5)"),
    dict(name="Prediction (SSD: softmax, per-class decode limit, box_nms)", root="SSD",
         build="imp('utils.dataprocessing.prediction').Prediction(batch_size=1, num_classes=3, decode_number=10, "
               "nms_thresh=0.45, nms_topk=6, except_class_thresh=0.01, multiperclass=True)",
         inputs=["cls:float32[1,20,4]", "box:float32[1,20,4]", "anchors:float32[1,20,4]"],
         call="lambda net, c, b, a: net(c, b, a * a + 0.3)"),
    dict(name="Yolov3 + Prediction (Darknet53, decoder, box_nms)", root="YoloV3",
         build=f"imp('model.YOLOv3').Yolov3(Darknetlayer=53, input_size=(64, 64), anchors={_YOLO_ANCH}, num_classes=3, "
               "pretrained=False, alloc_size=(8, 8))",
         inputs=["x:float32[1,3,64,64]"],
         call="lambda net, x: imp('utils.dataprocessing.prediction').Prediction(num_classes=3, nms_thresh=0.5, "
              "nms_topk=20, except_class_thresh=0.05, multiperclass=True)(*net(x))"),
    dict(name="Yolov3Loss (YoloV3)", root="YoloV3",
         build="imp('model.LOSS').Yolov3Loss(sparse_label=False, num_classes=3)",
         inputs=["o1:float32[1,2,2,24]", "o2:float32[1,1,1,24]", "o3:float32[1,1,1,24]", "xy:float32[1,18,2]",
                 "wh:float32[1,18,2]", "obj:float32[1,18,1]", "cls:float32[1,18,3]", "w:float32[1,18,1]"],
         fixed={"obj": _NMS_OBJ}),
]


# gluon-detector (wshuail): its networks cut a GluonCV backbone's symbol graph (`network(mx.sym.var('data'))`,
# `get_internals()`, SymbolBlock: lib/modelzoo/feature.py) from `get_model(name, pretrained=True)`, which downloads:
# `setup` puts in its place, on each side, GluonCV's get_model with pretrained=False. The target encoders, decoders
# and losses take boxes as (cx, cy, w, h) or corners with positive sizes, labels and matches as given values.
GLUONDET_SETUP = '''
def setup(imp, torch_side):
    import importlib
    zoo = importlib.import_module('gluoncv_pt.model_zoo' if torch_side else 'gluoncv.model_zoo')
    if not getattr(zoo.get_model, 'standin', False):
        real = zoo.get_model
        def standin(name, pretrained=False, **kwargs):
            return real(name, pretrained=False, **kwargs)
        standin.standin = True
        zoo.get_model = standin
    return {}
'''
_ANC6 = [[[4.0 + 5 * i, 6.0 + 3 * i, 8.0 + i, 10.0 - i] for i in range(6)]]  # (1, 6, 4) centers and sizes
_CORNERS5 = [[0.1 * i, 0.05 * i, 0.1 * i + 0.3, 0.05 * i + 0.4] for i in range(5)]  # (5, 4) corners
_GT = [[[0.0, 0.0, 0.35, 0.45], [0.2, 0.1, 0.55, 0.5], [0.35, 0.2, 0.7, 0.6]],
       [[0.05, 0.0, 0.4, 0.4], [0.25, 0.15, 0.6, 0.55], [-1.0, -1.0, -1.0, -1.0]]]
_SAMPLES, _MATCHES = [[1.0, -1.0, 0.0, 1.0, -1.0], [-1.0, 1.0, 1.0, 0.0, 1.0]], [[0.0, -1.0, 2.0, 1.0, -1.0],
                                                                                 [-1.0, 0.0, 1.0, 2.0, 1.0]]
_SEG_LABEL = [[[0.0, 1.0, 2.0], [3.0, -1.0, 0.0], [1.0, 1.0, 2.0]], [[2.0, 2.0, 0.0], [-1.0, 3.0, 1.0], [0.0, 3.0, 3.0]]]
_SSD_ANCHORS = [[8.0 + (i % 7) * 6, 6.0 + (i % 5) * 9, 10.0 + i % 9, 12.0 + i % 4] for i in range(88)]
GLUONDET = [
    dict(name="Center2Corner", build="imp('modelzoo.target').Center2Corner()", inputs=["x:float32[2,5,4]"]),
    dict(name="Corner2Center", build="imp('modelzoo.target').Corner2Center()", inputs=["x:float32[2,5,4]"]),
    dict(name="BoxDecoder", build="imp('modelzoo.target').BoxDecoder()",
         inputs=["x:float32[2,6,4]", "anchors:float32[1,6,4]"], fixed={"anchors": _ANC6}),
    dict(name="ClassDecoder", build="imp('modelzoo.target').ClassDecoder()", inputs=["x:float32[2,6,4]"]),
    dict(name="MultiPerClassDecoder", build="imp('modelzoo.target').MultiPerClassDecoder(num_class=4)",
         inputs=["x:float32[2,6,4]"]),
    dict(name="SSDAnchorGenerator", build="imp('modelzoo.target').SSDAnchorGenerator(0, (16, 32), [1, 2, 0.5], 8, 8)",
         inputs=["x:float32[1,3,4,4]"]),
    dict(name="BipartiteMatcher (contrib.bipartite_matching)", build="imp('modelzoo.target').BipartiteMatcher()",
         inputs=["x:float32[2,5,3]"]),
    dict(name="MaximumMatcher", build="imp('modelzoo.target').MaximumMatcher(threshold=0.2)", inputs=["x:float32[2,5,3]"]),
    dict(name="NaiveSampler", build="imp('modelzoo.target').NaiveSampler()", inputs=["x:float32[2,5]"]),
    dict(name="ClassEncoder", build="imp('modelzoo.target').ClassEncoder()",
         inputs=["samples:float32[2,5]", "matches:float32[2,5]", "gt_ids:float32[2,3]"],
         fixed={"samples": _SAMPLES, "matches": _MATCHES, "gt_ids": [[2.0, 0.0, 1.0], [1.0, 3.0, -1.0]]}),
    dict(name="BoxEncoder (nn.Block)", build="imp('modelzoo.target').BoxEncoder()",
         inputs=["samples:float32[2,5]", "matches:float32[2,5]", "anchors:float32[5,4]", "gt_boxes:float32[2,3,4]"],
         fixed={"samples": _SAMPLES, "matches": [[0.0, 0.0, 2.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0, 1.0]],
                "anchors": _CORNERS5, "gt_boxes": _GT}),
    dict(name="TargetGenerator (box_iou, matchers, encoders)", build="imp('modelzoo.target').TargetGenerator()",
         inputs=["anchors:float32[5,4]", "gt_boxes:float32[2,3,4]", "gt_ids:float32[2,3,1]"],
         fixed={"anchors": [[0.25 + 0.1 * i, 0.2 + 0.06 * i, 0.3, 0.4] for i in range(5)], "gt_boxes": _GT,
                "gt_ids": [[[2.0], [0.0], [1.0]], [[1.0], [3.0], [-1.0]]]}),
    dict(name="FocalLoss (lib.loss, sparse labels)", build="imp('loss').FocalLoss(num_class=4)",
         inputs=["pred:float32[2,6,4]", "label:int64[2,6]<4"]),
    dict(name="SSDMultiBoxLoss (nn.Block, hard negative mining)", build="imp('loss').SSDMultiBoxLoss()",
         inputs=["cls_pred:float32[2,8,4]", "box_pred:float32[2,8,4]", "cls_target:float32[2,8]",
                 "box_target:float32[2,8,4]"],
         fixed={"cls_target": [[1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]]},
         call="lambda net, c, b, ct, bt: net([c], [b], [ct], [bt])"),
    dict(name="YOLOV3Loss", build="imp('loss').YOLOV3Loss()",
         inputs=["objness:float32[1,6,1]", "box_centers:float32[1,6,2]", "box_scales:float32[1,6,2]",
                 "cls_preds:float32[1,6,3]", "objness_t:float32[1,6,1]", "center_t:float32[1,6,2]",
                 "scale_t:float32[1,6,2]", "weight_t:float32[1,6,2]", "class_t:float32[1,6,3]",
                 "class_mask:float32[1,6,3]"],
         fixed={"objness_t": [[[1.0], [0.0], [-1.0], [1.0], [0.0], [0.0]]],
                "center_t": [[[0.2, 0.7], [0.5, 0.5], [0.1, 0.9], [0.6, 0.3], [0.4, 0.4], [0.8, 0.2]]],
                "class_t": [[[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0] * 3, [0.0] * 3]],
                "class_mask": [[[1.0] * 3, [0.0] * 3, [1.0] * 3, [1.0] * 3, [0.0] * 3, [0.0] * 3]]}),
    # the labels as constants: MXNet 1.9.1's SoftmaxOutput writes uninitialised memory into the label's gradient
    # (6e35, -5e16, 1.3 in three runs of one script; MXNet alone), which is zero
    dict(name="SoftmaxCrossEntropyLoss (SoftmaxOutput, ignore_label)", build="imp('loss').SoftmaxCrossEntropyLoss()",
         inputs=["pred:float32[2,4,3,3]"], extra={1: _SEG_LABEL}),
    dict(name="MixSoftmaxCrossEntropyLoss (aux)", build="imp('loss').MixSoftmaxCrossEntropyLoss(aux=True)",
         inputs=["pred1:float32[2,4,3,3]", "pred2:float32[2,4,3,3]"], extra={2: _SEG_LABEL}),
    dict(name="DistillationSoftmaxCrossEntropyLoss", build="imp('loss').DistillationSoftmaxCrossEntropyLoss(temperature=2)",
         inputs=["output:float32[3,5]", "label:int64[3]<5", "soft_target:float32[3,5]"],
         call="lambda net, o, l, t: net(o, l, t.softmax(axis=-1) if hasattr(t, 'asnumpy') else t.softmax(-1))"),
    dict(name="FocalLoss (CenterNet heatmap)", build="imp('centernet_loss').FocalLoss()",
         inputs=["pred:float32[1,2,3,3]", "label:float32[1,2,3,3]"], fixed={"label": _HM_LABEL},
         call="lambda net, p, l: net(p.sigmoid(), l)"),
    dict(name="FocalLoss (RetinaNet, one-hot from labels)", build="imp('cus_loss.retinanet').FocalLoss(num_class=3)",
         inputs=["pred:float32[1,5,3]", "label:float32[1,5]"], fixed={"label": [[0.0, 1.0, -1.0, 3.0, 2.0]]},
         call="lambda net, p, l: net(p.sigmoid(), l)"),
    dict(name="HuberLoss (RetinaNet)", build="imp('cus_loss.retinanet').HuberLoss(rho=0.5)",
         inputs=["pred:float32[1,5,4]", "label:float32[1,5,4]"],
         fixed={"label": [[[0.3, -0.2, 0.5, 0.1], [0.0] * 4, [1.2, 0.4, -0.9, 0.2], [0.0] * 4, [0.1, 0.2, 0.3, -0.4]]]}),
    dict(name="SSD (mobilenet1.0 graph cut, 64x64)", setup=GLUONDET_SETUP,
         build="imp('modelzoo.ssd').SSD('mobilenet1.0', ['relu22_fwd', 'relu26_fwd'], [64, 32], 3, [[16, 24]] * 4, "
               f"[[1, 2, 0.5]] * 4, [16, 32, 64, 64], {_SSD_ANCHORS})",
         inputs=["x:float32[1,3,64,64]"]),
    dict(name="RetinaNet (resnet18_v1 graph cut, 64x64)", setup=GLUONDET_SETUP,
         build="imp('modelzoo.retinanet').RetinaNet('resnet18_v1', ['stage2_activation1', 'stage3_activation1', "
               "'stage4_activation1'], 3, imp('anchor.retinanet').generate_retinanet_anchors(64), pyramid_filters=8)",
         inputs=["x:float32[1,3,64,64]"]),
    dict(name="CenterNet (resnet18_v1 graph cut, 64x64)", setup=GLUONDET_SETUP,
         build="imp('modelzoo.centernet').CenterNet('resnet18_v1', ['stage4_activation1'], "
               "{'hm': 3, 'wh': 2, 'reg': 2}, 8)",
         inputs=["x:float32[1,3,64,64]"]),
]


# Davids929/gluon-ocr (the corpus "gluonocr"): its detectors and recognisers built by their own getters on its
# ResNet / MobileNetV3 backbones (pretrained_base=False), at small widths where the getter passes them on; its
# backbones, losses, attention cells and RNN layer alone. Dropout 0. Known to differ, not from the translation:
# DBNet's gradients through `BilinearResize2D(x, like=y, mode='like')`: MXNet 1.9.1's backward writes uninitialised
# memory into the gradient of `like` (measured on the operator alone: values of 1e36 where the gradient is zero);
# AttModel's training branch calls its decoder with the state list as one argument (`self.decoder(out, states)`),
# which fails in MXNet itself (its encoder and one decoder step are checked alone); CLRS agrees with MXNet to 1e-13
# in float64 (outputs and gradients), and its float32 gradients differ where rounding moves values of
# `F.relu(x1 + x2)` in its prediction modules across zero (a functional ReLU, not a paired layer: noise mode
# cannot follow its kinks). Its VGG CRNN cannot build (get_crnn leaves `backbone` unbound for 'vgg'). The RNN
# layer's mask is given without a gradient: MXNet's SequenceReverse leaves its `sequence_length` gradient unwritten
# now and then (1e21 where the lengths, indices, have none).
_OCR_SEG = {"label": [[[[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]]]] * 2,
            "mask": [[[[1.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0]]]] * 2}
_PROB = "lambda net, p, l, m: net(1 / (1 + (-p).exp()), l, m)"
GLUONOCR = [
    dict(name="CRNN (ResNet-18 v1, BiLSTM x2)",
         build="imp('model_zoo.crnn.crnn').get_crnn('resnet', 18, hidden_size=8, dropout=0.0, voc_size=7)",
         inputs=["x:float32[2,3,32,16]"]),
    dict(name="CRNN (MobileNetV3 small, BiLSTM)",
         build="imp('model_zoo.crnn.crnn').get_crnn('mobilenetv3', 24, hidden_size=8, dropout=0.0, voc_size=7)",
         inputs=["x:float32[2,3,32,16]"]),
    dict(name="DBNet (ResNet-18 v1, adaptive threshold)",
         build="imp('model_zoo.dbnet.db_net').get_db('resnet', 18, inner_channels=16)", inputs=["x:float32[1,3,64,64]"]),
    dict(name="DBNet (MobileNetV3 small)",
         build="imp('model_zoo.dbnet.db_net').get_db('mobilenetv3', 24, inner_channels=16)", inputs=["x:float32[1,3,64,64]"]),
    dict(name="EAST (ResNet-18 v1)",
         build="imp('model_zoo.east.east').get_east('resnet', 18, channels=[8, 8, 8, 4])", inputs=["x:float32[1,3,64,64]"]),
    dict(name="AttModel (ResNet-18 v1 encoder, GRU decoder with MLP attention, contrib.foreach)",
         build="imp('model_zoo.att_recog.att_model').get_att_model('resnet', 18, encoder_kwargs={'hidden_size': 8, "
               "'match_dim': 8, 'dropout': 0.0}, decoder_kwargs={'embed_dim': 8, 'match_dim': 8, 'hidden_size': 8, "
               "'voc_size': 7, 'num_layers': 1, 'dropout': 0.0})",
         inputs=["x:float32[1,3,32,32]", "mask:float32[1,1,1,4]", "targ:float32[1,4]"],
         fixed={"mask": [[[[1.0] * 3 + [0.0]]]], "targ": [[0.0, 3.0, 5.0, 2.0]]}),
    dict(name="CLRS (ResNet-18 v1, anchors, box decoders, box_nms)", build="imp('model_zoo.clrs.clrs').get_clrs('resnet', 18)",
         inputs=["x:float32[2,3,512,512]"]),
    dict(name="ResNetV2 (SE, 18)", build="imp('model_zoo.resnet').get_resnet(2, 18, use_se=True, classes=5)",
         inputs=["x:float32[2,3,32,32]"]),
    dict(name="MobileNetV3 large", build="imp('model_zoo.mobilenetv3').get_mobilenet_v3('large', classes=5)",
         inputs=["x:float32[2,3,64,64]"]),
    dict(name="EfficientNet-B0", build="imp('model_zoo.efficientnet').get_efficientnet('efficientnet-b0', 5)",
         inputs=["x:float32[1,3,32,32]"]),
    dict(name="ResNeXt-50 32x4d (SE)", build="imp('model_zoo.resnext').get_resnext(50, use_se=True, classes=5)",
         inputs=["x:float32[1,3,32,32]"]),
    dict(name="DiceLoss", build="imp('loss.base_loss').DiceLoss()", inputs=["p:float32[2,1,4,4]", "label:float32[2,1,4,4]",
         "mask:float32[2,1,4,4]"], fixed=_OCR_SEG, call=_PROB),
    dict(name="BalanceCELoss (hard negatives by topk)", build="imp('loss.base_loss').BalanceCELoss()",
         inputs=["p:float32[2,1,4,4]", "label:float32[2,1,4,4]", "mask:float32[2,1,4,4]"], fixed=_OCR_SEG, call=_PROB),
    dict(name="MaskL1Loss", build="imp('loss.base_loss').MaskL1Loss()",
         inputs=["p:float32[2,1,4,4]", "label:float32[2,1,4,4]", "mask:float32[2,1,4,4]"], fixed={"mask": _OCR_SEG["mask"]}),
]
_OCR_BOX = [[[0.1, 0.2, 0.6, 0.7], [0.3, 0.1, 0.9, 0.5], [0.0, 0.4, 0.5, 0.95]]] * 2
_OCR_BOX2 = [[[0.2, 0.1, 0.7, 0.6], [0.25, 0.2, 0.8, 0.6], [0.1, 0.3, 0.4, 0.9]]] * 2
_ATT = "{'embed_dim': 8, 'match_dim': 8, 'hidden_size': 8, 'voc_size': 7, 'num_layers': 1, 'dropout': 0.0}"
_QKV = ["q:float32[2,3,6]", "k:float32[2,5,6]", "v:float32[2,5,6]", "mask:float32[2,3,5]"]
_QKV_MASK = {"mask": [[[1.0] * 5, [1.0] * 3 + [0.0] * 2, [1.0] * 4 + [0.0]]] * 2}
GLUONOCR += [
    dict(name="BalanceL1Loss", build="imp('loss.base_loss').BalanceL1Loss()",
         inputs=["p:float32[2,1,4,4]", "label:float32[2,1,4,4]", "mask:float32[2,1,4,4]"], fixed=_OCR_SEG),
    dict(name="MaskSmoothL1Loss", build="imp('loss.base_loss').MaskSmoothL1Loss()",
         inputs=["p:float32[2,1,4,4]", "label:float32[2,1,4,4]", "mask:float32[2,1,4,4]"], fixed={"mask": _OCR_SEG["mask"]}),
    dict(name="SoftmaxCELoss (pick, ignored -1 labels)", build="imp('loss.base_loss').SoftmaxCELoss()",
         inputs=["out:float32[2,6,3]", "label:float32[2,6]"],
         fixed={"label": [[0.0, 1.0, 2.0, -1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 2.0, -1.0, -1.0]]}),
    *[dict(name=f"BoxIOULoss ({kind})", build=f"imp('loss.base_loss').BoxIOULoss('{kind}')",
           inputs=["p:float32[2,3,4]", "t:float32[2,3,4]", "m:float32[2,3]"],
           fixed={"p": _OCR_BOX, "t": _OCR_BOX2, "m": [[1.0, 1.0, 0.0], [1.0, 0.0, 1.0]]}) for kind in ("iou", "giou", "diou")],
    dict(name="DBLoss (dicts of maps)", build="imp('loss.det_loss').DBLoss()",
         inputs=["b:float32[2,1,4,4]", "t:float32[2,1,4,4]", "tb:float32[2,1,4,4]", "gt:float32[2,1,4,4]",
                 "mask:float32[2,1,4,4]", "tmap:float32[2,1,4,4]", "tmask:float32[2,1,4,4]"],
         fixed={"gt": _OCR_SEG["label"], "mask": _OCR_SEG["mask"], "tmask": _OCR_SEG["mask"]},
         call="lambda net, b, t, tb, gt, m, tmap, tmask: net({'binary': 1 / (1 + (-b).exp()), 'thresh': t, "
              "'thresh_binary': 1 / (1 + (-tb).exp())}, {'gt': gt, 'mask': m, 'thresh_map': tmap, 'thresh_mask': tmask})[0]"),
    dict(name="EASTLoss (nd.where, slice_axis)", build="imp('loss.det_loss').EASTLoss()",
         inputs=["s:float32[2,1,4,4]", "geo:float32[2,8,4,4]", "gt:float32[2,1,4,4]", "lgeo:float32[2,9,4,4]",
                 "mask:float32[2,1,4,4]"], fixed={"gt": _OCR_SEG["label"], "mask": _OCR_SEG["mask"]},
         call="lambda net, s, geo, gt, lgeo, m: net({'score': 1 / (1 + (-s).exp()), 'geo_map': geo}, "
              "{'gt': gt, 'geo_map': lgeo * 2, 'mask': m})[0]"),
    dict(name="STN (GridGenerator warp, BilinearSampler)", build="imp('nn.stn').STN(hidden_size=4)",
         inputs=["x:float32[1,2,6,8]"]),
    dict(name="L2Normalization", build="imp('nn.block').L2Normalization(axis=1)", inputs=["x:float32[2,5,3]"]),
    dict(name="GELU (erf)", build="imp('nn.block').GELU()", inputs=["x:float32[2,5]"]),
    dict(name="GELU (tanh approximation)", build="imp('nn.block').GELU(approximate=True)", inputs=["x:float32[2,5]"]),
    dict(name="RNNLayer (bidirectional LSTM cells, foreach, NTC)",
         build="imp('nn.rnn_layer').RNNLayer('lstm', 2, 6, layout='NTC', bidirectional=True, input_size=4)",
         inputs=["x:float32[2,5,4]"], call="lambda net, x: net(x)[0]"),
    dict(name="RNNLayer (GRU cells, mask: SequenceReverse by lengths)",
         build="imp('nn.rnn_layer').RNNLayer('gru', 1, 6, layout='NTC', bidirectional=True, input_size=4)",
         inputs=["x:float32[2,5,4]"], extra={1: [[1.0] * 5, [1.0] * 3 + [0.0] * 2]},
         call="lambda net, x, m: net(x, None, m)[0]"),
    *[dict(name=f"attention cell {cell}", build=f"imp('nn.attention_cell')._get_attention_cell('{cell}', units=6)",
           inputs=_QKV, fixed=_QKV_MASK, call="lambda net, q, k, v, m: net(q, k, v, m)[0]")
      for cell in ("mlp_luong", "normed_mlp", "scaled_luong", "dot")],
    dict(name="MultiHeadAttentionCell (dot, 2 heads)",
         build="imp('nn.attention_cell').MultiHeadAttentionCell(imp('nn.attention_cell').DotProductAttentionCell("
               "scaled=True), 6, 6, 6, 2)", inputs=_QKV, fixed=_QKV_MASK, call="lambda net, q, k, v, m: net(q, k, v, m)[0]"),
    dict(name="AttEncoder (ResNet-18 v1, bidirectional LSTM, masked)",
         build=f"imp('model_zoo.att_recog.att_encoder').get_encoder('resnet', 18, hidden_size=8, match_dim=8, dropout=0.0)",
         inputs=["x:float32[1,3,32,32]", "mask:float32[1,1,1,4]"], fixed={"mask": [[[[1.0] * 3 + [0.0]]]]}),
    dict(name="AttDecoder (one step: embedding, MLP attention, GRU)",
         build=f"imp('model_zoo.att_recog.att_decoder').AttDecoder(**{_ATT})",
         inputs=["cur:int32[2,1]<7", "en_out:float32[2,4,16]", "en_proj:float32[2,4,8]", "en_mask:float32[2,4]"],
         fixed={"en_mask": [[1.0] * 4, [1.0] * 2 + [0.0] * 2]},
         call="lambda net, c, o, p, m: net(c, o, p, m, [zeros((1, 2, 8))])[0]"),
]

# ResNeSt's Gluon models (zhanghang1989/ResNeSt): the split-attention ResNet at one block a stage (its resnest50
# arguments), the plain deep-stem ResNet-D it grows from, a split-attention convolution alone and rSoftMax.
# DropBlock draws a new mask each training pass, so the networks are built with dropblock_prob=0 (their
# inference pass, where DropBlock is the identity, is checked with it on: `DropBlock (inference)`).
_RESNEST = ("imp('gluon.resnet').ResNet(imp('gluon.resnet').Bottleneck, [1, 1, 1, 1], radix=2, cardinality=1, "
            "bottleneck_width=64, deep_stem=True, avg_down=True, avd=True, avd_first=False, use_splat=True, "
            "classes=10, input_size=64, stem_width=8")
RESNEST = [
    dict(name="ResNeSt (resnest50's arguments, one block a stage)", build=_RESNEST + ", dropblock_prob=0)",
         inputs=["x:float32[2,3,64,64]"]),
    dict(name="ResNet-D (deep stem, avg_down, no split attention)",
         build="imp('gluon.resnet').ResNet(imp('gluon.resnet').Bottleneck, [1, 1, 1, 1], deep_stem=True, "
               "avg_down=True, classes=10, stem_width=8)",
         inputs=["x:float32[2,3,32,32]"]),
    dict(name="ResNeSt (avd_first, radix 4, cardinality 2)",
         build="imp('gluon.resnet').ResNet(imp('gluon.resnet').Bottleneck, [1, 1, 1, 1], radix=4, cardinality=2, "
               "bottleneck_width=24, deep_stem=True, avg_down=True, avd=True, avd_first=True, use_splat=True, "
               "classes=10, stem_width=8)",
         inputs=["x:float32[2,3,32,32]"]),
    dict(name="SplitAttentionConv (radix 2)",
         build="imp('gluon.splat').SplitAttentionConv(8, 3, padding=(1, 1), in_channels=4, radix=2)",
         inputs=["x:float32[2,4,6,6]"]),
    dict(name="rSoftMax (radix 2, cardinality 2)", build="imp('gluon.splat').rSoftMax(2, 2)",
         inputs=["x:float32[2,8,1,1]"]),
    dict(name="DropBlock (inference)", build="imp('gluon.dropblock').DropBlock(0.1, 3, 4, 6, 6)",
         inputs=["x:float32[2,4,6,6]"]),
]

# Attentional Feature Fusion (YimianDai/open-aff): the fusion blocks alone (two inputs), the CIFAR AFF-ResNet and
# AFF-ResNeXt with each fusion type, and the ImageNet AFF-ResNet at one block a stage.
_AFF_IN = ["x:float32[2,8,6,6]", "residual:float32[2,8,6,6]"]
OPENAFF = [
    dict(name=f"{cls}", build=f"imp('fusion').{cls}({args})", inputs=_AFF_IN)
    for cls, args in [("DirectAddFuse", ""), ("ResGlobLocaforGlobLocaChaFuse", "channels=8, r=4"),
                      ("ASKCFuse", "channels=8, r=4")]
] + [
    dict(name=f"CIFARAFFResNet ({askc})",
         build=f"imp('classification').CIFARAFFResNet('{askc}', 1, [1, 1], [8, 8, 16], 10, deep_stem=True)",
         inputs=["x:float32[2,3,16,16]"])
    for askc in ("ASKCFuse", "ResGlobLocaforGlobLocaCha")
] + [
    dict(name="CIFARAFFResNeXt (ASKCFuse)",
         build="imp('classification').CIFARAFFResNeXt('ASKCFuse', 1, [1, 1], [8], 2, 32, 10, deep_stem=True)",
         inputs=["x:float32[2,3,16,16]"]),
    dict(name="AFFResNet (ASKCFuse, one block a stage)",
         build="imp('classification').AFFResNet('ASKCFuse', 2, [1, 1, 1, 1], classes=10, stem_width=8)",
         inputs=["x:float32[1,3,32,32]"]),
]

# gluon-faster-rcnn (WalterMa): the RPN head, the proposal layer (contrib.MultiProposal), the box and class
# decoders and both losses (advanced indexing with index arrays, params.get_constant read with .data(ctx)).
# Probabilities are made positive inside `call`; labels, rois and image sizes are given.
_ROIS = [[[0.0, 2.0, 3.0, 20.0, 25.0], [0.0, 10.0, 4.0, 40.0, 30.0], [0.0, 5.0, 12.0, 30.0, 60.0],
          [0.0, 0.0, 0.0, 63.0, 63.0], [0.0, 20.0, 20.0, 28.0, 50.0]]]
_RPN_GT = [[-1.0, 0.0, 1.0, 0.0, 1.0, -1.0, 0.0, 0.0] * 6]
FASTERRCNN = [
    dict(name="RPNHead (3 anchors)", build="imp('rpn').RPNHead(num_anchors=3)", inputs=["x:float32[1,8,6,6]"]),
    dict(name="NormalizedBoxDecoder (3 classes)", build="imp('decoder').NormalizedBoxDecoder(num_classes=3)",
         inputs=["x:float32[1,5,12]", "rois:float32[1,5,5]", "im_info:float32[1,3]"],
         fixed={"rois": _ROIS, "im_info": [[64.0, 64.0, 1.0]]}),
    dict(name="MultiPerClassDecoder (4 classes)", build="imp('decoder').MultiPerClassDecoder(num_classes=4, thresh=0.3)",
         inputs=["x:float32[2,5,4]"], call="lambda net, x: net(abs(x))"),
    dict(name="ProposalLayer (contrib.MultiProposal)",
         build="imp('proposal').ProposalLayer(feature_stride=16, scales=(2, 4), ratios=(0.5, 1, 2), "
               "rpn_pre_nms_top_n=20, rpn_post_nms_top_n=5, rpn_nms_threshold=0.7, rpn_min_size=4)",
         inputs=["cls_prob:float32[1,12,4,4]", "bbox_pred:float32[1,24,4,4]", "im_info:float32[1,3]"],
         fixed={"im_info": [[64.0, 64.0, 1.0]]}, call="lambda net, c, b, i: net(abs(c), b * 0.1, i)"),
    # the anchor targets (a CustomOp through F.Custom): 96 anchors, a sample of 95 that takes every foreground
    # and background one, so MXNet's random shuffle decides nothing (the one left out is an ignored anchor; a
    # sample of them all fails in MXNet itself, indexing by an empty array)
    dict(name="AnchorTargetLayer (CustomOp AnchorTarget, F.Custom)",
         build="imp('anchor').AnchorTargetLayer(feature_stride=16, scales=(2, 4), ratios=(0.5, 1, 2), "
               "rpn_batch_size=95, fg_fraction=1.0, positive_iou_threshold=0.5, negative_iou_threshold=0.3)",
         inputs=["score:float32[1,12,4,4]", "gt:float32[1,2,5]", "im_info:float32[1,3]"],
         fixed={"gt": [[[4.0, 6.0, 30.0, 40.0, 1.0], [20.0, 10.0, 60.0, 50.0, 2.0]]], "im_info": [[64.0, 64.0, 1.0]]}),
    dict(name="RPNLoss", build="imp('loss').RPNLoss(rpn_batch_size=8)",
         inputs=["cls:float32[1,6,4,4]", "bbox:float32[1,12,4,4]", "gt:float32[1,48]", "bbox_gt:float32[1,4,48]"],
         fixed={"gt": _RPN_GT}, call="lambda net, c, b, g, t: net(abs(c) + 0.01, b, g, t)"),
    dict(name="RCNNLoss", build="imp('loss').RCNNLoss(roi_batch_size=4)",
         inputs=["cls:float32[4,3]", "bbox:float32[4,12]", "gt:float32[4]", "bbox_gt:float32[4,12]"],
         fixed={"gt": [0.0, 1.0, 2.0, 1.0]}, call="lambda net, c, b, g, t: net(abs(c) + 0.01, b, g, t)"),
]

# gluon-gan (nuppt): DCGAN's generator and discriminator, WGAN's MLP pair and its BatchNorm-free DCGAN, CycleGAN's
# ResNet generator (reflection padding, instance norm) and PatchGAN discriminator, at 16x16.
GLUONGAN = [
    dict(name="DCGAN_G (dcgan)", build="imp('dcgan.model').DCGAN_G(16, 4, 8, 3)", inputs=["z:float32[2,4,1,1]"]),
    dict(name="DCGAN_D (dcgan)", build="imp('dcgan.model').DCGAN_D(16, 3, 8, 1)", inputs=["x:float32[2,3,16,16]"]),
    dict(name="MLP_G (wgan)", build="imp('wgan.model').MLP_G(8, 4, 16, 3)", inputs=["z:float32[2,4,1,1]"]),
    dict(name="MLP_D (wgan)", build="imp('wgan.model').MLP_D(8, 16, 3)", inputs=["x:float32[2,3,8,8]"]),
    dict(name="DCGAN_G_NOBN (wgan)", build="imp('wgan.model').DCGAN_G_NOBN(16, 4, 8, 3)", inputs=["z:float32[2,4,1,1]"]),
    dict(name="DCGAN_D_NOBN (wgan)", build="imp('wgan.model').DCGAN_D_NOBN(16, 3, 8, 1)", inputs=["x:float32[2,3,16,16]"]),
    dict(name="CycleGAN_G (resnet_6blocks, instance norm)",
         build="imp('cyclegan.model').CycleGAN_G(3, 3, ngf=4, norm_type='instance', netG_arch='resnet_6blocks')",
         inputs=["x:float32[1,3,16,16]"]),
    dict(name="CycleGAN_D (PatchGAN, batch norm)", build="imp('cyclegan.model').CycleGAN_D(3, ndf=4, n_layers=2)",
         inputs=["x:float32[2,3,16,16]"]),
]
