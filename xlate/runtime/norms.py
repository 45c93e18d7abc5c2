"""Gluon normalisation layers where no plain torch module computes the same numbers.

The converter never imports this module: it copies the text of each `_mx_*` class or
function a converted file needs (see xlate/runtime/__init__.py), so the text may use `torch` and other
`_mx_*` helpers only. The tests import it and compare every helper against live MXNet.

Note [norm helpers]
Each helper subclasses the torch module of its family (BatchNorm2d, LayerNorm, InstanceNorm2d,
GroupNorm) and keeps its state names (`weight`, `bias`, `running_mean`, `running_var`), so
`net[i].weight`, state_dict keys, `isinstance` checks and the checker's pairing all see the
torch module; the base class names the family, not the rank: every helper takes an input of
any rank and normalises over MXNet's `axis`. Where Gluon sets `scale=False` or
`center=False`, MXNet's operators still multiply by gamma and add beta (only their gradient is
off: grad_req='null'), except BatchNorm's scale=False, which ignores gamma altogether
(`fix_gamma`). The helpers freeze the parameter (requires_grad=False) and keep using it the
same way. A `_mx_Lazy*` variant is the Gluon layer with `in_channels=0`: its size comes from
the first input, like torch's Lazy modules, and it then becomes the eager helper.
"""
import torch


class _mx_LazyNorm(torch.nn.modules.lazy.LazyModuleMixin):
    """Mixin for a norm taking its size from axis `self.axis` of the first input (Gluon's
    in_channels=0): the tensors named in `_lazy` get that size and torch's initial values,
    which are Gluon's defaults (gamma 1, beta 0, running mean 0, running variance 1)."""

    _lazy = ("weight", "bias")

    def _set_size(self, size):
        self.num_features = size

    def reset_parameters(self):
        if not self.has_uninitialized_params():
            super().reset_parameters()

    def initialize_parameters(self, x):
        if self.has_uninitialized_params():
            size = x.shape[self.axis]
            self._set_size(size)
            with torch.no_grad():
                for name in self._lazy:
                    getattr(self, name).materialize((size,))
                self.reset_parameters()


