"""Gluon layers as torch modules that take Gluon's own constructor arguments.

Copied as text into converted programs (xlate/runtime/__init__.py): each `_mx_*` class or
function uses `torch` and other `_mx_*` helpers only.

Note [Gluon-signature modules]
Where a call is literal and a plain torch module is exact, the converter writes idiomatic
torch (`nn.Conv2d(3, 64, 3, padding=1)`). Everywhere else it writes the helper named after
the Gluon class with the call's own arguments (`_mx_Conv2D(channels, 3, activation=act,
**kwargs)`): the helper's constructor IS Gluon's (same parameters, order and defaults), so
values known only at run time, a class passed as a value (`norm_layer=_mx_BatchNorm`) and a
user class derived from a Gluon layer (`super().__init__(**kwargs)`) all work unchanged.
Each helper subclasses the torch module of its family and keeps its parameter names
(`weight`, `bias`), so one Gluon layer stays one module, state_dict keys are a plain torch
layer's, `isinstance(m, nn.Conv2d)` holds and the checker pairs it with its family. Gluon's
deferred input size (`in_units=0`, `in_channels=0`) makes the parameters lazy: they take
their size from the first input, like torch's Lazy modules (`_mx_Deferred`). The Gluon
attributes subclasses read (`_kwargs`, `_units`, `_channels`, `_in_channels`, `act`) are kept
with Gluon's values. tests/test_numeric_layers.py compares each against MXNet.
"""
import torch


def _mx_ntuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _mx_dtype(dtype):
    """A dtype as Gluon takes it ('float32', numpy.float32, numpy.dtype) -> the torch dtype."""
    if dtype is None or isinstance(dtype, torch.dtype):
        return dtype
    name = dtype if isinstance(dtype, str) else getattr(dtype, "name", None) or getattr(dtype, "__name__", None)
    # NumPy's spellings, which MXNet takes: `float`/'float' is float64 and `int` int64 (torch.float
    # and torch.int are float32 and int32)
    name = {"float": "float64", "int": "int64", "double": "float64", "half": "float16"}.get(str(name), name)
    found = getattr(torch, str(name), None)
    if not isinstance(found, torch.dtype):
        raise TypeError(f"dtype {dtype!r} has no torch equivalent")
    return found


def _mx_np_dtype(dtype):
    """`x.dtype` handed to NumPy (`np.issubdtype(x.dtype, np.floating)`, `np.zeros(n, dtype=x.dtype)`),
    where `x` may be a converted array (MX809): MXNet's NDArray.dtype is the NumPy type (numpy.float32),
    a tensor's a torch dtype, which NumPy cannot read; that becomes the NumPy type MXNet gave. Any other
    value (a NumPy dtype, a string, a torch dtype NumPy has no type for: bfloat16) is returned as it is."""
    if isinstance(dtype, torch.dtype) and dtype is not torch.bfloat16:
        return torch.empty((), dtype=dtype).numpy().dtype.type
    return dtype


def _mx_dtype_equal(a, b):
    """`a == b` where a side may be the dtype of a converted array or parameter (MX806): MXNet's
    dtypes are NumPy's, which equal the NumPy type, dtype or string naming them (a Parameter's is
    the string it was given); a torch dtype equals whatever names the same dtype. Two values
    neither of which is a torch dtype compare as they did."""
    if not isinstance(a, torch.dtype) and not isinstance(b, torch.dtype):
        return a == b
    a, b = ("bool" if getattr(d, "__name__", None) == "bool_" else d for d in (a, b))  # numpy.bool_
    try:
        return _mx_dtype(a) == _mx_dtype(b)
    except TypeError:  # names no dtype torch has (a string that is no dtype, an object)
        return False


def _mx_no_params(params, block=None):
    """Gluon's `params=` shares another block's parameters; torch modules share by reusing the
    module (or assigning its tensors), which the translation cannot decide for you."""
    if params is not None:
        where = f"{type(block).__name__}(params=...)" if block is not None else "params="
        raise NotImplementedError(f"{where} (sharing another block's parameters) is not translated: reuse that "
                                  "module, or assign its weight/bias to this one, by hand")


