"""MXNet operators (`nd.*`, `F.*` in hybrid_forward) where no plain torch expression is exact.

Note [operator helpers]
Each helper takes the MXNet operator's own signature: the same parameter names, order and
defaults (MXNet's `_Null` written as the operator's documented default), `out=` and `name=`
included. A call whose arguments the converter cannot bind statically (`F.concat(*xs,
**kw)`, `F.contrib.BilinearResize2D(x, **self._up_kwargs)`) is written verbatim with the
helper as the function (Note [Gluon-signature modules] in layers.py), so the helper decides
at run time what the static rule decides from literals. Arguments that only tune MXNet's
kernels (`workspace`, `cudnn_tune`, `cudnn_off`) or name the symbol node (`name`) are
accepted and ignored: they never change a value. A value the helper cannot honour (`out=`,
a channel-last `layout`, a mode torch has no counterpart for) raises at run time with what
to do instead. tests/test_numeric_ndarray.py compares each with MXNet 1.9.1.
"""
import torch


def _mx_no_out(out):
    """MXNet's `out=` writes the result into an existing array: refused (the helpers return it)."""
    if out is not None:
        raise NotImplementedError("out= (writing into an existing array) is not translated: assign the result")


def _mx_concat(*data, dim=1, num_args=None, out=None, name=None):
    """MXNet concat: joins along `dim`, 1 by default (torch.cat's default is 0). A 0-d tensor
    joins as (1,): MXNet 1.x has no 0-d arrays (`x[i]` of a 1-D array is (1,) there)."""
    _mx_no_out(out)
    return torch.cat([t.reshape(1) if t.dim() == 0 else t for t in data], dim=dim)


def _mx_extremum(lhs, rhs, larger):
    """MXNet's maximum (larger) or minimum: a Python number on either side, as MXNet takes it
    (torch.maximum needs two tensors: a number clamps); two numbers give the larger (smaller); two
    arrays with MXNet's gradient at ties, all of it to lhs."""
    tensors = isinstance(lhs, torch.Tensor), isinstance(rhs, torch.Tensor)
    if all(tensors):
        value = (torch.maximum if larger else torch.minimum)(lhs, rhs)
        if not (lhs.requires_grad or rhs.requires_grad):
            return value
        # Note [tied extrema]: where the two are equal MXNet gives the whole gradient to lhs (measured
        # on maximum, minimum and their broadcast_ forms), torch.maximum half to each side; the value is
        # torch's, NaN from either side included
        pick = torch.where(lhs >= rhs if larger else lhs <= rhs, lhs, rhs)
        return torch.where(torch.isnan(value), value, pick)
    if any(tensors):
        x, bound = (lhs, rhs) if tensors[0] else (rhs, lhs)
        return torch.clamp(x, min=bound) if larger else torch.clamp(x, max=bound)
    return (lhs if lhs > rhs else rhs) if larger else (lhs if lhs < rhs else rhs)


def _mx_maximum(lhs, rhs):
    """MXNet's maximum of two arrays, an array and a number, or two numbers."""
    return _mx_extremum(lhs, rhs, True)


def _mx_minimum(lhs, rhs):
    """MXNet's minimum of two arrays, an array and a number, or two numbers."""
    return _mx_extremum(lhs, rhs, False)


def _mx_stack(*data, axis=0, num_args=None, out=None, name=None):
    """MXNet stack: a new axis `axis` (0 by default). A 0-d tensor stacks as (1,), as MXNet 1.x
    sees it: stacking N of them gives (N, 1)."""
    _mx_no_out(out)
    return torch.stack([t.reshape(1) if t.dim() == 0 else t for t in data], dim=axis)


def _mx_clip(data=None, a_min=None, a_max=None, out=None, name=None):
    """MXNet clip: torch.clamp."""
    _mx_no_out(out)
    return torch.clamp(data, a_min, a_max)


def _mx_leaky_relu(data=None, gamma=None, act_type="leaky", slope=0.25, lower_bound=0.125, upper_bound=0.334,
                   out=None, name=None):
    """MXNet LeakyReLU by act_type: 'leaky' (slope 0.25), 'elu' (alpha = slope), 'selu', 'gelu' (erf
    form), 'prelu' (gamma per channel on axis 1, or shared)."""
    _mx_no_out(out)
    F = torch.nn.functional
    if act_type == "leaky":
        return F.leaky_relu(data, slope)
    if act_type == "elu":
        return F.elu(data, slope)
    if act_type == "selu":
        return torch.selu(data)
    if act_type == "gelu":
        return F.gelu(data)
    if act_type == "prelu":
        return F.prelu(data, gamma)
    raise NotImplementedError(f"LeakyReLU act_type={act_type!r} is not translated (rrelu: MXNet returns "
                              "[output, mask] and draws its slopes while recording; write F.rrelu by hand)")


def _mx_softmax(data=None, length=None, axis=-1, temperature=None, dtype=None, use_length=False, out=None,
                name=None):
    """MXNet softmax (nd.softmax, npx.softmax): over `axis` (-1 by default), the input divided by
    `temperature` first. With use_length, `length` (integers, the input's shape without `axis`)
    keeps the first `length` positions along the axis: the others are 0, and a length of 0 gives
    a row of zeros, not NaN (docs/semantics/numpy_dialect.md N7.2, N7.3)."""
    _mx_no_out(out)
    x = data if temperature is None or temperature == 1.0 else data / temperature
    if not use_length:
        return torch.softmax(x, dim=axis, dtype=_mx_dtype(dtype))
    if length is None or length.is_floating_point():
        raise TypeError("softmax with use_length=True takes integer lengths, as MXNet does")
    axis = axis % x.dim()
    steps = torch.arange(x.shape[axis], device=x.device).reshape((-1,) + (1,) * (x.dim() - axis - 1))
    keep = steps < length.to(x.device).unsqueeze(axis)
    low = torch.finfo(x.dtype).min  # a finite fill: a row with nothing kept gives no NaN
    return torch.softmax(x.masked_fill(~keep, low), dim=axis, dtype=_mx_dtype(dtype)).masked_fill(~keep, 0.0)


def _mx_log_softmax(data=None, axis=-1, temperature=None, dtype=None, use_length=False, out=None, name=None):
    """MXNet log_softmax: over `axis` (-1 by default), the input divided by `temperature` first."""
    _mx_no_out(out)
    if use_length:
        raise NotImplementedError("log_softmax with use_length=True is not translated")
    x = data if temperature is None or temperature == 1.0 else data / temperature
    return torch.log_softmax(x, dim=axis, dtype=_mx_dtype(dtype))


def _mx_permute_axes(data=None, axes=(), out=None, name=None):
    """MXNet transpose: a full permutation; none reverses every axis."""
    _mx_no_out(out)
    axes = tuple(axes) if axes else tuple(reversed(range(data.dim())))
    return data.permute(axes)


