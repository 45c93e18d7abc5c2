"""MXNet's colour operators and the Gluon colour transforms (RandomBrightness, RandomContrast,
RandomSaturation, RandomHue, RandomColorJitter, RandomLighting), and the `mx.nd.image` operators
that the vision transforms call, on torch tensors: (H, W, C) images, as in MXNet.

Copied as text into converted programs (xlate/runtime/__init__.py); the resizing and cropping
helpers they use are in image.py (Note [OpenCV images]), and how the random ones draw is Note
[image random streams] there. tests/test_image.py compares them with MXNet 1.9.1.
"""
import torch


# MXNet's colour operators (src/operator/image/image_random-inl.h): float32 arithmetic per
# pixel, the result cast back by saturate_cast (Note [image random streams])
def _mx_saturate(val, dtype):
    """MXNet's saturate_cast: to uint8 clamped to [0, 255] and truncated; other dtypes cast."""
    if dtype == torch.uint8:
        return val.clamp(0.0, 255.0).to(torch.uint8)
    return val.to(dtype)


def _mx_image_3d(x, what):
    if x.dim() != 3:
        raise ValueError(f"{what}: the image must have shape (height, width, channels), but got {tuple(x.shape)}")


def _mx_float_sum(values):
    """A float32 sum taken element after element, as MXNet's loop adds (torch sums pairwise)."""
    numpy = _mx_numpy()
    if numpy is None or values.numel() == 0:
        return values.sum()
    return torch.tensor(numpy.add.accumulate(values.reshape(-1).cpu().numpy(), dtype=numpy.float32)[-1])


def _mx_adjust_brightness(x, alpha):
    _mx_image_3d(x, "brightness")
    return _mx_saturate(x.to(torch.float32) * torch.tensor(alpha, dtype=torch.float32), x.dtype)


def _mx_adjust_contrast(x, alpha):
    _mx_image_3d(x, "contrast")
    alpha = torch.tensor(alpha, dtype=torch.float32)
    length = x.shape[0] * x.shape[1]
    flat = x.reshape(-1).to(torch.float32)
    if x.shape[2] > 1:
        coef = torch.tensor([0.299, 0.587, 0.114], dtype=torch.float32).repeat(length)
        total = _mx_float_sum(flat[:length * 3] * coef)
    else:
        total = _mx_float_sum(flat[:length])
    beta = (1 - alpha) * (total / torch.tensor(float(length), dtype=torch.float32))
    return _mx_saturate(x.to(torch.float32) * alpha + beta, x.dtype)


def _mx_adjust_saturation(x, alpha):
    _mx_image_3d(x, "saturation")
    if x.shape[2] == 1:
        return x.clone()
    alpha = torch.tensor(alpha, dtype=torch.float32)
    values = x.to(torch.float32)
    gray = (values[:, :, 2:3] * torch.tensor(0.114, dtype=torch.float32)) * (1.0 - alpha)  # MXNet's blue-only gray
    return _mx_saturate(gray + values * alpha, x.dtype)


