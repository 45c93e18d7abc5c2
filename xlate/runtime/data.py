"""Gluon's data pipeline (`gluon.data`): datasets, samplers and the DataLoader, in torch.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only. tests/test_numeric_data.py compares the batches with MXNet 1.9.1.

Note [Gluon data]
`_mx_DataLoader` takes Gluon's arguments and is a `torch.utils.data.DataLoader` driven by
Gluon's own batch sampler, so batches come in MXNet's order with MXNet's sizes:
last_batch='keep' / 'discard' / 'rollover' (rollover carries the incomplete last batch into
the next epoch, and the loader's length changes between epochs, as in Gluon; torch's
drop_last only discards). The default batchify stacks tensors, turns tuples into *lists*
of batches (Gluon's `default_batchify_fn` returns a list), and keeps the dtypes of numpy
values (an int64 label stays int64; a Python float becomes float64, as np.asarray makes it);
a custom `batchify_fn` is the collate function. `num_workers` > 0 runs torch's worker
processes (the dataset must be picklable, as with Gluon's multiprocessing pool).
shuffle=True and RandomSampler draw their permutation from numpy's global generator, as Gluon
does (Note [random streams]), so a script that seeds numpy visits MXNet's order. Datasets keep Gluon's methods (`transform`, `transform_first` with `lazy`,
`filter`, `shard`, `take`, `sample`), so a user subclass of `gluon.data.Dataset` keeps them.
"""
import torch


class _mx_Dataset(torch.utils.data.Dataset):
    """Gluon's Dataset base class: __getitem__/__len__ and the transform methods."""

    def __getitem__(self, idx):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def filter(self, fn):
        return _mx_SampledDataset(self, _mx_FilterSampler(fn, self))

    def shard(self, num_shards, index):
        if not 0 <= index < num_shards:
            raise AssertionError(f"Shard index of out bound: {index} out of {num_shards}")
        length = len(self)
        shard_len, rest = length // num_shards, length % num_shards
        start = shard_len * index + min(index, rest)
        end = start + shard_len + (index < rest)
        return _mx_SampledDataset(self, _mx_SequentialSampler(end - start, start))

    def take(self, count):
        if count is None or count > len(self):
            count = len(self)
        return _mx_SampledDataset(self, _mx_SequentialSampler(count))

    def sample(self, sampler):
        return _mx_SampledDataset(self, sampler)

    def transform(self, fn, lazy=True):
        trans = _mx_LazyTransformDataset(self, fn)
        return trans if lazy else _mx_SimpleDataset([item for item in trans])

    def transform_first(self, fn, lazy=True):
        return self.transform(_mx_TransformFirst(fn), lazy)


class _mx_SimpleDataset(_mx_Dataset):
    """Gluon SimpleDataset: a dataset over a list (or anything indexable)."""

    def __init__(self, data):
        self._data = data

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        return self._data[idx]


class _mx_ArrayDataset(_mx_Dataset):
    """Gluon ArrayDataset: items are tuples of the arrays' rows (one array: its row)."""

    def __init__(self, *args):
        if len(args) == 0:
            raise AssertionError("Needs at least 1 arrays")
        self._length = len(args[0])
        for i, data in enumerate(args):
            if len(data) != self._length:
                raise AssertionError(f"All arrays must have the same length; array[0] has length {self._length} "
                                     f"while array[{i + 1}] has {len(data)}.")
        self._data = list(args)

    def __getitem__(self, idx):
        if len(self._data) == 1:
            return self._data[0][idx]
        return tuple(data[idx] for data in self._data)

    def __len__(self):
        return self._length


class _mx_LazyTransformDataset(_mx_Dataset):
    def __init__(self, data, fn):
        self._data = data
        self._fn = fn

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        item = self._data[idx]
        return self._fn(*item) if isinstance(item, tuple) else self._fn(item)


class _mx_TransformFirst:
    """Applies fn to the first element of an item (transform_first), a picklable callable."""

    def __init__(self, fn):
        self._fn = fn

    def __call__(self, x, *args):
        return (self._fn(x),) + args if args else self._fn(x)


class _mx_SampledDataset(_mx_Dataset):
    def __init__(self, dataset, sampler):
        self._dataset = dataset
        self._sampler = sampler
        self._indices = list(iter(sampler))

    def __len__(self):
        return len(self._sampler)

    def __getitem__(self, idx):
        return self._dataset[self._indices[idx]]


class _mx_Sampler:
    """Gluon's Sampler base class: an iterable of indices with a length."""

    def __iter__(self):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError


class _mx_SequentialSampler(_mx_Sampler):
    def __init__(self, length, start=0):
        self._length = length
        self._start = start

    def __iter__(self):
        return iter(range(self._start, self._start + self._length))

    def __len__(self):
        return self._length


# Note [random streams]
# Gluon 1.x's samplers (RandomSampler, DataLoader(shuffle=True)) and gluonnlp's bucket samplers
# shuffle with numpy's global generator (`np.random.shuffle`, `np.random.permutation`), not with
# MXNet's: a script that calls `np.random.seed(s)` gets one order of batches in every run, and
# `mx.random.seed` does not change it. The helpers make the same numpy calls on the same
# arrays at the same moments (when an epoch's iteration starts), so a converted script that
# seeds numpy visits MXNet's batches in MXNet's order. What draws from MXNet's own generator
# (initializers, dropout, nd.random.*, the random image transforms) draws from torch's here:
# the same laws, other numbers. The runtime depends on torch alone: it takes numpy from
# sys.modules, where `import torch` puts it when it is installed; without numpy no script can
# have seeded it, and the helpers draw from torch's generator.
def _mx_numpy():
    """The numpy module when the program has it (Note [random streams]), else None."""
    import sys

    return sys.modules.get("numpy")


def _mx_np_shuffle(items):
    """`np.random.shuffle(items)` in place on numpy's global generator (Note [random streams]);
    torch's generator when numpy is not installed."""
    numpy = _mx_numpy()
    if numpy is None:
        order = torch.randperm(len(items)).tolist()
        items[:] = [items[i] for i in order]
        return items
    numpy.random.shuffle(items)
    return items