def _mx_fully_connected(data=None, weight=None, bias=None, num_hidden=None, no_bias=False, flatten=True, out=None,
                        name=None):
    """MXNet's FullyConnected operator: data @ weight.T + bias, weight (num_hidden, in); with
    flatten=True (the default) every axis after the first is folded into one first (a 1-D input
    is (N, 1)), else the last axis alone is transformed. A bias is needed unless no_bias. A weight
    whose input size Gluon defers (`in_units=0`: sockeye's QuantizableDense hands its own
    parameters to this operator) takes it from the data here, as MXNet's shape inference does
    (Note [deferred parameters] in init.py)."""
    _mx_no_out(out)
    if torch.nn.parameter.is_lazy(weight) and num_hidden is not None:
        _mx_set_shape(weight, (int(num_hidden), (data[0].numel() if data.dim() > 1 else 1) if flatten
                               else data.shape[-1]))
    if bias is not None and torch.nn.parameter.is_lazy(bias) and num_hidden is not None:
        _mx_set_shape(bias, (int(num_hidden),))
    if num_hidden is not None and weight.shape[0] != int(num_hidden):
        raise ValueError(f"FullyConnected: weight has {weight.shape[0]} rows, num_hidden is {num_hidden}")
    if bias is None and not no_bias:
        raise ValueError("FullyConnected: a bias is required unless no_bias=True")
    x = data
    if flatten:
        x = x.flatten(1) if x.dim() > 1 else x.unsqueeze(1)
    return torch.nn.functional.linear(x, weight, None if no_bias else bias)


def _mx_embedding(data=None, weight=None, input_dim=None, output_dim=None, dtype="float32", sparse_grad=False,
                  out=None, name=None):
    """MXNet's Embedding operator: the rows of weight (input_dim, output_dim) that `data` names;
    float indices are truncated and every index is clipped into [0, input_dim - 1], where
    torch's embedding refuses one out of range. The gradient adds up into the rows used."""
    _mx_no_out(out)
    index = data.to(torch.int64).clamp(0, weight.shape[0] - 1)
    return torch.nn.functional.embedding(index, weight)


def _mx_slice_axis(data=None, axis=None, begin=None, end=None, out=None, name=None):
    """MXNet slice_axis: data[begin:end] along `axis`; end None runs to the end."""
    _mx_no_out(out)
    index = [slice(None)] * data.dim()
    index[axis] = slice(begin, end)
    return data[tuple(index)]


