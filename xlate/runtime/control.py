"""MXNet's control-flow operators (rule MX804): `contrib.foreach`, run as the Python loop it is for
NDArrays, which autograd follows step by step as torch's does."""
import torch


def _mx_flatten_nested(args):
    """MXNet's _flatten: an array -> ([it], 0); a list or tuple -> its arrays in order and its shape
    as nested lists of 0s."""
    if isinstance(args, torch.Tensor):
        return [args], 0
    if not isinstance(args, (list, tuple)):
        raise TypeError(f"foreach takes an array or (nested) lists of arrays, not {type(args).__name__}")
    flat, fmt = [], []
    for item in args:
        found, shape = _mx_flatten_nested(item)
        flat.extend(found)
        fmt.append(shape)
    return flat, fmt


def _mx_regroup_nested(flat, fmt):
    """MXNet's _regroup: the inverse of _mx_flatten_nested (lists stand for tuples too)."""
    if isinstance(fmt, int):
        return (flat[0], flat[1:]) if fmt == 0 else (flat[:fmt], flat[fmt:])
    grouped = []
    for shape in fmt:
        item, flat = _mx_regroup_nested(flat, shape)
        grouped.append(item)
    return grouped, flat


def _mx_foreach(body, data, init_states, name="foreach"):
    """MXNet's contrib.foreach: for each slice of `data` along axis 0 (a list of arrays is sliced
    together and handed to `body` as a list), `outs, states = body(slice, states)`; returns the
    outputs of every step stacked on a new axis 0, in the structure `body` returned them, and the
    last states."""
    single = isinstance(data, torch.Tensor)
    steps = data.shape[0] if single else data[0].shape[0]
    states = init_states
    outputs, fmt = [], 0
    for i in range(steps):
        piece = data[i] if single else [d[i] for d in data]
        outs, states = body(piece, states)
        outs, fmt = _mx_flatten_nested(outs)
        outputs.append(outs)
    stacked = [torch.stack(list(step)) for step in zip(*outputs)]
    return _mx_regroup_nested(stacked, fmt)[0], states


def _mx_cond(pred, then_func, else_func, name="cond"):
    """MXNet's contrib.cond on NDArrays: `then_func()` when the one-element `pred` is non-zero,
    else `else_func()` (MXNet reads pred with asscalar(), so one branch runs and autograd
    follows it)."""
    return then_func() if bool(pred.reshape(()).item() if isinstance(pred, torch.Tensor) else pred) else else_func()


def _mx_boolean_mask(data=None, index=None, axis=0, out=None, name=None):
    """MXNet's contrib.boolean_mask: the slices of `data` along `axis` whose `index` entry is
    non-zero, in order (their gradient flows back to those slices, zeros elsewhere)."""
    _mx_no_out(out)
    return data.index_select(axis, torch.nonzero(index.reshape(-1) != 0).reshape(-1).to(data.device))


def _mx_index_copy(old_tensor=None, index_vector=None, new_tensor=None, out=None, name=None):
    """MXNet's contrib.index_copy: a copy of `old_tensor` whose rows `index_vector` (a float or
    int vector) are `new_tensor`'s rows; the gradient of the replaced rows goes to new_tensor."""
    _mx_no_out(out)
    return old_tensor.index_copy(0, index_vector.reshape(-1).long().to(old_tensor.device), new_tensor.to(old_tensor.dtype))