def _mx_gluon_init(block, prefix=None, params=None):
    """Gluon's `Block.__init__(prefix=None, params=None)` on a converted block whose torch base takes
    neither (called after that base's `__init__`): the prefix names it as in Gluon; `params=`
    raises, naming the class, rather than building a block with parameters of its own in silence."""
    _mx_no_params(params, block)
    _mx_named(block, prefix=prefix)


def _mx_initializer(init):
    """A Gluon initializer argument as a function that fills a tensor: None stays None (the
    initializer `initialize()` is given), a callable (a translated `mx.init.*`) is used as it
    is, and Gluon's registered names map to the same draws."""
    if init is None or callable(init):
        return init
    named = {
        "zeros": torch.nn.init.zeros_, "zero": torch.nn.init.zeros_,
        "ones": torch.nn.init.ones_, "one": torch.nn.init.ones_,
        "uniform": lambda t: torch.nn.init.uniform_(t, -0.07, 0.07),
        "normal": lambda t: torch.nn.init.normal_(t, 0.0, 0.01),
    }
    if isinstance(init, str) and init.lower() in named:
        return named[init.lower()]
    if isinstance(init, str):  # a custom initializer registered by name (`@mx.init.register`)
        for base, classes in _mx_registry.table.items():
            if getattr(base, "registry_of_initializers", False) and init.lower() in classes:
                return classes[init.lower()]()
    raise TypeError(f"initializer {init!r}: pass a translated initializer (a function that fills a tensor)")


def _mx_activation(data, act_type, out=None, name=None):
    """MXNet's Activation operator (and Gluon's `Activation(name)`, whose `None` is no activation):
    relu, sigmoid, tanh, softrelu or softsign. Its parameters are the operator's (Note [operator
    helpers] in operators.py)."""
    if out is not None:
        raise NotImplementedError("out= (writing into an existing array) is not translated: assign the result")
    x = data
    if act_type is None:
        return x
    if act_type == "relu":
        return torch.relu(x)
    if act_type == "sigmoid":
        return torch.sigmoid(x)
    if act_type == "tanh":
        return torch.tanh(x)
    if act_type == "softrelu":
        return torch.nn.functional.softplus(x)
    if act_type == "softsign":
        return torch.nn.functional.softsign(x)
    raise ValueError(f"unknown Gluon activation {act_type!r}")


class _mx_Deferred(torch.nn.modules.lazy.LazyModuleMixin):
    """Mixin for a Gluon layer whose input size may be deferred (0): `_mx_defer(names)` makes
    those tensors lazy, and `_mx_materialize(x)` gives them their size at the first call. With
    the size known, nothing is lazy and the first call only drops torch's hooks."""

    cls_to_become = None  # stays the same class: user subclasses keep their own methods

    def _mx_defer(self, *names):
        for name in names:
            tensor = getattr(self, name)
            if tensor is None:
                continue
            if isinstance(tensor, torch.nn.Parameter):
                setattr(self, name, torch.nn.UninitializedParameter(requires_grad=tensor.requires_grad,
                                                                    device=tensor.device, dtype=tensor.dtype))
            else:
                self.register_buffer(name, torch.nn.UninitializedBuffer(device=tensor.device, dtype=tensor.dtype))

    def reset_parameters(self):
        if not self.has_uninitialized_params():
            super().reset_parameters()

    def initialize_parameters(self, x, *args, **kwargs):
        if self.has_uninitialized_params():
            with torch.no_grad():
                # Gluon's deferred initialisation draws only the tensors whose size was unknown:
                # the others keep what initialize(), set_data() or a load gave them
                kept = [(t, t.detach().clone()) for t in [*self.parameters(False), *self.buffers(False)]
                        if not torch.nn.parameter.is_lazy(t) and getattr(t, "_mx_ready", False)]
                self._mx_materialize(x)
                self.reset_parameters()
                for tensor, value in kept:
                    tensor.copy_(value)

    def _replicate_for_data_parallel(self):
        if self.has_uninitialized_params():
            raise RuntimeError("run one forward pass before DataParallel: this layer's size is not known yet")
        return torch.nn.Module._replicate_for_data_parallel(self)


def _mx_setup(module, params, inits):
    """What every Gluon-signature layer does after building its torch module: refuse `params=`,
    and tag (and fill) its tensors with their Gluon initializers (Note [Gluon initialisation])."""
    _mx_no_params(params)
    _mx_init_params(module, **{k: _mx_initializer(v) for k, v in inits.items() if getattr(module, k, None) is not None})