def _mx_split(data=None, num_outputs=None, axis=1, squeeze_axis=False, out=None, name=None):
    """MXNet split/SliceChannel: `num_outputs` equal pieces along `axis` (1 by default), each
    without that axis with squeeze_axis; one output is the array itself, not a list."""
    _mx_no_out(out)
    size = data.shape[axis]
    if size % num_outputs:
        raise ValueError(f"split: axis {axis} of size {size} does not divide into {num_outputs} pieces")
    parts = [p.squeeze(axis) if squeeze_axis else p for p in torch.split(data, size // num_outputs, dim=axis)]
    if num_outputs == 1:
        return parts[0] if squeeze_axis else data.clone()
    return parts


def _mx_slice(data=None, begin=None, end=None, step=(), out=None, name=None):
    """MXNet slice: Python slicing per axis (None begin/end/step as in Python); a negative step,
    which torch's indexing refuses, takes the elements in reverse order. MXNet reads a bare int
    (or None) as a 1-tuple: `begin=i, end=i + 1` slices the first axis."""
    _mx_no_out(out)
    begin, end, step = [(v,) if v is None or isinstance(v, int) else v for v in (begin, end, step)]
    index = []
    for i, (b, e) in enumerate(zip(begin, end)):
        s = step[i] if i < len(step) and step[i] is not None else 1
        if s > 0:
            index.append(slice(b, e, s))
        else:
            ids = list(range(*slice(b, e, s).indices(data.shape[i])))
            index.append(torch.tensor(ids, dtype=torch.int64, device=data.device))
    if not any(isinstance(k, torch.Tensor) for k in index):
        return data[tuple(index)]
    result = data
    for axis, k in enumerate(index):  # one axis at a time: index tensors on several axes would pair up
        result = result[(slice(None),) * axis + (k,)]
    return result


def _mx_slice_like(data=None, shape_like=None, axes=(), out=None, name=None):
    """MXNet slice_like: the first shape_like.shape[a] elements along each axis a of `axes` (every
    axis by default)."""
    _mx_no_out(out)
    index = [slice(None)] * data.dim()
    for a in (axes if len(axes) else range(data.dim())):
        index[a % data.dim()] = slice(0, shape_like.shape[a % data.dim()])
    return data[tuple(index)]


def _mx_crop(*data, offset=(0, 0), h_w=(0, 0), center_crop=False, num_args=None, out=None, name=None):
    """MXNet Crop: the height and width of an NCHW `data[0]` cut to `data[1]`'s (when given) or to
    `h_w`, from `offset` or centred (the offset rounded down); `data[1]` gets no gradient."""
    _mx_no_out(out)
    x = data[0]
    h, w = tuple(data[1].shape[2:4]) if len(data) > 1 else tuple(h_w)
    top, left = ((x.shape[2] - h) // 2, (x.shape[3] - w) // 2) if center_crop else tuple(offset)
    return x[:, :, top:top + h, left:left + w]


def _mx_reshape_like(lhs=None, rhs=None, lhs_begin=None, lhs_end=None, rhs_begin=None, rhs_end=None, out=None,
                     name=None):
    """MXNet reshape_like: lhs.shape[lhs_begin:lhs_end] replaced by rhs.shape[rhs_begin:rhs_end]
    (None: the start / the end, negative: from the end, as Python slices)."""
    _mx_no_out(out)
    return lhs.reshape(lhs.shape[:lhs_begin or 0] + rhs.shape[rhs_begin:rhs_end] +
                       (lhs.shape[lhs_end:] if lhs_end is not None else ()))


def _mx_broadcast_like(lhs=None, rhs=None, lhs_axes=None, rhs_axes=None, out=None, name=None):
    """MXNet broadcast_like: lhs expanded to rhs's shape, or only its `lhs_axes` to the sizes of
    rhs's `rhs_axes` (an int or a tuple each)."""
    _mx_no_out(out)
    if lhs_axes is None and rhs_axes is None:
        return lhs.expand_as(rhs)
    lhs_axes = (lhs_axes,) if isinstance(lhs_axes, int) else tuple(lhs_axes)
    rhs_axes = (rhs_axes,) if isinstance(rhs_axes, int) else tuple(rhs_axes)
    shape = list(lhs.shape)
    for a, b in zip(lhs_axes, rhs_axes):
        shape[a] = rhs.shape[b]
    return lhs.expand(shape)


def _mx_broadcast_div(lhs=None, rhs=None, out=None, name=None):
    """MXNet's broadcast_div / elemwise_div / divide: arrays of an integer dtype divide as
    integers, truncated toward zero as C divides (-7 / 2 is -3), and stay integers (CenterNet's
    class of a flat index); a Python number beside one is first cast to that dtype, as MXNet's
    scalar operators do (int32 [7] / 2.5 is [3]). Others divide as torch's `/`."""
    _mx_no_out(out)
    tensors = [v for v in (lhs, rhs) if isinstance(v, torch.Tensor)]
    if not tensors or not all(_mx_integral(t) for t in tensors):
        return lhs / rhs
    like = tensors[0]
    lhs, rhs = (v if isinstance(v, torch.Tensor) else torch.tensor(int(v), dtype=like.dtype, device=like.device)
                for v in (lhs, rhs))
    return torch.div(lhs, rhs, rounding_mode="trunc")


def _mx_integral(tensor):
    return not (tensor.dtype.is_floating_point or tensor.dtype.is_complex or tensor.dtype == torch.bool)


def _mx_broadcast_mod(lhs=None, rhs=None, out=None, name=None):
    """MXNet broadcast_mod: Python's % (the sign of the divisor), and 0 where the divisor is 0
    (torch.remainder gives NaN there, or raises on integers)."""
    _mx_no_out(out)
    rhs = torch.as_tensor(rhs, dtype=lhs.dtype, device=lhs.device)
    zero = rhs == 0
    safe = torch.where(zero, torch.ones_like(rhs), rhs)
    # 0 at a zero divisor, with MXNet's gradient 1 for lhs there
    nothing = lhs - lhs.detach() if lhs.dtype.is_floating_point else torch.zeros_like(lhs)
    return torch.where(zero, nothing, torch.remainder(lhs, safe))


def _mx_vector_norm(data=None, ord=2, axis=None, out_dtype=None, keepdims=False, out=None, name=None):
    """MXNet norm (ord 1 or 2): over `axis` (every axis when None); never 0-d, as MXNet 1.x has no
    0-d arrays."""
    _mx_no_out(out)
    if ord not in (1, 2):
        raise ValueError(f"norm: MXNet supports ord 1 and 2, not {ord!r}")
    result = torch.linalg.vector_norm(data, ord, dim=axis, keepdim=keepdims)
    result = torch.atleast_1d(result)
    return result if out_dtype is None else result.to(_mx_dtype(out_dtype))


def _mx_l2_normalization(data=None, eps=1e-10, mode="instance", out=None, name=None):
    """MXNet L2Normalization: data / sqrt(sum(data^2) + eps) over every axis but the first
    ('instance'), axis 1 ('channel') or the axes after the second ('spatial')."""
    _mx_no_out(out)
    axes = {"instance": range(1, data.dim()), "channel": (1,), "spatial": range(2, data.dim())}[mode]
    square = data * data
    total = square.sum(dim=tuple(axes), keepdim=True) if len(axes) else square  # dim=() would sum all
    return data / torch.sqrt(total + eps)


def _mx_reverse(data=None, axis=None, out=None, name=None):
    """MXNet reverse/flip along `axis` (an int or a tuple)."""
    _mx_no_out(out)
    return torch.flip(data, (axis,) if isinstance(axis, int) else tuple(axis))


def _mx_fluent_method(x, _mx_method, *args, **kwargs):
    """`x.flip(axis=...)`, `x.swapaxes(dim1=, dim2=)`, `x.sort/argsort(is_ascend=...)`, `x.clip(a_min=,
    a_max=)` (MXNet's own keywords) on a value the converter could not type: a tensor (an MXNet array,
    converted) as MXNet's fluent method computes it, any other value its own method (Note [array methods
    without a method rule])."""
    if not isinstance(x, torch.Tensor):
        return getattr(x, _mx_method)(*args, **kwargs)
    if _mx_method == "flip":
        return _mx_reverse(x, *args, **kwargs)
    if _mx_method == "clip":
        return _mx_clip(x, *args, **kwargs)
    if _mx_method == "swapaxes":
        return (lambda dim1=0, dim2=0: torch.swapaxes(x, dim1, dim2))(*args, **kwargs)

    def ordered(axis=-1, is_ascend=True, dtype="float32"):
        found = torch.sort(x, dim=axis, descending=not is_ascend, stable=True)
        return found.values if _mx_method == "sort" else found.indices.to(_mx_dtype(dtype))
    return ordered(*args, **kwargs)


def _mx_shape_array(data=None, out=None, name=None):
    """MXNet shape_array: the shape as an int64 array on the input's device."""
    _mx_no_out(out)
    return torch.tensor(data.shape, dtype=torch.int64, device=data.device)


def _mx_arange_like(data=None, start=0.0, step=1.0, repeat=1, ctx=None, axis=None, out=None, name=None):
    """MXNet contrib.arange_like: start + step * (i // repeat) in the input's dtype, over the size of
    `axis`, or over every element and shaped like the input when axis is None."""
    _mx_no_out(out)
    n = data.numel() if axis is None else data.shape[axis]
    i = torch.div(torch.arange(n, device=data.device), repeat, rounding_mode="floor")
    values = (start + step * i.double()).to(data.dtype)
    return values.reshape(data.shape) if axis is None else values


def _mx_index_array(data=None, axes=None, out=None, name=None):
    """MXNet contrib.index_array: int64, shape data.shape + (len(axes),), each element's index along
    `axes` in their order (every axis when None)."""
    _mx_no_out(out)
    axes = range(data.dim()) if axes is None else [a % data.dim() for a in axes]
    grids = torch.meshgrid(*[torch.arange(n, device=data.device) for n in data.shape], indexing="ij")
    return torch.stack([grids[a] for a in axes], dim=-1) if data.dim() else torch.zeros((0,), dtype=torch.int64)


def _mx_dropout(data=None, p=0.5, mode="training", axes=(), cudnn_off=False, out=None, name=None, *, training):
    """MXNet Dropout: kept units scaled by 1 / (1 - p), one mask shared along `axes`; 'training'
    drops only in training mode (autograd.is_training()), 'always' whenever it runs. `training`
    is the module's mode (the translation passes `self.training`)."""
    _mx_no_out(out)
    if not (training or mode == "always") or p == 0:
        return data
    shape = list(data.shape)
    for a in axes:
        shape[a] = 1
    mask = torch.empty(shape, dtype=data.dtype, device=data.device).bernoulli_(1 - p)
    return data * mask / (1 - p)


def _mx_batch_norm(data=None, gamma=None, beta=None, moving_mean=None, moving_var=None, eps=1e-3, momentum=0.9,
                   fix_gamma=True, use_global_stats=False, output_mean_var=False, axis=1, cudnn_off=False,
                   min_calib_range=None, max_calib_range=None, out=None, name=None, *, training):
    """MXNet BatchNorm operator. In training mode (`training`: the module's, as MXNet's
    autograd.is_training()) without use_global_stats it normalises with the batch statistics
    and updates moving_mean/moving_var in place (MXNet: in its backward pass), weighing the old
    value by `momentum`, with the biased variance. fix_gamma (the default) uses gamma = 1 and,
    as MXNet does, writes ones into gamma. A parameter of deferred shape (a block's own
    `params.get(..., shape=(0,))`) gets the data's channel count, as MXNet's shape inference gives it."""
    _mx_no_out(out)
    if output_mean_var:
        raise NotImplementedError("BatchNorm output_mean_var=True is not translated: compute "
                                  "torch.var_mean over the other axes by hand")
    for p in (gamma, beta, moving_mean, moving_var):  # a deferred (in_channels=0) parameter: MXNet infers it here
        if isinstance(p, torch.nn.parameter.UninitializedParameter):
            _mx_set_shape(p, (data.shape[axis],))
    h = data.movedim(axis, 1)
    weight = gamma
    if fix_gamma:
        with torch.no_grad():
            gamma.fill_(1.0)
        weight = None
    if training and not use_global_stats:
        with torch.no_grad():
            var, mean = torch.var_mean(h, [0] + list(range(2, h.dim())), correction=0)
            moving_mean.mul_(momentum).add_(mean, alpha=1 - momentum)
            moving_var.mul_(momentum).add_(var, alpha=1 - momentum)
        y = torch.nn.functional.batch_norm(h.contiguous(), None, None, weight, beta, True, 0.0, eps)
    else:
        y = torch.nn.functional.batch_norm(h.contiguous(), moving_mean, moving_var, weight, beta, False, 0.0, eps)
    if y.requires_grad:
        # torch's CPU batch_norm backward returns wrong gradients when its input and output
        # gradient are laid out differently and a dimension has size 1 (torch 2.13)
        y = _mx_OnBackward.apply(y, torch.Tensor.contiguous)
    return y.movedim(1, axis)


def _mx_box_iou(lhs=None, rhs=None, format="corner", out=None, name=None):
    """MXNet contrib.box_iou: IoU of every box of lhs (..., 4) with every box of rhs (..., 4), shape
    lhs.shape[:-1] + rhs.shape[:-1]; 0 where the boxes do not overlap; a box with a negative side
    has area 0. MXNet's gradient is zero: the result is detached."""
    _mx_no_out(out)
    a, b = lhs.detach().reshape(-1, 4), rhs.detach().reshape(-1, 4)
    inter = _mx_box_intersection(_mx_box_corners(a, format)[:, None], _mx_box_corners(b, format)[None, :])
    union = _mx_box_area(a, format)[:, None] + _mx_box_area(b, format)[None, :] - inter
    iou = torch.where(inter > 0, inter / torch.where(inter > 0, union, torch.ones_like(union)),
                      torch.zeros_like(inter))
    return iou.reshape(lhs.shape[:-1] + rhs.shape[:-1])


def _mx_box_corners(boxes, format):
    """Boxes (..., 4) as (xmin, ymin, xmax, ymax) from MXNet's 'corner' or 'center' (x, y, w, h) format."""
    if format == "corner":
        return boxes
    if format != "center":
        raise ValueError(f"box format {format!r} is not one of 'corner', 'center'")
    half = boxes[..., 2:] / 2
    return torch.cat([boxes[..., :2] - half, boxes[..., :2] + half], dim=-1)


def _mx_box_area(boxes, format):
    """Box areas in MXNet's 'corner' or 'center' format; 0 for a negative width or height."""
    if format == "corner":
        w, h = boxes[..., 2] - boxes[..., 0], boxes[..., 3] - boxes[..., 1]
    else:
        w, h = boxes[..., 2], boxes[..., 3]
    return torch.where((w < 0) | (h < 0), torch.zeros_like(w), w * h)


def _mx_box_intersection(a, b):
    """Overlap area of corner boxes (broadcast), each side clipped at 0."""
    w = (torch.minimum(a[..., 2], b[..., 2]) - torch.maximum(a[..., 0], b[..., 0])).clamp(min=0)
    h = (torch.minimum(a[..., 3], b[..., 3]) - torch.maximum(a[..., 1], b[..., 1])).clamp(min=0)
    return w * h


def _mx_box_nms(data=None, overlap_thresh=0.5, valid_thresh=0, topk=-1, coord_start=2, score_index=1,
                id_index=-1, background_id=-1, force_suppress=False, in_format="corner", out_format="corner",
                out=None, name=None):
    """MXNet contrib.box_nms on (..., n, k) boxes: per batch, the boxes scoring above valid_thresh
    (and not of background_id) sorted by score (descending, stable), the first `topk` kept,
    greedy suppression of a box whose IoU with a kept higher-scoring one exceeds overlap_thresh
    (only within its class unless force_suppress), the kept rows first in score order, -1 rows
    after. Gradients go to the kept rows' positions in the input, unchanged by a format
    conversion, as MXNet's backward does."""
    _mx_no_out(out)
    shape = data.shape
    rows = data.reshape(-1, shape[-2], shape[-1])
    n = shape[-2]
    k = n if topk < 0 else min(n, topk)
    if k < 1:  # MXNet returns its input unchanged
        return data.clone()
    kept = []
    for batch in rows:
        scores = batch[:, score_index].detach()
        valid = scores > valid_thresh
        if id_index >= 0 and background_id >= 0:
            valid &= batch[:, id_index].detach() != background_id
        order = torch.sort(torch.where(valid, scores, torch.full_like(scores, float("-inf"))),
                           descending=True, stable=True).indices[:min(k, int(valid.sum()))]
        boxes = batch.detach()[order, coord_start:coord_start + 4]
        corners, area = _mx_box_corners(boxes, in_format), _mx_box_area(boxes, in_format)
        classes = batch.detach()[order, id_index] if id_index >= 0 and not force_suppress else None
        keep = torch.ones(len(order), dtype=torch.bool, device=data.device)
        for i in range(len(order)):
            if not keep[i]:
                continue
            inter = _mx_box_intersection(corners[i], corners[i + 1:])
            over = inter / (area[i] + area[i + 1:] - inter) > overlap_thresh
            if classes is not None:
                over &= classes[i + 1:] == classes[i]
            keep[i + 1:] &= ~over
        kept.append(order[keep])
    out_rows = []
    for batch, idx in zip(rows, kept):
        picked = batch[idx]
        if in_format != out_format:
            coords = picked[:, coord_start:coord_start + 4]
            moved = _mx_box_convert(coords, out_format)
            # MXNet converts only boxes whose first coordinate is >= 0, and its backward passes the
            # gradient through unchanged
            moved = torch.where(coords[:, :1] >= 0, moved, coords)
            picked = torch.cat([picked[:, :coord_start], coords + (moved - coords).detach(),
                                picked[:, coord_start + 4:]], dim=1)
        pad = batch.new_full((n - len(idx), shape[-1]), -1.0).detach()
        out_rows.append(torch.cat([picked, pad], dim=0))
    return torch.stack(out_rows).reshape(shape)


def _mx_box_convert(boxes, to):
    """Corner boxes to center ones (`to`='center') or center to corner ('corner')."""
    if to == "corner":
        return _mx_box_corners(boxes, "center")
    return torch.cat([(boxes[..., :2] + boxes[..., 2:]) / 2, boxes[..., 2:] - boxes[..., :2]], dim=-1)


def _mx_heads_split(data, heads, parts, part):
    """Part `part` of MXNet's interleaved projection (seq, batch, heads * parts * d), laid out per
    head as `parts` blocks of d: as (batch * heads, seq, d), the layout of MXNet's attention."""
    seq, batch, width = data.shape
    d = width // (heads * parts)
    return data.reshape(seq, batch, heads, parts, d)[:, :, :, part, :].permute(1, 2, 0, 3).reshape(batch * heads, seq, d)


def _mx_heads_join(data, heads):
    """(batch * heads, seq, d) back to MXNet's (seq, batch, heads * d)."""
    bh, seq, d = data.shape
    return data.reshape(bh // heads, heads, seq, d).permute(2, 0, 1, 3).reshape(seq, bh // heads, heads * d)


def _mx_interleaved_matmul_selfatt_qk(queries_keys_values, heads, out=None, name=None):
    """MXNet's contrib.interleaved_matmul_selfatt_qk: the projection (seq, batch, heads*3*d) holds
    each head's query, key and value blocks side by side; returns query @ key^T with the query
    scaled by 1/sqrt(d), as (batch * heads, seq, seq)."""
    _mx_no_out(out)
    q = _mx_heads_split(queries_keys_values, heads, 3, 0)
    k = _mx_heads_split(queries_keys_values, heads, 3, 1)
    return torch.bmm(q / q.shape[-1] ** 0.5, k.transpose(1, 2))


def _mx_interleaved_matmul_selfatt_valatt(queries_keys_values, attention, heads, out=None, name=None):
    """MXNet's contrib.interleaved_matmul_selfatt_valatt: attention (batch * heads, seq, seq) times
    each head's value block of the interleaved projection, as (seq, batch, heads * d)."""
    _mx_no_out(out)
    return _mx_heads_join(torch.bmm(attention, _mx_heads_split(queries_keys_values, heads, 3, 2)), heads)


def _mx_interleaved_matmul_encdec_qk(queries, keys_values, heads, out=None, name=None):
    """MXNet's contrib.interleaved_matmul_encdec_qk: queries (qlen, batch, heads*d) against the key
    blocks of keys_values (klen, batch, heads*2*d, each head's key then value), the query scaled by
    1/sqrt(d); (batch * heads, qlen, klen)."""
    _mx_no_out(out)
    q = _mx_heads_split(queries, heads, 1, 0)
    k = _mx_heads_split(keys_values, heads, 2, 0)
    return torch.bmm(q / q.shape[-1] ** 0.5, k.transpose(1, 2))


def _mx_interleaved_matmul_encdec_valatt(keys_values, attention, heads, out=None, name=None):
    """MXNet's contrib.interleaved_matmul_encdec_valatt: attention (batch * heads, qlen, klen) times
    the value blocks of keys_values (klen, batch, heads*2*d); (qlen, batch, heads * d)."""
    _mx_no_out(out)
    return _mx_heads_join(torch.bmm(attention, _mx_heads_split(keys_values, heads, 2, 1)), heads)


def _mx_broadcast_logical_and(lhs=None, rhs=None, out=None, name=None):
    """MXNet's broadcast_logical_and: 1 where both are non-zero, else 0, in the input's dtype
    (torch's logical_and gives bool)."""
    _mx_no_out(out)
    return torch.logical_and(lhs, rhs).to(lhs.dtype)


def _mx_broadcast_logical_or(lhs=None, rhs=None, out=None, name=None):
    """MXNet's broadcast_logical_or: 0/1 in the input's dtype."""
    _mx_no_out(out)
    return torch.logical_or(lhs, rhs).to(lhs.dtype)


def _mx_broadcast_logical_xor(lhs=None, rhs=None, out=None, name=None):
    """MXNet's broadcast_logical_xor: 0/1 in the input's dtype."""
    _mx_no_out(out)
    return torch.logical_xor(lhs, rhs).to(lhs.dtype)


def _mx_SoftmaxActivation(data=None, mode="instance", out=None, name=None):
    """MXNet's (deprecated) SoftmaxActivation: 'instance' is a softmax over the last axis (MXNet
    flattens the leading axes), 'channel' over axis 1 of an input of at least 3 dimensions. MXNet
    1.9.1's backward always reduces over axis 1 (measured): for 'instance' on 3 or more dimensions
    that is not the forward's gradient, and the helper gives MXNet's (_mx_SoftmaxAxis1Grad)."""
    _mx_no_out(out)
    if mode == "channel":
        if data.dim() < 3:
            raise ValueError(f"SoftmaxActivation: Input need to have a least 3 dimensions when mode=channel "
                             f"(got {data.dim()})")
        return torch.softmax(data, dim=1)
    if mode != "instance":
        raise ValueError(f"SoftmaxActivation: mode must be 'instance' or 'channel', not {mode!r}")
    if data.dim() < 3:
        return torch.softmax(data, dim=-1)
    return _mx_SoftmaxAxis1Grad.apply(data)


class _mx_SoftmaxAxis1Grad(torch.autograd.Function):
    """Softmax over the last axis whose backward is MXNet's SoftmaxActivation's: y * (g - sum(g * y,
    axis=1)), the channel formula, which MXNet 1.9.1 applies in 'instance' mode too."""

    @staticmethod
    def forward(ctx, data):
        y = torch.softmax(data, dim=-1)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return y * (grad - (grad * y).sum(dim=1, keepdim=True))


def _mx_logical_binary(fn, lhs, rhs):
    """MXNet's nd.logical_and/or/xor (ndarray.py's Python functions, not operators): two arrays
    broadcast (broadcast_logical_*), an array and a number on either side (the *_scalar
    operators), 0/1 in the array's dtype; two numbers give the int 1 or 0."""
    if isinstance(lhs, torch.Tensor):
        return fn(lhs, torch.as_tensor(rhs, device=lhs.device)).to(lhs.dtype)
    if isinstance(rhs, torch.Tensor):
        return fn(torch.as_tensor(lhs, device=rhs.device), rhs).to(rhs.dtype)
    return int(bool(fn(torch.tensor(lhs), torch.tensor(rhs))))


def _mx_logical_and(lhs, rhs, name=None):
    """MXNet's nd.logical_and: see _mx_logical_binary."""
    return _mx_logical_binary(torch.logical_and, lhs, rhs)


def _mx_logical_or(lhs, rhs, name=None):
    """MXNet's nd.logical_or: see _mx_logical_binary."""
    return _mx_logical_binary(torch.logical_or, lhs, rhs)


def _mx_logical_xor(lhs, rhs, name=None):
    """MXNet's nd.logical_xor: see _mx_logical_binary."""
    return _mx_logical_binary(torch.logical_xor, lhs, rhs)


def _mx_logical_not(data=None, out=None, name=None):
    """MXNet's logical_not: 1 where the input is 0, else 0, in the input's dtype."""
    _mx_no_out(out)
    return torch.logical_not(data).to(data.dtype)


def _mx_isnan(data=None, name=None):
    """MXNet's contrib.isnan (a Python function: no out=): 1 where the input is NaN, else 0, in the
    input's dtype."""
    return torch.isnan(data).to(data.dtype)


def _mx_isinf(data=None, name=None):
    """MXNet's contrib.isinf (a Python function: no out=): 1 where the input is +-inf, else 0,
    in the input's dtype."""
    return torch.isinf(data).to(data.dtype)


def _mx_isfinite(data=None, name=None):
    """MXNet's contrib.isfinite (a Python function: no out=): 1 where the input is neither NaN
    nor +-inf, else 0, in the input's dtype (sockeye sums it to test gradients)."""
    return torch.isfinite(data).to(data.dtype)


def _mx_gammaln(data=None, out=None, name=None):
    """MXNet's gammaln: the log of the absolute gamma function (torch.lgamma; gradient digamma)."""
    _mx_no_out(out)
    return torch.lgamma(data)


def _mx_linalg_gemm2(A=None, B=None, transpose_a=False, transpose_b=False, alpha=1.0, axis=-2, out=None, name=None):
    """MXNet's linalg_gemm2 (linalg.gemm2): alpha * op(A) @ op(B) over the last two axes, batched over the
    others; another `axis` (where the matrices' rows are) is refused."""
    _mx_no_out(out)
    if axis != -2 and axis != A.dim() - 2:
        raise NotImplementedError(f"linalg_gemm2 with axis={axis} is not translated: move the matrix axes last")
    a = A.transpose(-1, -2) if transpose_a else A
    b = B.transpose(-1, -2) if transpose_b else B
    return alpha * torch.matmul(a, b) if alpha != 1.0 else torch.matmul(a, b)


def _mx_index(index):
    """An MXNet array used as an index (`x[idx]`): MXNet reads float indices as integers,
    truncated toward zero (`mx.np.array([0, 2])` and `nd.array(...)` are float32); torch takes
    only integer or bool index tensors."""
    if isinstance(index, torch.Tensor) and index.is_floating_point():
        return index.long()
    return index


def _mx_back_slice(array, key):
    """`x[key]` where a slice of the key has a negative step (`x[::-1]`): an MXNet array (a tensor
    here) gives the elements in that order, as NumPy does, where torch's slicing refuses a negative
    step; anything else (a NumPy array, a list) is indexed as it is. The result is a copy, as
    MXNet's is for a step other than 1."""
    if not isinstance(array, torch.Tensor):
        return array[key]
    # the dimension each element of the key reads: a slice, an int, an index array one (a bool
    # mask its own number), None none, Ellipsis the rest
    def width(k):
        if k is None or k is Ellipsis:
            return 0
        return k.dim() if isinstance(k, torch.Tensor) and k.dtype == torch.bool else 1
    rest = array.dim() - sum(width(k) for k in key)
    dim, plain = 0, []
    for k in key:
        if isinstance(k, slice) and k.step is not None and k.step < 0:
            array = array.index_select(dim, torch.arange(*k.indices(array.shape[dim]), device=array.device))
            k = slice(None)
        plain.append(k)
        dim += rest if k is Ellipsis else width(k)
    return array[tuple(plain)]


def _mx_item_value(array, value):
    """The value of `x[idx] = value` as MXNet writes it: in x's dtype, for any index (torch's write
    through an index tensor refuses another dtype; one through slices casts already)."""
    if not isinstance(array, torch.Tensor) or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, torch.Tensor):
        return value if value.dtype == array.dtype else value.to(array.dtype)
    return torch.as_tensor(value, dtype=array.dtype, device=array.device)  # a NumPy array, a list


def _mx_astype(array, dtype, copy=True):
    """`x.astype(dtype)` on a value the converter could not type: an MXNet array (a tensor here)
    becomes a new array of that dtype (MXNet copies even when the dtype matches, unless
    copy=False); anything else, a NumPy array say, uses its own astype (a torch dtype, such as
    another array's `.dtype`, given by its NumPy name)."""
    if isinstance(array, torch.Tensor):
        return array.to(_mx_dtype(dtype), copy=copy)
    if isinstance(dtype, torch.dtype):
        dtype = str(dtype).rsplit(".", 1)[-1]
    return array.astype(dtype, copy=copy)


class _mx_CastRoundTrip(torch.autograd.Function):
    """A float cast of an integer cast (Note [gradients through integer casts]): the values of the
    two casts, and MXNet's gradient: the head gradient cast to the integer type and back."""

    @staticmethod
    def forward(ctx, x, through, to):
        ctx.dtypes = (through, x.dtype)
        return x.to(through).to(to)

    @staticmethod
    def backward(ctx, grad):
        through, back = ctx.dtypes
        return grad.to(through).to(back), None, None


def _mx_cast_round_trip(x, through, to):
    """`x.astype(int_type).astype(float_type)`: an MXNet array (a tensor here) keeps MXNet's
    gradient, which torch's integer tensors cannot carry (`_mx_CastRoundTrip`); anything else, a
    NumPy array say, casts with its own astype twice."""
    if not isinstance(x, torch.Tensor):
        names = [str(d).rsplit(".", 1)[-1] if isinstance(d, torch.dtype) else d for d in (through, to)]
        return x.astype(names[0]).astype(names[1])
    return _mx_CastRoundTrip.apply(x, _mx_dtype(through), _mx_dtype(to))


def _mx_slice_method(x, *args, **kwargs):
    """`x.slice(begin=..., end=...)` on a value the converter could not type: a tensor (an MXNet
    array, converted) is sliced as MXNet's slice (`_mx_slice`); anything else uses its own slice."""
    return _mx_slice(x, *args, **kwargs) if isinstance(x, torch.Tensor) else x.slice(*args, **kwargs)


def _mx_array_transpose(array, *axes):
    """`x.transpose(*axes)` on a value the converter could not type: an MXNet array (a tensor
    here) is permuted as MXNet's and NumPy's transpose do (the axes as separate arguments or one
    tuple; none reverses them all); anything else, a NumPy array say, uses its own transpose."""
    if not isinstance(array, torch.Tensor):
        return array.transpose(*axes)
    if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list, torch.Size))):
        axes = tuple(axes[0]) if axes[0] is not None else ()
    return array.permute(axes if axes else tuple(reversed(range(array.dim()))))


