# One case per definition of d2l's MXNet library (issue 25), written as a notebook would
# call the library: MXNet code that bench/d2l_library.py runs as written against the original
# library and, converted by xlate, against the converted one. Not imported by anything else.
#
# Injected per side by the harness (harness plumbing, never converted): `d2l` (the library),
# `arr(a)` (a NumPy array as this side's array, same dtype), `sync(net, *inputs)` (a forward
# pass to fix deferred shapes; on the torch side MXNet's weights are then copied in, so both
# sides hold the same weights) and `R` (a seeded numpy RandomState: the same draws each side).
import math
import random

import numpy as onp
from mxnet import autograd, gluon, init, np, npx
from mxnet.gluon import nn, rnn

npx.set_np()


def F(*shape):
    return arr(R.normal(size=shape).astype('float32'))


def I(high, *shape):
    return arr(R.randint(0, high, size=shape).astype('float32'))


def mlp(n_out=3):
    net = nn.Sequential()
    net.add(nn.Dense(5, activation='relu'), nn.Dense(n_out))
    net.initialize()
    return sync(net, F(2, 4))


def class_iter(n=8, batch=4):
    return d2l.load_array((F(n, 4), I(3, n)), batch, is_train=False)


# -- preliminaries, linear networks ----------------------------------------------------------

def case_synthetic_data():
    # random draws: compared by law (shapes, and y = Xw + b up to the 0.01 noise)
    X, y = d2l.synthetic_data(arr(onp.array([2.0, -3.4], 'float32')), 4.2, 50)
    r = y.reshape(-1) - (np.dot(X, arr(onp.array([2.0, -3.4], 'float32'))) + 4.2)
    return X.shape, y.shape, bool(float(np.abs(r).max()) < 0.1)


def case_linreg():
    return d2l.linreg(F(4, 3), F(3, 1), F(1))


def case_squared_loss():
    return d2l.squared_loss(F(4, 1), F(4))


def case_sgd():
    w = F(3, 2)
    w.attach_grad()
    with autograd.record():
        l = (w * w * F(3, 2)).sum()
    l.backward()
    d2l.sgd([w], 0.1, 2)
    return w


def case_load_array():
    return [[x, y] for x, y in d2l.load_array((F(7, 2), F(7)), 3, is_train=False)]


def case_get_fashion_mnist_labels():
    return d2l.get_fashion_mnist_labels([0, 3, 9])


def case_accuracy():
    return d2l.accuracy(F(6, 3), I(3, 6))


def case_evaluate_accuracy():
    return d2l.evaluate_accuracy(mlp(), class_iter())


def case_Accumulator():
    a = d2l.Accumulator(2)
    a.add(1, 2.5)
    a.add(3, 4)
    return a[0], a[1]


def case_train_epoch_ch3():
    net = mlp()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    out = d2l.train_epoch_ch3(net, class_iter(), gluon.loss.SoftmaxCrossEntropyLoss(), trainer)
    return out, [p.data() for p in net.collect_params().values()]


def case_evaluate_loss():
    return d2l.evaluate_loss(mlp(1), d2l.load_array((F(8, 4), F(8, 1)), 4, is_train=False),
                             gluon.loss.L2Loss())


def case_corr2d():
    return d2l.corr2d(F(5, 6), F(2, 3))


def case_try_gpu():
    return d2l.try_gpu()


def case_try_all_gpus():
    return d2l.try_all_gpus()


def case_evaluate_accuracy_gpu():
    return d2l.evaluate_accuracy_gpu(mlp(), class_iter())


def case_Residual():
    blk = d2l.Residual(3, use_1x1conv=True, strides=2)
    blk.initialize()
    X = F(2, 3, 6, 6)
    sync(blk, X)
    return blk(X)


# -- text, RNNs ------------------------------------------------------------------------------

TEXT = ['the time machine by h g wells', 'i had been thinking', 'the time traveller']


def case_tokenize():
    return d2l.tokenize(TEXT), d2l.tokenize(TEXT, 'char')


def case_Vocab():
    v = d2l.Vocab(d2l.tokenize(TEXT), reserved_tokens=['<pad>'])
    return v.idx_to_token, v[['the', 'time', 'nope']], v.to_tokens([1, 2]), len(v)


