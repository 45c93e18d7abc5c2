"""The Gluon side of bench/gpu_bench.py's sequence models and checker model, written as MXNet users
write them. bench/gpu_prepare.py converts this file with `xlate convert`; the GPU machine runs only
the conversion (it has no MXNet). Not imported by the tests.
"""
import gluonnlp as nlp
from mxnet.gluon import rnn
from mxnet.gluon.model_zoo import vision


def lstm(hidden_size=512, num_layers=2):
    """A 2-layer 512-unit LSTM over batch-major (NTC) input, called without states."""
    return rnn.LSTM(hidden_size, num_layers=num_layers, layout='NTC', input_size=hidden_size)


def bert(vocab_size=30522, **hparams):
    """gluonnlp's BERT-base, uninitialised, with its pooler and no decoder or classifier; `hparams`
    (num_layers, units, ...) make it small for a smoke run."""
    vocab = nlp.Vocab(nlp.data.count_tokens([str(i) for i in range(vocab_size - 4)]))
    model, _ = nlp.model.get_model('bert_12_768_12', dataset_name=None, vocab=vocab, pretrained=False,
                                   use_pooler=True, use_decoder=False, use_classifier=False,
                                   hparam_allow_override=bool(hparams), **hparams)
    return model


def mobilenet_v2():
    """Gluon's own MobileNetV2 (the model zoo's), what the checker's noise-mode reference is recorded on."""
    return vision.get_model('mobilenetv2_1.0')
