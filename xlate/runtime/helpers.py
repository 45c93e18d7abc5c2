"""Helpers that converted files carry when no plain PyTorch expression is exact.

The converter never imports this module: it copies the text of each `_mx_*` function it
needs into the converted file, so converted code depends on torch alone. The tests import
it (with torch installed) and compare every helper against live MXNet.
"""
import torch


def _mx_out(out, value):
    """An operator's `out=` (Note [out= written into]): `value` written into `out`, which is returned;
    the shapes must agree, as MXNet requires."""
    if tuple(out.shape) != tuple(value.shape):
        raise ValueError(f"out= has shape {tuple(out.shape)}, the result {tuple(value.shape)}")
    out.copy_(value)
    return out


def _mx_shape_tuple(shape):
    """MXNet's `shape=` argument as torch's `size=`: an int n is the shape (n,) (torch.normal and
    torch.randint take a sequence only); so is a NumPy integer, which MXNet takes as an int."""
    if not hasattr(shape, "__len__") and hasattr(shape, "__index__"):
        return (int(shape),)
    return tuple(shape)


def _mx_stype(x):
    """`x.stype` (MX821): MXNet's storage type of a converted array, 'default' for a dense tensor and 'csr'
    for a torch CSR one; any other value's own `stype`."""
    if not isinstance(x, torch.Tensor):
        return x.stype
    if x.layout == torch.strided:
        return "default"
    if x.layout == torch.sparse_csr:
        return "csr"
    raise ValueError(f"a tensor of layout {x.layout} has no MXNet storage type")


def _mx_size(x):
    """`x.size` where xlate could not tell what `x` is: an NDArray's element count is torch's
    `numel()` (`Tensor.size` is a method); anything else (numpy, a PIL image) keeps its own."""
    return x.numel() if isinstance(x, torch.Tensor) else x.size


def _mx_reshape(data=None, shape=(), reverse=False, target_shape=(), keep_highest=False, out=None, name=None):
    """MXNet reshape: 0 copies a dim, -1 infers, -2 copies the rest, -3 merges two, -4 splits one.
    One list or tuple inside the shape is the shape, as NDArray.reshape(*shape) unwraps it."""
    _mx_no_out(out)
    if target_shape or keep_highest:
        raise NotImplementedError("reshape's deprecated target_shape/keep_highest are not translated: use shape")
    x = data
    src = list(x.shape)
    spec = [shape] if isinstance(shape, int) else list(shape)
    if len(spec) == 1 and isinstance(spec[0], (list, tuple)):
        spec = list(spec[0])
    if reverse:
        src, spec = src[::-1], spec[::-1]
    dims, i, j, infer = [], 0, 0, -1
    while j < len(spec):
        d = spec[j]
        if d == 0:
            dims.append(src[i])
            i += 1
        elif d == -1:
            infer = j  # MXNet keeps the -1's place in the spec, even after a -4 shifted the output
            dims.append(1)
            i += 1
        elif d == -2:
            dims.extend(src[i:])
            i = len(src)
        elif d == -3:
            dims.append(src[i] * src[i + 1])
            i += 2
        elif d == -4:
            d0, d1, d2 = src[i], spec[j + 1], spec[j + 2]
            d1 = d0 // d2 if d1 == -1 else d1
            d2 = d0 // d1 if d2 == -1 else d2
            dims.extend([d1, d2])
            i += 1
            j += 2
        else:
            dims.append(d)
            i += 1
        j += 1
    if infer >= 0:
        known = 1
        for d in dims:
            known *= d
        dims[infer] = x.numel() // known
    return x.reshape(dims[::-1] if reverse else dims)


def _mx_dot(a, b, transpose_a=False, transpose_b=False):
    """MXNet dot: contracts a's last axis (first if transpose_a) with b's first (last if transpose_b)."""
    out = torch.tensordot(a, b, dims=([0 if transpose_a else a.dim() - 1], [b.dim() - 1 if transpose_b else 0]))
    return out.reshape(1) if out.dim() == 0 else out


def _mx_other_axes(x, axis):
    """The axes an MXNet reduction with exclude=True reduces over."""
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = [a % x.dim() for a in axes]
    return [d for d in range(x.dim()) if d not in axes]


# Note [extrema gradients]
# MXNet's max and min reductions send the whole gradient to every element equal to the result
# (nd, F, the numpy dialect alike: d max([1, 3, 3]) = [0, 1, 1]); torch's amax/amin, and max/min
# without a dim, split it evenly among them ([0, .5, .5]). Ties are common where it matters:
# after max pooling (overlapping windows repeat their maximum), clipping, ReLU, or one-hot data.
# The value is torch's; the gradient goes through `x - x.detach()` (zero, and its gradient is
# one) masked to the tied elements: plain torch operations, so torch.compile traces it.
def _mx_amax(x, dim=None, keepdim=False):
    """MXNet's max over `dim` (all axes when None), its gradient whole to each tied maximum."""
    return _mx_extreme(x, torch.amax, dim, keepdim)


def _mx_amin(x, dim=None, keepdim=False):
    """MXNet's min over `dim` (all axes when None), its gradient whole to each tied minimum."""
    return _mx_extreme(x, torch.amin, dim, keepdim)


def _mx_extreme(x, reduce, dim, keepdim):
    dims = tuple(range(x.dim())) if dim is None or dim == () else dim
    if x.dim() == 0:
        return x.clone()
    out = reduce(x.detach(), dim=dims, keepdim=True)
    if x.requires_grad and torch.is_grad_enabled():  # Note [extrema gradients]
        out = out + ((x - x.detach()) * (x.detach() == out)).sum(dim=dims, keepdim=True)
    if keepdim:
        return out
    return out.squeeze(dims) if isinstance(dims, int) else out.squeeze(tuple(dims))