class _mx_Dense(_mx_Deferred, torch.nn.Linear):
    """Gluon Dense. With flatten=True (Gluon's default) every axis after the first is folded
    into one before the matmul (torch's Linear acts on the last axis alone); `activation=` runs
    inside the layer, so it stays one module."""

    def __init__(self, units, activation=None, use_bias=True, flatten=True, dtype="float32", weight_initializer=None,
                 bias_initializer="zeros", in_units=0, prefix=None, params=None):
        super().__init__(in_units or 1, units, bias=use_bias, dtype=_mx_dtype(dtype))
        self.activation, self.flatten = activation, flatten
        self._units, self._in_units, self._flatten = units, in_units, flatten
        if not in_units:
            self.in_features = 0
            self._mx_defer("weight")
        _mx_setup(self, params, {"weight": weight_initializer, "bias": bias_initializer})

    def _mx_materialize(self, x):
        self.in_features = x.shape[-1] if not self.flatten else (x[0].numel() if x.dim() > 1 else 1)
        self._in_units = self.in_features
        self.weight.materialize((self.out_features, self.in_features))

    def forward(self, x):
        if self.flatten:
            x = x.flatten(1) if x.dim() > 1 else x.unsqueeze(1)  # Gluon reads a 1-D input as (N, 1)
        return _mx_activation(super().forward(x), self.activation)

    def extra_repr(self):
        return f"{super().extra_repr()}, flatten={self.flatten}, activation={self.activation!r}"