class _mx_RandomSampler(_mx_Sampler):
    """A random permutation per epoch, drawn as Gluon draws it: `np.random.shuffle` of
    `np.arange(length)` (Note [random streams])."""

    def __init__(self, length):
        self._length = length

    def __iter__(self):
        numpy = _mx_numpy()
        if numpy is None:
            return iter(torch.randperm(self._length).tolist())
        indices = numpy.arange(self._length)
        numpy.random.shuffle(indices)
        return iter(indices.tolist())

    def __len__(self):
        return self._length


class _mx_FilterSampler(_mx_Sampler):
    def __init__(self, fn, dataset):
        self._fn = fn
        self._dataset = dataset
        self._indices = [i for i, sample in enumerate(dataset) if fn(sample)]

    def __iter__(self):
        return iter(self._indices)

    def __len__(self):
        return len(self._indices)


class _mx_IntervalSampler(_mx_Sampler):
    """gluon.contrib.data.IntervalSampler(length, interval, rollover=True): 0, interval, 2 * interval,
    ..., then (rollover) 1, 1 + interval, ... until every index is visited once (MXNet's order for
    truncated back-propagation over a long sequence cut in `interval` streams). Its len() is
    `length` even without rollover, as MXNet 1.9.1's."""

    def __init__(self, length, interval, rollover=True):
        assert interval <= length, f"Interval {interval} must be smaller than or equal to length {length}"
        self._length, self._interval, self._rollover = length, interval, rollover

    def __iter__(self):
        for i in range(self._interval if self._rollover else 1):
            yield from range(i, self._length, self._interval)

    def __len__(self):
        return self._length


class _mx_BatchSampler(_mx_Sampler):
    """Gluon BatchSampler: batches of `batch_size` indices; the last incomplete one kept,
    discarded, or rolled over into the next epoch."""

    def __init__(self, sampler, batch_size, last_batch="keep"):
        self._sampler = sampler
        self._batch_size = batch_size
        self._last_batch = last_batch
        self._prev = []

    def __iter__(self):
        batch, self._prev = self._prev, []
        for i in self._sampler:
            batch.append(i)
            if len(batch) == self._batch_size:
                yield batch
                batch = []
        if batch:
            if self._last_batch == "keep":
                yield batch
            elif self._last_batch == "rollover":
                self._prev = batch
            elif self._last_batch != "discard":
                raise ValueError(f"last_batch must be one of 'keep', 'discard', or 'rollover', but got "
                                 f"{self._last_batch}")

    def __len__(self):
        if self._last_batch == "keep":
            return (len(self._sampler) + self._batch_size - 1) // self._batch_size
        if self._last_batch == "discard":
            return len(self._sampler) // self._batch_size
        if self._last_batch == "rollover":
            return (len(self._prev) + len(self._sampler)) // self._batch_size
        raise ValueError(f"last_batch must be one of 'keep', 'discard', or 'rollover', but got {self._last_batch}")