def _mx_adjust_hue(x, alpha):
    """MXNet's RGB -> HLS, the hue turned by alpha * 360 degrees, HLS -> RGB, in float32."""
    _mx_image_3d(x, "hue")
    if x.shape[2] == 1:
        return x.clone()
    f32 = torch.float32
    values = x.to(f32)
    r, g, b = (values[:, :, i] / torch.tensor(255.0, dtype=f32) for i in range(3))
    vmax, vmin = torch.maximum(torch.maximum(r, g), b), torch.minimum(torch.minimum(r, g), b)
    diff = vmax - vmin
    l = (vmax + vmin) * 0.5
    colour = diff > torch.finfo(f32).eps
    s = (l < 0.5).to(f32) * diff / (vmax + vmin)
    s = s + (l >= 0.5).to(f32) * diff / (2.0 - vmax - vmin)
    scale = torch.tensor(60.0, dtype=f32) / diff
    h = (vmax == r).to(f32) * (g - b) * scale
    h = h + ((vmax != r) & (vmax == g)).to(f32) * ((b - r) * scale + 120.0)
    h = h + ((vmax != r) & (vmax != g)).to(f32) * ((r - g) * scale + 240.0)
    h = h + (h < 0).to(f32) * 360.0
    zero = torch.zeros((), dtype=f32)
    h, s = torch.where(colour, h, zero), torch.where(colour, s, zero)
    h = h + torch.tensor(alpha, dtype=f32) * torch.tensor(360.0, dtype=f32)
    p2 = (l <= 0.5).to(f32) * l * (1 + s) + (l > 0.5).to(f32) * (l + s - l * s)
    p1 = 2 * l - p2
    h = h * torch.tensor(1.0 / 60.0, dtype=f32)
    while bool((h < 0).any()):  # MXNet adds or takes 6 until the sector is in [0, 6)
        h = torch.where(h < 0, h + 6, h)
    while bool((h >= 6).any()):
        h = torch.where(h >= 6, h - 6, h)
    sector = h.to(torch.int64)
    h = h - sector.to(f32)
    tab = torch.stack([p2, p1, p1 + (p2 - p1) * (1 - h), p1 + (p2 - p1) * h])
    sectors = torch.tensor([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])[sector]
    bgr = [torch.gather(tab, 0, sectors[None, :, :, i])[0] for i in range(3)]
    rgb = torch.stack([bgr[2], bgr[1], bgr[0]], dim=2)
    rgb = torch.where((s != 0)[:, :, None], rgb, l[:, :, None]) * torch.tensor(255.0, dtype=f32)
    return _mx_saturate(rgb, x.dtype)


def _mx_adjust_lighting(x, alpha):
    """MXNet's adjust_lighting: AlexNet's PCA noise, eig . alpha added to each of R, G, B."""
    _mx_image_3d(x, "lighting")
    if x.shape[2] == 1:
        return x.clone()
    eig = torch.tensor([[55.46 * -0.5675, 4.794 * 0.7192, 1.148 * 0.4009],
                        [55.46 * -0.5808, 4.794 * -0.0045, 1.148 * -0.8140],
                        [55.46 * -0.5836, 4.794 * -0.6948, 1.148 * 0.4203]], dtype=torch.float32)
    a = torch.as_tensor(alpha, dtype=torch.float32)
    pca = eig[:, 0] * a[0] + eig[:, 1] * a[1] + eig[:, 2] * a[2]
    return _mx_saturate(x.to(torch.float32) + pca, x.dtype)


def _mx_uniform(low, high):
    """One float32 draw from U(low, high) on torch's generator (MXNet's own cannot be reproduced)."""
    return float(torch.empty((), dtype=torch.float32).uniform_(low, high))


class _mx_RandomBrightness(torch.nn.Module):
    """transforms.RandomBrightness(brightness): x * a, a ~ U(max(0, 1 - brightness), 1 + brightness)."""

    def __init__(self, brightness):
        super().__init__()
        self._args = (max(0, 1 - brightness), 1 + brightness)

    def forward(self, x):
        return _mx_adjust_brightness(x, _mx_uniform(*self._args))


class _mx_RandomContrast(_mx_RandomBrightness):
    """transforms.RandomContrast(contrast): x * a + (1 - a) * mean gray, a ~ U(max(0, 1 - c), 1 + c)."""

    def forward(self, x):
        return _mx_adjust_contrast(x, _mx_uniform(*self._args))


class _mx_RandomSaturation(_mx_RandomBrightness):
    """transforms.RandomSaturation(saturation): x * a + (1 - a) * gray, a ~ U(max(0, 1 - s), 1 + s)."""

    def forward(self, x):
        return _mx_adjust_saturation(x, _mx_uniform(*self._args))