class _mx_BatchNorm(torch.nn.BatchNorm2d):
    """Gluon BatchNorm. `momentum` is torch's (the weight of the new batch: 1 - MXNet's); the
    running variance is updated with the biased batch variance (torch: unbiased); scale=False
    ignores `weight` (MXNet's fix_gamma); use_global_stats=True normalises with the running
    statistics in training too. MXNet updates the statistics in backward, this in forward."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, axis=1, center=True, scale=True,
                 use_global_stats=False):
        super().__init__(num_features, eps=eps, momentum=momentum)
        self.axis, self.center, self.scale, self.use_global_stats = axis, center, scale, use_global_stats
        self.weight.requires_grad_(scale)
        self.bias.requires_grad_(center)

    def forward(self, x):
        h = x.movedim(self.axis, 1).contiguous()
        weight = self.weight if self.scale else None
        if self.training and not self.use_global_stats:
            with torch.no_grad():
                var, mean = torch.var_mean(h, [0] + list(range(2, h.dim())), correction=0)
                self.running_mean.mul_(1 - self.momentum).add_(mean, alpha=self.momentum)
                self.running_var.mul_(1 - self.momentum).add_(var, alpha=self.momentum)
                self.num_batches_tracked.add_(1)
            y = torch.nn.functional.batch_norm(h, None, None, weight, self.bias, True, 0.0, self.eps)
        else:
            y = torch.nn.functional.batch_norm(h, self.running_mean, self.running_var, weight, self.bias,
                                               False, 0.0, self.eps)
        if y.requires_grad:
            # torch's CPU batch_norm backward returns wrong gradients when its input and output
            # gradient are laid out differently and a dimension has size 1 (torch 2.13)
            y.register_hook(torch.Tensor.contiguous)
        return y.movedim(1, self.axis)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, axis={self.axis}, "
                f"center={self.center}, scale={self.scale}, use_global_stats={self.use_global_stats}")


class _mx_LazyBatchNorm(_mx_LazyNorm, _mx_BatchNorm):
    """_mx_BatchNorm taking its channel count from the first input (Gluon's in_channels=0)."""

    cls_to_become = _mx_BatchNorm
    _lazy = ("weight", "bias", "running_mean", "running_var")

    def __init__(self, eps=1e-5, momentum=0.1, axis=1, center=True, scale=True, use_global_stats=False):
        super().__init__(0, eps, momentum, axis, center, scale, use_global_stats)
        self.weight = torch.nn.UninitializedParameter(requires_grad=scale)
        self.bias = torch.nn.UninitializedParameter(requires_grad=center)
        self.running_mean = torch.nn.UninitializedBuffer()
        self.running_var = torch.nn.UninitializedBuffer()


class _mx_LayerNorm(torch.nn.LayerNorm):
    """Gluon LayerNorm over `axis` of any rank (torch normalises the last axis: moved there and
    back); scale=False / center=False freeze `weight` / `bias`, which MXNet still applies."""

    def __init__(self, normalized_shape, eps=1e-5, axis=-1, center=True, scale=True):
        super().__init__(normalized_shape, eps=eps)
        self.axis, self.center, self.scale = axis, center, scale
        self.weight.requires_grad_(scale)
        self.bias.requires_grad_(center)

    def forward(self, x):
        h = torch.nn.functional.layer_norm(x.movedim(self.axis, -1), self.normalized_shape, self.weight,
                                           self.bias, self.eps)
        return h.movedim(-1, self.axis)

    def extra_repr(self):
        return f"{super().extra_repr()}, axis={self.axis}, center={self.center}, scale={self.scale}"


class _mx_LazyLayerNorm(_mx_LazyNorm, _mx_LayerNorm):
    """_mx_LayerNorm taking its size from the first input (Gluon's in_channels=0)."""

    cls_to_become = _mx_LayerNorm

    def __init__(self, eps=1e-5, axis=-1, center=True, scale=True):
        super().__init__(0, eps, axis, center, scale)
        self.weight = torch.nn.UninitializedParameter(requires_grad=scale)
        self.bias = torch.nn.UninitializedParameter(requires_grad=center)

    def _set_size(self, size):
        self.normalized_shape = (size,)


class _mx_InstanceNorm(torch.nn.InstanceNorm2d):
    """Gluon InstanceNorm: channel `axis` of an input of any rank >= 3, no running statistics;
    gamma multiplies even with scale=False (Gluon's default) and beta is added even with
    center=False: the flags only freeze them."""

    def __init__(self, num_features, eps=1e-5, axis=1, center=True, scale=False):
        super().__init__(num_features, eps=eps, affine=True)
        self.axis, self.center, self.scale = axis, center, scale
        self.weight.requires_grad_(scale)
        self.bias.requires_grad_(center)

    def forward(self, x):
        # one group per channel is instance norm; torch's instance_norm returns wrong gradients
        # for a batch of one whose output gradient is not contiguous (torch 2.13, CPU)
        h = x.movedim(self.axis, 1)
        h = torch.nn.functional.group_norm(h, h.shape[1], self.weight, self.bias, self.eps)
        return h.movedim(1, self.axis)

    def extra_repr(self):
        return f"{self.num_features}, eps={self.eps}, axis={self.axis}, center={self.center}, scale={self.scale}"


class _mx_LazyInstanceNorm(_mx_LazyNorm, _mx_InstanceNorm):
    """_mx_InstanceNorm taking its channel count from the first input (Gluon's in_channels=0)."""

    cls_to_become = _mx_InstanceNorm

    def __init__(self, eps=1e-5, axis=1, center=True, scale=False):
        super().__init__(0, eps, axis, center, scale)
        self.weight = torch.nn.UninitializedParameter(requires_grad=scale)
        self.bias = torch.nn.UninitializedParameter(requires_grad=center)


class _mx_GroupNorm(torch.nn.GroupNorm):
    """Gluon GroupNorm (MXNet 1.9.1): one gamma and one beta per GROUP, shape (num_groups,),
    where torch's GroupNorm learns one per channel (training a per-channel copy lets the
    channels of a group drift apart); scale=False / center=False freeze them."""

    def __init__(self, num_groups, eps=1e-5, center=True, scale=True):
        super().__init__(num_groups, num_groups, eps=eps)  # (num_groups,) parameters
        self.num_channels = None  # any multiple of num_groups
        self.center, self.scale = center, scale
        self.weight.requires_grad_(scale)
        self.bias.requires_grad_(center)

    def forward(self, x):
        per_group = x.shape[1] // self.num_groups
        shape = (1, -1) + (1,) * (x.dim() - 2)
        y = torch.nn.functional.group_norm(x, self.num_groups, None, None, self.eps)
        return y * self.weight.repeat_interleave(per_group).view(shape) + \
            self.bias.repeat_interleave(per_group).view(shape)

    def extra_repr(self):
        return f"{self.num_groups}, eps={self.eps}, center={self.center}, scale={self.scale}"