def _mx_default_batchify_fn(data):
    """Gluon's default_batchify_fn: stack arrays, a list of batches for tuples, numpy values
    and Python numbers as numpy would type them."""
    first = data[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(data)
    if isinstance(first, tuple):
        return [_mx_default_batchify_fn(list(items)) for items in zip(*data)]
    if isinstance(first, bool):
        return torch.tensor(data, dtype=torch.bool)
    if isinstance(first, float):
        return torch.tensor(data, dtype=torch.float64)
    if isinstance(first, int):
        return torch.tensor(data, dtype=torch.int64)
    return torch.stack([torch.as_tensor(x) for x in data])


class _mx_DataLoader(torch.utils.data.DataLoader):
    """Gluon DataLoader (Note [Gluon data]): Gluon's arguments, torch's loader underneath."""

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None, last_batch=None, batch_sampler=None,
                 batchify_fn=None, num_workers=0, pin_memory=False, pin_device_id=0, prefetch=None,
                 thread_pool=False, timeout=120, auto_reload=False):
        if batch_sampler is None:
            if batch_size is None:
                raise ValueError("batch_size must be specified unless batch_sampler is specified")
            if sampler is None:
                sampler = _mx_RandomSampler(len(dataset)) if shuffle else _mx_SequentialSampler(len(dataset))
            elif shuffle:
                raise ValueError("shuffle must not be specified if sampler is specified")
            batch_sampler = _mx_BatchSampler(sampler, batch_size, last_batch if last_batch else "keep")
        elif batch_size is not None or shuffle or sampler is not None or last_batch is not None:
            raise ValueError("batch_size, shuffle, sampler and last_batch must not be specified if batch_sampler "
                             "is specified.")
        workers = num_workers if num_workers >= 0 else 0
        extra = {"prefetch_factor": max(1, prefetch // workers) if prefetch else 2, "timeout": timeout} \
            if workers > 0 else {}
        super().__init__(dataset, batch_sampler=batch_sampler, num_workers=workers,
                         collate_fn=batchify_fn or _mx_default_batchify_fn, pin_memory=pin_memory, **extra)
        self._batch_sampler = batch_sampler


# gluon.data.vision.transforms that compute the same numbers in torch (the resizing and colour
# ones are in image.py): HybridBlocks in Gluon, modules here, callable the same way
class _mx_ToTensor(torch.nn.Module):
    """transforms.ToTensor(): an (H, W, C) image or (N, H, W, C) batch in [0, 255], any dtype ->
    float32 (C, H, W) / (N, C, H, W) in [0, 1] (mx.nd.image.to_tensor)."""

    def forward(self, x):
        return _mx_image_to_tensor(x)


class _mx_Normalize(torch.nn.Module):
    """transforms.Normalize(mean=0.0, std=1.0): (x[c] - mean[c]) / std[c] over the channels of a
    (C, H, W) image or (N, C, H, W) batch (mx.nd.image.normalize)."""

    def __init__(self, mean=0.0, std=1.0):
        super().__init__()
        self._mean, self._std = mean, std

    def forward(self, x):
        return _mx_image_normalize(x, self._mean, self._std)


class _mx_Cast(torch.nn.Module):
    """transforms.Cast(dtype='float32'): the input in that dtype."""

    def __init__(self, dtype="float32"):
        super().__init__()
        self._dtype = _mx_dtype(dtype)

    def forward(self, x):
        return x.to(self._dtype)


class _mx_Compose(torch.nn.Module):
    """transforms.Compose(transforms): each transform on the last one's output, as Gluon's
    Sequential runs them (a transform that returns a tuple hands the rest of it to the next as
    further arguments)."""

    def __init__(self, transforms):
        super().__init__()
        self._mx_steps = list(transforms)
        for i, step in enumerate(self._mx_steps):
            if isinstance(step, torch.nn.Module):
                self.add_module(str(i), step)

    def forward(self, x, *args):
        for step in self._mx_steps:
            x = step(x, *args)
            args = []
            if isinstance(x, (tuple, list)):
                args, x = x[1:], x[0]
        return tuple([x] + list(args)) if args else x


# Note [downloads]
# Gluon scripts fetch their data and weights with `gluon.utils.download(url, path, overwrite,
# sha1_hash, retries, verify_ssl)` and check files with `check_sha1`; GluonNLP's and GluonCV's
# stores name files with `_get_repo_file_url(namespace, filename)`, under the MXNET_GLUON_REPO
# mirror. The helpers keep MXNet's behaviour: the file name taken from the URL, a folder or a
# file as `path`, the file kept unless its hash differs (with `overwrite` too when no hash is
# given: MXNet 1.9.1 downloads again and deletes the new copy), the download written to
# a temporary name and moved into place, a hash mismatch after the download raised as
# UserWarning, the same retry count and printed lines. They use urllib, where MXNet uses
# requests, so converted code needs neither requests nor MXNet; their standard-library imports
# are inside the functions, which keeps each helper's text whole (xlate/runtime/__init__.py).
def _mx_check_sha1(filename, sha1_hash):
    """Gluon's `gluon.utils.check_sha1`: whether the file's SHA-1 is `sha1_hash` (hex digits)."""
    import hashlib

    sha1 = hashlib.sha1()
    with open(filename, "rb") as f:
        while True:
            data = f.read(1048576)
            if not data:
                break
            sha1.update(data)
    return sha1.hexdigest() == sha1_hash


def _mx_fetch(url, fname, context):
    """`url`'s body written to `fname`; any status but 200 raises RuntimeError (MXNet's and
    GluonCV's downloads alike)."""
    import urllib.error
    import urllib.request

    try:
        response = urllib.request.urlopen(url, context=context)
    except urllib.error.HTTPError as e:
        raise RuntimeError(f"Failed downloading url {url}") from e
    with response:
        if getattr(response, "status", 200) != 200:
            raise RuntimeError(f"Failed downloading url {url}")
        with open(fname, "wb") as f:
            while True:
                chunk = response.read(1 << 20)
                if not chunk:
                    break
                f.write(chunk)


def _mx_gcv_download(url, path=None, overwrite=False, sha1_hash=None):
    """gluoncv.utils.download: Gluon's file naming and hash check, but no retries (a failed fetch
    raises RuntimeError at once), the file written in place, and `overwrite` always fetching again."""
    import os

    if path is None:
        fname = url.split("/")[-1]
    else:
        path = os.path.expanduser(path)
        fname = os.path.join(path, url.split("/")[-1]) if os.path.isdir(path) else path
    if overwrite or not os.path.exists(fname) or (sha1_hash and not _mx_check_sha1(fname, sha1_hash)):
        dirname = os.path.dirname(os.path.abspath(os.path.expanduser(fname)))
        if not os.path.exists(dirname):
            os.makedirs(dirname)
        print("Downloading %s from %s..." % (fname, url))
        _mx_fetch(url, fname, None)
        if sha1_hash and not _mx_check_sha1(fname, sha1_hash):
            raise UserWarning("File {} is downloaded but the content hash does not match. The repo may be outdated "
                              "or download may be incomplete. If the \"repo_url\" is overridden, consider switching to "
                              "the default repo.".format(fname))
    return fname


def _mx_download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Gluon's `gluon.utils.download`: fetch `url` to `path` (a folder, a file, or the URL's file
    name here) unless the file is there with the right hash; returns the file's path."""
    import os
    import ssl
    import uuid
    import warnings

    if path is None:
        fname = url.split("/")[-1]
        assert fname, "Can't construct file-name from this URL. Please set the `path` option manually."
    else:
        path = os.path.expanduser(path)
        fname = os.path.join(path, url.split("/")[-1]) if os.path.isdir(path) else path
    assert retries >= 0, f"Number of retries should be at least 0, currently it's {retries}"
    if not verify_ssl:
        warnings.warn("Unverified HTTPS request is being made (verify_ssl=False). "
                      "Adding certificate verification is strongly advised.")
    if overwrite or not os.path.exists(fname) or (sha1_hash and not _mx_check_sha1(fname, sha1_hash)):
        dirname = os.path.dirname(os.path.abspath(os.path.expanduser(fname)))
        if not os.path.exists(dirname):
            os.makedirs(dirname, exist_ok=True)
        context = None if verify_ssl else ssl._create_unverified_context()
        while retries + 1 > 0:
            try:
                print(f"Downloading {fname} from {url}...")
                temporary = f"{fname}.{uuid.uuid4()}"
                _mx_fetch(url, temporary, context)
                if not os.path.exists(fname) or (sha1_hash and not _mx_check_sha1(fname, sha1_hash)):
                    os.replace(temporary, fname)  # atomic on one file system
                else:
                    try:
                        os.remove(temporary)
                    except OSError:
                        pass
                    finally:
                        warnings.warn(f"File {fname} exists in file system so the downloaded file is deleted")
                if sha1_hash and not _mx_check_sha1(fname, sha1_hash):
                    raise UserWarning(f"File {fname} is downloaded but the content hash does not match. The repo "
                                      f"may be outdated or download may be incomplete. If the \"repo_url\" is "
                                      f"overridden, consider switching to the default repo.")
                break
            except Exception as e:
                retries -= 1
                if retries <= 0:
                    raise e
                print(f"download failed due to {e!r}, retrying, {retries} attempt{'s' if retries > 1 else ''} left")
    return fname


def _mx_test_utils_download(url, fname=None, dirname=None, overwrite=False, retries=5):
    """MXNet's `test_utils.download`: fetch `url` to `fname` (the URL's file name by default) in
    `dirname` unless the file is there (no hash check) or `overwrite`; returns its path."""
    import os
    import urllib.error
    import urllib.request

    assert retries >= 0, "Number of retries should be at least 0"
    if fname is None:
        fname = url.split("/")[-1]
    if dirname is None:
        dirname = os.path.dirname(fname)
    else:
        fname = os.path.join(dirname, fname)
    if dirname != "" and not os.path.exists(dirname):
        os.makedirs(dirname, exist_ok=True)
    if not overwrite and os.path.exists(fname):
        return fname
    while retries + 1 > 0:
        try:
            try:
                response = urllib.request.urlopen(url)
            except urllib.error.HTTPError as e:  # MXNet asserts a 200
                raise AssertionError(f"failed to open {url}") from e
            with response, open(fname, "wb") as f:
                while True:
                    chunk = response.read(1 << 20)
                    if not chunk:
                        break
                    f.write(chunk)
            break
        except Exception as e:
            retries -= 1
            if retries <= 0:
                raise e
            print(f"download failed, retrying, {retries} attempt{'s' if retries > 1 else ''} left")
    return fname


def _mx_get_mnist():
    """MXNet's `test_utils.get_mnist()`: MNIST's four idx files fetched into this folder (kept when
    there, as `test_utils.download` keeps them) and read as MXNet reads them: a dict of NumPy arrays,
    images float32 (n, 1, 28, 28) scaled to [0, 1], labels int8 (read through torch: the runtime
    imports torch only)."""
    import gzip
    import struct

    def read_data(label_url, image_url):
        with gzip.open(_mx_test_utils_download(label_url)) as flbl:
            struct.unpack(">II", flbl.read(8))
            label = torch.frombuffer(bytearray(flbl.read()), dtype=torch.int8)
        with gzip.open(_mx_test_utils_download(image_url), "rb") as fimg:
            _, _, rows, cols = struct.unpack(">IIII", fimg.read(16))
            image = torch.frombuffer(bytearray(fimg.read()), dtype=torch.uint8).reshape(len(label), rows, cols)
            image = image.reshape(image.shape[0], 1, 28, 28).to(torch.float32) / 255
        return label.numpy(), image.numpy()

    path = "http://data.mxnet.io/data/mnist/"
    train_lbl, train_img = read_data(path + "train-labels-idx1-ubyte.gz", path + "train-images-idx3-ubyte.gz")
    test_lbl, test_img = read_data(path + "t10k-labels-idx1-ubyte.gz", path + "t10k-images-idx3-ubyte.gz")
    return {"train_data": train_img, "train_label": train_lbl, "test_data": test_img, "test_label": test_lbl}


def _mx_get_repo_url():
    """Gluon's base URL for its dataset and model files: MXNET_GLUON_REPO, or Apache's S3 bucket."""
    import os

    repo_url = os.environ.get("MXNET_GLUON_REPO", "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/")
    return repo_url if repo_url.endswith("/") else repo_url + "/"


def _mx_get_repo_file_url(namespace, filename):
    """Gluon's URL of a hosted file: `<repo>/<namespace>/<filename>`."""
    return f"{_mx_get_repo_url()}{namespace}/{filename}"


# Note [vision datasets]
# Gluon's MNIST, FashionMNIST, CIFAR10 and CIFAR100 download MXNet's own copies of the data
# (from the MXNET_GLUON_REPO mirror, checked by SHA-1) into $MXNET_HOME/datasets/<name>
# (~/.mxnet/datasets/...), and read them into an (N, H, W, C) uint8 array and int32 labels.
# The helpers fetch and read the same files the same way, into the same root, so a machine
# that ran the MXNet program already has them, and every sample is equal: a uint8 (H, W, C)
# image and an int32 label (torch tensors, where Gluon gives an NDArray image and a NumPy
# int32 label), passed through `transform(data, label)` when one is given. torchvision's
# datasets read other files, into PIL images and int64 labels.
def _mx_data_dir():
    """MXNet's data folder: $MXNET_HOME, else ~/.mxnet (%APPDATA%/mxnet on Windows)."""
    import os

    default = os.path.join(os.environ.get("APPDATA", ""), "mxnet") if os.name == "nt" else \
        os.path.join(os.path.expanduser("~"), ".mxnet")
    return os.getenv("MXNET_HOME", default)


def _mx_makedirs(path):
    """gluoncv.utils.makedirs: `mkdir -p`; a path that exists already (a file too) is no error."""
    import errno
    import os

    try:
        os.makedirs(path)
    except OSError as exc:
        if exc.errno != errno.EEXIST:
            raise


def _mx_nlp_mkdir(dirname):
    """gluonnlp.utils.mkdir: `mkdir -p` of the path with ~ expanded; an S3 URL is warned about
    and not created."""
    import os
    import warnings

    if "s3://" in dirname:
        warnings.warn("Directory %s is not created because it contains %s" % (dirname, "s3://"))
        return
    os.makedirs(os.path.expanduser(dirname), exist_ok=True)


def _mx_nlp_home_dir():
    """gluonnlp.base.get_home_dir: $MXNET_HOME, else ~/.mxnet, with ~ expanded."""
    import os

    return os.path.expanduser(os.environ.get("MXNET_HOME", os.path.join("~", ".mxnet")))


def _mx_numeric_types():
    """mxnet.base.numeric_types: the scalar classes MXNet's functions take for a number. No
    value is a NumPy scalar while NumPy is not loaded, so the runtime needs no NumPy."""
    import sys

    numpy = sys.modules.get("numpy")
    return (float, int, numpy.generic) if numpy is not None else (float, int)


class _mx_DownloadedDataset(_mx_Dataset):
    """Gluon's base of the downloaded datasets: `_get_data()` fills `_data` and `_label`."""

    def __init__(self, root, transform):
        import os

        super().__init__()
        self._transform = transform
        self._data = None
        self._label = None
        root = os.path.expanduser(root)
        self._root = root
        if not os.path.isdir(root):
            os.makedirs(root)
        self._get_data()

    def __getitem__(self, idx):
        if self._transform is not None:
            return self._transform(self._data[idx], self._label[idx])
        return self._data[idx], self._label[idx]

    def __len__(self):
        return len(self._label)

    def _get_data(self):
        raise NotImplementedError


class _mx_MNIST(_mx_DownloadedDataset):
    """Gluon's vision.MNIST: (28, 28, 1) uint8 images and int32 labels (Note [vision datasets])."""

    _train_data = ("train-images-idx3-ubyte.gz", "6c95f4b05d2bf285e1bfb0e7960c31bd3b3f8a7d")
    _train_label = ("train-labels-idx1-ubyte.gz", "2a80914081dc54586dbdf242f9805a6b8d2a15fc")
    _test_data = ("t10k-images-idx3-ubyte.gz", "c3a25af1f52dad7f726cce8cacb138654b760d48")
    _test_label = ("t10k-labels-idx1-ubyte.gz", "763e7fa3757d93b0cdec073cef058b2004252c17")
    _namespace = "mnist"  # also the folder under $MXNET_HOME/datasets

    def __init__(self, root=None, train=True, transform=None):
        import os

        self._train = train
        super().__init__(root or os.path.join(_mx_data_dir(), "datasets", self._namespace), transform)

    def _get_data(self):
        import gzip

        data, label = (self._train_data, self._train_label) if self._train else (self._test_data, self._test_label)
        namespace = "gluon/dataset/" + self._namespace
        data_file = _mx_download(_mx_get_repo_file_url(namespace, data[0]), path=self._root, sha1_hash=data[1])
        label_file = _mx_download(_mx_get_repo_file_url(namespace, label[0]), path=self._root, sha1_hash=label[1])
        with gzip.open(label_file, "rb") as fin:
            fin.read(8)
            label = torch.frombuffer(bytearray(fin.read()), dtype=torch.uint8).to(torch.int32)
        with gzip.open(data_file, "rb") as fin:
            fin.read(16)
            data = torch.frombuffer(bytearray(fin.read()), dtype=torch.uint8).reshape(len(label), 28, 28, 1)
        self._data, self._label = data, label


class _mx_FashionMNIST(_mx_MNIST):
    """Gluon's vision.FashionMNIST: MNIST's format, Zalando's images (Note [vision datasets])."""

    _train_data = ("train-images-idx3-ubyte.gz", "0cf37b0d40ed5169c6b3aba31069a9770ac9043d")
    _train_label = ("train-labels-idx1-ubyte.gz", "236021d52f1e40852b06a4c3008d8de8aef1e40b")
    _test_data = ("t10k-images-idx3-ubyte.gz", "626ed6a7c06dd17c0eec72fa3be1740f146a2863")
    _test_label = ("t10k-labels-idx1-ubyte.gz", "17f9ab60e7257a1620f4ad76bbbaf857c3920701")
    _namespace = "fashion-mnist"


class _mx_CIFAR10(_mx_DownloadedDataset):
    """Gluon's vision.CIFAR10: (32, 32, 3) uint8 images and int32 labels (Note [vision datasets])."""

    _archive_file = ("cifar-10-binary.tar.gz", "fab780a1e191a7eda0f345501ccd62d20f7ed891")
    _train_data = [("data_batch_1.bin", "aadd24acce27caa71bf4b10992e9e7b2d74c2540"),
                   ("data_batch_2.bin", "c0ba65cce70568cd57b4e03e9ac8d2a5367c1795"),
                   ("data_batch_3.bin", "1dd00a74ab1d17a6e7d73e185b69dbf31242f295"),
                   ("data_batch_4.bin", "aab85764eb3584312d3c7f65fd2fd016e36a258e"),
                   ("data_batch_5.bin", "26e2849e66a845b7f1e4614ae70f4889ae604628")]
    _test_data = [("test_batch.bin", "67eb016db431130d61cd03c7ad570b013799c88c")]
    _namespace = "cifar10"  # also the folder under $MXNET_HOME/datasets

    def __init__(self, root=None, train=True, transform=None):
        import os

        self._train = train
        super().__init__(root or os.path.join(_mx_data_dir(), "datasets", self._namespace), transform)

    def _read_batch(self, filename):
        with open(filename, "rb") as fin:
            data = torch.frombuffer(bytearray(fin.read()), dtype=torch.uint8).reshape(-1, 3072 + 1)
        return data[:, 1:].reshape(-1, 3, 32, 32).permute(0, 2, 3, 1), data[:, 0].to(torch.int32)

    def _get_data(self):
        import os
        import tarfile

        if any(not os.path.exists(path) or not _mx_check_sha1(path, sha1)
               for path, sha1 in ((os.path.join(self._root, name), sha1)
                                  for name, sha1 in self._train_data + self._test_data)):
            namespace = "gluon/dataset/" + self._namespace
            filename = _mx_download(_mx_get_repo_file_url(namespace, self._archive_file[0]), path=self._root,
                                    sha1_hash=self._archive_file[1])
            with tarfile.open(filename) as tar:
                tar.extractall(self._root)
        files = self._train_data if self._train else self._test_data
        data, label = zip(*(self._read_batch(os.path.join(self._root, name)) for name, _ in files))
        self._data = torch.cat(data).contiguous()
        self._label = torch.cat(label)


class _mx_CIFAR100(_mx_CIFAR10):
    """Gluon's vision.CIFAR100: CIFAR10's format with the coarse (20) or fine (100) labels."""

    _archive_file = ("cifar-100-binary.tar.gz", "a0bb982c76b83111308126cc779a992fa506b90b")
    _train_data = [("train.bin", "e207cd2e05b73b1393c74c7f5e7bea451d63e08e")]
    _test_data = [("test.bin", "8fb6623e830365ff53cf14adec797474f5478006")]
    _namespace = "cifar100"

    def __init__(self, root=None, fine_label=False, train=True, transform=None):
        self._fine_label = fine_label
        super().__init__(root, train, transform)

    def _read_batch(self, filename):
        with open(filename, "rb") as fin:
            data = torch.frombuffer(bytearray(fin.read()), dtype=torch.uint8).reshape(-1, 3072 + 2)
        return data[:, 2:].reshape(-1, 3, 32, 32).permute(0, 2, 3, 1), data[:, 0 + self._fine_label].to(torch.int32)


def _mx_image_hwc(x, what):
    if x.dim() != 3 or x.shape[2] not in (1, 3):
        raise ValueError(f"{what}: the image must have shape (height, width, channels) with 1 or 3 channels, "
                         f"but got {tuple(x.shape)}")


class _mx_RandomFlipLeftRight(torch.nn.Module):
    """transforms.RandomFlipLeftRight(): an (H, W, C) image mirrored along its width with
    probability 1/2, one draw per call. torch draws other random numbers. MXNet 1.9.1's operator
    zeroes the middle column of an image of odd width when it flips; this flips it whole."""

    def forward(self, x):
        _mx_image_hwc(x, "RandomFlipLeftRight")
        return x.flip(1) if bool(torch.rand(()) < 0.5) else x.clone()


class _mx_RandomFlipTopBottom(torch.nn.Module):
    """transforms.RandomFlipTopBottom(): an (H, W, C) image mirrored along its height with
    probability 1/2, one draw per call (MXNet 1.9.1 zeroes the middle row of an odd height)."""

    def forward(self, x):
        _mx_image_hwc(x, "RandomFlipTopBottom")
        return x.flip(0) if bool(torch.rand(()) < 0.5) else x.clone()


class _mx_CenterCrop(torch.nn.Module):
    """transforms.CenterCrop(size, interpolation=1): the centre (width, height) = size (a number:
    a square) of an (H, W, C) image, at MXNet's offsets (mx.image.center_crop); an image smaller
    than size is cropped to size's aspect ratio and resized by OpenCV, as in MXNet (Note
    [OpenCV images] in xlate/runtime/image.py: only then is OpenCV needed)."""

    def __init__(self, size, interpolation=1):
        import numbers

        super().__init__()
        self._size = (size, size) if isinstance(size, numbers.Number) else size
        self._interpolation = interpolation

    def forward(self, x):
        return _mx_center_crop(x, self._size, self._interpolation)[0]


def _mx_replace_file(src, dst):
    """Gluon's `utils.replace_file` (POSIX form): move `src` onto `dst` atomically; on failure the
    source is removed and OSError raised, as MXNet does."""
    import os
    try:
        os.rename(src, dst)
    except OSError:
        try:
            os.remove(src)
        except OSError:
            pass
        finally:
            raise OSError(f"Moving downloaded temp file - {src}, to {dst} failed. Please retry the download.")


# Note [NDArrayIter]
# `mx.io.NDArrayIter` is MXNet's iterator over in-memory arrays, from before Gluon's DataLoader;
# `_mx_NDArrayIter` ports MXNet 1.9.1's code line for line on torch tensors: data and label as an
# array, a list (named `_0_data`, `_1_data`, ...) or a dict (sorted by name); a NumPy array or
# list becomes float32, as `nd.array` makes it. shuffle=True shuffles at every reset() with
# `np.random.shuffle` of the running index, applied to the already shuffled arrays (the
# permutations compose, as in MXNet), and leaves every array float32 (MXNet rebuilds them with
# `nd.array`). last_batch_handle: 'pad' fills the last batch from the start of the data and
# reports the count in `pad` (`getpad()`); 'discard' drops it; 'roll_over' keeps it for the
# next epoch, whose first batch begins with it (`pad` then says how many came from before).
# Batches are `_mx_DataBatch`es (`.data` and `.label` lists, `.pad`, `.index`), `provide_data`
# and `provide_label` `_mx_DataDesc`s; iteration protocol, next(), reset() and hard_reset() are
# MXNet's: an iterator is exhausted until reset().
class _mx_DataDesc(tuple):
    """mx.io.DataDesc(name, shape, dtype=float32, layout='NCHW'): a (name, shape) tuple with
    `dtype` and `layout` attributes."""

    def __new__(cls, name, shape, dtype=torch.float32, layout="NCHW"):
        ret = super().__new__(cls, (name, shape))
        ret.dtype, ret.layout = dtype, layout
        return ret

    name = property(lambda self: self[0])
    shape = property(lambda self: self[1])

    def __repr__(self):
        return f"DataDesc[{self.name},{self.shape},{self.dtype},{self.layout}]"

    @staticmethod
    def get_batch_axis(layout):
        return 0 if layout is None else layout.find("N")


class _mx_DataBatch:
    """mx.io.DataBatch(data, label=None, pad=None, index=None, bucket_key=None, provide_data=None,
    provide_label=None): one batch, `.data` and `.label` lists of arrays."""

    def __init__(self, data, label=None, pad=None, index=None, bucket_key=None, provide_data=None,
                 provide_label=None):
        if data is not None:
            assert isinstance(data, (list, tuple)), "Data must be list of NDArrays"
        if label is not None:
            assert isinstance(label, (list, tuple)), "Label must be list of NDArrays"
        self.data, self.label, self.pad, self.index = data, label, pad, index
        self.bucket_key, self.provide_data, self.provide_label = bucket_key, provide_data, provide_label

    def __str__(self):
        label_shapes = [tuple(x.shape) for x in self.label] if self.label else None
        return (f"{self.__class__.__name__}: data shapes: {[tuple(d.shape) for d in self.data]} "
                f"label shapes: {label_shapes}")


def _mx_iter_arrays(data, allow_empty, default_name):
    """MXNet's io.utils._init_data: [(name, tensor)] sorted by name; non-tensors as float32."""
    assert data is not None or allow_empty
    if data is None:
        data = []
    if not isinstance(data, (list, dict)):
        data = [data]
    if isinstance(data, list):
        if not allow_empty:
            assert len(data) > 0
        data = {default_name: data[0]} if len(data) == 1 else \
            {f"_{i}_{default_name}": d for i, d in enumerate(data)}
    return sorted((k, v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=torch.float32))
                  for k, v in data.items())