class _mx_Conv(_mx_Deferred):
    """What Gluon's Conv{1,2,3}D[Transpose] share; the classes below fix Gluon's signatures."""

    _mx_dims, _mx_transpose = 2, False

    def _mx_conv(self, channels, kernel_size, strides, padding, output_padding, dilation, groups, layout, activation,
                 use_bias, weight_initializer, bias_initializer, in_channels, params):
        n = self._mx_dims
        expected = {1: "NCW", 2: "NCHW", 3: "NCDHW"}[n]
        if layout != expected:
            raise NotImplementedError(f"layout={layout!r}: torch convolutions are channel-first ({expected}); "
                                      "permute the input and output around the layer")
        kernel, stride, pad, dilate = (_mx_ntuple(v, n) for v in (kernel_size, strides, padding, dilation))
        extra = {"output_padding": _mx_ntuple(output_padding, n)} if self._mx_transpose else {}
        super().__init__(in_channels or groups, channels, kernel, stride=stride, padding=pad, dilation=dilate,
                         groups=groups, bias=use_bias, **extra)
        self.activation = activation
        self._channels, self._in_channels = channels, in_channels
        self._kwargs = {"kernel": kernel, "stride": stride, "dilate": dilate, "pad": pad, "num_filter": channels,
                        "num_group": groups, "no_bias": not use_bias, "layout": layout}
        if self._mx_transpose:
            self._kwargs["adj"] = extra["output_padding"]
        if not in_channels:
            self.in_channels = 0
            self._mx_defer("weight")
        _mx_setup(self, params, {"weight": weight_initializer, "bias": bias_initializer})

    def _mx_materialize(self, x):
        self.in_channels = self._in_channels = x.shape[1]
        if self.in_channels % self.groups:
            raise ValueError(f"{self.in_channels} input channels are not divisible by groups={self.groups}")
        if self._mx_transpose:
            shape = (self.in_channels, self.out_channels // self.groups)
        else:
            shape = (self.out_channels, self.in_channels // self.groups)
        self.weight.materialize(shape + tuple(self.kernel_size))

    def forward(self, x, *args):
        return _mx_activation(super().forward(x, *args), self.activation)

    def extra_repr(self):
        return f"{super().extra_repr()}, activation={self.activation!r}"


class _mx_Conv1D(_mx_Conv, torch.nn.Conv1d):
    """Gluon Conv1D."""

    _mx_dims = 1

    def __init__(self, channels, kernel_size, strides=1, padding=0, dilation=1, groups=1, layout="NCW",
                 activation=None, use_bias=True, weight_initializer=None, bias_initializer="zeros", in_channels=0,
                 prefix=None, params=None):
        self._mx_conv(channels, kernel_size, strides, padding, 0, dilation, groups, layout, activation, use_bias,
                      weight_initializer, bias_initializer, in_channels, params)


class _mx_Conv2D(_mx_Conv, torch.nn.Conv2d):
    """Gluon Conv2D."""

    _mx_dims = 2

    def __init__(self, channels, kernel_size, strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
                 layout="NCHW", activation=None, use_bias=True, weight_initializer=None, bias_initializer="zeros",
                 in_channels=0, prefix=None, params=None):
        self._mx_conv(channels, kernel_size, strides, padding, 0, dilation, groups, layout, activation, use_bias,
                      weight_initializer, bias_initializer, in_channels, params)


class _mx_Conv3D(_mx_Conv, torch.nn.Conv3d):
    """Gluon Conv3D."""

    _mx_dims = 3

    def __init__(self, channels, kernel_size, strides=(1, 1, 1), padding=(0, 0, 0), dilation=(1, 1, 1), groups=1,
                 layout="NCDHW", activation=None, use_bias=True, weight_initializer=None, bias_initializer="zeros",
                 in_channels=0, prefix=None, params=None):
        self._mx_conv(channels, kernel_size, strides, padding, 0, dilation, groups, layout, activation, use_bias,
                      weight_initializer, bias_initializer, in_channels, params)


class _mx_Conv1DTranspose(_mx_Conv, torch.nn.ConvTranspose1d):
    """Gluon Conv1DTranspose (`output_padding` is MXNet's `adj`)."""

    _mx_dims, _mx_transpose = 1, True

    def __init__(self, channels, kernel_size, strides=1, padding=0, output_padding=0, dilation=1, groups=1,
                 layout="NCW", activation=None, use_bias=True, weight_initializer=None, bias_initializer="zeros",
                 in_channels=0, prefix=None, params=None):
        self._mx_conv(channels, kernel_size, strides, padding, output_padding, dilation, groups, layout, activation,
                      use_bias, weight_initializer, bias_initializer, in_channels, params)


class _mx_Conv2DTranspose(_mx_Conv, torch.nn.ConvTranspose2d):
    """Gluon Conv2DTranspose (`output_padding` is MXNet's `adj`)."""

    _mx_dims, _mx_transpose = 2, True

    def __init__(self, channels, kernel_size, strides=(1, 1), padding=(0, 0), output_padding=(0, 0),
                 dilation=(1, 1), groups=1, layout="NCHW", activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer="zeros", in_channels=0, prefix=None, params=None):
        self._mx_conv(channels, kernel_size, strides, padding, output_padding, dilation, groups, layout, activation,
                      use_bias, weight_initializer, bias_initializer, in_channels, params)


class _mx_Conv3DTranspose(_mx_Conv, torch.nn.ConvTranspose3d):
    """Gluon Conv3DTranspose (`output_padding` is MXNet's `adj`)."""

    _mx_dims, _mx_transpose = 3, True

    def __init__(self, channels, kernel_size, strides=(1, 1, 1), padding=(0, 0, 0), output_padding=(0, 0, 0),
                 dilation=(1, 1, 1), groups=1, layout="NCDHW", activation=None, use_bias=True,
                 weight_initializer=None, bias_initializer="zeros", in_channels=0, prefix=None, params=None):
        self._mx_conv(channels, kernel_size, strides, padding, output_padding, dilation, groups, layout, activation,
                      use_bias, weight_initializer, bias_initializer, in_channels, params)


class _mx_Pool:
    """What Gluon's Max/AvgPool{1,2,3}D share. ceil_mode=True is MXNet's 'full' convention:
    MXNet keeps a last window that starts in the right padding, torch's ceil_mode drops it.
    That window holds no input element: MXNet gives it the lowest float (max) or 0 (avg) and
    sends it no gradient, so padding torch's output with that value is exact."""

    _mx_dims, _mx_max = 2, True

    def _mx_pool(self, pool_size, strides, padding, layout, ceil_mode, count_include_pad, params):
        _mx_no_params(params)
        n = self._mx_dims
        expected = {1: "NCW", 2: "NCHW", 3: "NCDHW"}[n]
        if layout != expected:
            raise NotImplementedError(f"layout={layout!r}: torch pooling is channel-first ({expected}); "
                                      "permute the input and output around the layer")
        kernel = _mx_ntuple(pool_size, n)
        stride = kernel if strides is None else _mx_ntuple(strides, n)
        pad = _mx_ntuple(padding, n)
        extra = {} if self._mx_max else {"count_include_pad": count_include_pad}
        super().__init__(kernel, stride, pad, ceil_mode=ceil_mode, **extra)
        self._kwargs = {"kernel": kernel, "stride": stride, "pad": pad, "global_pool": False,
                        "pool_type": "max" if self._mx_max else "avg", "layout": layout,
                        "pooling_convention": "full" if ceil_mode else "valid"}
        if not self._mx_max:
            self._kwargs["count_include_pad"] = count_include_pad

    def forward(self, x):
        y = super().forward(x)
        if not self.ceil_mode:
            return y
        n = self._mx_dims
        kernel, stride, padding = (_mx_ntuple(v, n) for v in (self.kernel_size, self.stride, self.padding))
        pad = []
        for i in range(n):  # F.pad lists the last axis first
            axis = x.dim() - n + i
            size = -(-(x.shape[axis] + 2 * padding[i] - kernel[i]) // stride[i]) + 1
            pad = [0, size - y.shape[axis]] + pad
        if not any(pad):
            return y
        fill = torch.finfo(y.dtype).min if self._mx_max else 0.0
        return torch.nn.functional.pad(y, pad, value=fill)


class _mx_MaxPool1D(_mx_Pool, torch.nn.MaxPool1d):
    """Gluon MaxPool1D."""

    _mx_dims, _mx_max = 1, True

    def __init__(self, pool_size=2, strides=None, padding=0, layout="NCW", ceil_mode=False, prefix=None, params=None):
        self._mx_pool(pool_size, strides, padding, layout, ceil_mode, None, params)


class _mx_MaxPool2D(_mx_Pool, torch.nn.MaxPool2d):
    """Gluon MaxPool2D."""

    _mx_dims, _mx_max = 2, True

    def __init__(self, pool_size=(2, 2), strides=None, padding=0, layout="NCHW", ceil_mode=False, prefix=None,
                 params=None):
        self._mx_pool(pool_size, strides, padding, layout, ceil_mode, None, params)


class _mx_MaxPool3D(_mx_Pool, torch.nn.MaxPool3d):
    """Gluon MaxPool3D."""

    _mx_dims, _mx_max = 3, True

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding=0, ceil_mode=False, layout="NCDHW", prefix=None,
                 params=None):
        self._mx_pool(pool_size, strides, padding, layout, ceil_mode, None, params)


class _mx_AvgPool1D(_mx_Pool, torch.nn.AvgPool1d):
    """Gluon AvgPool1D."""

    _mx_dims, _mx_max = 1, False

    def __init__(self, pool_size=2, strides=None, padding=0, layout="NCW", ceil_mode=False, count_include_pad=True,
                 prefix=None, params=None):
        self._mx_pool(pool_size, strides, padding, layout, ceil_mode, count_include_pad, params)


class _mx_AvgPool2D(_mx_Pool, torch.nn.AvgPool2d):
    """Gluon AvgPool2D."""

    _mx_dims, _mx_max = 2, False

    def __init__(self, pool_size=(2, 2), strides=None, padding=0, ceil_mode=False, layout="NCHW",
                 count_include_pad=True, prefix=None, params=None):
        self._mx_pool(pool_size, strides, padding, layout, ceil_mode, count_include_pad, params)


class _mx_AvgPool3D(_mx_Pool, torch.nn.AvgPool3d):
    """Gluon AvgPool3D."""

    _mx_dims, _mx_max = 3, False

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding=0, ceil_mode=False, layout="NCDHW",
                 count_include_pad=True, prefix=None, params=None):
        self._mx_pool(pool_size, strides, padding, layout, ceil_mode, count_include_pad, params)


def _mx_global_pool(module, layout, dims, params):
    _mx_no_params(params)
    expected = {1: "NCW", 2: "NCHW", 3: "NCDHW"}[dims]
    if layout != expected:
        raise NotImplementedError(f"layout={layout!r}: torch pooling is channel-first ({expected})")


class _mx_GlobalMaxPool1D(torch.nn.AdaptiveMaxPool1d):
    """Gluon GlobalMaxPool1D: the maximum over the whole axis, kept as size 1."""

    def __init__(self, layout="NCW", prefix=None, params=None):
        super().__init__(1)
        _mx_global_pool(self, layout, 1, params)


class _mx_GlobalMaxPool2D(torch.nn.AdaptiveMaxPool2d):
    """Gluon GlobalMaxPool2D."""

    def __init__(self, layout="NCHW", prefix=None, params=None):
        super().__init__(1)
        _mx_global_pool(self, layout, 2, params)


class _mx_GlobalMaxPool3D(torch.nn.AdaptiveMaxPool3d):
    """Gluon GlobalMaxPool3D."""

    def __init__(self, layout="NCDHW", prefix=None, params=None):
        super().__init__(1)
        _mx_global_pool(self, layout, 3, params)


class _mx_GlobalAvgPool1D(torch.nn.AdaptiveAvgPool1d):
    """Gluon GlobalAvgPool1D: the mean over the whole axis, kept as size 1."""

    def __init__(self, layout="NCW", prefix=None, params=None):
        super().__init__(1)
        _mx_global_pool(self, layout, 1, params)


class _mx_GlobalAvgPool2D(torch.nn.AdaptiveAvgPool2d):
    """Gluon GlobalAvgPool2D."""

    def __init__(self, layout="NCHW", prefix=None, params=None):
        super().__init__(1)
        _mx_global_pool(self, layout, 2, params)


class _mx_GlobalAvgPool3D(torch.nn.AdaptiveAvgPool3d):
    """Gluon GlobalAvgPool3D."""

    def __init__(self, layout="NCDHW", prefix=None, params=None):
        super().__init__(1)
        _mx_global_pool(self, layout, 3, params)


class _mx_Flatten(torch.nn.Flatten):
    """Gluon Flatten: keeps axis 0 and folds the rest, row-major, as torch's Flatten."""

    def __init__(self, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)


class _mx_Dropout(torch.nn.Dropout):
    """Gluon Dropout(rate, axes): one mask shared along `axes` (each listed axis of the mask
    has size 1), kept units scaled by 1 / (1 - rate) as in MXNet."""

    def __init__(self, rate, axes=(), prefix=None, params=None):
        super().__init__(rate)
        _mx_no_params(params)
        self.axes = tuple(axes)
        self._rate, self._axes = rate, self.axes

    def forward(self, x):
        if not self.training or self.p == 0 or not self.axes:
            return super().forward(x)
        shape = list(x.shape)
        for axis in self.axes:
            shape[axis] = 1
        mask = torch.empty(shape, dtype=x.dtype, device=x.device).bernoulli_(1 - self.p)
        return x * mask / (1 - self.p)

    def extra_repr(self):
        return f"{super().extra_repr()}, axes={self.axes}"


class _mx_Embedding(torch.nn.Embedding):
    """Gluon Embedding. MXNet takes ids of any dtype (float32 by default): a float id is
    truncated to an integer and ids outside [0, input_dim) are clipped to the nearest row,
    where torch's Embedding accepts only integer ids and raises outside the table."""

    def __init__(self, input_dim, output_dim, dtype="float32", weight_initializer=None, sparse_grad=False,
                 prefix=None, params=None):
        super().__init__(input_dim, output_dim, sparse=sparse_grad, dtype=_mx_dtype(dtype))
        self._kwargs = {"input_dim": input_dim, "output_dim": output_dim, "dtype": dtype, "sparse_grad": sparse_grad}
        _mx_setup(self, params, {"weight": weight_initializer})

    def forward(self, x):
        return super().forward(x.long().clamp(0, self.num_embeddings - 1))


class _mx_Activation(torch.nn.Module):
    """Gluon Activation(name): relu, sigmoid, tanh, softrelu or softsign."""

    def __init__(self, activation, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        # an unknown name fails at the first forward, as Gluon's does (measured: it builds)
        self._act_type = activation

    def forward(self, x):
        return _mx_activation(x, self._act_type)

    def extra_repr(self):
        return repr(self._act_type)


class _mx_LeakyReLU(torch.nn.LeakyReLU):
    """Gluon LeakyReLU(alpha): torch's negative_slope."""

    def __init__(self, alpha, prefix=None, params=None):
        super().__init__(alpha)
        _mx_no_params(params)
        self._alpha = alpha


class _mx_PReLU(torch.nn.PReLU):
    """Gluon PReLU: `in_channels` slopes (default 1), drawn by `alpha_initializer` (Gluon's
    default Constant(0.25), torch's init=0.25)."""

    def __init__(self, alpha_initializer=None, in_channels=1, prefix=None, params=None):
        super().__init__(in_channels, 0.25)
        _mx_setup(self, params, {"weight": alpha_initializer})

    @property
    def alpha(self):
        return self.weight


class _mx_ELU(torch.nn.ELU):
    """Gluon ELU(alpha)."""

    def __init__(self, alpha=1.0, prefix=None, params=None):
        super().__init__(alpha)
        _mx_no_params(params)
        self._alpha = alpha


class _mx_SELU(torch.nn.SELU):
    """Gluon SELU (MXNet 1.9.1's gradient for x < 0 differs; see the rule's notes)."""

    def __init__(self, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)


class _mx_GELU(torch.nn.GELU):
    """Gluon GELU: the erf form, torch's default."""

    def __init__(self, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)


class _mx_Swish(torch.nn.Module):
    """Gluon Swish(beta): x * sigmoid(beta * x); torch's SiLU is beta = 1."""

    def __init__(self, beta=1.0, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        self.beta = self._beta = beta

    def forward(self, x):
        return x * torch.sigmoid(self.beta * x)

    def extra_repr(self):
        return f"beta={self.beta}"


class _mx_PixelShuffle(torch.nn.Module):
    """Gluon contrib PixelShuffle{1,2,3}D(factor): channels C*f1*...*fn become an n-D block of
    f1 x ... x fn neighbours, factors per axis (torch's PixelShuffle takes one factor, 2-D only).
    For n = 2 and one factor it is torch's pixel_shuffle."""

    _mx_dims = 2

    def __init__(self, factor):
        super().__init__()
        self.factor = tuple(factor) if isinstance(factor, (tuple, list)) else (factor,) * self._mx_dims

    def forward(self, x):
        n, f = self._mx_dims, self.factor
        batch, channels, sizes = x.shape[0], x.shape[1], x.shape[2:]
        blocks = 1
        for k in f:
            blocks *= k
        y = x.reshape(batch, channels // blocks, *f, *sizes)
        order = [0, 1] + [i for axis in range(n) for i in (2 + n + axis, 2 + axis)]
        return y.permute(order).reshape(batch, channels // blocks, *[s * k for s, k in zip(sizes, f)])

    def extra_repr(self):
        return f"factor={self.factor}"


class _mx_PixelShuffle1D(_mx_PixelShuffle):
    _mx_dims = 1


class _mx_PixelShuffle2D(_mx_PixelShuffle):
    _mx_dims = 2


class _mx_PixelShuffle3D(_mx_PixelShuffle):
    _mx_dims = 3


class _mx_ReflectionPad2D(torch.nn.ReflectionPad2d):
    """Gluon ReflectionPad2D(padding): an int pads H and W on both sides (torch's
    ReflectionPad2d(p)); a tuple is MXNet's pad_width, a (before, after) pair per axis of the
    NCHW input, the N and C pairs zero."""

    def __init__(self, padding=0, prefix=None, params=None):
        _mx_no_params(params)
        if isinstance(padding, (tuple, list)):
            pad = tuple(padding)
            if len(pad) != 8 or any(pad[:4]):
                raise ValueError(f"ReflectionPad2D pads H and W only: pad_width {pad}")
            padding = (pad[6], pad[7], pad[4], pad[5])  # torch: left, right, top, bottom
        super().__init__(padding)



def _mx_type(value):
    """`type(m)` in code that tests layers by their exact Gluon class (`{nn.Conv2D: f}.get(type(m))`,
    `type(m) == nn.Activation`): an instance of the plain torch class a Gluon layer built from literal
    arguments became (`nn.Conv2d`, `nn.ReLU`) has the type of that layer's Gluon-signature helper
    (`_mx_Conv2D`, `_mx_Activation`), the class its Gluon class is as a value, when this program holds
    it (Note [exact layer types] in xlate/convert/layer_types.py). A helper class from another copy
    of the helper module (a tree converted with one `_mx_compat` per top-level package: a model built
    in one, converted by functions of another) is this copy's class of that name; a ParameterDict the
    program made is Gluon's one ParameterDict class. Anything else its own type."""
    kind = type(value)
    if kind.__name__ == "_mx_GluonParameterDict":  # a dict the program made is Gluon's one ParameterDict class
        kind = globals().get("_mx_ParameterDict", kind)
    if kind.__name__.startswith("_mx_"):
        found = globals().get(kind.__name__)
        return found if isinstance(found, type) else kind
    if not kind.__module__.startswith("torch.nn.modules."):
        return kind
    name = kind.__name__
    helpers = {"Linear": "_mx_Dense", "Flatten": "_mx_Flatten", "Dropout": "_mx_Dropout", "Embedding": "_mx_Embedding",
               "LeakyReLU": "_mx_LeakyReLU", "PReLU": "_mx_PReLU", "ELU": "_mx_ELU", "SELU": "_mx_SELU",
               "GELU": "_mx_GELU", "SiLU": "_mx_Swish", "ReflectionPad2d": "_mx_ReflectionPad2D"}
    if name in ("ReLU", "Sigmoid", "Tanh", "Softplus", "Softsign"):
        helper = "_mx_Activation"
    elif name.startswith("BatchNorm"):
        helper = "_mx_BatchNorm"
    elif name[:-1] in ("Conv1", "Conv2", "Conv3", "ConvTranspose1", "ConvTranspose2", "ConvTranspose3") or \
            name.endswith(("Pool1d", "Pool2d", "Pool3d")):  # Conv2d -> _mx_Conv2D, AdaptiveAvgPool2d -> _mx_GlobalAvgPool2D
        stem = name[:-1].replace("Adaptive", "Global")
        helper = f"_mx_{stem}D" if not stem.startswith("ConvTranspose") else f"_mx_Conv{stem[-1]}DTranspose"
    else:
        helper = helpers.get(name, "")
    found = globals().get(helper)
    return found if isinstance(found, type) else kind



class _mx_nn_module(metaclass=_mx_ModuleValue):
    """`mxnet.gluon.nn` as a value (`getattr(nn, cfg['type'])(**cfg['args'])`): its layers as the
    Gluon-signature helpers a layer class passed as a value becomes (Note [Gluon-signature modules])."""
    _mx_module = "mxnet.gluon.nn"

    @staticmethod
    def _mx_members():
        return {"Activation": _mx_Activation, "AvgPool1D": _mx_AvgPool1D, "AvgPool2D": _mx_AvgPool2D,
                "AvgPool3D": _mx_AvgPool3D, "BatchNorm": _mx_BatchNorm, "Conv1D": _mx_Conv1D,
                "Conv1DTranspose": _mx_Conv1DTranspose, "Conv2D": _mx_Conv2D, "Conv2DTranspose": _mx_Conv2DTranspose,
                "Conv3D": _mx_Conv3D, "Conv3DTranspose": _mx_Conv3DTranspose, "Dense": _mx_Dense,
                "Dropout": _mx_Dropout, "ELU": _mx_ELU, "Embedding": _mx_Embedding, "Flatten": _mx_Flatten,
                "GELU": _mx_GELU, "GlobalAvgPool1D": _mx_GlobalAvgPool1D, "GlobalAvgPool2D": _mx_GlobalAvgPool2D,
                "GlobalAvgPool3D": _mx_GlobalAvgPool3D, "GlobalMaxPool1D": _mx_GlobalMaxPool1D,
                "GlobalMaxPool2D": _mx_GlobalMaxPool2D, "GlobalMaxPool3D": _mx_GlobalMaxPool3D,
                "GroupNorm": _mx_GroupNorm, "InstanceNorm": _mx_InstanceNorm, "Lambda": _mx_Lambda,
                "LayerNorm": _mx_LayerNorm, "LeakyReLU": _mx_LeakyReLU, "MaxPool1D": _mx_MaxPool1D,
                "MaxPool2D": _mx_MaxPool2D, "MaxPool3D": _mx_MaxPool3D, "PReLU": _mx_PReLU,
                "ReflectionPad2D": _mx_ReflectionPad2D, "SELU": _mx_SELU, "Swish": _mx_Swish,
                "HybridLambda": _mx_Lambda}