def case_count_corpus():
    return sorted(d2l.count_corpus(d2l.tokenize(TEXT)).items())


def case_seq_data_iter_random():
    random.seed(0)
    return [[x, y] for x, y in d2l.seq_data_iter_random(list(range(35)), 2, 5)]


def case_seq_data_iter_sequential():
    random.seed(0)
    return [[x, y] for x, y in d2l.seq_data_iter_sequential(list(range(35)), 2, 5)]


def scratch_params(vocab_size, num_hiddens, device):
    W_xh, W_hh, b_h = F(vocab_size, num_hiddens), F(num_hiddens, num_hiddens), F(num_hiddens)
    W_hq, b_q = F(num_hiddens, vocab_size), F(vocab_size)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.attach_grad()
    return params


def scratch_state(batch_size, num_hiddens, device):
    return (np.zeros((batch_size, num_hiddens), ctx=device),)


def scratch_rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = np.tanh(np.dot(X, W_xh) + np.dot(H, W_hh) + b_h)
        outputs.append(np.dot(H, W_hq) + b_q)
    return np.concatenate(outputs, axis=0), (H,)


def scratch_model(vocab_size=6):
    return d2l.RNNModelScratch(vocab_size, 4, d2l.try_gpu(), scratch_params, scratch_state, scratch_rnn)


def case_RNNModelScratch():
    net = scratch_model()
    X = arr(onp.array([[0, 1, 2], [3, 4, 5]], 'float32'))
    return net(X, net.begin_state(2, d2l.try_gpu()))


def small_vocab():
    return d2l.Vocab(d2l.tokenize(TEXT), token='char') if False else d2l.Vocab(list('abcde'))


def case_predict_ch8():
    vocab = small_vocab()
    return d2l.predict_ch8('abc', 5, scratch_model(len(vocab)), vocab, d2l.try_gpu())


def case_grad_clipping():
    net = scratch_model()
    X = arr(onp.array([[0, 1, 2], [3, 4, 5]], 'float32'))
    with autograd.record():
        y, _ = net(X, net.begin_state(2, d2l.try_gpu()))
        l = (y * y).sum()
    l.backward()
    d2l.grad_clipping(net, 1)
    return [p.grad for p in net.params]


def seq_iter(vocab_size=6):
    corpus = R.randint(0, vocab_size, size=40).tolist()
    return [(arr(onp.array(x)), arr(onp.array(y))) for x, y in [
        (onp.array(corpus[i:i + 10]).reshape(2, 5).astype('float32'),
         onp.array(corpus[i + 1:i + 11]).reshape(2, 5).astype('float32')) for i in (0, 20)]]


def case_train_epoch_ch8():
    net = scratch_model()
    ppl, _speed = d2l.train_epoch_ch8(net, seq_iter(), gluon.loss.SoftmaxCrossEntropyLoss(),
                                      lambda batch_size: d2l.sgd(net.params, 0.5, batch_size),
                                      d2l.try_gpu(), False)
    return ppl, net.params


def rnn_model(vocab_size=6):
    net = d2l.RNNModel(rnn.RNN(4), vocab_size)
    net.initialize()
    X = arr(onp.array([[0, 1, 2], [3, 4, 5]], 'float32'))
    return sync(net, X, net.begin_state(batch_size=2)), X


def case_RNNModel():
    net, X = rnn_model()
    return net(X, net.begin_state(batch_size=2))


# -- machine translation, attention, transformers ---------------------------------------------

RAW = 'Go.\tVa !\nHi.\tSalut !\nRun!\tCours\u202f!\nWho?\tQui ?\n'


def case_preprocess_nmt():
    return d2l.preprocess_nmt(RAW)


def case_tokenize_nmt():
    return d2l.tokenize_nmt(d2l.preprocess_nmt(RAW))


def case_truncate_pad():
    return d2l.truncate_pad([1, 2, 3], 5, 0), d2l.truncate_pad([1, 2, 3, 4, 5, 6], 4, 0)


