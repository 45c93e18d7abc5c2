"""Helpers for MXNet's numpy dialect (`mx.np`, `mx.npx`) where it differs from both NumPy's
and nd's translations; each says what MXNet 1.9.1 computes (docs/semantics/numpy_dialect.md
gives the measured rows, cited as N<section>.<row>).

The dialect reuses nd's helpers where the operator is the same (`_mx_softmax`, `_mx_pick`,
`_mx_one_hot`, `_mx_sequence_mask`, `_mx_take`, `_mx_eye`, `_mx_arange_like`, ...); the ones here
are those whose semantics are the dialect's own.
"""
import torch


def _mx_np_array(object, dtype=None, ctx=None):
    """mx.np.array: Python data (numbers, bools, lists, even lists of arrays) make float32; a NumPy
    array or scalar keeps its dtype (int64, float64, bool); an array is copied with its dtype and
    stays in the graph (N1.2-N1.7). `dtype=` converts, `ctx=` places."""
    want = _mx_dtype(dtype)
    if isinstance(object, torch.Tensor):
        out = object.clone() if want is None else object.to(want, copy=True)
    elif hasattr(object, "__array__") and hasattr(object, "dtype"):
        out = torch.tensor(object.__array__(), dtype=want)
    elif isinstance(object, (list, tuple)) and any(isinstance(e, (torch.Tensor, list, tuple)) for e in object):
        out = torch.stack([_mx_np_array(e, dtype or "float32") for e in object])
    else:
        out = torch.tensor(object, dtype=want or torch.float32)
    return out if ctx is None else out.to(ctx)


def _mx_np_size(size):
    """NumPy's `size=` as torch's samplers take it: None draws one value (a 0-d array, N5.1), an
    int is a 1-tuple, a shape stays a shape."""
    if size is None:
        return ()
    if isinstance(size, (tuple, list, torch.Size)):
        return tuple(int(n) for n in size)
    return (int(size),)


def _mx_np_arange(start, stop=None, step=1, dtype=None, ctx=None):
    """mx.np.arange with MXNet's signature, as a value (d2l's `arange = np.arange`): one argument
    is the stop, and the values are float32 unless `dtype` says, whatever the arguments' types
    (N1.8; NumPy and torch give int64 for ints)."""
    if stop is None:
        start, stop = 0, start
    return torch.arange(start, stop, step, dtype=_mx_dtype(dtype) or torch.float32, device=ctx)


def _mx_np_dot(a, b, out=None):
    """mx.np.dot (NumPy's dot): a's last axis with b's second-to-last (its only one when 1-D), every
    pair of the other axes kept (N3.1-N3.4); torch.matmul batches instead when both are 3-D or more.
    A 0-d array multiplies."""
    if out is not None:
        raise NotImplementedError("out= (writing into an existing array) is not translated: assign the result")
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    if a.dim() == 0 or b.dim() == 0:
        return a * b
    return torch.tensordot(a, b, dims=([a.dim() - 1], [max(b.dim() - 2, 0)]))


def _mx_np_dot_method(array, other):
    """`x.dot(y)` on a value the converter could not type: an mx.np array (a tensor here) is
    NumPy's dot (`_mx_np_dot`); anything else, a NumPy array say, uses its own dot."""
    if isinstance(array, torch.Tensor):
        return _mx_np_dot(array, other)
    return array.dot(other)


def _mx_npx_reshape(a, newshape, reverse=False, order="C"):
    """npx.reshape's codes, which are not nd.reshape's (N6.1-N6.7): -1 infers (and stands for one
    input axis), -2 copies one axis, -3 drops an axis of size 1, -4 copies every remaining axis,
    -5 merges two, -6 splits one into the two values after it (one may be -1); 0 is an error.
    `reverse` reads the input's axes and the codes from the right."""
    if order != "C":
        raise NotImplementedError(f"npx.reshape order={order!r}: only 'C' is translated")
    src = list(a.shape)
    spec = [newshape] if isinstance(newshape, int) else list(newshape)
    if reverse:
        src, spec = src[::-1], spec[::-1]
    dims, i, j, infer = [], 0, 0, -1
    while j < len(spec):
        d = spec[j]
        if d == -1:
            if infer >= 0:
                raise ValueError("npx.reshape: at most one -1")
            infer = len(dims)
            dims.append(1)
            i += 1
        elif d == -2:
            dims.append(src[i])
            i += 1
        elif d == -3:
            if src[i] != 1:
                raise ValueError(f"npx.reshape: -3 skips an axis of size 1, not {src[i]}")
            i += 1
        elif d == -4:
            dims.extend(src[i:])
            i = len(src)
        elif d == -5:
            dims.append(src[i] * src[i + 1])
            i += 2
        elif d == -6:
            d0, d1, d2 = src[i], spec[j + 1], spec[j + 2]
            d1 = d0 // d2 if d1 == -1 else d1
            d2 = d0 // d1 if d2 == -1 else d2
            if d1 * d2 != d0:
                raise ValueError(f"npx.reshape: -6 cannot split {d0} into ({spec[j + 1]}, {spec[j + 2]})")
            dims.extend([d1, d2])
            i += 1
            j += 2
        elif d > 0:
            dims.append(d)
            i += 1
        else:
            raise ValueError(f"npx.reshape: {d} is not a size or a code (-1 to -6)")
        j += 1
    if infer >= 0:
        known = 1
        for k, d in enumerate(dims):
            known *= d if k != infer else 1
        dims[infer] = a.numel() // known if known else 0
    return a.reshape(dims[::-1] if reverse else dims)


