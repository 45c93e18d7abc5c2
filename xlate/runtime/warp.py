"""MXNet's spatial-transformer operators: GridGenerator and BilinearSampler (NCHW), in torch alone.

Note [sampling grids]
MXNet's grids are (N, 2, H, W), channel 0 the x coordinate and channel 1 the y, normalised to
[-1, 1] with -1 and 1 at the centres of the first and last pixels; torch's grid_sample takes
(N, H, W, 2) in the same (x, y) order, and align_corners=True is that normalisation. BilinearSampler
reads each of the four neighbours outside the input as 0, as grid_sample's zero padding does, and its
input and grid gradients are grid_sample's. GridGenerator's 'affine' multiplies each (2, 3) matrix
with the target's normalised (x, y, 1); 'warp' adds a flow in pixels to each pixel's own position and
normalises by (size - 1) / 2. Measured equal to MXNet 1.9.1 (outputs and gradients) in
tests/test_sampling_ops.py.
"""
import torch


def _mx_grid_generator(data=None, transform_type="affine", target_shape=(0, 0), out=None, name=None):
    """MXNet GridGenerator: an (N, 2, H, W) sampling grid from affine matrices (N, 6) or a flow field
    (N, 2, H, W) in pixels (Note [sampling grids])."""
    _mx_no_out(out)
    if transform_type == "affine":
        h, w = target_shape
        ys = torch.linspace(-1, 1, h, dtype=data.dtype, device=data.device)
        xs = torch.linspace(-1, 1, w, dtype=data.dtype, device=data.device)
        gy, gx = torch.meshgrid(ys, xs, indexing="ij")
        points = torch.stack([gx.reshape(-1), gy.reshape(-1), torch.ones_like(gx).reshape(-1)])  # (3, H*W)
        return torch.matmul(data.reshape(-1, 2, 3), points).reshape(-1, 2, h, w)
    if transform_type != "warp":
        raise ValueError(f"GridGenerator transform_type {transform_type!r}")
    n, _, h, w = data.shape
    ys = torch.arange(h, dtype=data.dtype, device=data.device).view(1, h, 1).expand(1, h, w)
    xs = torch.arange(w, dtype=data.dtype, device=data.device).view(1, 1, w).expand(1, h, w)
    gx = (data[:, 0] + xs) / ((w - 1) / 2.0) - 1
    gy = (data[:, 1] + ys) / ((h - 1) / 2.0) - 1
    return torch.stack([gx, gy], dim=1)


def _mx_bilinear_sampler(data=None, grid=None, cudnn_off=None, out=None, name=None):
    """MXNet BilinearSampler: `data` (N, C, H, W) read at `grid` (N, 2, Ho, Wo), x then y in [-1, 1],
    neighbours outside the input reading 0 (Note [sampling grids])."""
    _mx_no_out(out)
    return torch.nn.functional.grid_sample(data, grid.permute(0, 2, 3, 1), mode="bilinear", padding_mode="zeros",
                                           align_corners=True)


def _mx_spatial_transformer(data=None, loc=None, target_shape=(0, 0), transform_type="affine", sampler_type="bilinear",
                            cudnn_off=None, out=None, name=None):
    """MXNet SpatialTransformer: `data` (N, C, H, W) sampled bilinearly on the affine grid of `loc`
    (N, 6) over `target_shape` (h, w): GridGenerator('affine') then BilinearSampler, which it is."""
    _mx_no_out(out)
    if transform_type != "affine" or sampler_type != "bilinear":
        raise ValueError("SpatialTransformer takes transform_type='affine' and sampler_type='bilinear', as MXNet's")
    grid = _mx_grid_generator(loc.reshape(loc.shape[0], 6), "affine", target_shape)
    return _mx_bilinear_sampler(data, grid)
