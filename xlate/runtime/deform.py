"""MXNet's deformable convolutions (contrib DeformableConvolution and ModulatedDeformableConvolution:
the operators and Gluon's layers) in torch alone.

Note [deformable sampling]
MXNet's deformable im2col (DCN v1, CPU, 1.9.1) samples the input at p0 + pk + offset for every output
position p0 and kernel tap pk; the offsets hold, per deformable group, (dy, dx) pairs in the kernel's
row-major tap order. A position with a negative coordinate, or one at or past the size, reads 0; one
in the last pixel's span [size - 1, size) reads the last pixel (its coordinate is clamped there, so
its offset gets no gradient along that axis); inside, bilinear interpolation. torch's grid_sample
interpolates towards zero in both margins instead (0.39 apart on a 4x5 input at dy = -0.7): the
helper gathers the four neighbours itself, and autograd gives MXNet's data and offset gradients. The
sampled columns (C * taps, L) then meet the weight viewed as (num_filter, C / num_group * taps), the
order of Convolution's im2col. Measured equal to MXNet 1.9.1 (outputs; data, offset and weight
gradients) in tests/test_sampling_ops.py and the `deformable-conv` row of xlate/check/rule_cases.py.
The modulated operator (DCN v2) samples otherwise: its im2col interpolates towards zero in both
margins, as grid_sample does (measured: 1e-6 from MXNet's CPU forward, 3.5 with the v1 sampling),
and multiplies each sample by its mask. MXNet's CPU build has no backward for it (only a GPU kernel),
so its gradients here are autograd's of that sampling, unmeasured: the rules say so (review).
"""
import torch


def _mx_deformable_convolution(data=None, offset=None, weight=None, bias=None, kernel=(), stride=(), dilate=(),
                               pad=(), num_filter=None, num_group=1, num_deformable_group=1, workspace=1024,
                               no_bias=False, layout=None, out=None, name=None):
    """MXNet contrib.DeformableConvolution, NCHW (Note [deformable sampling])."""
    _mx_no_out(out)
    return _mx_deform_conv(data, offset, weight, None if no_bias else bias, stride, dilate, pad, num_group,
                           num_deformable_group, layout, None)


