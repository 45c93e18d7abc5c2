"""MXNet's Python custom operators on torch (Note [custom operators]).

Note [custom operators]
A Gluon package writes an operator MXNet lacks as `class Op(mx.operator.CustomOp)` (forward and
backward filling `out_data` / `in_grad` through `self.assign`), its `CustomOpProp` (argument and
output names, shapes, types, the operator's creation) registered under a name with
`@mx.operator.register(name)`, and calls it as `F.Custom(*inputs, op_type=name, **kwargs)`
(gluonts' digitize binning). Converted, the two classes derive from these helpers, which keep
MXNet's defaults, and `_mx_Custom` runs the protocol as MXNet does: the Prop built from the
keyword arguments as strings, output buffers of the shapes and dtypes it infers, the operator's
forward with MXNet's training flag and 'write' requests, and, in torch's backward, the operator's
backward into zeroed input-gradient buffers (an input without a gradient is requested 'null').
The operator's own code, converted, computes on tensors (its `asnumpy()` and `nd.array` calls
have their translations)."""
import torch


class _mx_CustomOp:
    """MXNet's CustomOp: the base of a package's operator, with `assign` as MXNet writes it."""

    def __init__(self):
        pass

    def forward(self, is_train, req, in_data, out_data, aux):
        raise NotImplementedError()

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        raise NotImplementedError()

    def assign(self, dst, req, src):
        if req == "null":
            return
        src = src if isinstance(src, torch.Tensor) else torch.as_tensor(src)
        if req in ("write", "inplace"):
            dst[...] = src.to(dst.dtype)
        elif req == "add":
            dst[...] += src.to(dst.dtype)


class _mx_CustomOpProp:
    """MXNet's CustomOpProp with its defaults: one input `data`, one output `output` of the
    input's shape and dtype, no auxiliary states. `registered` holds the registered classes."""

    registered = {}

    def __init__(self, need_top_grad=True):
        self.need_top_grad_ = need_top_grad

    def infer_shape(self, in_shape):
        return in_shape, (in_shape[0],) * len(self.list_outputs()), ()

    def infer_type(self, in_type):
        return in_type, [in_type[0]] * len(self.list_outputs()), [in_type[0]] * len(self.list_auxiliary_states())

    def list_outputs(self):
        return ["output"]

    def list_arguments(self):
        return ["data"]

    def list_auxiliary_states(self):
        return []

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        return ([*out_grad] if self.need_top_grad_ else []) + [*in_data] + [*out_data]

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _mx_CustomOp()


def _mx_operator_register(reg_name):
    """`@mx.operator.register(name)`: the Prop class registered for `_mx_Custom(..., op_type=name)`."""
    def register(prop_cls):
        _mx_CustomOpProp.registered[reg_name] = prop_cls
        return prop_cls
    return register


def _mx_custom_dtype(dtype):
    """A torch dtype as MXNet hands it to infer_type (a NumPy type: numpy.float32), and back."""
    if isinstance(dtype, torch.dtype):
        return torch.empty(0, dtype=dtype).numpy().dtype.type
    return _mx_dtype(dtype)


class _mx_CustomFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, op, n_out, is_train, out_specs, *inputs):
        outs = [torch.zeros(shape, dtype=dtype, device=inputs[0].device) for shape, dtype in out_specs]
        with torch.no_grad():
            op.forward(is_train, ["write"] * len(outs), list(inputs), outs, [])
        ctx.op, ctx.outs = op, outs
        ctx.save_for_backward(*inputs)
        return tuple(outs)

    @staticmethod
    def backward(ctx, *out_grad):
        inputs = ctx.saved_tensors
        in_grad = [torch.zeros_like(x) for x in inputs]
        req = ["write" if need else "null" for need in ctx.needs_input_grad[4:]]
        with torch.no_grad():
            ctx.op.backward(req, list(out_grad), list(inputs), ctx.outs, in_grad, [])
        return (None, None, None, None, *(g if need else None for g, need in zip(in_grad, ctx.needs_input_grad[4:])))


def _mx_Custom(*data, op_type=None, **kwargs):
    """MXNet's Custom operator (Note [custom operators]): one output is the array itself, several a list."""
    if op_type not in _mx_CustomOpProp.registered:
        raise ValueError(f"custom operator {op_type!r} is not registered (@mx.operator.register)")
    prop = _mx_CustomOpProp.registered[op_type](**{k: str(v) for k, v in kwargs.items()})
    shapes = [list(x.shape) for x in data]
    _, out_shapes, _ = prop.infer_shape(shapes)
    _, out_types, _ = prop.infer_type([_mx_custom_dtype(x.dtype) for x in data])
    op = prop.create_operator(data[0].device, shapes, [_mx_custom_dtype(x.dtype) for x in data])
    specs = [(tuple(s), _mx_custom_dtype(t)) for s, t in zip(out_shapes, out_types)]
    outs = _mx_CustomFunction.apply(op, len(specs), _mx_is_training(), specs, *data)
    return outs[0] if len(outs) == 1 else list(outs)
