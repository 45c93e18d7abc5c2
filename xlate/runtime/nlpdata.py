"""gluonnlp 0.10's data utilities next to sequence models: batchify (Pad, Stack, Tuple, List),
Vocab with count_tokens, and FixedBucketSampler, giving torch tensors.

The converter never imports this module: it copies the text of each `_mx_*` class or
function a converted file needs (see xlate/runtime/__init__.py), so the text may use `torch` and other
`_mx_*` helpers only. tests/test_nlp_data.py compares every helper with live gluonnlp.

Note [gluonnlp data utilities]
These are plain Python in gluonnlp, with MXNet only at the end (batchify makes NDArrays); the
helpers port them line for line and end in torch tensors of the dtype gluonnlp's NDArray has.
Its quirks are kept, because a model trained on them depends on them: Pad of Python lists
fills an array of the padding value's type (so float lists padded with the default 0 are
truncated to integers) and returns float32 unless `dtype` is given; Stack of Python numbers
keeps numpy's int64/float64; the valid lengths are int32. Vocab assigns indices exactly as
gluonnlp: the unknown token, then the special and reserved tokens, then the counter's tokens
by decreasing count, ties in alphabetical order. FixedBucketSampler builds the same buckets
and batches, and shuffles them with numpy's global generator as gluonnlp does (Note [random
streams] in data.py), so a script that seeds numpy gets gluonnlp's order.
"""
import torch


def _mx_as_batch_tensor(value):
    """An element of a batch as a tensor: a tensor stays, numpy arrays and lists are read as
    numpy reads them (Python ints int64, floats float64)."""
    if isinstance(value, torch.Tensor):
        return value
    tensor = torch.as_tensor(value)
    if type(value).__module__ != "numpy" and tensor.is_floating_point():
        tensor = torch.as_tensor(value, dtype=torch.float64)  # numpy's float64, not torch's float32
    return tensor