def _mx_np_pad(x, pad_width=None, mode="constant", constant_values=0, **kwargs):
    """mx.np.pad (constant mode): `pad_width` as NumPy takes it (an int, one (before, after) pair, or
    one pair per axis from the first); torch's F.pad lists the pairs from the last axis (N8.18)."""
    if kwargs:
        raise NotImplementedError(f"np.pad arguments {sorted(kwargs)} are not translated")
    n = x.dim()
    if isinstance(pad_width, int):
        pairs = [(pad_width, pad_width)] * n
    else:
        pairs = [tuple(p) if isinstance(p, (list, tuple)) else (p, p) for p in pad_width]
        if len(pairs) == 2 and all(isinstance(p, int) for p in pad_width):
            pairs = [tuple(pad_width)] * n
        elif len(pairs) == 1:
            pairs = pairs * n
    flat = [w for pair in reversed(pairs) for w in pair]
    if mode != "constant":
        raise NotImplementedError(f"np.pad mode={mode!r} is not translated (constant only)")
    return torch.nn.functional.pad(x, flat, value=constant_values)


def _mx_npx_topk(data=None, axis=-1, k=1, ret_typ="indices", is_ascend=False, dtype="float32", out=None, name=None):
    """npx.topk / nd.topk: the k largest (smallest with is_ascend) along `axis` (None: the flattened
    array); 'indices' as `dtype` (float32 by default), 'value', 'both' a list [values, indices],
    'mask' 0/1 of the input's shape and dtype (N7.14-N7.17)."""
    if out is not None:
        raise NotImplementedError("out= (writing into an existing array) is not translated: assign the result")
    x = data.reshape(-1) if axis is None else data
    dim = 0 if axis is None else axis
    values, indices = torch.topk(x, k, dim=dim, largest=not is_ascend)
    indices_as = indices.to(_mx_dtype(dtype) or torch.float32)
    if ret_typ == "indices":
        return indices_as
    if ret_typ == "value":
        return values
    if ret_typ == "both":
        return [values, indices_as]
    if ret_typ == "mask":
        return torch.zeros_like(x).scatter(dim, indices, 1.0).reshape(data.shape)
    raise ValueError(f"topk ret_typ={ret_typ!r} is not one of MXNet's")