def case_build_array_nmt():
    src, _ = d2l.tokenize_nmt(d2l.preprocess_nmt(RAW))
    vocab = d2l.Vocab(src, reserved_tokens=['<pad>', '<bos>', '<eos>'])
    return d2l.build_array_nmt(src, vocab, 4)


def encoder(vocab_size=7):
    enc = d2l.Seq2SeqEncoder(vocab_size, 4, 5, 2)
    enc.initialize()
    X = arr(onp.array([[1, 2, 3], [4, 5, 6]], 'float32'))
    return sync(enc, X), X


def case_Seq2SeqEncoder():
    enc, X = encoder()
    return enc(X)


class Seq2SeqDecoder(d2l.Decoder):
    # the notebook's decoder (sec_seq2seq), for the library's EncoderDecoder and predict_seq2seq
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0, **kwargs):
        super(Seq2SeqDecoder, self).__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = rnn.GRU(num_hiddens, num_layers, dropout=dropout)
        self.dense = nn.Dense(vocab_size, flatten=False)

    def init_state(self, enc_outputs, *args):
        return enc_outputs[1]

    def forward(self, X, state):
        X = self.embedding(X).swapaxes(0, 1)
        context = state[0][-1]
        context = np.broadcast_to(context, (X.shape[0], context.shape[0], context.shape[1]))
        X_and_context = np.concatenate((X, context), 2)
        output, state = self.rnn(X_and_context, state)
        output = self.dense(output).swapaxes(0, 1)
        return output, state


class Seq2SeqDecoder2(d2l.Decoder):
    # the v1.0.3 notebook's decoder (sec_seq2seq): the state carries the encoder's outputs
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = d2l.GRU(num_hiddens, num_layers, dropout)
        self.dense = nn.Dense(vocab_size, flatten=False)

    def init_state(self, enc_all_outputs, *args):
        return enc_all_outputs

    def forward(self, X, state):
        embs = self.embedding(d2l.transpose(X).astype(np.int32))
        enc_output, hidden_state = state
        context = enc_output[-1]
        context = np.tile(context, (embs.shape[0], 1, 1))
        embs_and_context = np.concatenate((embs, context), -1)
        outputs, hidden_state = self.rnn(embs_and_context, hidden_state)
        outputs = d2l.swapaxes(self.dense(outputs), 0, 1)
        return outputs, [enc_output, hidden_state]


def decoder(*args):
    return (Seq2SeqDecoder2 if hasattr(d2l, 'Seq2Seq') else Seq2SeqDecoder)(*args)


def seq2seq(vocab_size=7):
    net = d2l.EncoderDecoder(d2l.Seq2SeqEncoder(vocab_size, 4, 5, 2), decoder(vocab_size, 4, 5, 2))
    net.initialize()
    X = arr(onp.array([[1, 2, 3], [4, 5, 6]], 'float32'))
    return sync(net, X, X), X


def case_EncoderDecoder():
    net, X = seq2seq()
    return net(X, X)


def case_MaskedSoftmaxCELoss():
    return d2l.MaskedSoftmaxCELoss()(F(3, 4, 5), I(5, 3, 4), arr(onp.array([4, 2, 0], 'float32')))


def case_predict_seq2seq():
    net, _ = seq2seq(8)
    src = d2l.Vocab(['go', 'hi', 'run', '.'], reserved_tokens=['<pad>', '<bos>', '<eos>'])
    return d2l.predict_seq2seq(net, 'go .', src, src, 5, d2l.try_gpu())


def case_bleu():
    return d2l.bleu('he is a cat', 'he is cat', 2), d2l.bleu('a b c d', 'a b c d', 3)


def case_masked_softmax():
    X = F(2, 3, 4)
    return (d2l.masked_softmax(X, arr(onp.array([2, 3], 'float32'))),
            d2l.masked_softmax(X, arr(onp.array([[1, 3, 2], [2, 4, 1]], 'float32'))))


def qkv():
    return F(2, 1, 2), F(2, 5, 3), F(2, 5, 4), arr(onp.array([2, 4], 'float32'))


def case_AdditiveAttention():
    att = d2l.AdditiveAttention(6, 0.0)
    att.initialize()
    q, k, v, lens = qkv()
    sync(att, q, k, v, lens)
    return att(q, k, v, lens)


