"""Layer modules for Gluon layers that no torch constructor translates exactly.

Copied as text into converted files, like torch_helpers.py: each `_mx_*` class or function
uses `torch` and other `_mx_*` helpers only. Every module here subclasses the torch layer it
extends and keeps its parameter names (`weight`, `bias`), so a Gluon layer stays one module,
`net[i].weight` and the state_dict keys are a plain torch layer's, and the checker pairs it
with the torch family it belongs to. tests/test_numeric_layers.py compares each against MXNet.
"""
import torch


def _mx_activation(x, activation):
    """Gluon's `Activation(name)`: the five act_types MXNet's Activation operator knows."""
    if activation is None:
        return x
    if activation == "relu":
        return torch.relu(x)
    if activation == "sigmoid":
        return torch.sigmoid(x)
    if activation == "tanh":
        return torch.tanh(x)
    if activation == "softrelu":
        return torch.nn.functional.softplus(x)
    if activation == "softsign":
        return torch.nn.functional.softsign(x)
    raise ValueError(f"unknown Gluon activation {activation!r}")


class _mx_Activated:
    """Mixin for a layer built with Gluon's `activation=`: the activation runs inside the
    layer's own forward, so the layer stays one module (a separate one would shift indices)."""

    def __init__(self, *args, activation=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.activation = activation

    def forward(self, x, *args, **kwargs):
        return _mx_activation(super().forward(x, *args, **kwargs), self.activation)

    def extra_repr(self):
        text = super().extra_repr()
        return text if self.activation is None else f"{text}, activation={self.activation!r}"


class _mx_Dense(_mx_Activated, torch.nn.Linear):
    """Gluon Dense: with flatten=True (Gluon's default) every axis after the first is folded
    into one before the matmul; torch's Linear acts on the last axis alone."""

    def __init__(self, in_features, out_features, bias=True, flatten=True, activation=None, device=None,
                 dtype=None):
        super().__init__(in_features, out_features, bias=bias, activation=activation, device=device, dtype=dtype)
        self.flatten = flatten

    def forward(self, x):
        if self.flatten:
            # Gluon reads a 1-D input as (N, 1)
            x = x.flatten(1) if x.dim() > 1 else x.unsqueeze(1)
        return super().forward(x)

    def extra_repr(self):
        text = super().extra_repr()
        return text if self.flatten else f"{text}, flatten=False"


class _mx_LazyDense(torch.nn.modules.lazy.LazyModuleMixin, _mx_Dense):
    """Gluon Dense with in_units deferred: the input size is learnt at the first call, from
    the folded trailing axes when flatten=True (nn.LazyLinear would take the last axis alone)."""

    cls_to_become = _mx_Dense

    def __init__(self, out_features, bias=True, flatten=True, activation=None, device=None, dtype=None):
        super().__init__(0, 0, False, flatten=flatten, activation=activation)
        self.weight = torch.nn.parameter.UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = torch.nn.parameter.UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, x):
        if self.has_uninitialized_params():
            with torch.no_grad():
                if not self.flatten:
                    self.in_features = x.shape[-1]
                else:
                    self.in_features = x[0].numel() if x.dim() > 1 else 1
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class _mx_Conv1d(_mx_Activated, torch.nn.Conv1d):
    """Gluon Conv1D with `activation=`."""


class _mx_Conv2d(_mx_Activated, torch.nn.Conv2d):
    """Gluon Conv2D with `activation=`."""


class _mx_Conv3d(_mx_Activated, torch.nn.Conv3d):
    """Gluon Conv3D with `activation=`."""


class _mx_ConvTranspose1d(_mx_Activated, torch.nn.ConvTranspose1d):
    """Gluon Conv1DTranspose with `activation=`."""


class _mx_ConvTranspose2d(_mx_Activated, torch.nn.ConvTranspose2d):
    """Gluon Conv2DTranspose with `activation=`."""


class _mx_ConvTranspose3d(_mx_Activated, torch.nn.ConvTranspose3d):
    """Gluon Conv3DTranspose with `activation=`."""