def _mx_np_method(array, name, *args, **kwargs):
    """`x.std()`, `x.var()`, `x.cumsum()`, `x.max()`, `x.min()` on a value the converter could not
    type in a file of MXNet's numpy dialect, `x.repeat(...)` on one in any MXNet file, and
    `x.sum/mean/prod/argmax/argmin(*args, **kwargs)` whose arguments are only known at run time
    (d2l's `reduce_sum = lambda x, *args, **kwargs: x.sum(*args, **kwargs)`): an MXNet array (a
    tensor here) gives what MXNet's gives (N8.7: std/var with ddof=0; cumsum over the flattened
    array without an axis, keeping an integer dtype; max/min over the axes, 0-d without them;
    repeat each element, not torch's tiling, over the flattened array without an axis; sum/prod
    keep an integer dtype, mean of integers is float32, N1.17, N1.19); anything else (a NumPy
    array) uses its own method with the same arguments."""
    if not isinstance(array, torch.Tensor):
        return getattr(array, name)(*args, **kwargs)
    params = {"std": ("axis", "dtype", "out", "ddof", "keepdims"), "var": ("axis", "dtype", "out", "ddof", "keepdims"),
              "cumsum": ("axis", "dtype", "out"), "max": ("axis", "out", "keepdims"),
              "min": ("axis", "out", "keepdims"), "repeat": ("repeats", "axis"),
              "sum": ("axis", "dtype", "out", "keepdims"), "prod": ("axis", "dtype", "out", "keepdims"),
              "mean": ("axis", "dtype", "out", "keepdims"), "argmax": ("axis", "out"),
              "argmin": ("axis", "out")}[name]
    if len(args) > len(params):
        raise TypeError(f"{name}() takes at most {len(params)} arguments ({len(args)} given)")
    bound = dict(zip(params, args))
    for key, value in kwargs.items():
        if key not in params or key in bound:
            raise TypeError(f"{name}() got an unexpected or repeated argument {key!r}")
        bound[key] = value
    if bound.get("out") is not None:
        raise NotImplementedError(f"{name}(out=...): write the result with `out[...] = ...`")
    if name == "repeat":  # NDArray.repeat(repeats, axis=None), mx.np's and NumPy's alike
        if "repeats" not in bound:
            raise TypeError("repeat() missing the argument 'repeats'")
        return torch.repeat_interleave(array, bound["repeats"], dim=bound.get("axis"))
    axis, keep, dtype = bound.get("axis"), bool(bound.get("keepdims", False)), _mx_dtype(bound.get("dtype"))
    if isinstance(axis, list):
        axis = tuple(axis)
    if name in ("argmax", "argmin"):  # int64 indices, into the flattened array without an axis
        return (torch.argmax if name == "argmax" else torch.argmin)(array, dim=axis)
    if name in ("sum", "prod", "mean"):
        if dtype is None and not array.dtype.is_floating_point:
            # MXNet keeps an integer dtype for sum/prod (N1.19: torch widens to int64; a bool
            # array sums to int64 in both) and gives float32 for mean (N1.17: torch raises)
            dtype = torch.float32 if name == "mean" else (torch.int64 if array.dtype == torch.bool else array.dtype)
        dims = tuple(range(array.dim())) if axis is None else axis if isinstance(axis, tuple) else (axis,)
        if name != "prod":
            return (torch.sum if name == "sum" else torch.mean)(array, dim=dims, keepdim=keep, dtype=dtype)
        out = array.to(dtype) if dtype is not None else array
        for d in sorted((d % max(array.dim(), 1) for d in dims), reverse=True):  # torch's prod takes one dim
            out = out.prod(d, keepdim=keep, dtype=dtype)
        return out
    if name in ("std", "var"):
        if not (dtype or array.dtype).is_floating_point:
            raise NotImplementedError(f"{name}() of an integer mx.np array: MXNet computes it in integer "
                                      "arithmetic (the mean and the result truncated); cast it to a float dtype")
        reduce = torch.std if name == "std" else torch.var
        return reduce(array.to(dtype) if dtype else array, dim=axis, correction=bound.get("ddof", 0), keepdim=keep)
    if name == "cumsum":
        return _mx_cumsum(array, axis, dtype)
    return (_mx_amax if name == "max" else _mx_amin)(array, dim=axis, keepdim=keep)  # 0-d without axes


def _mx_np_random_normal(loc=0.0, scale=1.0, size=None, dtype=None, device=None):
    """mx.np.random.normal where loc or scale is known only at run time: numbers draw `size`
    values (one 0-d value without it, N5.1); arrays draw one value per element of their broadcast
    shape, or of `size`, to which they broadcast (N5.9). float32 unless `dtype` says."""
    dtype = _mx_dtype(dtype) or torch.float32
    loc, scale = (torch.as_tensor(v, dtype=dtype, device=device) for v in (loc, scale))
    shape = torch.broadcast_shapes(loc.shape, scale.shape) if size is None else _mx_np_size(size)
    return loc + scale * torch.randn(shape, dtype=dtype, device=device)


def _mx_np_random_uniform(low=0.0, high=1.0, size=None, dtype=None, device=None):
    """mx.np.random.uniform where low or high is known only at run time: [low, high), one value per
    element of `size` or of the parameters' broadcast shape (N5.9); float32 unless `dtype` says."""
    dtype = _mx_dtype(dtype) or torch.float32
    low, high = (torch.as_tensor(v, dtype=dtype, device=device) for v in (low, high))
    shape = torch.broadcast_shapes(low.shape, high.shape) if size is None else _mx_np_size(size)
    return low + (high - low) * torch.rand(shape, dtype=dtype, device=device)


def _mx_np_random_multinomial(n, pvals, size=None):
    """mx.np.random.multinomial: the counts of `n` draws over the categories `pvals` (a list or
    array of probabilities), int64, shaped size + (len(pvals),). The last category takes
    what the others leave, as NumPy's does (pvals need not sum to 1 exactly)."""
    p = torch.as_tensor(pvals, dtype=torch.float64).flatten()
    rest = torch.clamp(1.0 - p[:-1].sum(), min=0.0)
    p = torch.cat([p[:-1], rest.reshape(1)])
    counts = torch.distributions.Multinomial(int(n), probs=p).sample(_mx_np_size(size))
    return counts.to(torch.int64)


