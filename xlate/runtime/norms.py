"""Gluon normalisation layers where no plain torch module computes the same numbers.

The converter never imports this module: it copies the text of each `_mx_*` class or
function a converted file needs (see xlate/runtime/__init__.py), so the text may use `torch` and other
`_mx_*` helpers only. The tests import it and compare every helper against live MXNet.

Note [norm helpers]
Each helper takes Gluon's constructor arguments (Note [Gluon-signature modules] in
layers.py), subclasses the torch module of its family (BatchNorm2d, LayerNorm,
InstanceNorm2d, GroupNorm) and keeps its state names (`weight`, `bias`, `running_mean`,
`running_var`), so `net[i].weight`, state_dict keys, `isinstance` checks and the checker's
pairing all see the torch module; Gluon's names (`gamma`, `beta`) read the same tensors. The
base class names the family, not the rank: every helper takes an input of any rank and
normalises over MXNet's `axis`. Where Gluon sets `scale=False` or `center=False`, MXNet's
operators still multiply by gamma and add beta (only their gradient is off: grad_req='null'),
except BatchNorm's scale=False, which ignores gamma altogether (`fix_gamma`). The helpers
freeze the parameter (requires_grad=False) and keep using it the same way. `in_channels=0`
(Gluon's default) takes the size from axis `axis` of the first input, like torch's Lazy
modules.

Note [statistics in backward]
MXNet's BatchNorm moves its running mean and variance in the backward pass (layers.md 3.6:
hybridized or not), torch's in the forward pass. A forward pass in training mode that no
backward follows (a validation loss computed under `autograd.record()`, a forward under
`autograd.train_mode()` without recording) leaves MXNet's statistics alone: 0.36 apart after
one such pass if the translation moved them. `_mx_BatchNorm` computes the batch statistics
in the forward pass and applies them from a gradient hook on its output, once for each
backward that reaches the layer, in backward's order (two forward passes and one backward
apply the second pass's statistics first, as MXNet does). Under torch.no_grad(), or when
nothing that needs a gradient leads to the layer, no backward can come: nothing moves, as in
MXNet.

Note [BatchNorm's fast path]
`_mx_BatchNorm` costs what `nn.BatchNorm2d` costs (bench/speed_vs_hand_port.py): one
batch_norm call, whose saved mean and 1/sqrt(var + eps) give the statistics for the update
(no second pass over the input), one gradient hook per forward and only in training with a
gradient, and no layout moves for axis 1. torch 2.13's CPU batch_norm backward returns wrong
gradients when the output gradient is laid out unlike the input and the input has an axis of
size 1 (errors of 3 to 30; tests/test_numeric_norms.py): the hook hands the gradient on
contiguous, which copies nothing in the usual case, and in eval mode a hook is added only for
an input with a size-1 axis. The hooks are `_mx_OnBackward` nodes, not `register_hook` (Note
[hooks under torch.compile] in autograd.py).
"""
import torch


class _mx_Norm(_mx_Deferred):
    """What the norm helpers share: Gluon's gamma/beta names, the deferred size and the
    initializers (gamma 'ones', beta 'zeros', running mean 'zeros', running var 'ones')."""

    _mx_sized = ("weight", "bias")

    def _mx_norm(self, in_channels, params, inits):
        if not in_channels:
            self._mx_defer(*self._mx_sized)
        _mx_setup(self, params, inits)

    @property
    def gamma(self):
        return self.weight

    @property
    def beta(self):
        return self.bias

    def _mx_set_size(self, size):
        self.num_features = size

    def _mx_materialize(self, x):
        size = x.shape[self.axis]
        self._mx_set_size(size)
        for name in self._mx_sized:
            getattr(self, name).materialize((size,))


def _mx_running_update(running_mean, running_var, tracked, mean, invstd, eps, momentum):
    """The gradient hook that moves BatchNorm's running statistics when backward reaches the
    layer's output (Note [statistics in backward]); it also hands the gradient on contiguous
    where the input has an axis of size 1 (Note [BatchNorm's fast path])."""

    def update(grad):
        with torch.no_grad():
            # the biased batch variance from batch_norm's own 1 / sqrt(var + eps), recovered as
            # MXNet's operators recover it from theirs (INVSTD_TO_VARIANCE, in double)
            wide = invstd.double() if invstd.device.type in ("cpu", "cuda") else invstd
            var = (1.0 / (wide * wide) - eps).to(running_var.dtype)
            running_mean.mul_(1 - momentum).add_(mean.to(running_mean.dtype), alpha=momentum)
            running_var.mul_(1 - momentum).add_(var, alpha=momentum)
            tracked.add_(1)
        return grad.contiguous()

    return update