class _mx_Operators(type):
    """MXNet's operator namespace where converted code still reads it (Note [F left] in
    xlate/convert/transforms/hybrid_forward.py): every attribute is a sub-namespace, and calling
    one raises with the operator's name, so a line xlate left for a human fails there, loudly,
    and every other line of the method runs."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        path = f"{cls.__qualname__}.{name}"
        return _mx_Operators(name, (), {"__qualname__": path, "__module__": cls.__module__})

    def __call__(cls, *args, **kwargs):
        raise NotImplementedError(f"MXNet operator `{cls.__qualname__}` has no PyTorch translation: xlate left it "
                                  "for a human and reported it at this line")


class _mx_F(metaclass=_mx_Operators):
    """MXNet's operator namespace (`F` of hybrid_forward, `mx.nd`) read by code left to translate:
    its operators raise when called, naming themselves (`_mx_F.contrib.box_nms`)."""
    __qualname__ = "F"


class _mx_sym(metaclass=_mx_Operators):
    """MXNet's symbol namespace (`mx.sym`) read as a value: translated code runs as MXNet's
    imperative mode does (F is mx.nd), so no namespace it holds is this one and `F is mx.sym` is
    False; its operators raise when called."""
    __qualname__ = "sym"


def _mx_copy_method(x):
    """`x.copy()` on a value the converter could not type (Note [untyped copy]): a tensor (an MXNet
    array, converted) is cloned, a new array as MXNet's copy is; any other value (a NumPy array, a
    dict, a list) uses its own copy."""
    return x.clone() if isinstance(x, torch.Tensor) else x.copy()


def _mx_copyto(array, other):
    """`x.copyto(other)` where the converter could not tell what `x` or `other` is: MXNet copies
    into an array `other` (and returns it), or to a context (a new array even on the device the
    data is already on, where `x.to(device)` would give `x` itself); a value that is no tensor
    uses its own copyto."""
    if not isinstance(array, torch.Tensor):
        return array.copyto(other)
    if isinstance(other, torch.Tensor):
        return other.copy_(array)
    return array.to(other, copy=True)


def _mx_device_of(value, name="context"):
    """`x.context` / `x.ctx` on a value the converter could not type: a tensor's device (an MXNet
    array, converted), anything else's own attribute of that name."""
    return value.device if isinstance(value, torch.Tensor) else getattr(value, name)