def _mx_reduce_exclude(x, axis, op, keepdims=False):
    """An MXNet reduction with exclude=True: over every axis but `axis`; none left, nothing reduced."""
    axes = _mx_other_axes(x, axis)
    if not axes:
        return x.clone()
    return _mx_reduce_axes(x, axes, op, keepdims)


def _mx_reduce_axes(x, axes, op, keepdims):
    """An MXNet reduction (sum, mean, prod, max, min) over the axes given, never 0-d; None or ()
    (known only at run time: MXFusion's `F.prod(data, axis)` with `axis=None`) is every axis, as in MXNet."""
    if axes is None or (not isinstance(axes, int) and len(axes) == 0):
        axes = tuple(range(x.dim()))
    # MXNet reduces an integer array in its own dtype (wrapping), and its mean truncates; torch's sum and
    # prod give int64 and its mean refuses integers
    integer = not (x.is_floating_point() or x.is_complex() or x.dtype == torch.bool)
    if op == "prod":  # torch's prod takes one dim
        out = x
        for d in sorted((a % x.dim() for a in ([axes] if isinstance(axes, int) else axes)), reverse=True):
            out = out.prod(dim=d, keepdim=keepdims, dtype=x.dtype if integer else None)
        return torch.atleast_1d(out)
    if op in ("max", "min"):  # Note [extrema gradients]
        return torch.atleast_1d(_mx_extreme(x, torch.amax if op == "max" else torch.amin, axes, keepdims))
    if integer and op in ("sum", "mean"):
        out = torch.sum(x, dim=axes, keepdim=keepdims, dtype=x.dtype)
        if op == "mean":
            count = 1
            for a in [axes] if isinstance(axes, int) else axes:
                count *= x.shape[a]
            out = torch.div(out, count, rounding_mode="trunc")
        return torch.atleast_1d(out)
    return torch.atleast_1d(getattr(torch, op)(x, dim=axes, keepdim=keepdims))


def _mx_where(condition, x, y):
    """MXNet where: a 1-D condition selects rows (axis 0); non-zero means true."""
    cond = condition != 0
    if cond.dim() == 1 and x.dim() > 1:
        cond = cond.reshape(-1, *([1] * (x.dim() - 1)))
    return torch.where(cond, x, y)


def _mx_one_hot(indices, depth, on_value=1.0, off_value=0.0, dtype=torch.float32):
    """MXNet one_hot: out-of-range ids give an all-off row instead of an error."""
    hot = indices.long().unsqueeze(-1) == torch.arange(depth, device=indices.device)
    on = torch.tensor(on_value, dtype=dtype, device=indices.device)
    off = torch.tensor(off_value, dtype=dtype, device=indices.device)
    return torch.where(hot, on, off)


def _mx_pick(data, index, axis=-1, mode="clip", keepdims=False):
    """MXNet pick: data[..., index, ...] along `axis`; 'clip' clamps ids, 'wrap' wraps them."""
    n = data.shape[axis]
    idx = index.long()
    if idx.dim() == data.dim():  # MXNet takes the index with `axis` kept as size 1 as well as without it
        idx = idx.squeeze(axis)
    idx = idx.clamp(0, n - 1) if mode == "clip" else idx % n
    out = torch.gather(data, axis, idx.unsqueeze(axis))
    out = out if keepdims else out.squeeze(axis)
    return out.reshape(1) if out.dim() == 0 else out


def _mx_sequence_mask(data, sequence_length=None, use_sequence_length=False, value=0.0, axis=0):
    """MXNet SequenceMask: positions at or past each length along `axis` (0 = time-major) get `value`."""
    if not use_sequence_length:
        return data
    steps = torch.arange(data.shape[axis], device=data.device)
    lengths = sequence_length.to(steps.device).long()  # MXNet truncates fractional lengths
    if axis == 0:
        keep = steps[:, None] < lengths[None, :]
    else:
        keep = steps[None, :] < lengths[:, None]
    keep = keep.reshape(keep.shape + (1,) * (data.dim() - 2))
    return data.masked_fill(~keep, value)


def _mx_lrn(data=None, alpha=0.0001, beta=0.75, knorm=2.0, nsize=None, out=None, name=None):
    """MXNet LRN: an even nsize sums nsize - 1 channels around each one but still divides alpha by nsize."""
    _mx_no_out(out)
    size = nsize if nsize % 2 else nsize - 1
    return torch.nn.functional.local_response_norm(data, size, alpha=alpha * size / nsize, beta=beta, k=knorm)


def _mx_convolution(data=None, weight=None, bias=None, kernel=(), stride=(), dilate=(), pad=(), num_filter=None,
                    num_group=1, workspace=1024, no_bias=False, cudnn_tune=None, cudnn_off=False, layout=None,
                    out=None, name=None):
    """MXNet Convolution (NCW/NCHW/NCDHW): the weight's rank picks conv1d/2d/3d; () means the default.
    MXNet takes a bias exactly when no_bias is false, so the bias given is the bias used."""
    _mx_no_out(out)
    _mx_conv_checks(weight, kernel, layout)
    conv = (torch.nn.functional.conv1d, torch.nn.functional.conv2d, torch.nn.functional.conv3d)[weight.dim() - 3]
    return conv(data, weight, bias, stride=stride or 1, padding=pad or 0, dilation=dilate or 1, groups=num_group)