def case_DotProductAttention():
    att = d2l.DotProductAttention(0.0)
    att.initialize()
    q, k, v, lens = F(2, 1, 3), F(2, 5, 3), F(2, 5, 4), arr(onp.array([2, 4], 'float32'))
    return att(q, k, v, lens)


def case_MultiHeadAttention():
    att = d2l.MultiHeadAttention(6, 2, 0.0)
    att.initialize()
    q, k, v, lens = F(2, 3, 5), F(2, 4, 5), F(2, 4, 5), arr(onp.array([2, 3], 'float32'))
    sync(att, q, k, v, lens)
    return att(q, k, v, lens)


def case_transpose_qkv():
    return d2l.transpose_qkv(F(2, 3, 8), 2)


def case_transpose_output():
    return d2l.transpose_output(F(4, 3, 4), 2)


def case_PositionalEncoding():
    pe = d2l.PositionalEncoding(6, 0.0)
    pe.initialize()
    return pe(F(2, 5, 6))


def case_PositionWiseFFN():
    ffn = d2l.PositionWiseFFN(5, 4)
    ffn.initialize()
    X = F(2, 3, 4)
    sync(ffn, X)
    return ffn(X)


def case_AddNorm():
    an = d2l.AddNorm(0.0)
    an.initialize()
    X, Y = F(2, 3, 4), F(2, 3, 4)
    sync(an, X, Y)
    return an(X, Y)


def case_EncoderBlock():
    blk = d2l.EncoderBlock(6, 8, 2, 0.0)
    blk.initialize()
    X, lens = F(2, 4, 6), arr(onp.array([3, 2], 'float32'))
    sync(blk, X, lens)
    return blk(X, lens)


def case_TransformerEncoderBlock():
    blk = d2l.TransformerEncoderBlock(6, 8, 2, 0.0)
    blk.initialize()
    X, lens = F(2, 4, 6), arr(onp.array([3, 2], 'float32'))
    sync(blk, X, lens)
    return blk(X, lens)


def case_TransformerEncoder():
    enc = d2l.TransformerEncoder(20, 6, 8, 2, 2, 0.0)
    enc.initialize()
    X, lens = arr(onp.array([[1, 2, 3, 4], [5, 6, 7, 0]], 'float32')), arr(onp.array([3, 2], 'float32'))
    sync(enc, X, lens)
    return enc(X, lens)


# -- optimisation, computational performance ---------------------------------------------------

def case_train_2d():
    def gd_2d(x1, x2, s1, s2):
        return (x1 - 0.2 * x1, x2 - 0.4 * x2, 0, 0)
    return d2l.train_2d(gd_2d, steps=5)


def reg_iter():
    return d2l.load_array((F(200, 3), F(200)), 10, is_train=False)


def case_train_ch11():
    def sgd(params, states, hyperparams):
        for p in params:
            p[:] -= hyperparams['lr'] * p.grad
    # w starts at random (np.random.normal): set to MXNet's draw through the seeded sync below
    _times, losses = d2l.train_ch11(sgd, None, {'lr': 0.1}, reg_iter(), 3, num_epochs=1)
    return len(losses), [round(float(l), 1) for l in losses]


def case_split_batch():
    X, y = F(4, 3), F(4)
    return d2l.split_batch(X, y, [d2l.try_gpu()])


def case_resnet18():
    net = d2l.resnet18(10)
    net.initialize()
    X = F(2, 1, 8, 8)
    sync(net, X)
    return net(X)


def case_evaluate_accuracy_gpus():
    return d2l.evaluate_accuracy_gpus(mlp(), class_iter())


def case_train_batch_ch13():
    net = mlp()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    out = d2l.train_batch_ch13(net, F(4, 4), I(3, 4), gluon.loss.SoftmaxCrossEntropyLoss(),
                               trainer, [d2l.try_gpu()])
    return out, [p.data() for p in net.collect_params().values()]


def case_train_ch13():
    net = mlp()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    d2l.train_ch13(net, class_iter(20), class_iter(), gluon.loss.SoftmaxCrossEntropyLoss(), trainer, 1,
                   [d2l.try_gpu()])
    return [p.data() for p in net.collect_params().values()]