def _mx_hasattr(value, name, ndarray_has):
    """`hasattr(x, name)` for a name NDArray and torch.Tensor answer differently (MX191): a tensor,
    a converted NDArray, answers as MXNet's NDArray did; any other value for itself."""
    return ndarray_has if isinstance(value, torch.Tensor) else hasattr(value, name)


def _mx_input_device(*inputs):
    """The device Gluon's HybridBlock.forward runs hybrid_forward under: the first array among its
    inputs, lists and tuples searched in order (Note [devices in hybrid_forward]); the default
    device when none is an array."""
    stack = list(reversed(inputs))
    while stack:
        value = stack.pop()
        if isinstance(value, torch.Tensor):
            return value.device
        if isinstance(value, (list, tuple)):
            stack.extend(reversed(value))
    return torch.get_default_device()


def _mx_context_field(value, name):
    """A Context's `device_type`, `device_id` or `device_typeid` on a value the converter could not
    type: for a torch.device (an MXNet Context, converted) MXNet's values, 'gpu' for CUDA, the
    device number (0 for the CPU; the current device for an unnumbered CUDA one) and MXNet's type
    ids (cpu 1, gpu 2); anything else's own attribute of that name."""
    if not isinstance(value, torch.device):
        return getattr(value, name)
    kind = "gpu" if value.type == "cuda" else value.type
    if name == "device_type":
        return kind
    if name == "device_typeid":
        return {"cpu": 1, "gpu": 2, "cpu_pinned": 3, "cpu_shared": 5}[kind]
    if value.index is not None:
        return value.index
    return torch.cuda.current_device() if kind == "gpu" else 0