def _mx_smooth_l1(data=None, scalar=1.0, out=None, name=None):
    """npx.smooth_l1 (nd.smooth_l1): 0.5 * (scalar * x) ** 2 where |x| <= 1 / scalar ** 2, else
    |x| - 0.5 / scalar ** 2; element-wise, with that gradient (MXNet takes the square inside
    the bound itself, where both pieces meet)."""
    _mx_no_out(out)
    s2 = float(scalar) ** 2
    return torch.where(data.abs() <= 1.0 / s2, 0.5 * s2 * data * data, data.abs() - 0.5 / s2)


def _mx_np_scalar(value, dtype):
    """`np.float32(v)`, `np.int64(v)`, ...: mx.np's dtypes are NumPy's scalar types, which convert
    a number, a numeric string ('1.5') or a nested list to that dtype; here a tensor of the same
    values and dtype (NumPy gives a scalar or an ndarray)."""
    if isinstance(value, (str, bytes)):
        text = value.decode() if isinstance(value, bytes) else value
        value = float(text) if dtype.is_floating_point else int(text.strip())
    if isinstance(value, torch.Tensor):
        return value.to(dtype)
    return torch.tensor(value, dtype=dtype)


def _mx_np_genfromtxt(fname, dtype=None, comments="#", delimiter=None, skip_header=0):
    """mx.np.genfromtxt (NumPy's, its result an mx.np array): a text table of numbers, float64
    unless `dtype` says; text after `comments` is dropped, blank lines skipped, a field that is
    empty or no number is nan, and lone axes are squeezed (one row or one column is 1-D)."""
    if hasattr(fname, "read"):
        text = fname.read()
    else:
        with open(fname, encoding="utf-8") as f:
            text = f.read()
    text = text.decode() if isinstance(text, bytes) else text
    rows = []
    for line in text.splitlines()[int(skip_header):]:
        line = line.split(comments, 1)[0] if comments else line
        if line.strip():
            rows.append([_mx_float_or_nan(f) for f in (line.split(delimiter) if delimiter is not None else line.split())])
    return torch.tensor(rows, dtype=torch.float64).squeeze().to(_mx_dtype(dtype) or torch.float64)


def _mx_float_or_nan(field):
    try:
        return float(field)
    except ValueError:
        return float("nan")


def _mx_roi_pooling(data, rois, pooled_size, spatial_scale, out=None, name=None):
    """npx.roi_pooling (nd.ROIPooling): Fast R-CNN's max pooling of each region of interest
    (rows of `rois`: batch index, x1, y1, x2, y2 in input pixels) into pooled_size bins, with
    MXNet's CPU arithmetic: corners scaled by spatial_scale in float32 and rounded half away
    from zero, a region at least one pixel, bin edges floor/ceil of float32 multiples, clipped to
    the map; an empty bin, or a region of a batch index outside the data, gives 0."""
    ph_n, pw_n = (int(v) for v in pooled_size)
    batch, _, height, width = data.shape
    f32 = torch.float32
    boxes = rois.detach().to(torch.device("cpu"), f32) * torch.tensor(spatial_scale, dtype=f32)
    index = rois.detach().to(torch.device("cpu"), f32)[:, 0]
    corners = (torch.sign(boxes) * torch.floor(boxes.abs() + 0.5)).to(torch.int64).tolist()
    rows = []
    for r, (b, (_, x1, y1, x2, y2)) in enumerate(zip(index.tolist(), corners)):
        out = data.new_zeros((data.shape[1], ph_n, pw_n))
        b = int(b)
        if 0 <= b < batch:
            bin_h = torch.tensor(max(y2 - y1 + 1, 1), dtype=f32) / ph_n
            bin_w = torch.tensor(max(x2 - x1 + 1, 1), dtype=f32) / pw_n
            for i in range(ph_n):
                hs = min(max(int(torch.floor(i * bin_h)) + y1, 0), height)
                he = min(max(int(torch.ceil((i + 1) * bin_h)) + y1, 0), height)
                for j in range(pw_n):
                    ws = min(max(int(torch.floor(j * bin_w)) + x1, 0), width)
                    we = min(max(int(torch.ceil((j + 1) * bin_w)) + x1, 0), width)
                    if he > hs and we > ws:
                        out[:, i, j] = data[b, :, hs:he, ws:we].amax(dim=(-2, -1))
        rows.append(out)
    return torch.stack(rows) if rows else data.new_zeros((0, data.shape[1], ph_n, pw_n))
