"""A driver (bench/example_runs.py --set ganmx): the Gluon data pipeline of CoinCheung/GAN-mxnet's
`core/DataIter.py` (Gluon's MNIST with a transform: imresize to 64x64, cast, scale, transpose; a shuffling
DataLoader), run on synthetic MNIST files, its first batches printed. No MXNet here: it reads what the
pipeline gives, an NDArray before conversion and a tensor after."""
import numpy as np

import core.DataIter as DI


def values(x):
    return x.asnumpy() if hasattr(x, "asnumpy") else x.detach().cpu().numpy()


np.random.seed(0)  # the DataLoader's shuffle: NumPy's stream in MXNet, and in the converted loader
for i, (img, label) in enumerate(DI.get_mnist_iter()):
    a, b = values(img).astype(np.float64), values(label)
    print("batch", i, a.shape, round(float(a.sum()), 2), round(float(a.reshape(len(a), -1)[0, 900:906].sum()), 5),
          b[:8].tolist())
    if i == 1:
        break