def _mx_diag(data=None, k=0, axis1=0, axis2=1, out=None, name=None):
    """MXNet's diag: a 1-D array becomes the matrix with it on diagonal k; an array of two or more
    dimensions gives its diagonal k over (axis1, axis2), appended as the last axis, a copy (as
    NumPy's diagonal, where torch's is a view)."""
    _mx_no_out(out)
    if data.dim() == 1:
        return torch.diag(data, k)
    return torch.diagonal(data, offset=k, dim1=axis1, dim2=axis2).clone()


def _mx_broadcast_axis(data=None, axis=(), size=(), out=None, name=None):
    """MXNet's broadcast_axis where the axes or sizes are known only at run time: each listed axis
    (of size 1; MXNet refuses a negative one) takes its size, in a new array (torch's expand alone
    would give a view)."""
    _mx_no_out(out)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    sizes = (size,) if isinstance(size, int) else tuple(size)
    if len(axes) != len(sizes):
        raise ValueError(f"broadcast_axis: {len(axes)} axes and {len(sizes)} sizes")
    shape = list(data.shape)
    for a, s in zip(axes, sizes):
        if not 0 <= a < data.dim():
            raise IndexError(f"broadcast_axis: axis {a} must be in range [0, {data.dim()})")
        if shape[a] != 1:
            raise ValueError(f"broadcast_axis: axis {a} has size {shape[a]}, not 1")
        shape[a] = int(s)
    return data.expand(*shape).clone()