class _mx_LazyConv1d(_mx_Activated, torch.nn.LazyConv1d):
    """Gluon Conv1D with `activation=` and in_channels deferred."""

    cls_to_become = _mx_Conv1d


class _mx_LazyConv2d(_mx_Activated, torch.nn.LazyConv2d):
    """Gluon Conv2D with `activation=` and in_channels deferred."""

    cls_to_become = _mx_Conv2d


class _mx_LazyConv3d(_mx_Activated, torch.nn.LazyConv3d):
    """Gluon Conv3D with `activation=` and in_channels deferred."""

    cls_to_become = _mx_Conv3d


class _mx_LazyConvTranspose1d(_mx_Activated, torch.nn.LazyConvTranspose1d):
    """Gluon Conv1DTranspose with `activation=` and in_channels deferred."""

    cls_to_become = _mx_ConvTranspose1d


class _mx_LazyConvTranspose2d(_mx_Activated, torch.nn.LazyConvTranspose2d):
    """Gluon Conv2DTranspose with `activation=` and in_channels deferred."""

    cls_to_become = _mx_ConvTranspose2d


class _mx_LazyConvTranspose3d(_mx_Activated, torch.nn.LazyConvTranspose3d):
    """Gluon Conv3DTranspose with `activation=` and in_channels deferred."""

    cls_to_become = _mx_ConvTranspose3d


def _mx_ntuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _mx_CeilPooling:
    """Mixin for Gluon pooling with ceil_mode=True (MXNet's 'full' convention): MXNet keeps
    a last window that starts in the right padding, torch's ceil_mode drops it. That window
    holds no input element: MXNet gives it the lowest float (max) or 0 (avg) and sends it no
    gradient, so padding torch's output with that value is exact."""

    def forward(self, x):
        y = super().forward(x)
        if not self.ceil_mode:
            return y
        n = self._mx_spatial
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


class _mx_MaxPool1d(_mx_CeilPooling, torch.nn.MaxPool1d):
    """Gluon MaxPool1D (ceil_mode=True keeps MXNet's last window)."""

    _mx_spatial, _mx_max = 1, True


class _mx_MaxPool2d(_mx_CeilPooling, torch.nn.MaxPool2d):
    """Gluon MaxPool2D (ceil_mode=True keeps MXNet's last window)."""

    _mx_spatial, _mx_max = 2, True


class _mx_MaxPool3d(_mx_CeilPooling, torch.nn.MaxPool3d):
    """Gluon MaxPool3D (ceil_mode=True keeps MXNet's last window)."""

    _mx_spatial, _mx_max = 3, True


class _mx_AvgPool1d(_mx_CeilPooling, torch.nn.AvgPool1d):
    """Gluon AvgPool1D (ceil_mode=True keeps MXNet's last window)."""

    _mx_spatial, _mx_max = 1, False


class _mx_AvgPool2d(_mx_CeilPooling, torch.nn.AvgPool2d):
    """Gluon AvgPool2D (ceil_mode=True keeps MXNet's last window)."""

    _mx_spatial, _mx_max = 2, False


class _mx_AvgPool3d(_mx_CeilPooling, torch.nn.AvgPool3d):
    """Gluon AvgPool3D (ceil_mode=True keeps MXNet's last window)."""

    _mx_spatial, _mx_max = 3, False


class _mx_Dropout(torch.nn.Dropout):
    """Gluon Dropout(rate, axes): one mask shared along `axes` (each listed axis of the mask
    has size 1), kept units scaled by 1 / (1 - rate) as in MXNet."""

    def __init__(self, p=0.5, axes=()):
        super().__init__(p)
        self.axes = tuple(axes)

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


class _mx_Swish(torch.nn.Module):
    """Gluon Swish(beta): x * sigmoid(beta * x); torch's SiLU is beta = 1."""

    def __init__(self, beta=1.0):
        super().__init__()
        self.beta = beta

    def forward(self, x):
        return x * torch.sigmoid(self.beta * x)

    def extra_repr(self):
        return f"beta={self.beta}"