class _mx_NDArrayIter:
    """mx.io.NDArrayIter(data, label=None, batch_size=1, shuffle=False, last_batch_handle='pad',
    data_name='data', label_name='softmax_label', layout='NCHW'): MXNet's batches, pads and
    order (Note [NDArrayIter])."""

    def __init__(self, data, label=None, batch_size=1, shuffle=False, last_batch_handle="pad", data_name="data",
                 label_name="softmax_label", layout="NCHW"):
        self.batch_size = batch_size
        self.data = _mx_iter_arrays(data, False, data_name)
        self.label = _mx_iter_arrays(label, True, label_name)
        self.idx = list(range(self.data[0][1].shape[0]))
        self.shuffle, self.last_batch_handle = shuffle, last_batch_handle
        self.cursor = -self.batch_size
        self.num_data = len(self.idx)
        self.reset()
        self.data_list = [x[1] for x in self.data] + [x[1] for x in self.label]
        self.num_source = len(self.data_list)
        self._cache_data = self._cache_label = None
        self.layout = layout

    def _descs(self, sources):
        axis = self.layout.find("N")
        return [_mx_DataDesc(k, tuple(list(v.shape[:axis]) + [self.batch_size] + list(v.shape[axis + 1:])),
                             v.dtype, layout=self.layout) for k, v in sources]

    @property
    def provide_data(self):
        return self._descs(self.data)

    @property
    def provide_label(self):
        return self._descs(self.label)

    def __iter__(self):
        return self

    def __next__(self):
        return self.next()

    def hard_reset(self):
        """Ignore roll-over data and start again."""
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_data = self._cache_label = None

    def reset(self):
        if self.shuffle:
            self._shuffle_data()
        if self.last_batch_handle == "roll_over" and self.num_data - self.batch_size < self.cursor < self.num_data:
            self.cursor = self.cursor - self.num_data - self.batch_size
        else:
            self.cursor = -self.batch_size

    def iter_next(self):
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self):
        if not self.iter_next():
            raise StopIteration
        data, label = self.getdata(), self.getlabel()
        if data[0].shape[self.layout.find("N")] != self.batch_size:
            self._cache_data, self._cache_label = data, label
            raise StopIteration
        return _mx_DataBatch(data=data, label=label, pad=self.getpad(), index=None)

    def _getdata(self, sources, start=None, end=None):
        assert start is not None or end is not None, "should at least specify start or end"
        start = start if start is not None else 0
        if end is None:
            end = sources[0][1].shape[0] if sources else 0
        axis = self.layout.find("N")
        for _, x in sources:  # MXNet's slice_axis refuses it (a roll-over batch over twice the data)
            if end > x.shape[axis]:
                raise ValueError(f"Invalid end for end={end} as axis_size is {x.shape[axis]}")
        return [x[1].narrow(axis, start, end - start).clone() for x in sources]

    def _concat(self, first, second):
        if not first or not second:
            return first if first else second
        assert len(first) == len(second), "data source should contain the same size"
        return [torch.cat([a, b], dim=self.layout.find("N")) for a, b in zip(first, second)]

    def _tile(self, data, repeats):
        return [d.repeat(*([repeats] + [1] * (d.dim() - 1))) for d in data]  # along axis 0, as MXNet

    def _batchify(self, sources):
        assert self.cursor < self.num_data, "DataIter needs reset."
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            assert self._cache_data is not None or self._cache_label is not None, \
                "next epoch should have cached data"
            cache = self._cache_data if self._cache_data is not None else self._cache_label
            second = self._getdata(sources, end=self.cursor + self.batch_size)
            if self._cache_data is not None:
                self._cache_data = None
            else:
                self._cache_label = None
            return self._concat(cache, second)
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            pad = self.batch_size - self.num_data + self.cursor
            first = self._getdata(sources, start=self.cursor)
            if pad > self.num_data:
                second = self._tile(self._getdata(sources, end=self.num_data), pad // self.num_data)
                if pad % self.num_data != 0:
                    second = self._concat(second, self._getdata(sources, end=pad % self.num_data))
            else:
                second = self._getdata(sources, end=pad)
            return self._concat(first, second)
        end = min(self.cursor + self.batch_size, self.num_data)
        return self._getdata(sources, self.cursor, end)

    def getdata(self):
        return self._batchify(self.data)

    def getlabel(self):
        return self._batchify(self.label)

    def getindex(self):
        return None

    def getpad(self):
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0

    def _shuffle_data(self):
        # numpy's global generator, as MXNet (Note [random streams]); the arrays rebuilt as float32
        _mx_np_shuffle(self.idx)
        order = torch.tensor(self.idx, dtype=torch.int64)
        self.data = [(k, v[order].to(torch.float32)) for k, v in self.data]
        self.label = [(k, v[order].to(torch.float32)) for k, v in self.label]


def _mx_image_array(data):
    """What `nd.array` reads from a PIL image: numpy's array of it ((H, W, C), or (H, W) for one
    band, in the image's own dtype); any other value as it is (xlate/convert/transforms/nd_array.py)."""
    if type(data).__module__.startswith("PIL.") and hasattr(data, "__array_interface__"):
        numpy = _mx_numpy()
        if numpy is None:
            raise TypeError("nd.array of a PIL image: numpy reads it, and numpy is not installed")
        return numpy.asarray(data)
    return data


class _mx_DataIter:
    """mx.io.DataIter(batch_size=0): MXNet's base of data iterators, pure Python there too. A
    subclass defines next(), or iter_next() with getdata/getlabel/getpad/getindex; iterating
    calls next() until it raises StopIteration, and reset() starts over."""

    def __init__(self, batch_size=0):
        self.batch_size = batch_size

    def __iter__(self):
        return self

    def reset(self):
        pass

    def next(self):
        if self.iter_next():
            return _mx_DataBatch(data=self.getdata(), label=self.getlabel(), pad=self.getpad(), index=self.getindex())
        raise StopIteration

    def __next__(self):
        return self.next()

    def iter_next(self):
        pass

    def getdata(self):
        pass

    def getlabel(self):
        pass

    def getindex(self):
        return None

    def getpad(self):
        pass


class _mx_HeldBatchIter(_mx_DataIter):
    """The getters of an iterator whose iter_next() keeps the batch it read in current_batch
    (MXNet's ResizeIter and PrefetchingIter)."""

    def getdata(self):
        return self.current_batch.data

    def getlabel(self):
        return self.current_batch.label

    def getindex(self):
        return self.current_batch.index

    def getpad(self):
        return self.current_batch.pad


class _mx_ResizeIter(_mx_HeldBatchIter):
    """mx.io.ResizeIter(data_iter, size, reset_internal=True): `size` batches an epoch, resetting
    the inner iterator when it runs out (and at reset() when reset_internal)."""

    def __init__(self, data_iter, size, reset_internal=True):
        super().__init__()
        self.data_iter, self.size, self.reset_internal = data_iter, size, reset_internal
        self.cur, self.current_batch = 0, None
        self.provide_data, self.provide_label = data_iter.provide_data, data_iter.provide_label
        self.batch_size = data_iter.batch_size
        if hasattr(data_iter, "default_bucket_key"):
            self.default_bucket_key = data_iter.default_bucket_key

    def reset(self):
        self.cur = 0
        if self.reset_internal:
            self.data_iter.reset()

    def iter_next(self):
        if self.cur == self.size:
            return False
        try:
            self.current_batch = self.data_iter.next()
        except StopIteration:
            self.data_iter.reset()
            self.current_batch = self.data_iter.next()
        self.cur += 1
        return True


class _mx_PrefetchingIter(_mx_HeldBatchIter):
    """mx.io.PrefetchingIter(iters, rename_data=None, rename_label=None): the batches of one or
    more iterators joined (their data lists, then their label lists). MXNet reads ahead in
    threads; the batches are the same read in order, which is what this does."""

    def __init__(self, iters, rename_data=None, rename_label=None):
        super().__init__()
        self.iters = iters if isinstance(iters, list) else [iters]
        self.n_iter = len(self.iters)
        self.rename_data, self.rename_label = rename_data, rename_label
        self.batch_size = self.provide_data[0][1][0]
        self.current_batch = None

    def _renamed(self, which, renames):
        if renames is None:
            return sum([getattr(i, which) for i in self.iters], [])
        return sum([[_mx_DataDesc(r[x.name], x.shape, x.dtype) if isinstance(x, _mx_DataDesc) else _mx_DataDesc(*x)
                     for x in getattr(i, which)] for r, i in zip(renames, self.iters)], [])

    @property
    def provide_data(self):
        return self._renamed("provide_data", self.rename_data)

    @property
    def provide_label(self):
        return self._renamed("provide_label", self.rename_label)

    def reset(self):
        for i in self.iters:
            i.reset()

    def iter_next(self):
        batches = []
        for i in self.iters:
            try:
                batches.append(i.next())
            except StopIteration:
                batches.append(None)
        if batches[0] is None:
            assert all(b is None for b in batches), "Number of entry mismatches between iterators"
            return False
        for b in batches:
            assert b.pad == batches[0].pad, "Number of entry mismatches between iterators"
        self.current_batch = _mx_DataBatch(sum([b.data for b in batches], []), sum([b.label for b in batches], []),
                                           batches[0].pad, batches[0].index, provide_data=self.provide_data,
                                           provide_label=self.provide_label)
        return True

    def next(self):
        if self.iter_next():
            return self.current_batch
        raise StopIteration


class _mx_DataLoaderIter(_mx_DataIter):
    """mx.contrib.io.DataLoaderIter(loader, data_name='data', label_name='softmax_label',
    dtype='float32'): a Gluon DataLoader of (data, label) batches as a DataIter; a short last
    batch is padded to batch_size (MXNet leaves the padding uninitialised; zeros here) and `pad`
    says by how many."""

    def __init__(self, loader, data_name="data", label_name="softmax_label", dtype="float32"):
        super().__init__()
        self._loader = loader
        self._iter = iter(self._loader)
        data, label = next(self._iter)
        self.batch_size = data.shape[0]
        self.dtype = _mx_dtype(dtype)
        self.provide_data = [_mx_DataDesc(data_name, tuple(data.shape), dtype)]
        self.provide_label = [_mx_DataDesc(label_name, tuple(label.shape), dtype)]
        self._current_batch = None
        self.reset()

    def reset(self):
        self._iter = iter(self._loader)

    def iter_next(self):
        try:
            self._current_batch = next(self._iter)
        except StopIteration:
            self._current_batch = None
        return self._current_batch is not None

    def _padded(self, x):
        x = x.to(self.dtype)
        if not self.getpad():
            return [x]
        out = torch.zeros((self.batch_size,) + tuple(x.shape[1:]), dtype=self.dtype, device=x.device)
        out[:x.shape[0]] = x
        return [out]

    def getdata(self):
        return self._padded(self._current_batch[0])

    def getlabel(self):
        return self._padded(self._current_batch[1])

    def getpad(self):
        return self.batch_size - self._current_batch[0].shape[0]

    def getindex(self):
        return None


class _mx_ModuleValue(type):
    """An MXNet module used as a value (`getattr(transforms, item['type'])(**args)`, a config
    naming its transforms): each attribute is the helper xlate's call rules give that name, so
    the object built is the one a written-out call builds; a name xlate does not translate raises
    AttributeError naming it and what is translated."""

    def __getattr__(cls, name):
        members = cls._mx_members()
        if name in members:
            return members[name]
        raise AttributeError(f"`{cls._mx_module}.{name}` has no translation in xlate (it translates "
                             f"{', '.join(sorted(members))}): translate the code that asks for it by hand")


class _mx_transforms_module(metaclass=_mx_ModuleValue):
    """`mxnet.gluon.data.vision.transforms` as a value: its transforms as xlate's helpers."""
    _mx_module = "mxnet.gluon.data.vision.transforms"

    @staticmethod
    def _mx_members():
        return {"ToTensor": _mx_ToTensor, "Normalize": _mx_Normalize, "Cast": _mx_Cast, "Compose": _mx_Compose,
                "CenterCrop": _mx_CenterCrop, "RandomFlipLeftRight": _mx_RandomFlipLeftRight,
                "RandomFlipTopBottom": _mx_RandomFlipTopBottom, "Resize": _mx_Resize,
                "RandomResizedCrop": _mx_RandomResizedCrop, "RandomBrightness": _mx_RandomBrightness,
                "RandomContrast": _mx_RandomContrast, "RandomSaturation": _mx_RandomSaturation,
                "RandomHue": _mx_RandomHue, "RandomColorJitter": _mx_RandomColorJitter,
                "RandomLighting": _mx_RandomLighting}
