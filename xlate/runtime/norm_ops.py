"""MXNet's normalisation and scaling operators called as functions (`F.LayerNorm(x, gamma, beta)`,
`F.InstanceNorm`, `F.contrib.div_sqrt_dim`, `nd.cumsum`), with their own signatures (Note [operator
helpers] in operators.py). The layers (nn.LayerNorm, nn.InstanceNorm) are in norms.py.
tests/test_norm_ops.py compares each with MXNet 1.9.1, values and gradients.
"""
import torch


def _mx_layer_norm_op(data=None, gamma=None, beta=None, axis=-1, eps=1e-5, output_mean_var=False, out=None,
                      name=None):
    """MXNet LayerNorm: (x - mean) / sqrt(var + eps) * gamma + beta over `axis` (the biased
    variance, as torch's layer_norm); with output_mean_var, also the mean and sqrt(var + eps),
    their axis kept at size 1."""
    _mx_no_out(out)
    moved = data.movedim(axis, -1)
    size = moved.shape[-1:]
    if not output_mean_var:
        return torch.nn.functional.layer_norm(moved, size, gamma, beta, eps).movedim(-1, axis)
    mean = moved.mean(dim=-1, keepdim=True)
    std = torch.sqrt(moved.var(dim=-1, unbiased=False, keepdim=True) + eps)
    result = (moved - mean) / std * gamma + beta
    return [result.movedim(-1, axis), mean.movedim(-1, axis), std.movedim(-1, axis)]


def _mx_instance_norm_op(data=None, gamma=None, beta=None, eps=1e-3, out=None, name=None):
    """MXNet InstanceNorm: each (sample, channel) normalised over the spatial axes (the biased
    variance), then gamma and beta per channel; its eps is 1e-3 (torch's 1e-5)."""
    _mx_no_out(out)
    return torch.nn.functional.instance_norm(data, weight=gamma, bias=beta, eps=eps)


def _mx_div_sqrt_dim(data=None, out=None, name=None):
    """MXNet contrib.div_sqrt_dim: divides by the square root of the last axis's size."""
    _mx_no_out(out)
    return data / (data.shape[-1] ** 0.5)


def _mx_cumsum(a=None, axis=None, dtype=None, out=None, name=None):
    """MXNet cumsum (nd's, the numpy dialect's operator): over the flattened array without an
    axis, in the input's dtype unless `dtype` is given (torch's widens integers to int64)."""
    _mx_no_out(out)
    x = a.flatten() if axis is None else a
    return torch.cumsum(x, 0 if axis is None else axis, dtype=_mx_dtype(dtype) if dtype is not None else a.dtype)