# -- computer vision ------------------------------------------------------------------------------

def boxes(n):
    lo = R.uniform(0, 0.5, size=(n, 2))
    return arr(onp.concatenate([lo, lo + R.uniform(0.1, 0.5, size=(n, 2))], 1).astype('float32'))


def case_box_corner_to_center():
    return d2l.box_corner_to_center(boxes(4))


def case_box_center_to_corner():
    return d2l.box_center_to_corner(boxes(4))


def case_multibox_prior():
    return d2l.multibox_prior(F(1, 3, 4, 5), sizes=[0.75, 0.5], ratios=[1, 2, 0.5])


def case_box_iou():
    return d2l.box_iou(boxes(3), boxes(5))


def case_assign_anchor_to_bbox():
    return d2l.assign_anchor_to_bbox(boxes(2), boxes(6), d2l.try_gpu(), 0.3)


def case_offset_boxes():
    return d2l.offset_boxes(boxes(4), boxes(4))


def gt_anchors():
    labels = onp.concatenate([onp.array([[0], [1]], 'float32'), onp.array(
        [[0.1, 0.08, 0.52, 0.92], [0.55, 0.2, 0.9, 0.88]], 'float32')], 1)[None]
    anchors = onp.array([[0, 0.1, 0.2, 0.3], [0.15, 0.2, 0.4, 0.4], [0.63, 0.05, 0.88, 0.98],
                         [0.66, 0.45, 0.8, 0.8], [0.57, 0.3, 0.92, 0.9]], 'float32')[None]
    return arr(anchors), arr(labels)


def case_multibox_target():
    anchors, labels = gt_anchors()
    return d2l.multibox_target(anchors, labels)


def case_offset_inverse():
    return d2l.offset_inverse(boxes(4), F(4, 4) * 0.1)


def case_nms():
    return d2l.nms(boxes(6), arr(onp.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4], 'float32')), 0.3)


def case_multibox_detection():
    anchors = arr(onp.array([[0.1, 0.08, 0.52, 0.92], [0.08, 0.2, 0.56, 0.95],
                             [0.15, 0.3, 0.62, 0.91], [0.55, 0.2, 0.9, 0.88]], 'float32'))
    offsets = arr(onp.zeros(16, 'float32'))
    cls = arr(onp.array([[0, 0, 0, 0], [0.9, 0.8, 0.7, 0.1], [0.1, 0.2, 0.3, 0.9]], 'float32'))
    return d2l.multibox_detection(np.expand_dims(cls, axis=0), np.expand_dims(offsets, axis=0),
                                  np.expand_dims(anchors, axis=0), nms_threshold=0.5)


def case_voc_colormap2label():
    return d2l.voc_colormap2label()


def case_voc_label_indices():
    img = arr(R.choice([0, 128], size=(4, 5, 3)).astype('float32'))
    return d2l.voc_label_indices(img, d2l.voc_colormap2label())


def files(tmp):
    import os
    os.makedirs(os.path.join(tmp, 'train'), exist_ok=True)
    os.makedirs(os.path.join(tmp, 'test'), exist_ok=True)
    with open(os.path.join(tmp, 'trainLabels.csv'), 'w') as f:
        f.write('id,label\n' + ''.join(f'{i},{"cat" if i % 2 else "dog"}\n' for i in range(1, 9)))
    for i in range(1, 9):
        open(os.path.join(tmp, 'train', f'{i}.png'), 'w').close()
        open(os.path.join(tmp, 'test', f'{i}.png'), 'w').close()


def tree(tmp):
    import os
    return sorted(os.path.relpath(os.path.join(d, f), tmp) for d, _, fs in os.walk(tmp) for f in fs)


def case_read_csv_labels():
    import tempfile, os
    with tempfile.TemporaryDirectory() as tmp:
        files(tmp)
        return sorted(d2l.read_csv_labels(os.path.join(tmp, 'trainLabels.csv')).items())


def case_copyfile():
    import tempfile, os
    with tempfile.TemporaryDirectory() as tmp:
        files(tmp)
        d2l.copyfile(os.path.join(tmp, 'train', '1.png'), os.path.join(tmp, 'out', 'a'))
        return tree(tmp)