def _mx_conv_checks(weight, kernel, layout):
    """What MXNet's Convolution/Deconvolution check that the torch functions cannot: the layout
    is channel-first, and `kernel` (when given) is the weight's."""
    if layout not in (None, "NCW", "NCHW", "NCDHW"):
        raise NotImplementedError(f"layout={layout!r}: torch convolutions are channel-first; permute around the call")
    kernel = (kernel,) if isinstance(kernel, int) else tuple(kernel)
    if kernel and kernel != tuple(weight.shape[2:]):
        raise ValueError(f"kernel={tuple(kernel)} does not match the weight's spatial shape {tuple(weight.shape[2:])}")


def _mx_deconvolution(data=None, weight=None, bias=None, kernel=(), stride=(), dilate=(), pad=(), adj=(),
                      target_shape=(), num_filter=None, num_group=1, workspace=512, no_bias=True, cudnn_tune=None,
                      cudnn_off=False, layout=None, out=None, name=None):
    """MXNet Deconvolution (NCW/NCHW/NCDHW): the weight's rank picks conv_transpose1d/2d/3d; adj is output_padding."""
    _mx_no_out(out)
    _mx_conv_checks(weight, kernel, layout)
    if target_shape:
        raise NotImplementedError("Deconvolution target_shape= makes MXNet choose pad and adj itself: compute "
                                  "them and pass pad=/adj= instead")
    fns = (torch.nn.functional.conv_transpose1d, torch.nn.functional.conv_transpose2d,
           torch.nn.functional.conv_transpose3d)
    return fns[weight.dim() - 3](data, weight, bias, stride=stride or 1, padding=pad or 0,
                                 output_padding=adj or 0, groups=num_group, dilation=dilate or 1)