class _mx_BatchNorm(_mx_Norm, torch.nn.BatchNorm2d):
    """Gluon BatchNorm. MXNet's `momentum` weighs the running value, torch's the new batch
    (torch's is 1 - MXNet's); the running variance is updated with the biased batch variance
    (torch: unbiased); scale=False ignores `weight` (MXNet's fix_gamma); use_global_stats=True
    normalises with the running statistics in training too. Like MXNet, the running statistics
    move when backward passes through the layer, not in the forward pass (Note [statistics in
    backward])."""

    _mx_sized = ("weight", "bias", "running_mean", "running_var")

    def __init__(self, axis=1, momentum=0.9, epsilon=1e-5, center=True, scale=True, use_global_stats=False,
                 beta_initializer="zeros", gamma_initializer="ones", running_mean_initializer="zeros",
                 running_variance_initializer="ones", in_channels=0, prefix=None, params=None):
        super().__init__(in_channels or 1, eps=epsilon, momentum=1 - momentum)
        self.axis, self.center, self.scale, self.use_global_stats = axis, center, scale, use_global_stats
        self._kwargs = {"axis": axis, "eps": epsilon, "momentum": momentum, "fix_gamma": not scale,
                        "use_global_stats": use_global_stats}
        self.weight.requires_grad_(scale)
        self.bias.requires_grad_(center)
        self._mx_norm(in_channels, params, {"weight": gamma_initializer, "bias": beta_initializer,
                                            "running_mean": running_mean_initializer,
                                            "running_var": running_variance_initializer})
        _mx_autograd_state()  # made here, eagerly: torch.compile cannot trace its making in forward

    def forward(self, x):
        h = x.contiguous() if self.axis == 1 else x.movedim(self.axis, 1).contiguous()
        weight = self.weight if self.scale else None
        running = self._mx_running()
        if self.training and not self.use_global_stats:
            # one pass: batch_norm's saved mean and 1/sqrt(var + eps) are the batch statistics
            y, mean, invstd = torch.native_batch_norm(h, weight, self.bias, None, None, True, 0.0, self.eps)
            if y.requires_grad:  # Note [statistics in backward]
                y = _mx_OnBackward.apply(y, _mx_running_update(*running, mean.detach(), invstd.detach(), self.eps,
                                                               self.momentum))
        else:
            y = torch.nn.functional.batch_norm(h, running[0], running[1], weight, self.bias, False, 0.0, self.eps)
            if y.requires_grad and 1 in h.shape:  # Note [BatchNorm's fast path]
                y = _mx_OnBackward.apply(y, torch.Tensor.contiguous)
        return y if self.axis == 1 else y.movedim(1, self.axis)

    def _mx_running(self):
        """The running statistics of the context this call stands for (Note [a BatchNorm per
        device] in parallel.py): the module's own buffers for the first, a copy for another."""
        device = getattr(_mx_autograd_state(), "device", 0)
        if not device:
            return self.running_mean, self.running_var, self.num_batches_tracked
        copies = self.__dict__.setdefault("_mx_copies", {})
        if device not in copies:  # MXNet's copies start equal
            copies[device] = (self.running_mean.detach().clone(), self.running_var.detach().clone(),
                              self.num_batches_tracked.detach().clone())
        return copies[device]

    def _load_from_state_dict(self, *args, **kwargs):
        super()._load_from_state_dict(*args, **kwargs)
        self.__dict__.pop("_mx_copies", None)  # loading sets every context's copy, as in Gluon

    def extra_repr(self):
        return (f"{self.num_features}, axis={self.axis}, momentum={1 - self.momentum:g} (MXNet's), eps={self.eps}, "
                f"center={self.center}, scale={self.scale}, use_global_stats={self.use_global_stats}")