def case_reorg_train_valid():
    import tempfile, os
    with tempfile.TemporaryDirectory() as tmp:
        files(tmp)
        n = d2l.reorg_train_valid(tmp, d2l.read_csv_labels(os.path.join(tmp, 'trainLabels.csv')), 0.25)
        return n, tree(tmp)


def case_reorg_test():
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        files(tmp)
        d2l.reorg_test(tmp)
        return tree(tmp)


# -- natural language processing ------------------------------------------------------------------

SENTS = [s.split() for s in ['the cat sat on the mat', 'a dog ran to the cat', 'the end']]


def case_get_centers_and_contexts():
    random.seed(0)
    return d2l.get_centers_and_contexts([[0, 1, 2, 3, 4, 5], [6, 7, 8]], 2)


def case_RandomGenerator():
    random.seed(0)
    g = d2l.RandomGenerator([2, 3, 4])
    return [g.draw() for _ in range(10)]


def case_get_negatives():
    random.seed(0)
    import collections
    vocab = d2l.Vocab(SENTS)
    counter = collections.Counter([t for s in SENTS for t in s])
    return d2l.get_negatives([[1, 2], [3]], vocab, counter, 2)


def case_batchify():
    return d2l.batchify([(1, [2, 2], [3, 3, 3, 3]), (1, [2, 2, 2, 2], [3, 3])])


def case_get_tokens_and_segments():
    return d2l.get_tokens_and_segments(['a', 'b'], ['c'])


def bert_parts():
    X = arr(onp.array([[1, 2, 3, 4, 5], [6, 7, 8, 9, 0]], 'float32'))
    seg = arr(onp.array([[0, 0, 0, 1, 1], [0, 0, 1, 1, 1]], 'float32'))
    return X, seg, arr(onp.array([5, 4], 'float32'))


def case_BERTEncoder():
    enc = d2l.BERTEncoder(10, 6, 8, 2, 2, 0.0)
    enc.initialize()
    X, seg, lens = bert_parts()
    sync(enc, X, seg, lens)
    return enc(X, seg, lens)


def case_MaskLM():
    mlm = d2l.MaskLM(10, 6)
    mlm.initialize()
    X, pos = F(2, 5, 6), arr(onp.array([[1, 3], [0, 4]], 'float32'))
    sync(mlm, X, pos)
    return mlm(X, pos)


def case_NextSentencePred():
    nsp = d2l.NextSentencePred()
    nsp.initialize()
    X = F(2, 6)
    sync(nsp, X)
    return nsp(X)


def case_BERTModel():
    net = d2l.BERTModel(10, 6, 8, 2, 2, 0.0)
    net.initialize()
    X, seg, lens = bert_parts()
    pos = arr(onp.array([[1, 3], [0, 4]], 'float32'))
    sync(net, X, seg, lens, pos)
    return net(X, seg, lens, pos)


def case__get_next_sentence():
    random.seed(1)
    return d2l._get_next_sentence(['a'], ['b'], [[['c'], ['d']]])


def wiki():
    paragraphs = [[s.split() for s in ['a b c d', 'b c d e', 'c d e a']],
                  [s.split() for s in ['d e a b', 'e a b c']]]
    vocab = d2l.Vocab([t for p in paragraphs for s in p for t in s],
                      reserved_tokens=['<pad>', '<mask>', '<cls>', '<sep>'])
    return paragraphs, vocab


def case__get_nsp_data_from_paragraph():
    random.seed(0)
    paragraphs, vocab = wiki()
    return d2l._get_nsp_data_from_paragraph(paragraphs[0], paragraphs, vocab, 20)


def case__get_mlm_data_from_tokens():
    random.seed(0)
    _, vocab = wiki()
    return d2l._get_mlm_data_from_tokens(['<cls>', 'a', 'b', 'c', 'd', 'e', '<sep>'] * 2, vocab)


def case__pad_bert_inputs():
    random.seed(0)
    _, vocab = wiki()
    ex = [(vocab[['<cls>', 'a', 'b', '<sep>']], [1, 2], [5, 6], [0, 0, 0, 0], True),
          (vocab[['<cls>', 'c', '<sep>']], [1], [7], [0, 0, 0], False)]
    return d2l._pad_bert_inputs(ex, 6, vocab)