def _mx_pad_arrays(arrs, pad_axis, pad_val, dtype, round_to=None):
    """gluonnlp's _pad_arrs_to_max_length: (padded batch, int32 lengths)."""
    if isinstance(arrs[0], torch.Tensor) or type(arrs[0]).__module__ == "numpy":
        dtype = _mx_dtype(arrs[0].dtype) if dtype is None else _mx_dtype(dtype)
        arrs = [_mx_as_batch_tensor(a) for a in arrs]
        fill = arrs[0].dtype
    else:
        arrs = [_mx_as_batch_tensor(a) for a in arrs]
        dtype = _mx_dtype(dtype)
        # numpy fills an array of the padding value's own type when dtype is None
        fill = dtype or (torch.float64 if isinstance(pad_val, float) else torch.int64)
    lengths = [a.shape[pad_axis] for a in arrs]
    size = max(lengths)
    if round_to is not None:
        size = round_to * -(-size // round_to)
    shape = list(arrs[0].shape)
    shape[pad_axis] = size
    out = torch.full([len(arrs)] + shape, pad_val, dtype=fill)
    for i, arr in enumerate(arrs):
        index = [i] + [slice(None)] * arr.dim()
        index[1 + pad_axis] = slice(0, arr.shape[pad_axis])
        out[tuple(index)] = arr.to(fill)  # a float cast into an int64 fill truncates, as in numpy
    # MXNet's nd.array makes float32 when no dtype is given
    return out.to(dtype or torch.float32), torch.tensor(lengths, dtype=torch.int32)


class _mx_Pad:
    """gluonnlp.data.batchify.Pad: pad every sample along `axis` to the longest (rounded up to
    a multiple of round_to) with pad_val (default 0), stacked on a new first axis."""

    def __init__(self, axis=0, pad_val=None, ret_length=False, dtype=None, round_to=None):
        if not isinstance(axis, int):
            raise AssertionError(f"axis must be an integer! Received axis={axis}")
        self._axis, self._pad_val, self._ret_length = axis, 0 if pad_val is None else pad_val, ret_length
        self._dtype, self._round_to = dtype, round_to

    def __call__(self, data):
        if not isinstance(data[0], (torch.Tensor, list)) and type(data[0]).__module__ != "numpy":
            raise NotImplementedError
        padded, lengths = _mx_pad_arrays(data, self._axis, self._pad_val, self._dtype, self._round_to)
        return (padded, lengths) if self._ret_length else padded


class _mx_Stack:
    """gluonnlp.data.batchify.Stack: samples stacked on a new first axis; Python numbers and
    lists keep numpy's dtype (int64, float64), arrays their own, unless `dtype` is given."""

    def __init__(self, dtype=None):
        self._dtype = dtype

    def __call__(self, data):
        if isinstance(data[0], torch.Tensor):
            out = torch.stack(list(data))
        else:
            out = torch.stack([_mx_as_batch_tensor(d) for d in data]) if type(data[0]).__module__ == "numpy" \
                else _mx_as_batch_tensor(list(data))
        return out if self._dtype is None else out.to(_mx_dtype(self._dtype))


class _mx_Tuple:
    """gluonnlp.data.batchify.Tuple: one batchify function per field of the samples."""

    def __init__(self, fn, *args):
        if isinstance(fn, (list, tuple)):
            if args:
                raise AssertionError("Input pattern not understood: Tuple(A, B) or Tuple([A, B])")
            self._fn = fn
        else:
            self._fn = (fn,) + args
        for i, ele_fn in enumerate(self._fn):
            if not hasattr(ele_fn, "__call__"):
                raise AssertionError(f"Batchify functions must be callable! type(fn[{i}]) = {type(ele_fn)}")

    def __call__(self, data):
        if len(data[0]) != len(self._fn):
            raise AssertionError(f"The number of attributes in each data sample should contains {len(self._fn)} "
                                 f"elements")
        return tuple(ele_fn([ele[i] for ele in data]) for i, ele_fn in enumerate(self._fn))


class _mx_List:
    """gluonnlp.data.batchify.List: the samples as a list."""

    def __call__(self, data):
        return list(data)


class _mx_Counter(dict):
    """gluonnlp.data.Counter (collections.Counter with `discard`): counts, 0 for a missing key."""

    def __init__(self, iterable=None, **kwargs):
        super().__init__()
        self.update(iterable, **kwargs)

    def __missing__(self, key):
        return 0

    def update(self, iterable=None, **kwargs):
        if iterable is not None:
            if hasattr(iterable, "items"):
                for key, count in iterable.items():
                    self[key] = self[key] + count
            else:
                for key in iterable:
                    self[key] = self[key] + 1
        if kwargs:
            self.update(kwargs)

    def most_common(self, n=None):
        ranked = sorted(self.items(), key=lambda kv: kv[1], reverse=True)  # stable, as collections.Counter
        return ranked if n is None else ranked[:n]

    def discard(self, min_freq, unknown_token):
        freq = 0
        ret = _mx_Counter({})
        for token, count in self.items():
            if count < min_freq:
                freq += count
            else:
                ret[token] = count
        ret[unknown_token] = ret.get(unknown_token, 0) + freq
        return ret


def _mx_count_tokens(tokens, to_lower=False, counter=None):
    """gluonnlp.data.count_tokens: token counts (lower-cased first with to_lower), added to
    `counter` when one is given."""
    if to_lower:
        tokens = [t.lower() for t in tokens]
    if counter is None:
        return _mx_Counter(tokens)
    counter.update(tokens)
    return counter


class _mx_Vocab:
    """gluonnlp.Vocab: indices as gluonnlp assigns them (Note [gluonnlp data utilities]);
    `vocab[tokens]`, `to_indices`, `to_tokens`, `idx_to_token`, `token_to_idx`, the special
    tokens as attributes (`vocab.padding_token`). Embeddings and JSON are not translated."""

    _DEFAULTS = (("padding_token", "<pad>"), ("bos_token", "<bos>"), ("eos_token", "<eos>"))

    def __init__(self, counter=None, max_size=None, min_freq=1, unknown_token="<unk>",
                 deprecated_padding_token=..., deprecated_bos_token=..., deprecated_eos_token=...,
                 reserved_tokens=None, token_to_idx=None, *, padding_token="<pad>", bos_token="<bos>",
                 eos_token="<eos>", **kwargs):
        if min_freq <= 0:
            raise AssertionError("`min_freq` must be set to a positive value.")
        given = {"padding_token": padding_token, "bos_token": bos_token, "eos_token": eos_token}
        for (name, _), positional in zip(self._DEFAULTS, (deprecated_padding_token, deprecated_bos_token,
                                                            deprecated_eos_token)):
            if positional is not ...:  # gluonnlp's deprecated positional form (`...`: not given)
                kwargs[name] = positional
            elif name not in kwargs:
                kwargs[name] = given[name]
        self._unknown_token = unknown_token
        self._idx_to_token = [unknown_token] if unknown_token else []
        self._token_to_idx = {}
        special_tokens = []
        for name, token in kwargs.items():
            if not name.endswith("_token"):
                raise ValueError(f"{name} is invalid. Only keyword arguments that end in '_token' are supported to "
                                 f"declare special tokens.")
            if token is not None and token not in special_tokens:
                special_tokens.append(token)
        if reserved_tokens is not None:
            special_tokens.extend(reserved_tokens)
            if unknown_token and unknown_token in special_tokens:
                raise AssertionError("`reserved_token` cannot contain `unknown_token`.")
            if len(set(special_tokens)) != len(special_tokens):
                raise AssertionError("`reserved_tokens` cannot contain duplicate reserved tokens or other special "
                                     "tokens.")
        self._reserved_tokens = special_tokens or None
        self._idx_to_token.extend(special_tokens)
        self._token_to_idx.update((token, idx) for idx, token in enumerate(self._idx_to_token))
        self._embedding = None
        if counter:
            self._index_counter_keys(counter, unknown_token, special_tokens, max_size, min_freq)
        self._identifiers_to_tokens = kwargs
        for identifier, token in kwargs.items():
            if identifier.startswith("_"):
                raise ValueError("It is not allowed to use identifiers starting with underscore.")
            if hasattr(self, identifier):
                raise ValueError(f"vocab.{identifier} already exists. Please choose a different identifier.")
            setattr(self, identifier, token)
        if token_to_idx:
            self._sort_index_according_to_user_specification(token_to_idx)

    def _index_counter_keys(self, counter, unknown_token, special_tokens, max_size, min_freq):
        known = set(special_tokens)
        if unknown_token:
            known.add(unknown_token)
        token_freqs = sorted(counter.items(), key=lambda x: x[0])
        token_freqs.sort(key=lambda x: x[1], reverse=True)
        token_cap = len(known) + (len(counter) if not max_size else max_size)
        for token, freq in token_freqs:
            if freq < min_freq or len(self._idx_to_token) == token_cap:
                break
            if token not in known:
                self._idx_to_token.append(token)
                self._token_to_idx[token] = len(self._idx_to_token) - 1

    def _sort_index_according_to_user_specification(self, token_to_idx):
        if not set(token_to_idx).issubset(self._token_to_idx):
            raise ValueError("User-specified token_to_idx mapping can only contain tokens that will be part of the "
                             "vocabulary.")
        if len(set(token_to_idx.values())) != len(token_to_idx):
            raise ValueError("User-specified indices must not contain duplicates.")
        if min(token_to_idx.values()) < 0 or max(token_to_idx.values()) >= len(self._token_to_idx):
            raise ValueError("User-specified indices must not be < 0 or >= the number of tokens that will be in the "
                             "vocabulary.")
        for token, new_idx in token_to_idx.items():
            old_idx = self._token_to_idx[token]
            ousted = self._idx_to_token[new_idx]
            self._token_to_idx[token] = new_idx
            self._token_to_idx[ousted] = old_idx
            self._idx_to_token[old_idx] = ousted
            self._idx_to_token[new_idx] = token

    @property
    def embedding(self):
        return self._embedding

    @property
    def idx_to_token(self):
        return self._idx_to_token

    @property
    def reserved_tokens(self):
        return self._reserved_tokens

    @property
    def token_to_idx(self):
        return self._token_to_idx

    @property
    def unknown_token(self):
        return self._unknown_token

    def __contains__(self, token):
        return token in self._token_to_idx

    def __getitem__(self, tokens):
        if not isinstance(tokens, (list, tuple)):
            if self._unknown_token:
                return self._token_to_idx.get(tokens, self._token_to_idx[self._unknown_token])
            return self._token_to_idx[tokens]
        if self._unknown_token:
            unknown = self._token_to_idx[self._unknown_token]
            return [self._token_to_idx.get(token, unknown) for token in tokens]
        return [self._token_to_idx[token] for token in tokens]

    def __len__(self):
        return len(self._idx_to_token)

    def __call__(self, tokens):
        return self[tokens]

    def to_indices(self, tokens):
        return self[tokens]

    def to_tokens(self, indices):
        reduce = not isinstance(indices, (list, tuple))
        indices = [indices] if reduce else indices
        tokens = []
        for idx in indices:
            if not isinstance(idx, int) or idx > len(self._idx_to_token) - 1:
                raise ValueError(f"Token index {idx} in the provided `indices` is invalid.")
            tokens.append(self._idx_to_token[idx])
        return tokens[0] if reduce else tokens

    def set_embedding(self, *embeddings):
        raise NotImplementedError("Vocab.set_embedding (gluonnlp's TokenEmbedding) is not translated: build an "
                                  "nn.Embedding from the vectors in `vocab.idx_to_token` order")

    def to_json(self):
        raise NotImplementedError("Vocab.to_json is not translated: store `vocab.idx_to_token` (and the special "
                                  "tokens) with json or torch.save")

    def __repr__(self):
        unk = f'"{self._unknown_token}"' if self._unknown_token else "None"
        reserved = f'"{self._reserved_tokens}"' if self._reserved_tokens else "None"
        return f"Vocab(size={len(self)}, unk={unk}, reserved={reserved})"


def _mx_bucket_keys(max_lengths, min_lengths, num_buckets):
    """gluonnlp's ConstWidthBucket (the default bucket scheme)."""
    if not isinstance(max_lengths, int):
        widths = [max((1 + hi - lo) // num_buckets, 1) for hi, lo in zip(max_lengths, min_lengths)]
        return [tuple(max(hi - i * w, lo) for hi, lo, w in zip(max_lengths, min_lengths, widths))
                for i in range(num_buckets)]
    width = max((1 + max_lengths - min_lengths) // num_buckets, 1)
    return [max(max_lengths - i * width, min_lengths) for i in range(num_buckets)]


class _mx_FixedBucketSampler(torch.utils.data.Sampler):
    """gluonnlp.data.FixedBucketSampler with the default ConstWidthBucket: samples go to the
    smallest bucket that holds them (least padding), batches of `batch_size` (scaled up by
    `ratio` for short buckets, or batch_size / (mean + std) of the bucket's lengths with
    use_average_length), the longest buckets first; yields lists of sample indices (lists of
    lists with num_shards). Same batches as gluonnlp, in its order (shuffle=True: numpy's global
    generator, Note [random streams])."""

    def __init__(self, lengths, batch_size, num_buckets=10, bucket_keys=None, ratio=0, shuffle=False,
                 use_average_length=False, num_shards=0, bucket_scheme=None):
        if bucket_scheme is not None:
            raise NotImplementedError("bucket_scheme= is not translated: only gluonnlp's default ConstWidthBucket")
        if not len(lengths) or batch_size <= 0 or ratio < 0:
            raise AssertionError("FixedBucketSampler needs lengths, batch_size > 0 and ratio >= 0")
        lengths = [int(v) if not isinstance(v, (tuple, list)) else tuple(int(e) for e in v) for v in lengths]
        single = not isinstance(lengths[0], tuple)
        self._batch_size, self._ratio, self._shuffle, self._num_shards = batch_size, ratio, shuffle, num_shards
        self._lengths, self._single_element = lengths, single
        columns = [lengths] if single else [list(c) for c in zip(*lengths)]
        max_lengths = [max(c) for c in columns]
        min_lengths = [min(c) for c in columns]
        if min(min_lengths) <= 0:
            raise AssertionError("Sequence lengths must all be larger than 0.")
        if single:
            max_lengths, min_lengths = max_lengths[0], min_lengths[0]
        if bucket_keys is None:
            bucket_keys = _mx_bucket_keys(max_lengths, min_lengths, num_buckets)
        bucket_keys = sorted(set(bucket_keys))
        sample_ids = [[] for _ in bucket_keys]
        for i, length in enumerate(lengths):
            best = None
            for b, key in enumerate(bucket_keys):
                keys, vals = ((key,), (length,)) if single else (key, length)
                if all(k >= v for k, v in zip(keys, vals)):
                    pad = sum(k - v for k, v in zip(keys, vals))
                    if best is None or pad < best[0]:
                        best = (pad, b)
            if best is None:
                raise ValueError(f"Find elements in seq_lengths that cannot fit in the given buckets, "
                                 f"seq_length={length}, bucket_keys={bucket_keys}. You must increase the bucket size.")
            sample_ids[best[1]].append(i)
        self._bucket_keys = [k for k, ids in zip(bucket_keys, sample_ids) if ids]
        self._bucket_sample_ids = [ids for ids in sample_ids if ids]
        if not use_average_length:
            scale = [k if single else sum(k) for k in self._bucket_keys]
            self._bucket_batch_sizes = [max(int(max(scale) / float(s) * ratio * batch_size), batch_size)
                                        for s in scale]
        else:
            sizes = []
            for ids in self._bucket_sample_ids:
                values = [float(lengths[i]) if single else lengths[i] for i in ids]
                mean = sum(values) / len(values) if single else None
                if not single:  # numpy's mean/std over every element of the bucket's length tuples
                    flat = [float(e) for v in values for e in v]
                    mean = sum(flat) / len(flat)
                    values = flat
                std = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
                sizes.append(max(int(batch_size / (mean + std)), 1))
            self._bucket_batch_sizes = sizes
        self._batch_infos = []
        for bucket_id in range(len(self._bucket_keys) - 1, -1, -1):
            for i in range(0, len(self._bucket_sample_ids[bucket_id]), self._bucket_batch_sizes[bucket_id]):
                self._batch_infos.append((bucket_id, i))
        count = len(self._batch_infos)
        self._sampler_size = -(-count // num_shards) if num_shards > 0 else count

    def __iter__(self):
        if self._shuffle:
            _mx_np_shuffle(self._batch_infos)
            for ids in self._bucket_sample_ids:
                _mx_np_shuffle(ids)
        if self._num_shards > 0:
            for batch_idx in range(0, len(self._batch_infos), self._num_shards):
                if batch_idx + self._num_shards > len(self._batch_infos):
                    batch_idx = len(self._batch_infos) - self._num_shards
                batch = self._batch_infos[batch_idx:batch_idx + self._num_shards]
                yield [self._bucket_sample_ids[b][begin:min(begin + self._bucket_batch_sizes[b],
                                                            len(self._bucket_sample_ids[b]))] for b, begin in batch]
        else:
            for bucket_id, begin in self._batch_infos:
                ids = self._bucket_sample_ids[bucket_id]
                yield ids[begin:min(begin + self._bucket_batch_sizes[bucket_id], len(ids))]

    def __len__(self):
        return self._sampler_size

    def stats(self):
        return (f"FixedBucketSampler:\n  sample_num={len(self._lengths)}, batch_num={len(self._batch_infos)}\n"
                f"  key={self._bucket_keys}\n  cnt={[len(ids) for ids in self._bucket_sample_ids]}\n"
                f"  batch_size={self._bucket_batch_sizes}")


class _mx_SortedSampler(torch.utils.data.Sampler):
    """gluonnlp.data.SortedSampler(sort_keys, reverse=True): the sample indices in the order of
    their keys (a stable sort, ties in index order as Python's sorted keeps them)."""

    def __init__(self, sort_keys, reverse=True):
        assert len(sort_keys) > 0
        self._sorted_ids = sorted(range(len(sort_keys)), key=lambda i: sort_keys[i], reverse=reverse)

    def __iter__(self):
        return iter(self._sorted_ids)

    def __len__(self):
        return len(self._sorted_ids)


class _mx_SortedBucketSampler(torch.utils.data.Sampler):
    """gluonnlp.data.SortedBucketSampler(sort_keys, batch_size, mult=100, reverse=True,
    shuffle=False): buckets of mult * batch_size samples (shuffled first with shuffle=True),
    each sorted by its keys and cut into batches, the batches of a bucket in a shuffled order;
    the draws are gluonnlp's, on numpy's global generator (Note [random streams])."""

    def __init__(self, sort_keys, batch_size, mult=100, reverse=True, shuffle=False):
        assert len(sort_keys) > 0
        assert batch_size > 0
        assert mult >= 1, "Bucket size multiplier must be larger than 1"
        self._sort_keys, self._batch_size, self._mult = sort_keys, batch_size, mult
        self._total_sample_num, self._reverse, self._shuffle = len(sort_keys), reverse, shuffle

    def __iter__(self):
        if self._shuffle:
            numpy = _mx_numpy()
            sample_ids = numpy.random.permutation(self._total_sample_num).tolist() if numpy is not None else \
                torch.randperm(self._total_sample_num).tolist()
        else:
            sample_ids = list(range(self._total_sample_num))
        bucket_size = int(self._mult * self._batch_size)
        for bucket_begin in range(0, self._total_sample_num, bucket_size):
            bucket_end = min(bucket_begin + bucket_size, self._total_sample_num)
            sorted_ids = sorted(sample_ids[bucket_begin:bucket_end], key=lambda i: self._sort_keys[i],
                                reverse=self._reverse)
            batch_begins = list(range(0, len(sorted_ids), self._batch_size))
            if self._shuffle:
                _mx_np_shuffle(batch_begins)
            for batch_begin in batch_begins:
                yield sorted_ids[batch_begin:min(batch_begin + self._batch_size, len(sorted_ids))]

    def __len__(self):
        return (len(self._sort_keys) + self._batch_size - 1) // self._batch_size


def _mx_slice_pad_length(num_items, length, overlap=0):
    """gluonnlp's _slice_pad_length: how many items pad `num_items` to whole overlapping samples."""
    if length <= overlap:
        raise ValueError("length needs to be larger than overlap")
    step = length - overlap
    residual = (num_items - length) % step
    return step - residual if residual else 0


class _mx_CorpusBatchify:
    """gluonnlp.data.batchify.CorpusBatchify(vocab, batch_size): a flat corpus as `batch_size`
    independent sequences, a float32 (len // N, N) tensor of the vocabulary's indices (gluonnlp
    wraps the same array in a SimpleDataset: `data[i]` and slices read the same rows); tokens
    that do not fill a last row are dropped."""

    def __init__(self, vocab, batch_size):
        self._vocab, self._batch_size = vocab, batch_size

    def __call__(self, data):
        sample_len = len(data) // self._batch_size
        coded = self._vocab[list(data[:sample_len * self._batch_size])]
        return torch.tensor(coded, dtype=torch.float32).reshape(self._batch_size, -1).T


class _mx_CorpusBPTTBatchify:
    """gluonnlp.data.batchify.CorpusBPTTBatchify(vocab, seq_len, batch_size, last_batch='keep'):
    (data, label) pairs of (seq_len, N) float32 tensors, label one step ahead, each batch
    continuing the last; 'keep' pads the last batch with the vocabulary's padding token."""

    def __init__(self, vocab, seq_len, batch_size, last_batch="keep"):
        self._vocab, self._seq_len, self._batch_size, self._last_batch = vocab, seq_len, batch_size, last_batch
        if last_batch not in ["keep", "discard"]:
            raise ValueError(f'Got invalid last_batch: "{last_batch}". Must be "keep" or "discard".')
        if last_batch == "keep" and not vocab.padding_token:
            raise ValueError('vocab.padding_token must be specified in vocab when last_batch="keep".')

    def __call__(self, corpus):
        if self._last_batch == "keep":
            coded = self._vocab[list(corpus)]
            sample_len = -(-len(coded) // self._batch_size)  # ceil
            padding = (_mx_slice_pad_length(sample_len, self._seq_len + 1, 1) * self._batch_size
                       + sample_len * self._batch_size - len(coded))
            coded.extend([self._vocab[self._vocab.padding_token]] * int(padding))
        else:
            sample_len = len(corpus) // self._batch_size
            coded = self._vocab[list(corpus[:sample_len * self._batch_size])]
        data = torch.tensor(coded, dtype=torch.float32).reshape(self._batch_size, -1).T
        length, step = self._seq_len + 1, self._seq_len
        count = (data.shape[0] - length) // step + 1
        batches = [data[i * step:i * step + length] for i in range(count)]
        return [(b[:-1, :], b[1:, :]) for b in batches]


# Note [GluonCV's batchify]
# GluonCV's Stack, Pad and Append differ from gluonnlp's: anything not yet an array becomes
# float32 (MXNet's nd.array, whatever numpy read), Pad fills in the first sample's own dtype (Python
# lists as numpy reads them: int64, float64), pads several axes at once (a tuple `axis`) and can
# cut the batch into `num_shards` shards padded one by one (numpy's array_split sizes), and Append
# returns the samples as a list, each with a new batch axis. Tuple is gluonnlp's, `_mx_Tuple`.
# Recorded from GluonCV 0.10.5's batchify.py on MXNet 1.9.1 in tests/test_nlp_data.py.
def _mx_gcv_is_array(value):
    return isinstance(value, torch.Tensor) or (type(value).__module__ == "numpy" and type(value).__name__ == "ndarray")


class _mx_gcv_Stack:
    """gluoncv.data.batchify.Stack: tensors stacked as they are; other samples read as numpy reads
    them and made float32, as MXNet's nd.array makes them."""

    def __call__(self, data):
        if isinstance(data[0], torch.Tensor):
            return torch.stack(list(data))
        if _mx_gcv_is_array(data[0]):
            return torch.stack([_mx_as_batch_tensor(d) for d in data]).to(torch.float32)
        return _mx_as_batch_tensor(list(data)).to(torch.float32)


class _mx_gcv_Pad:
    """gluoncv.data.batchify.Pad: every sample padded with pad_val to the longest along `axis` (a
    tuple pads several axes), in the first sample's dtype, stacked; `num_shards` > 1 gives lists of
    shards, each padded to its own longest; ret_length adds the int32 lengths."""

    def __init__(self, axis=0, pad_val=0, num_shards=1, ret_length=False):
        if not isinstance(axis, (int, tuple, list)):
            raise AssertionError(f"axis must be an integer, tuple or list! Received axis={axis}, type={type(axis)}.")
        self._axis, self._pad_val, self._num_shards, self._ret_length = axis, pad_val, num_shards, ret_length

    def __call__(self, data):
        if not (_mx_gcv_is_array(data[0]) or isinstance(data[0], list)):
            raise NotImplementedError
        padded, lengths = _mx_gcv_pad_arrays(list(data), self._axis, self._pad_val, self._num_shards)
        return (padded, lengths) if self._ret_length else padded


def _mx_gcv_pad_arrays(arrs, pad_axis, pad_val, num_shards):
    """GluonCV's _pad_arrs_to_max_length: (padded, int32 lengths), lists of them for several shards."""
    import logging

    arrs = [_mx_as_batch_tensor(a) for a in arrs]
    axes = list(pad_axis) if isinstance(pad_axis, tuple) else [pad_axis]
    lengths = torch.tensor([[a.shape[axis] for axis in axes] for a in arrs], dtype=torch.int64)
    if not isinstance(pad_axis, tuple):
        lengths = lengths[:, 0]
    if len(lengths) % num_shards != 0:
        logging.warning("Batch size cannot be evenly split. Trying to shard %d items into %d shards", len(lengths),
                        num_shards)
    each, extra = divmod(len(lengths), num_shards)  # numpy's array_split: the first `extra` one longer
    shards = list(torch.split(lengths, [each + 1] * extra + [each] * (num_shards - extra)))
    padded = []
    for shard in shards:
        shape = [shard.shape[0]] + list(arrs[0].shape)
        longest = shard.max(dim=0).values.reshape(-1)
        for j, axis in enumerate(axes):
            shape[1 + axis] = int(longest[j])
        padded.append(torch.full(shape, float(pad_val), dtype=torch.float64).to(arrs[0].dtype))
    size = padded[0].shape[0]
    for i, arr in enumerate(arrs):
        target = padded[i // size][i % size]
        if target.shape == arr.shape:
            target[...] = arr.to(target.dtype)
        else:
            target[tuple(slice(0, n) for n in arr.shape)] = arr.to(target.dtype)
    lengths = [shard.to(torch.int32) for shard in shards]
    if len(padded) == len(lengths) == 1:
        return padded[0], lengths[0]
    return padded, lengths


class _mx_gcv_Append:
    """gluoncv.data.batchify.Append: the samples as a list, each a tensor (float32 where it was not
    an array yet, as MXNet's nd.array makes it), with a new `batch_axis` when `expand`."""

    def __init__(self, expand=True, batch_axis=0):
        self._expand, self._batch_axis = expand, batch_axis

    def __call__(self, data):
        out = [d if isinstance(d, torch.Tensor) else _mx_as_batch_tensor(d).to(torch.float32) for d in data]
        return [x.unsqueeze(self._batch_axis) for x in out] if self._expand else out