def _mx_split_method(x, *args, **kwargs):
    """`x.split(num_outputs=..., axis=..., squeeze_axis=...)` on a value the converter could not type:
    a tensor is split as MXNet splits an array (`_mx_split`), anything else uses its own split."""
    return _mx_split(x, *args, **kwargs) if isinstance(x, torch.Tensor) else x.split(*args, **kwargs)


def _mx_ravel_multi_index(data=None, shape=None, out=None, name=None):
    """MXNet ravel_multi_index: the (k, ...) array of indices into `shape` as flat row-major
    indices, in the input's dtype (float32 for an nd.array)."""
    _mx_no_out(out)
    flat = torch.zeros(data.shape[1:], dtype=torch.float64, device=data.device)
    for i, size in enumerate(shape):
        flat = flat * size + data[i].to(torch.float64)
    return flat.to(data.dtype)


def _mx_unravel_index(data=None, shape=None, out=None, name=None):
    """MXNet unravel_index: flat row-major indices into `shape` as a (k, ...) array of indices,
    in the input's dtype."""
    _mx_no_out(out)
    rest, parts = data.to(torch.float64), []
    for size in reversed(shape):
        parts.append(torch.remainder(rest, size))
        rest = torch.div(rest, size, rounding_mode="floor")
    return torch.stack(parts[::-1]).to(data.dtype)