def case__WikiTextDataset():
    random.seed(0)
    paragraphs = [['a b c d . b c d e . c d e a'] * 1, ['d e a b . e a b c'] * 1]
    ds = d2l._WikiTextDataset([p[0].split(' . ') for p in paragraphs], 12)
    return len(ds), [ds[i] for i in range(len(ds))]


def case_predict_sentiment():
    vocab = d2l.Vocab([['good', 'bad', 'movie']])
    net = nn.Sequential()
    net.add(nn.Embedding(len(vocab), 4), nn.GlobalAvgPool1D() if False else nn.Dense(2))
    net.initialize()
    sync(net, arr(onp.array([[1, 2]], 'float32')))
    return d2l.predict_sentiment(net, vocab, 'good movie'), d2l.predict_sentiment(net, vocab, 'bad movie')


def case_split_batch_multi_inputs():
    X, y = (F(4, 3), F(4, 2)), F(4)
    return d2l.split_batch_multi_inputs(X, y, [d2l.try_gpu()])


def case_BPRLoss():
    return d2l.BPRLoss()(F(4), F(4))


def case_HingeLossbRec():
    return d2l.HingeLossbRec()(F(4), F(4))


def case_hit_and_auc():
    return d2l.hit_and_auc([3, 1, 2, 5, 4], [2], 3)


def gan():
    net_G, net_D = nn.Sequential(), nn.Sequential()
    net_G.add(nn.Dense(2))
    net_D.add(nn.Dense(5, activation='tanh'), nn.Dense(1))
    net_G.initialize()
    net_D.initialize()
    sync(net_G, F(5, 2))
    sync(net_D, F(5, 2))
    loss = gluon.loss.SigmoidBCELoss()
    tD = gluon.Trainer(net_D.collect_params(), 'sgd', {'learning_rate': 0.05})
    tG = gluon.Trainer(net_G.collect_params(), 'sgd', {'learning_rate': 0.05})
    return net_G, net_D, loss, tD, tG


def case_update_D():
    net_G, net_D, loss, tD, _ = gan()
    l = d2l.update_D(F(5, 2), F(5, 2), net_D, net_G, loss, tD)
    return l, [p.data() for p in net_D.collect_params().values()]


def case_update_G():
    net_G, net_D, loss, _, tG = gan()
    l = d2l.update_G(F(5, 2), net_D, net_G, loss, tG)
    return l, [p.data() for p in net_G.collect_params().values()]


# -- the 2023 edition's object-oriented API (v1.0.3) ------------------------------------------------

def case_add_to_class():
    class A:
        pass

    @d2l.add_to_class(A)
    def f(self):
        return 3
    return A().f()


def case_HyperParameters():
    class B(d2l.HyperParameters):
        def __init__(self, a, b, c=2):
            self.save_hyperparameters(ignore=['c'])
    b = B(1, 2)
    return b.a, b.b, hasattr(b, 'c')


def case_SyntheticRegressionData():
    # random draws: compared by law, as synthetic_data
    data = d2l.SyntheticRegressionData(arr(onp.array([2.0, -3.4], 'float32')), 4.2, num_train=20, num_val=10)
    r = data.y.reshape(-1) - (np.dot(data.X, arr(onp.array([2.0, -3.4], 'float32'))) + 4.2)
    X, y = next(iter(data.get_dataloader(False)))
    return data.X.shape, bool(float(np.abs(r).max()) < 0.1), X.shape, y.shape


def case_DataModule():
    class D(d2l.DataModule):
        def __init__(self):
            super().__init__()
            self.X, self.y = F(10, 2), F(10, 1)
            self.num_train, self.batch_size = 6, 3

        def get_dataloader(self, train):
            i = slice(0, self.num_train) if train else slice(self.num_train, None)
            return self.get_tensorloader((self.X, self.y), train, i)
    return [[x, y] for x, y in D().val_dataloader()]