class _mx_RandomHue(_mx_RandomBrightness):
    """transforms.RandomHue(hue): the hue turned by a * 360 degrees, a ~ U(max(0, 1 - hue), 1 + hue)."""

    def forward(self, x):
        return _mx_adjust_hue(x, _mx_uniform(*self._args))


class _mx_RandomColorJitter(torch.nn.Module):
    """transforms.RandomColorJitter(brightness=0, contrast=0, saturation=0, hue=0): the four
    adjustments in a random order, each whose amount is > 0 with factor 1 + U(-amount, amount)
    (hue: U(-hue, hue) turns)."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super().__init__()
        self._args = (brightness, contrast, saturation, hue)

    def forward(self, x):
        steps = (_mx_adjust_brightness, _mx_adjust_contrast, _mx_adjust_saturation, _mx_adjust_hue)
        out = x
        for i in torch.randperm(4).tolist():
            amount = self._args[i]
            if amount > 0:
                factor = _mx_uniform(-amount, amount)
                out = steps[i](out, factor if i == 3 else 1.0 + factor)
        return out.clone() if out is x else out


class _mx_RandomLighting(torch.nn.Module):
    """transforms.RandomLighting(alpha): AlexNet's PCA lighting noise with alphas ~ N(0, alpha)."""

    def __init__(self, alpha):
        super().__init__()
        self._alpha = alpha

    def forward(self, x):
        return _mx_adjust_lighting(x, (torch.randn(3) * self._alpha).tolist())


# mx.nd.image's operators (the Gluon transforms above call them): MXNet's arguments, the same
# arithmetic; the random ones draw from torch's generator (Note [image random streams])
def _mx_image_resize(data=None, size=(), keep_ratio=False, interp=1, out=None, name=None):
    """nd.image.resize: transforms.Resize's operator, on an (H, W, C) image or (N, H, W, C) batch."""
    _mx_no_out(out)
    return _mx_Resize(size, keep_ratio, interp)(data)


def _mx_image_crop(data=None, x=0, y=0, width=1, height=1, out=None, name=None):
    """nd.image.crop: the (width, height) window at (x, y) of an (H, W, C) image or (N, H, W, C) batch."""
    _mx_no_out(out)
    if x < 0 or y < 0 or x + width > data.shape[-2] or y + height > data.shape[-3]:
        raise ValueError(f"crop ({x}, {y}, {width}, {height}) reaches outside a {tuple(data.shape)} image")
    return data[..., y:y + height, x:x + width, :].clone()


def _mx_image_adjust_lighting(data=None, alpha=(), out=None, name=None):
    _mx_no_out(out)
    return _mx_adjust_lighting(data, alpha)


def _mx_image_random_lighting(data=None, alpha_std=0.05, out=None, name=None):
    _mx_no_out(out)
    return _mx_RandomLighting(alpha_std)(data)


def _mx_image_random_brightness(data=None, min_factor=0.0, max_factor=0.0, out=None, name=None):
    _mx_no_out(out)
    return _mx_adjust_brightness(data, _mx_uniform(min_factor, max_factor))


def _mx_image_random_contrast(data=None, min_factor=0.0, max_factor=0.0, out=None, name=None):
    _mx_no_out(out)
    return _mx_adjust_contrast(data, _mx_uniform(min_factor, max_factor))


def _mx_image_random_saturation(data=None, min_factor=0.0, max_factor=0.0, out=None, name=None):
    _mx_no_out(out)
    return _mx_adjust_saturation(data, _mx_uniform(min_factor, max_factor))


def _mx_image_random_hue(data=None, min_factor=0.0, max_factor=0.0, out=None, name=None):
    _mx_no_out(out)
    return _mx_adjust_hue(data, _mx_uniform(min_factor, max_factor))


def _mx_image_random_color_jitter(data=None, brightness=0.0, contrast=0.0, saturation=0.0, hue=0.0, out=None,
                                  name=None):
    _mx_no_out(out)
    return _mx_RandomColorJitter(brightness, contrast, saturation, hue)(data)