def _mx_split_v2(ary=None, indices_or_sections=None, axis=0, squeeze_axis=False, name=None):
    """MXNet split_v2 (NumPy's array_split spelling): an int N gives N equal pieces along `axis`
    (0 by default), a tuple of increasing indices the pieces between them; squeeze_axis drops the
    axis of pieces of length 1. One piece is the array itself (a copy), not a list."""
    size = ary.shape[axis]
    if isinstance(indices_or_sections, int):
        if size % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
        starts = [i * (size // indices_or_sections) for i in range(indices_or_sections)]
    elif isinstance(indices_or_sections, tuple):
        starts = [0] + list(indices_or_sections)
    else:
        raise ValueError("indices_or_sections must either int or tuple of ints")
    ends = starts[1:] + [size]
    if any(b > e or e > size for b, e in zip(starts, ends)):
        raise ValueError(f"split_v2: indices {indices_or_sections} do not increase within the axis of size {size}")
    parts = [ary.narrow(axis, b, e - b) for b, e in zip(starts, ends)]
    if squeeze_axis:
        if any(p.shape[axis] != 1 for p in parts):
            raise ValueError("split_v2: squeeze_axis needs pieces of length 1")
        parts = [p.squeeze(axis) for p in parts]
    return parts if len(parts) > 1 else parts[0].clone()


def _mx_scatter_nd(data=None, indices=None, shape=None, out=None, name=None):
    """MXNet scatter_nd: a zero array of `shape` whose elements at the (M, ...) `indices` (one row
    per leading axis) hold `data`; the gradient reads them back (gather_nd)."""
    _mx_no_out(out)
    result = torch.zeros(tuple(shape), dtype=data.dtype, device=data.device)
    return result.index_put(tuple(i.long() for i in indices), data)


def _mx_gamma(data=None, out=None, name=None):
    """MXNet gamma, the gamma function: exp(lgamma(x)) with its sign (negative on (-1, 0),
    (-3, -2), ...); the gradient is gamma(x) digamma(x) as MXNet's."""
    _mx_no_out(out)
    sign = torch.where((data > 0) | (torch.floor(data) % 2 == 0), 1.0, -1.0).to(data.dtype)
    return sign * torch.exp(torch.lgamma(data))


def _mx_round(data=None, out=None, name=None):
    """MXNet's round: halves away from zero (2.5 -> 3, -0.5 -> -1), where torch's round gives the even
    neighbour (2.5 -> 2). Elsewhere the two agree; the gradient is zero in both."""
    _mx_no_out(out)
    trunc = torch.trunc(data)
    return torch.where((data - trunc).abs() == 0.5, trunc + torch.sign(data), torch.round(data))


def _mx_rint(data=None, out=None, name=None):
    """MXNet's rint: halves toward minus infinity (0.5 -> 0, 1.5 -> 1, -0.5 -> -1; measured on MXNet 1.9.1),
    where torch's round gives the even neighbour."""
    _mx_no_out(out)
    return torch.where((data - torch.trunc(data)).abs() == 0.5, torch.floor(data), torch.round(data))


def _mx_round_method(x, *args, **kwargs):
    """`x.round()` on a value the converter could not type: a tensor (an MXNet array, converted) rounds
    halves away from zero as MXNet's method does; anything else (a NumPy array, a torch tensor given
    decimals) uses its own round."""
    if isinstance(x, torch.Tensor) and not args and not kwargs:
        return _mx_round(x)
    return x.round(*args, **kwargs)


def _mx_cbrt(data=None, out=None, name=None):
    """MXNet cbrt: the real cube root, negative for a negative input (torch has no cbrt)."""
    _mx_no_out(out)
    return torch.sign(data) * torch.abs(data).pow(1.0 / 3.0)


def _mx_rcbrt(data=None, out=None, name=None):
    """MXNet rcbrt: 1 / cbrt(x)."""
    return 1.0 / _mx_cbrt(data, out, name)


def _mx_degrees(data=None, out=None, name=None):
    """MXNet degrees: radians to degrees."""
    _mx_no_out(out)
    return torch.rad2deg(data)


def _mx_radians(data=None, out=None, name=None):
    """MXNet radians: degrees to radians."""
    _mx_no_out(out)
    return torch.deg2rad(data)


def _mx_softmin(data=None, axis=-1, temperature=None, dtype=None, use_length=False, out=None, name=None):
    """MXNet softmin: the softmax of -x / temperature along axis, in `dtype` when given."""
    _mx_no_out(out)
    if use_length:
        raise NotImplementedError("softmin(use_length=True) has no translation: mask the lengths by hand")
    scaled = -data if temperature is None else -data / temperature
    return torch.softmax(scaled if dtype is None else scaled.to(_mx_dtype(dtype)), dim=axis)


def _mx_depth_to_space(data=None, block_size=None, out=None, name=None):
    """MXNet depth_to_space (DCR order: depth, then column, then row; torch's pixel_shuffle is CRD):
    (N, C, H, W) -> (N, C / b^2, H * b, W * b)."""
    _mx_no_out(out)
    n, c, h, w = data.shape
    b = block_size
    blocks = data.reshape(n, b, b, c // (b * b), h, w).permute(0, 3, 4, 1, 5, 2)
    return blocks.reshape(n, c // (b * b), h * b, w * b)


def _mx_space_to_depth(data=None, block_size=None, out=None, name=None):
    """MXNet space_to_depth, depth_to_space's inverse: (N, C, H, W) -> (N, C * b^2, H / b, W / b)."""
    _mx_no_out(out)
    n, c, h, w = data.shape
    b = block_size
    blocks = data.reshape(n, c, h // b, b, w // b, b).permute(0, 3, 5, 1, 2, 4)
    return blocks.reshape(n, c * b * b, h // b, w // b)


def _mx_argmax_channel(data=None, out=None, name=None):
    """MXNet argmax_channel: the index of the largest value along axis 1 (the channels of (N, C,
    ...)), in the input's dtype."""
    _mx_no_out(out)
    return torch.argmax(data, dim=1).to(data.dtype)


def _mx_nanprod(data=None, axis=None, keepdims=False, exclude=False, out=None, name=None):
    """MXNet nanprod: the product with NaN counted as 1, MXNet's shapes (a full one is (1,))."""
    _mx_no_out(out)
    ones = torch.where(torch.isnan(data), torch.ones_like(data), data)
    if axis is None or axis == ():
        axes = list(range(data.dim())) if not exclude else []
    else:
        axes = _mx_other_axes(data, axis) if exclude else ([axis] if isinstance(axis, int) else list(axis))
    if not axes:
        return ones.clone()
    return _mx_reduce_axes(ones, axes, "prod", keepdims)


def _mx_softmax_cross_entropy(data=None, label=None, out=None, name=None):
    """MXNet's softmax_cross_entropy: 2-D scores and class ids (float, truncated), the cross entropy of the
    softmax summed over the batch, as one value of shape (1,) in the scores' dtype."""
    _mx_no_out(out)
    if data.dim() != 2:
        raise ValueError(f"softmax_cross_entropy only accepts 2-D data, got {data.dim()}-D (MXNet refuses it too)")
    picked = torch.log_softmax(data, dim=-1).gather(1, label.long().reshape(-1, 1))
    return (-picked.sum()).reshape(1)


def _mx_operator(name, table):
    """`getattr(F, name)` with a name known only at run time (Note [operators by name] in
    xlate/convert/namespace_getattr.py): the translation of the operator named, from the table of
    those the file names in its strings; any other name raises, naming itself."""
    if name in table:
        return table[name]
    raise NotImplementedError(f"MXNet operator `{name}` looked up by name has no translation here: xlate "
                              f"translated the operators its file names in strings ({', '.join(table) or 'none'})")


def _mx_hard_sigmoid(data, alpha=0.2, beta=0.5, out=None, name=None):
    """MXNet's hard_sigmoid: `clip(alpha * data + beta, 0, 1)` (torch's hardsigmoid has alpha 1/6)."""
    _mx_no_out(out)
    return torch.clamp(alpha * data + beta, 0.0, 1.0)