def case_LinearRegressionScratch():
    m = d2l.LinearRegressionScratch(3, 0.1)
    m.w, m.b = F(3, 1), F(1)
    m.w.attach_grad()
    m.b.attach_grad()
    X, y = F(4, 3), F(4, 1)
    with autograd.record():
        l = m.loss(m(X), y)
    l.backward()
    opt = m.configure_optimizers()
    opt.step(4)
    return l, m.w, m.b


def case_SGD():
    w = F(3)
    w.attach_grad()
    with autograd.record():
        l = (w * F(3)).sum()
    l.backward()
    d2l.SGD([w], 0.1).step(3)
    return w


def case_LinearRegression():
    m = d2l.LinearRegression(0.1)
    m.initialize()
    X = F(4, 3)
    sync(m, X)
    return m(X), m.loss(m(X), F(4, 1)), m.get_w_b()


def case_Classifier():
    m = d2l.SoftmaxRegression(3, 0.1)
    m.initialize()
    X, y = F(6, 4), I(3, 6)
    sync(m, X)
    return m.accuracy(m(X), y), m.loss(m(X), y)


def case_SoftmaxRegression():
    m = d2l.SoftmaxRegression(3, 0.1)
    m.initialize()
    X = F(2, 4)
    sync(m, X)
    return m(X)


def case_Trainer():
    m = d2l.SoftmaxRegression(3, 0.1)
    m.initialize()
    sync(m, F(2, 4))

    class D(d2l.DataModule):
        def __init__(self):
            super().__init__()
            self.X, self.y = F(8, 4), I(3, 8)
            self.batch_size = 4

        def get_dataloader(self, train):
            return self.get_tensorloader((self.X, self.y), False, slice(0, 8))
    t = d2l.Trainer(max_epochs=1)
    t.fit(m, D())
    return [p.data() for p in m.collect_params().values()]


def case_cpu():
    return d2l.cpu()


def case_num_gpus():
    return d2l.num_gpus()


def case_LeNet():
    m = d2l.LeNet()
    m.initialize()
    X = F(2, 1, 28, 28)
    sync(m, X)
    return m(X)


def case_ResNeXtBlock():
    blk = d2l.ResNeXtBlock(8, 2, 1, use_1x1conv=True, strides=2)
    blk.initialize()
    X = F(2, 4, 6, 6)
    sync(blk, X)
    return blk(X)


def case_check_len():
    d2l.check_len([1, 2], 2)
    return True


def case_check_shape():
    d2l.check_shape(F(2, 3), (2, 3))
    return True


def rnn_scratch():
    r = d2l.RNNScratch(4, 5)
    r.W_xh, r.W_hh, r.b_h = F(4, 5) * 0.1, F(5, 5) * 0.1, F(5)
    return r


def case_RNNScratch():
    out, H = rnn_scratch()(F(3, 2, 4))
    return out, H


def case_RNNLMScratch():
    m = d2l.RNNLMScratch(rnn_scratch(), 4)
    m.W_hq, m.b_q = F(5, 4), F(4)
    X = arr(onp.array([[0, 1, 2], [3, 2, 1]], 'float32'))
    return m(X), m.predict('ab', 3, d2l.Vocab(list('abcd')), None) if False else m(X)


def case_RNN():
    r = d2l.RNN(5)
    r.initialize()
    X = F(3, 2, 4)
    sync(r, X)
    return r(X)


def case_RNNLM():
    m = d2l.RNNLM(d2l.RNN(5), 4)
    m.initialize()
    X = arr(onp.array([[0, 1, 2], [3, 2, 1]], 'float32'))
    sync(m, X)
    return m(X)


def case_GRU():
    r = d2l.GRU(5, 2)
    r.initialize()
    X = F(3, 2, 4)
    sync(r, X)
    return r(X)


def case_Seq2Seq():
    net = d2l.Seq2Seq(d2l.Seq2SeqEncoder(7, 4, 5, 2), decoder(7, 4, 5, 2), tgt_pad=0, lr=0.1)
    net.initialize()
    X = arr(onp.array([[1, 2, 3], [4, 5, 0]], 'float32'))
    sync(net, X, X)
    return net(X, X), net.loss(net(X, X), X), net.predict_step((X, X, arr(onp.array([3, 2], 'float32')), X), d2l.try_gpu(), 3)