class _mx_SyncBatchNorm(_mx_BatchNorm):
    """Gluon contrib SyncBatchNorm: BatchNorm over the statistics of this process's batch
    (torch.nn.SyncBatchNorm under DistributedDataParallel averages them across processes)."""

    def __init__(self, in_channels=0, num_devices=None, momentum=0.9, epsilon=1e-5, center=True, scale=True,
                 use_global_stats=False, beta_initializer="zeros", gamma_initializer="ones",
                 running_mean_initializer="zeros", running_variance_initializer="ones", prefix=None, params=None):
        super().__init__(1, momentum, epsilon, center, scale, use_global_stats, beta_initializer, gamma_initializer,
                         running_mean_initializer, running_variance_initializer, in_channels, prefix, params)


class _mx_LayerNorm(_mx_Norm, torch.nn.LayerNorm):
    """Gluon LayerNorm over `axis` of any rank (torch normalises the last axis: moved there and
    back); scale=False / center=False freeze `weight` / `bias`, which MXNet still applies."""

    def __init__(self, axis=-1, epsilon=1e-5, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", in_channels=0, prefix=None, params=None):
        super().__init__(in_channels or 1, eps=epsilon)
        self.axis, self.center, self.scale = axis, center, scale
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self.weight.requires_grad_(scale)
        self.bias.requires_grad_(center)
        self._mx_norm(in_channels, params, {"weight": gamma_initializer, "bias": beta_initializer})

    def _mx_set_size(self, size):
        self.normalized_shape = (size,)

    def forward(self, x):
        h = torch.nn.functional.layer_norm(x.movedim(self.axis, -1), self.normalized_shape, self.weight,
                                           self.bias, self.eps)
        return h.movedim(-1, self.axis)

    def extra_repr(self):
        return f"{super().extra_repr()}, axis={self.axis}, center={self.center}, scale={self.scale}"


class _mx_InstanceNorm(_mx_Norm, torch.nn.InstanceNorm2d):
    """Gluon InstanceNorm: channel `axis` of an input of any rank >= 3, no running statistics;
    gamma multiplies even with scale=False (Gluon's default) and beta is added even with
    center=False: the flags only freeze them."""

    def __init__(self, axis=1, epsilon=1e-5, center=True, scale=False, beta_initializer="zeros",
                 gamma_initializer="ones", in_channels=0, prefix=None, params=None):
        super().__init__(in_channels or 1, eps=epsilon, affine=True)
        self.axis, self.center, self.scale = axis, center, scale
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self.weight.requires_grad_(scale)
        self.bias.requires_grad_(center)
        self._mx_norm(in_channels, params, {"weight": gamma_initializer, "bias": beta_initializer})

    def forward(self, x):
        # one group per channel is instance norm; torch's instance_norm returns wrong gradients
        # for a batch of one whose output gradient is not contiguous (torch 2.13, CPU)
        h = x.movedim(self.axis, 1)
        h = torch.nn.functional.group_norm(h, h.shape[1], self.weight, self.bias, self.eps)
        return h.movedim(1, self.axis)

    def extra_repr(self):
        return f"{self.num_features}, eps={self.eps}, axis={self.axis}, center={self.center}, scale={self.scale}"


class _mx_GroupNorm(torch.nn.GroupNorm):
    """Gluon GroupNorm (MXNet 1.9.1): one gamma and one beta per GROUP, shape (num_groups,),
    where torch's GroupNorm learns one per channel (training a per-channel copy lets the
    channels of a group drift apart); scale=False / center=False freeze them."""

    def __init__(self, num_groups=1, epsilon=1e-5, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", prefix=None, params=None):
        super().__init__(num_groups, num_groups, eps=epsilon)  # (num_groups,) parameters
        self.num_channels = None  # any multiple of num_groups
        self.center, self.scale = center, scale
        self._kwargs = {"eps": epsilon, "num_groups": num_groups, "center": center, "scale": scale}
        self.weight.requires_grad_(scale)
        self.bias.requires_grad_(center)
        _mx_setup(self, params, {"weight": gamma_initializer, "bias": beta_initializer})

    @property
    def gamma(self):
        return self.weight

    @property
    def beta(self):
        return self.bias

    def forward(self, x):
        per_group = x.shape[1] // self.num_groups
        shape = (1, -1) + (1,) * (x.dim() - 2)
        y = torch.nn.functional.group_norm(x, self.num_groups, None, None, self.eps)
        return y * self.weight.repeat_interleave(per_group).view(shape) + \
            self.bias.repeat_interleave(per_group).view(shape)

    def extra_repr(self):
        return f"{self.num_groups}, eps={self.eps}, center={self.center}, scale={self.scale}"