def _mx_pooling(data=None, kernel=(), pool_type="max", global_pool=False, cudnn_off=False,
                pooling_convention="valid", stride=(), pad=(), p_value=None, count_include_pad=None, layout=None,
                out=None, name=None):
    """MXNet Pooling (NCW/NCHW/NCDHW): 'full' rounds the output size up and keeps a last window that
    covers only padding (-FLT_MAX for max, 0 for avg/sum); padding may exceed half the kernel."""
    _mx_no_out(out)
    if layout not in (None, "NCW", "NCHW", "NCDHW"):
        raise NotImplementedError(f"Pooling layout={layout!r}: torch pools channel-first; permute around the call")
    count_include_pad = count_include_pad is not False  # None (MXNet's default) counts the padding
    F = torch.nn.functional
    dims = tuple(range(2, data.dim()))
    if global_pool:
        if pool_type == "max":  # MXNet's pooling gradient goes to one maximum of a tie (amax would split it)
            return data.flatten(2).max(dim=-1).values.reshape(*data.shape[:2], *([1] * len(dims)))
        return {"avg": torch.mean, "sum": torch.sum}[pool_type](data, dim=dims, keepdim=True)
    if pooling_convention not in ("valid", "full") or pool_type not in ("max", "avg", "sum"):
        raise ValueError(f"Pooling {pool_type!r} with {pooling_convention!r} convention is not translated")
    n = len(dims)
    kernel, stride, pad = tuple(kernel), tuple(stride) or (1,) * n, tuple(pad) or (0,) * n
    sizes = data.shape[2:]
    widths = []  # (left, right) padding per axis, the right one extended to the last window
    for size, k, s, p in zip(sizes, kernel, stride, pad):
        span = size + 2 * p - k
        out = (-(-span // s) if pooling_convention == "full" else span // s) + 1
        widths.append((p, max(p, (out - 1) * s + k - size - p)))
    flat = [w for pair in reversed(widths) for w in pair]  # F.pad lists the last axis first
    pool = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[n - 1]
    if pool_type == "max":
        low = torch.finfo(data.dtype).min  # MXNet's value for a window with no input in it
        return (F.max_pool1d, F.max_pool2d, F.max_pool3d)[n - 1](F.pad(data, flat, value=low), kernel, stride)
    window = 1
    for k in kernel:
        window *= k
    total = pool(F.pad(data, flat), kernel, stride) * window
    if pool_type == "sum":
        return total
    # the divisor: the window's cells inside the input (and its padding, with count_include_pad)
    inside = torch.ones((1, 1) + tuple(sizes), dtype=data.dtype, device=data.device)
    if count_include_pad:
        inside = F.pad(inside, [w for p in reversed(pad) for w in (p, p)], value=1.0)
        flat = [w - p for (l, r), p in zip(reversed(widths), reversed(pad)) for w in (l, r)]
    count = (pool(F.pad(inside, flat), kernel, stride) * window).round()
    return torch.where(count > 0, total / count.clamp(min=1), torch.zeros_like(total))


def _mx_upsampling(*data, scale, num_filter=0, sample_type, multi_input_mode="concat", num_args=None,
                   workspace=512, out=None, name=None):
    """MXNet UpSampling. 'nearest': each input repeated to the first one's size times `scale`, then
    concatenated on channels (or summed); 'bilinear': data[1] is the weight of a grouped
    conv_transpose2d (kernel 2 * scale - scale % 2, stride scale, padding ceil((scale - 1) / 2))."""
    _mx_no_out(out)
    if sample_type not in ("nearest", "bilinear"):
        raise ValueError(f"UpSampling sample_type={sample_type!r} is not one of MXNet's ('nearest', 'bilinear')")
    if sample_type == "bilinear":
        x, weight = data
        return torch.nn.functional.conv_transpose2d(x, weight, stride=scale, padding=scale // 2,
                                                    groups=num_filter or x.shape[1])
    size = [d * scale for d in data[0].shape[2:]]
    outs = [x.repeat_interleave(size[0] // x.shape[2], dim=2).repeat_interleave(size[1] // x.shape[3], dim=3)
            for x in data]
    if len(outs) == 1:
        return outs[0]
    return torch.cat(outs, dim=1) if multi_input_mode == "concat" else torch.stack(outs).sum(dim=0)


def _mx_bilinear_resize(data=None, like=None, height=1, width=1, scale_height=None, scale_width=None, mode="size",
                        align_corners=True, out=None, name=None):
    """MXNet contrib.BilinearResize2D: the output size by `mode` (scales used only when scale_height
    is given; sizes truncated), then bilinear interpolation, align_corners=True by default."""
    _mx_no_out(out)
    h, w = data.shape[2], data.shape[3]
    if mode == "size":
        size = (int(h * scale_height), int(w * scale_width)) if scale_height is not None else (height, width)
    elif mode == "like":
        size = tuple(like.shape[2:4])
    elif mode == "odd_scale":
        size = tuple(int((d - 1) * s + 1) if d % 2 else int(d * s) for d, s in ((h, scale_height), (w, scale_width)))
    elif mode in ("to_even_down", "to_even_up", "to_odd_down", "to_odd_up"):
        odd = mode.startswith("to_odd")
        step = 1 if mode.endswith("_up") else -1
        size = tuple(d + step if d % 2 != odd else d for d in (h, w))
    else:
        raise ValueError(f"BilinearResize2D mode {mode!r}")
    if 0 in size:  # a scale that truncates a size to 0 gives MXNet an empty array
        return data.flatten(2)[:, :, :0].reshape(data.shape[:2] + tuple(size))
    if not align_corners:  # MXNet samples an axis resized to 1 at its first pixel, not its centre
        data = data[:, :, :1] if size[0] == 1 else data
        data = data[:, :, :, :1] if size[1] == 1 else data
    return torch.nn.functional.interpolate(data, size=size, mode="bilinear", align_corners=bool(align_corners))


def _mx_pad(data=None, mode="constant", pad_width=(), constant_value=0.0, out=None, name=None):
    """MXNet pad: pad_width lists (before, after) per axis from the first; torch's F.pad from the last.
    The method form on a value the converter could not type: anything not a tensor pads itself."""
    if not isinstance(data, torch.Tensor) and hasattr(data, "pad"):
        return data.pad(mode=mode, pad_width=pad_width, constant_value=constant_value)
    _mx_no_out(out)
    pairs = [tuple(pad_width[i:i + 2]) for i in range(4, len(pad_width), 2)]
    flat = [w for pair in reversed(pairs) for w in pair]
    if mode == "constant":
        return torch.nn.functional.pad(data, flat, value=constant_value)
    return torch.nn.functional.pad(data, flat, mode={"edge": "replicate", "reflect": "reflect"}[mode])


def _mx_take(a, indices, axis=0, mode="clip"):
    """MXNet take: rows of `a` along `axis` by (float) ids, truncated; 'clip' clamps, 'wrap' wraps."""
    n = a.shape[axis]
    idx = (indices if isinstance(indices, torch.Tensor) else torch.as_tensor(indices, device=a.device)).long()
    if mode == "clip":
        idx = idx.clamp(0, n - 1)
    elif mode == "wrap":
        idx = idx % n
    axis = axis % a.dim()
    out = torch.index_select(a, axis, idx.reshape(-1))
    return out.reshape(a.shape[:axis] + idx.shape + a.shape[axis + 1:])


def _mx_take_method(x, *args, **kwargs):
    """`x.take(indices, axis=0, mode='clip')` on a value the converter could not type: a tensor (an
    MXNet array, converted) takes rows along `axis` as MXNet's does (torch's own `take` indexes the
    flattened tensor); anything else (a NumPy array, a DataFrame) uses its own take."""
    return _mx_take(x, *args, **kwargs) if isinstance(x, torch.Tensor) else x.take(*args, **kwargs)


def _mx_eye(N, M=0, k=0, dtype=torch.float32, device=None):
    """MXNet eye: ones on the k-th diagonal (k > 0 above it) of an N x M (M=0: N x N) matrix,
    float32 unless `dtype` says (a `dtype=` known only at run time may be None)."""
    rows = torch.arange(N, device=device)[:, None]
    cols = torch.arange(M or N, device=device)[None, :]
    return (cols - rows == k).to(dtype or torch.float32)


class _mx_FunctionBridge(torch.autograd.Function):
    """Runs an _mx_autograd_Function's own forward and backward inside torch's autograd."""

    @staticmethod
    def forward(ctx, fn, *inputs):
        ctx.fn = fn
        outputs = fn.forward(*inputs)
        return tuple(outputs) if isinstance(outputs, list) else outputs

    @staticmethod
    def backward(ctx, *output_grads):
        grads = ctx.fn.backward(*output_grads)
        return (None,) + (tuple(grads) if isinstance(grads, (list, tuple)) else (grads,))


class _mx_autograd_Function:
    """mx.autograd.Function: subclasses define forward(self, *inputs) and backward(self, *output_grads)
    on tensors, keep tensors with save_for_backward and read them from saved_tensors."""

    def __init__(self):
        self.saved_tensors = ()

    def save_for_backward(self, *args):
        self.saved_tensors = args

    def __call__(self, *inputs):
        return _mx_FunctionBridge.apply(self, *inputs)


def _mx_image_to_tensor(data=None, out=None, name=None):
    """mx.nd.image.to_tensor: an (H, W, C) image, or an (N, H, W, C) batch, of values in
    [0, 255] (any dtype) -> float32 (C, H, W) / (N, C, H, W) in [0, 1]."""
    _mx_no_out(out)
    if data.dim() not in (3, 4):
        raise ValueError(f"to_tensor takes an (H, W, C) image or an (N, H, W, C) batch, not shape {tuple(data.shape)}")
    out = data.to(torch.float32) / 255.0
    return out.permute(2, 0, 1) if data.dim() == 3 else out.permute(0, 3, 1, 2)


def _mx_image_normalize(data=None, mean=(0.0, 0.0, 0.0, 0.0), std=(1.0, 1.0, 1.0, 1.0), out=None, name=None):
    """mx.nd.image.normalize: (x[c] - mean[c]) / std[c] over the channels of a (C, H, W) image or
    an (N, C, H, W) batch; a number, or a tuple of one, serves every channel. MXNet keeps mean
    and std as float32 and the result in the input's dtype. Its defaults have four values, so
    an image of other than 1 or 4 channels needs them given, in MXNet as here."""
    _mx_no_out(out)
    if data.dim() not in (3, 4):
        raise ValueError(f"normalize takes a (C, H, W) image or an (N, C, H, W) batch, not shape {tuple(data.shape)}")
    channels = data.shape[-3]
    stats = []
    for name, value in (("mean", mean), ("std", std)):
        values = tuple(value) if isinstance(value, (tuple, list)) else (value,)
        if len(values) not in (1, channels):
            raise ValueError(f"normalize: {name} has {len(values)} values for {channels} channels")
        stats.append(torch.tensor(values, dtype=torch.float32).reshape(-1, 1, 1))
    work = data.dtype if data.is_floating_point() else torch.float32
    m, s = (t.to(device=data.device, dtype=work) for t in stats)
    return ((data.to(work) - m) / s).to(data.dtype)


def _mx_assert_almost_equal(a, b, rtol=None, atol=None, names=("a", "b"), equal_nan=False, use_broadcast=True,
                            mismatches=(10, 10)):
    """mx.test_utils.assert_almost_equal: |a - b| <= atol + rtol * |b| everywhere (NumPy's
    allclose, broadcasting unless use_broadcast=False), else AssertionError. A tolerance left
    None is MXNet's default for the dtype (the larger of a's and b's): float16 1e-2 / 1e-1,
    float32 1e-4 / 1e-3 (float16's on a CUDA device of compute capability 8 or more, where
    MXNet counted on TF32), float64 1e-5 / 1e-20, integers and bool 0 (rtol / atol). Two
    bool arrays must be equal."""
    def tensor(x):
        if isinstance(x, torch.Tensor):
            return x.detach()
        if isinstance(x, bool):
            return torch.tensor(x)
        if isinstance(x, int):
            return torch.tensor(x, dtype=torch.int64)
        if isinstance(x, float):
            return torch.tensor(x, dtype=torch.float64)
        return torch.as_tensor(x)

    def default(x, tol, table):
        if tol is not None and not isinstance(tol, dict):
            return tol
        dtype = x.dtype
        if dtype == torch.float32 and x.is_cuda and torch.cuda.get_device_capability(x.device)[0] >= 8:
            dtype = torch.float16
        if isinstance(tol, dict):  # keyed by NumPy dtypes, as MXNet looks them up
            name = str(dtype).replace("torch.", "")
            for key, value in tol.items():
                if type(key).__module__ == "numpy" and getattr(key, "name", None) == name:
                    return value
        if dtype not in table:
            raise KeyError(f"no default tolerance for {dtype}")
        return table[dtype]

    whole = (torch.bool, torch.int8, torch.uint8, torch.int32, torch.int64)
    rtols = {torch.float16: 1e-2, torch.float32: 1e-4, torch.float64: 1e-5, **{t: 0 for t in whole}}
    atols = {torch.float16: 1e-1, torch.float32: 1e-3, torch.float64: 1e-20, **{t: 0 for t in whole}}
    a, b = tensor(a), tensor(b)
    if not use_broadcast and a.shape != b.shape:
        raise AssertionError(f"{names[0]}.shape = {tuple(a.shape)} and {names[1]}.shape = {tuple(b.shape)} are not equal")
    rtol = max(default(a, rtol, rtols), default(b, rtol, rtols))
    atol = max(default(a, atol, atols), default(b, atol, atols))
    b = b.to(a.device)
    if a.dtype == torch.bool and b.dtype == torch.bool:
        if a.shape != b.shape and a.dim() and b.dim():
            raise AssertionError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} mismatch")
        if not bool(torch.all(a == b)):
            raise AssertionError(f"{names[0]} and {names[1]} differ at {int((a != b).sum())} of {max(a.numel(), b.numel())} places")
        return
    y = b if b.is_floating_point() else b.to(torch.float64)  # NumPy's isclose: b at least float
    common = torch.promote_types(a.dtype, y.dtype)
    x, y = a.to(common), y.to(common)
    close = torch.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(close.all()):
        return
    x, y = torch.broadcast_tensors(x, y)
    diff = torch.where(x == y, torch.zeros_like(x), (x - y).abs())
    violation = diff / (atol + rtol * y.abs() + 1e-20)
    violation = torch.where(close, torch.zeros_like(violation), torch.nan_to_num(violation, nan=float("inf")))
    where = tuple(int(i) for i in torch.unravel_index(violation.argmax(), violation.shape))
    raise AssertionError(
        f"Error {float(violation.max()):f} exceeds tolerance rtol={rtol:e}, atol={atol:e} "
        f"(mismatch {100.0 * int((~close).sum()) / close.numel():f}%).\n"
        f"Location of maximum error: {where}, {names[0]}={float(x[where]):.8f}, {names[1]}={float(y[where]):.8f}")


def _mx_same(a, b):
    """mx.test_utils.same: NumPy's array_equal, the same shape and the same values (NaN is
    never equal)."""
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    if a.shape != b.shape:
        return False
    common = torch.promote_types(a.dtype, b.dtype)
    return bool(torch.equal(a.to(common), b.to(device=a.device, dtype=common)))


def _mx_almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True):
    """mx.test_utils.almost_equal: NumPy's allclose with MXNet's default tolerances (rtol 1e-5,
    atol 1e-20), broadcasting unless use_broadcast=False (then the shapes must match)."""
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    if not use_broadcast and a.shape != b.shape:
        raise AssertionError(f"Shapes do not match: {tuple(a.shape)} vs {tuple(b.shape)}")
    common = torch.promote_types(torch.promote_types(a.dtype, b.dtype), torch.float64)
    close = torch.isclose(a.to(common), b.to(device=a.device, dtype=common), rtol=1e-5 if rtol is None else rtol,
                          atol=1e-20 if atol is None else atol, equal_nan=equal_nan)
    return bool(close.all())


class _mx_Symbol:
    """MXNet's Symbol where translated code tests for it (`isinstance(x, mx.sym.Symbol)`, gluonts'
    `getF`): translated code has no symbol graph, so no value is an instance, the test is False and
    the branch it guards is dead."""

    def __new__(cls, *args, **kwargs):
        raise NotImplementedError("MXNet's symbol API has no PyTorch translation")


def _mx_Context(device_type, device_id=0):
    """mx.Context(device_type, device_id): 'gpu' is CUDA device `device_id`; 'cpu', 'cpu_pinned'
    and 'cpu_shared' (MXNet's CPU memory pools) are torch's one CPU device; a device (MXNet: a
    Context) is copied."""
    if isinstance(device_type, torch.device):
        return device_type
    if device_type not in ("cpu", "cpu_pinned", "cpu_shared", "gpu"):
        raise KeyError(device_type)
    return torch.device("cuda", device_id) if device_type == "gpu" else torch.device("cpu")


def _mx_one_copy(namespace):
    """Note [one copy of each helper]: a process that imports several converted packages (a package
    and its tests, two top-level packages of one tree) loads one helper module per package. Each
    defined its own `_mx_cpu` and its own helper classes, so `fn == _mx_cpu` or an isinstance test
    across packages failed where MXNet's were one object. Each helper of this module takes the
    object an earlier helper module of the process defined for it, where that one's code, and the
    code of every helper it reaches, is the same as this one's: a helper edited in one package's
    module (a fix by hand, another version of xlate) keeps its own."""
    import hashlib
    import sys
    import types

    shared = sys.modules.get("_mx_one_copy")
    if shared is None:
        shared = sys.modules.setdefault("_mx_one_copy", types.ModuleType("_mx_one_copy", "xlate's helpers, one copy"))
    table = shared.__dict__.setdefault("helpers_by_name", {})
    helpers = {n: v for n, v in namespace.items() if n.startswith("_mx_") and n != "_mx_one_copy" and callable(v)}

    def code_parts(code, out, refs):
        out += [code.co_code, repr(code.co_names), repr(code.co_varnames), repr(code.co_freevars)]
        refs.update(n for n in code.co_names if n in helpers)
        if "globals" in code.co_names:  # `globals().get(name)` (`_mx_type`): it reaches whatever its module holds
            refs.update(helpers)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                code_parts(const, out, refs)
            else:
                out.append(repr(const))

    def parts(value, out, refs):
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            for part in (value.fget, value.fset, value.fdel):
                parts(part, out, refs)
        elif isinstance(value, types.FunctionType):
            code_parts(value.__code__, out, refs)
            out += [repr(value.__defaults__), repr(value.__kwdefaults__)]
        elif isinstance(value, type):
            out.append(value.__qualname__)
            for base in value.__bases__:
                out.append(base.__module__ + "." + base.__qualname__ if base.__name__ not in helpers else base.__name__)
                if base.__name__ in helpers:
                    refs.add(base.__name__)
            for key in sorted(value.__dict__):
                if key not in ("__module__", "__dict__", "__weakref__", "__doc__", "__qualname__"):
                    member = value.__dict__[key]
                    out.append(key)
                    if isinstance(member, type) and not member.__qualname__.startswith(value.__qualname__ + "."):
                        if member.__name__ in helpers:  # a class it holds, not defines
                            out.append(member.__name__)
                            refs.add(member.__name__)
                        else:
                            out.append(member.__module__ + "." + member.__qualname__)
                    else:
                        parts(member, out, refs)
        else:
            out.append(repr(value))

    own, reaches, closures = {}, {}, {}

    def own_digest(name):
        if name not in own:
            out, refs = [], set()
            parts(helpers[name], out, refs)
            own[name], reaches[name] = hashlib.sha1(repr(out).encode()).hexdigest(), refs
        return own[name]

    def digest(name):  # of the helper's code and of every helper it reaches, computed only when compared
        if name not in closures:
            seen, todo = {name}, [name]
            while todo:
                current = todo.pop()
                own_digest(current)
                for ref in reaches[current]:
                    if ref not in seen:
                        seen.add(ref)
                        todo.append(ref)
            closures[name] = hashlib.sha1(repr(sorted((n, own_digest(n)) for n in seen)).encode()).hexdigest()
        return closures[name]

    for name, value in helpers.items():
        entries = table.setdefault(name, [])  # [(that module's digest function, its object)]
        for other_digest, other in entries:
            if other is value or other_digest(name) == digest(name):
                namespace[name] = other
                break
        else:
            entries.append((digest, value))


def _mx_cpu(device_id=0):
    """`mx.cpu` handed on as a value (`ctx_fn=mx.cpu`; Note [functions compared as values]): one
    function, so a program comparing it (`if fn == mx.cpu:`) or keeping it as a key finds it again."""
    return torch.device("cpu")


def _mx_cpu_pinned(device_id=0):
    """`mx.cpu_pinned` handed on as a value: MXNet's pinned pool is torch's one CPU device; its own
    function, since MXNet's cpu_pinned is not its cpu."""
    return torch.device("cpu")


def _mx_gpu(device_id=0):
    """`mx.gpu` handed on as a value: CUDA device `device_id` (Note [functions compared as values])."""
    return torch.device("cuda", device_id)


class _mx_missing:
    """What a kept MXNet import binds where MXNet is not installed (Note [kept MXNet imports]
    in xlate/convert/imports.py): the module imports; the code left to translate raises
    ImportError naming the MXNet API when it runs; nothing is an instance of an MXNet type."""

    def __init__(self, name):
        self._mx_name = name

    def __getattr__(self, attr):
        if self._mx_name == "mxnet" and attr in ("__version__", "__name__"):
            # the module handed on as a value (`check_version(..., library=mxnet)`): the MXNet whose
            # semantics the translation reproduces, as `mx.__version__` written out translates (MX590)
            return "1.9.1" if attr == "__version__" else "mxnet"
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return _mx_missing(f"{self._mx_name}.{attr}")

    def _mx_raise(self, *args, **kwargs):
        raise ImportError(f"{self._mx_name} is MXNet code that xlate left to translate (the conversion report "
                          "names its line), and MXNet is not installed")

    __iter__ = __getitem__ = _mx_raise

    def __call__(self, *args, **kwargs):
        # MXNet's registries (`@mx.operator.register("name")`, `@mx.init.register`) run on import and
        # give the class back; without MXNet there is no registry to look it up in, and whatever would
        # use it is MXNet code that raises here, so the class is kept as it is and the module imports
        if self._mx_name.rsplit(".", 1)[-1] == "register":
            if len(args) == 1 and not kwargs and isinstance(args[0], type):
                return args[0]
            return lambda registered: registered
        self._mx_raise()

    def __mro_entries__(self, bases):
        # a class deriving from MXNet's (`class Iter(mx.io.DataIter)`) is defined on import, and
        # making one raises, naming the MXNet base
        name, missing = self._mx_name, self

        def refused(cls, *args, **kwargs):
            missing._mx_raise()

        return (type(name.rsplit(".", 1)[-1], (), {"__new__": refused, "__module__": __name__,
                                                    "__doc__": f"{name}: MXNet is not installed"}),)

    def __instancecheck__(self, instance):
        return False

    def __subclasscheck__(self, subclass):
        return False

    def __bool__(self):
        return True

    def __repr__(self):
        return f"<{self._mx_name}: MXNet is not installed>"


def _mx_asnumpy(x):
    """`x.asnumpy()` on a value the converter could not type: a tensor (an MXNet array,
    converted) as a NumPy array, copied from any device and out of autograd as MXNet's is (a copy
    on the CPU too, where torch's numpy() shares the tensor's memory); anything else calls its
    own asnumpy."""
    return x.detach().cpu().numpy().copy() if isinstance(x, torch.Tensor) else x.asnumpy()


def _mx_asscalar(x):
    """`x.asscalar()`: a one-element tensor's value as the NumPy scalar MXNet returns (`asnumpy()[0]`:
    np.float32 prints `0.1` where a Python float prints 0.10000000149011612, and has `.astype`,
    `.dtype`, `.round`); MXNet's ValueError on more elements. Anything that is no tensor (a value
    the converter could not type) calls its own asscalar."""
    if not isinstance(x, torch.Tensor):
        return x.asscalar()
    if x.numel() != 1:
        raise ValueError("The current array is not a scalar")
    return x.detach().cpu().numpy().reshape(())[()]


def _mx_tostype(x, stype):
    """`x.tostype(stype)`: the array in MXNet's storage type 'default', 'csr' or 'row_sparse'. The
    converted code computes with dense tensors, so it is a dense copy holding the same values
    (MXNet's is a new array too: writing into it leaves x as it was); a sparse tensor is made
    dense. A value that is no tensor calls its own tostype."""
    if not isinstance(x, torch.Tensor):
        return x.tostype(stype)
    if stype not in ("default", "csr", "row_sparse"):
        raise ValueError(f"unknown storage type {stype!r}: MXNet's are 'default', 'csr' and 'row_sparse'")
    return (x.to_dense() if x.layout != torch.strided else x).clone()


def _mx_as_in_context(x, context):
    """`x.as_in_context(ctx)` on a value the converter could not type: a tensor on that device
    (itself when it is there already, as MXNet's); anything else its own as_in_context."""
    return x.to(context) if isinstance(x, torch.Tensor) else x.as_in_context(context)


def _mx_as_in_ctx(x, ctx):
    """`x.as_in_ctx(ctx)` on a value the converter could not type: as `_mx_as_in_context`."""
    return x.to(ctx) if isinstance(x, torch.Tensor) else x.as_in_ctx(ctx)


def _mx_expand_dims(x, axis, inplace=False):
    """`x.expand_dims(axis, inplace=False)` on a value the converter could not type: a tensor gets
    a new axis of size 1 at `axis` (MXNet's inplace=True shares the data, as torch's unsqueeze
    does); anything else uses its own expand_dims, with `inplace` only where it was given."""
    if isinstance(x, torch.Tensor):
        return x.unsqueeze(axis)
    return x.expand_dims(axis, inplace=True) if inplace else x.expand_dims(axis)


def _mx_nd_scalar(x):
    """An element read from an MXNet NDArray by integers alone (`x[i]` of a vector, `x[i, j]` of a
    matrix): MXNet 1.x has no 0-d arrays and gives shape (1,), where torch gives a 0-d tensor. Any
    other result (a row, a value that is no tensor) is returned as it is; the (1,) is a view too."""
    return x.reshape(1) if isinstance(x, torch.Tensor) and x.dim() == 0 else x


def _mx_as_element(v):
    """What `x[i] += v` adds to an NDArray's element (MX017): MXNet's element and a reduction's
    result are (1,); torch's element is 0-d and its in-place operators refuse a (1,) operand, so a
    one-element vector is given as 0-d. Any other value is returned as it is."""
    return v.reshape(()) if isinstance(v, torch.Tensor) and v.dim() == 1 and v.shape[0] == 1 else v


def _mx_flatten_method(x, *args, **kwargs):
    """`x.flatten()` on a value the converter could not type: a tensor (an MXNet array, converted)
    keeps its first axis, as MXNet's flatten does ((N, 1) for a vector, and an empty batch stays
    (0, k)); anything else, a NumPy array say, uses its own flatten (1-D). MXNet's method takes no
    arguments: given some, it is the value's own flatten (torch's `flatten(1)`, NumPy's `flatten('F')`)."""
    if isinstance(x, torch.Tensor) and x.dim() >= 1 and not args and not kwargs:
        return x.reshape(x.shape[0], x.shape[1:].numel())
    return x.flatten(*args, **kwargs)


def _mx_zeros_like(x, *args, **kwargs):
    """`x.zeros_like()` on a value the converter could not type: a tensor gets zeros of its shape
    and dtype (MXNet ignores a dtype= here); anything else uses its own zeros_like."""
    return torch.zeros_like(x) if isinstance(x, torch.Tensor) else x.zeros_like(*args, **kwargs)


def _mx_ones_like(x, *args, **kwargs):
    """`x.ones_like()` on a value the converter could not type: as `_mx_zeros_like`, with ones."""
    return torch.ones_like(x) if isinstance(x, torch.Tensor) else x.ones_like(*args, **kwargs)


def _mx_compare(a, op, b):
    """`a > b` (`==`, `!=`, `<`, `<=`, `>=`) where the converter could not type either side (MX542): MXNet
    compares arrays to 0 and 1 in the arrays' dtype, torch to bool, which `x - 1` and `mean()` refuse and
    `sum()` counts in int64. A torch result is given in the dtype of its tensor operand (where both are,
    the floating one: MXNet's argmax gave float32 where torch's gives int64, and MXNet compares arrays of
    one dtype); any other result (Python's bool, a NumPy array's) is returned as it is. A Python float
    compared with an integer tensor is first cast to its dtype, truncated, as MXNet casts a scalar operand
    (`x >= 1.5` on int32 is `x >= 1` there)."""
    if isinstance(a, torch.Tensor) and isinstance(b, float) and not a.is_floating_point() and abs(b) < 2 ** 31:
        b = int(b)  # NumPy's float64 is a float too
    elif isinstance(b, torch.Tensor) and isinstance(a, float) and not b.is_floating_point() and abs(a) < 2 ** 31:
        a = int(a)
    r = (a == b if op == "==" else a != b if op == "!=" else a < b if op == "<" else a <= b if op == "<="
         else a > b if op == ">" else a >= b)
    if isinstance(r, torch.Tensor) and r.dtype == torch.bool:
        like = a if isinstance(a, torch.Tensor) else b
        if like is a and isinstance(b, torch.Tensor) and b.is_floating_point() and not a.is_floating_point():
            like = b
        if isinstance(like, torch.Tensor) and like.dtype != torch.bool:
            return r.to(like.dtype)
    return r


def _mx_reduce_method(x, op, *args, **kwargs):
    """`x.max(axis=...)` / `x.min(axis=...)` (and sum/mean/prod) on a value the converter could not
    type: a tensor is reduced as MXNet's NDArray method, `(axis=None, keepdims=False, exclude=False)`:
    amax/amin over the axes, never 0-d (a reduction of every axis is (1,)); a NumPy array or any
    other value uses its own method with the arguments as written."""
    if not isinstance(x, torch.Tensor):
        return getattr(x, op)(*args, **kwargs)
    bound = dict(zip(("axis", "keepdims", "exclude"), args), **kwargs)
    axis, keepdims = bound.get("axis"), bool(bound.get("keepdims", False))
    if axis is not None and axis != () and bound.get("exclude"):
        return _mx_reduce_exclude(x, axis, op, keepdims=keepdims)
    if axis is None or axis == ():
        axis = tuple(range(x.dim()))
    return _mx_reduce_axes(x, axis, op, keepdims)