def _mx_deform_conv(data, offset, weight, bias, stride, dilate, pad, num_group, num_deformable_group, layout, mask):
    """Both deformable convolutions; with `mask`, the modulated one's sampling and masks."""
    if layout not in (None, "NCHW"):
        raise NotImplementedError(f"layout={layout!r}: the deformable convolution is NCHW here")
    n, c, h, w = data.shape
    filters, _, kh, kw = weight.shape
    sy, sx = _mx_ntuple(stride or 1, 2)
    py, px = _mx_ntuple(pad or 0, 2)
    dy, dx = _mx_ntuple(dilate or 1, 2)
    oh, ow = offset.shape[2:]
    taps, dg = kh * kw, num_deformable_group
    dev, dt = data.device, data.dtype
    ys = (torch.arange(oh, device=dev, dtype=dt) * sy - py).view(1, oh, 1) + \
        (torch.arange(kh, device=dev, dtype=dt) * dy).repeat_interleave(kw).view(taps, 1, 1)
    xs = (torch.arange(ow, device=dev, dtype=dt) * sx - px).view(1, 1, ow) + \
        (torch.arange(kw, device=dev, dtype=dt) * dx).repeat(kh).view(taps, 1, 1)
    off = offset.reshape(n, dg, taps, 2, oh, ow)
    ys, xs = (ys + off[:, :, :, 0]).reshape(n * dg, -1), (xs + off[:, :, :, 1]).reshape(n * dg, -1)
    grouped = data.reshape(n * dg, c // dg, h, w)
    if mask is None:
        cols = _mx_deformable_sample(grouped, ys, xs)
    else:  # DCN v2's im2col: bilinear towards zero in both margins, grid_sample's (Note [deformable sampling])
        grid = torch.stack([(2 * xs + 1) / w - 1, (2 * ys + 1) / h - 1], dim=-1).reshape(n * dg, -1, 1, 2)
        cols = torch.nn.functional.grid_sample(grouped, grid, mode="bilinear", padding_mode="zeros",
                                               align_corners=False).reshape(n * dg, c // dg, -1)
        cols = cols * mask.reshape(n * dg, 1, -1)
    cols = cols.reshape(n, num_group, c // num_group * taps, oh * ow)
    result = torch.einsum("gfk,ngkl->ngfl", weight.reshape(num_group, filters // num_group, -1), cols)
    result = result.reshape(n, filters, oh, ow)
    return result if bias is None else result + bias.view(1, -1, 1, 1)


def _mx_modulated_deformable_convolution(data=None, offset=None, mask=None, weight=None, bias=None, kernel=(),
                                         stride=(), dilate=(), pad=(), num_filter=None, num_group=1,
                                         num_deformable_group=1, workspace=1024, no_bias=False, im2col_step=64,
                                         layout=None, out=None, name=None):
    """MXNet contrib.ModulatedDeformableConvolution (DCN v2): each sample scaled by its mask
    (Note [deformable sampling])."""
    _mx_no_out(out)
    return _mx_deform_conv(data, offset, weight, None if no_bias else bias, stride, dilate, pad, num_group,
                           num_deformable_group, layout, mask)


def _mx_deformable_sample(data, ys, xs):
    """data (N, C, H, W) read at the positions (N, P) as MXNet's deformable im2col reads it: (N, C, P)
    (Note [deformable sampling])."""
    n, c, h, w = data.shape
    inside = ((ys >= 0) & (xs >= 0) & (ys < h) & (xs < w)).to(data.dtype)
    ys = torch.where(ys >= h - 1, torch.full_like(ys, h - 1), ys).clamp(min=0)
    xs = torch.where(xs >= w - 1, torch.full_like(xs, w - 1), xs).clamp(min=0)
    y0, x0 = ys.detach().floor(), xs.detach().floor()
    ly, lx = ys - y0, xs - x0
    flat = data.reshape(n, c, h * w)
    out = 0
    for yy, wy in ((y0, 1 - ly), (y0 + 1, ly)):
        for xx, wx in ((x0, 1 - lx), (x0 + 1, lx)):
            index = (yy.clamp(max=h - 1) * w + xx.clamp(max=w - 1)).long()
            value = torch.gather(flat, 2, index.unsqueeze(1).expand(n, c, index.shape[1]))
            out = out + value * (wy * wx * inside).unsqueeze(1)
    return out


class _mx_DeformableConvolution(_mx_Deferred, torch.nn.Module):
    """Gluon contrib.cnn.DeformableConvolution: a convolution of the input gives the offsets (its
    weight and bias zero by default, so the layer starts as a plain convolution), then the deformable
    convolution; Gluon's parameter names."""

    _mx_modulated = False

    def __init__(self, channels, kernel_size=(1, 1), strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
                 num_deformable_group=1, layout="NCHW", use_bias=True, in_channels=0, activation=None,
                 weight_initializer=None, bias_initializer="zeros", offset_weight_initializer="zeros",
                 offset_bias_initializer="zeros", offset_use_bias=True, op_name=None, adj=None, prefix=None,
                 params=None):
        super().__init__()
        if layout != "NCHW":
            raise NotImplementedError(f"layout={layout!r}: the deformable convolution is NCHW here")
        kernel = _mx_ntuple(kernel_size, 2)
        self._kwargs = {"kernel": kernel, "stride": _mx_ntuple(strides, 2), "dilate": _mx_ntuple(dilation, 2),
                        "pad": _mx_ntuple(padding, 2), "num_filter": channels, "num_group": groups,
                        "num_deformable_group": num_deformable_group}
        self._channels, self._in_channels, self.activation = channels, in_channels, activation
        taps = kernel[0] * kernel[1] * num_deformable_group
        self._split = 2 * taps
        self._offsets = offsets = (3 if self._mx_modulated else 2) * taps
        width = in_channels or groups
        self.offset_weight = torch.nn.Parameter(torch.empty(offsets, width // groups, *kernel))
        self.offset_bias = torch.nn.Parameter(torch.empty(offsets)) if offset_use_bias else None
        self.deformable_conv_weight = torch.nn.Parameter(torch.empty(channels, width // groups, *kernel))
        self.deformable_conv_bias = torch.nn.Parameter(torch.empty(channels)) if use_bias else None
        if not in_channels:
            self._mx_defer("offset_weight", "deformable_conv_weight")
        else:
            self.reset_parameters()
        _mx_setup(self, params, {"offset_weight": offset_weight_initializer, "offset_bias": offset_bias_initializer,
                                 "deformable_conv_weight": weight_initializer,
                                 "deformable_conv_bias": bias_initializer})

    def reset_parameters(self):  # Gluon's defaults: zero offsets (a plain convolution at first)
        if self.has_uninitialized_params():
            return
        with torch.no_grad():
            torch.nn.init.kaiming_uniform_(self.deformable_conv_weight, a=5 ** 0.5)
            for p in (self.offset_weight, self.offset_bias, self.deformable_conv_bias):
                if p is not None:
                    p.zero_()

    def _mx_materialize(self, x):
        self._in_channels = x.shape[1]
        groups, kernel = self._kwargs["num_group"], self._kwargs["kernel"]
        self.offset_weight.materialize((self._offsets, x.shape[1] // groups, *kernel))
        self.deformable_conv_weight.materialize((self._channels, x.shape[1] // groups, *kernel))

    def forward(self, x):
        k = self._kwargs
        offset = torch.nn.functional.conv2d(x, self.offset_weight, self.offset_bias, stride=k["stride"],
                                            padding=k["pad"], dilation=k["dilate"], groups=k["num_group"])
        mask = None
        if self._mx_modulated:  # Gluon's ModulatedDeformableConvolution: the last third is a mask, 2 * sigmoid
            offset, mask = offset[:, :self._split], torch.sigmoid(offset[:, self._split:]) * 2
        y = _mx_deform_conv(x, offset, self.deformable_conv_weight, self.deformable_conv_bias, k["stride"],
                            k["dilate"], k["pad"], k["num_group"], k["num_deformable_group"], None, mask)
        return _mx_activation(y, self.activation) if self.activation else y


class _mx_ModulatedDeformableConvolution(_mx_DeformableConvolution):
    """Gluon contrib.cnn.ModulatedDeformableConvolution (DCN v2): the offset convolution's last third
    is a mask, 2 * sigmoid, scaling each sample (Note [deformable sampling])."""

    _mx_modulated = True
