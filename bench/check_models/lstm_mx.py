from mxnet.gluon import rnn


def Net():
    return rnn.LSTM(256, num_layers=2, layout="NTC", input_size=64)
