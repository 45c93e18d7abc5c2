"""MXNet's control-flow operators (rule MX804): `contrib.foreach` and `contrib.while_loop`, run as the
Python loops they are for NDArrays, which autograd follows step by step as torch's does."""
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


def _mx_while_loop(cond, func, loop_vars, max_iterations=None, name="while_loop"):
    """MXNet's contrib.while_loop on NDArrays: while `cond(*loop_vars)` holds and fewer than max_iterations
    steps ran, `step_output, loop_vars = func(*loop_vars)`; returns each output stacked on a new axis 0 and
    padded to max_iterations rows (MXNet leaves the padding undefined: zeros here), in the structure `func`
    returned them, and the last loop_vars (an array where an array was given)."""
    if max_iterations is None:
        raise ValueError("max_iterations should be specified")
    max_iterations = int(max_iterations.reshape(()).item() if isinstance(max_iterations, torch.Tensor) else max_iterations)
    single = isinstance(loop_vars, torch.Tensor)
    loop_vars = [loop_vars] if single else list(loop_vars)
    if not loop_vars:
        raise ValueError("loop_vars should contain at least one element")
    steps, outputs, fmt = 0, [], None

    def truth(value):
        return bool(value.reshape(()).item() if isinstance(value, torch.Tensor) else value)

    while steps < max_iterations and truth(cond(*loop_vars)):
        step_output, new_vars = func(*loop_vars)
        step_output = [] if step_output is None else list(step_output) if isinstance(step_output, tuple) else step_output
        new_vars = [] if new_vars is None else new_vars
        new_vars = [new_vars] if isinstance(new_vars, torch.Tensor) else list(new_vars)
        if len(new_vars) != len(loop_vars):
            raise ValueError("The length of loop_vars should be consistent during the loop")
        loop_vars = new_vars
        flat, fmt = _mx_flatten_nested(step_output)
        outputs.append(flat)
        steps += 1
        if len(flat) != len(outputs[0]):
            raise ValueError("Number of elements in step_output should be the same in each step")
    stacked = []
    for items in zip(*outputs):
        rows = torch.stack(list(items))
        if steps != max_iterations:
            rows = torch.cat([rows, rows.new_zeros((max_iterations - steps, *rows.shape[1:]))])
        stacked.append(rows)
    if fmt is not None:
        stacked = _mx_regroup_nested(stacked, fmt)[0]
    return stacked, loop_vars[0] if single else loop_vars


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
