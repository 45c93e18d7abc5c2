"""MXNet's image functions (`mx.image`) and the Gluon vision transforms that decode, resize,
crop or recolour images, on torch tensors: (H, W, C) images, uint8 as decoded, as in MXNet.

Copied as text into converted programs (xlate/runtime/__init__.py). tests/test_image.py
compares them with MXNet 1.9.1 pixel for pixel.

Note [OpenCV images]
MXNet 1.9.1 decodes and resizes with the OpenCV it is linked with (3.4.2, without Intel's IPP),
so these helpers call OpenCV too (opencv-python-headless, the `image` extra of xlate), imported
when a helper first needs it: a program that never resizes or decodes does not need it. They
pass MXNet's interpolation codes (0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos, 5
bit-exact bilinear; mx.image's 9 picks by the sizes, 10 draws one from Python's `random`) and
switch OpenCV's optimised paths off for the call, as MXNet's build has none (IPP's bilinear
gives other float32 numbers and its bicubic other uint8 ones); bicubic uint8 and float32 are
OpenCV 3.4.2's own arithmetic in numpy (Note [bicubic resize]), as later OpenCVs round some
pixels otherwise, and so is Lanczos (4) of a float32 image. Measured against MXNet: decoding
(PNG, JPEG, BMP; gray or colour; flag, to_rgb) and resizing with every code, uint8 and float32,
are equal to the bit.

Note [image random streams]
The crops draw as MXNet draws: RandomResizedCrop, mx.image.random_crop and random_size_crop
with Python's `random` (uniform, randint) and numpy's log and exp on the draws, so a script
that calls `random.seed(s)` crops where MXNet crops. The colour transforms (RandomBrightness,
RandomContrast, RandomSaturation, RandomHue, RandomColorJitter, RandomLighting) draw from
MXNet's own C++ generator, which nothing outside MXNet reproduces: here from torch's, the same
laws (the factor, the order of ColorJitter's four steps, the lighting's normal alphas) and the
same arithmetic for a given factor, MXNet's float32 steps and its uint8 clamp-and-truncate
included (RandomSaturation's gray is the blue channel's 0.114 * b alone, as in MXNet 1.9.1).

Note [image augmenters]
mx.image's Augmenter classes (HorizontalFlipAug, RandomCropAug, CenterCropAug, ResizeAug,
ForceResizeAug, RandomSizedCropAug, CastAug, ColorNormalizeAug), which older scripts list and
call on each (H, W, C) image, are each one call of an mx.image function in MXNet's source: the
helpers call the same helpers, so they draw from Python's `random` exactly where MXNet's draw
(the flip's `random.random() < p` included), and `dumps()` gives MXNet's JSON.
"""
import torch


def _mx_cv2():
    """OpenCV, imported when a helper first needs it (Note [OpenCV images])."""
    try:
        import cv2
    except ImportError as err:
        raise ImportError("MXNet's image functions decode and resize with OpenCV: install opencv-python-headless "
                          "(the `image` extra: pip install 'xlate[image]')") from err
    return cv2


def _mx_numpy_for_images():
    """numpy (Note [random streams]), which OpenCV and the bicubic resize work on."""
    numpy = _mx_numpy()
    if numpy is None:
        raise ImportError("MXNet's image functions work on numpy arrays: install numpy (opencv-python-headless, "
                          "the `image` extra of xlate, brings it)")
    return numpy


def _mx_image_numpy(src):
    """A tensor or array as a C-contiguous numpy array, for OpenCV."""
    numpy = _mx_numpy_for_images()
    if isinstance(src, torch.Tensor):
        src = src.detach().cpu().numpy()
    return numpy.ascontiguousarray(src)


def _mx_image_out(result, out):
    if out is None:
        return result
    out.copy_(result)
    return out


def _mx_cv_resize(src, w, h, interp):
    """cv::resize as MXNet calls it: (H, W, C) -> (h, w, C), the dtype kept (Note [OpenCV images])."""
    if interp not in (0, 1, 2, 3, 4, 5):
        raise ValueError(f"Unknown interpolation method {interp}: MXNet's OpenCV resizes with 0 to 5")
    if src.dim() != 3:
        raise ValueError(f"resize takes an (H, W, C) image, not shape {tuple(src.shape)}")
    if interp == 2 and src.dtype in (torch.uint8, torch.float32):
        return torch.from_numpy(_mx_resize_bicubic(_mx_image_numpy(src), int(w), int(h))).to(src.device)
    if interp == 4 and src.dtype == torch.float32:
        array = _mx_image_numpy(src)
        if array.shape[:2] != (int(h), int(w)):
            array = _mx_resize_float(array, _mx_lanczos_taps(int(w), array.shape[1]),
                                     _mx_lanczos_taps(int(h), array.shape[0]))
        return torch.from_numpy(array.copy()).to(src.device)
    cv2 = _mx_cv2()
    array = _mx_image_numpy(src)
    optimized = cv2.useOptimized()
    cv2.setUseOptimized(False)
    try:
        resized = cv2.resize(array, (int(w), int(h)), interpolation=int(interp))
    finally:
        cv2.setUseOptimized(optimized)
    return torch.from_numpy(resized.reshape(int(h), int(w), array.shape[2])).to(src.device)


# Note [bicubic resize]
# OpenCV 3.4.2 (MXNet's) resizes bicubic in two passes: along the rows with weights from its
# cubic kernel (A = -0.75, float32; for uint8 rounded to multiples of 1/2048), then down the
# columns. The second pass of a uint8 image is float32 in SSE2 groups of 8 values, summed
# ((S0 b0 + S1 b1) + S2 b2) + S3 b3 and rounded half to even, and integer for the last width % 8
# values of a row; float32 images sum in the same order everywhere. Later OpenCVs nest the sum
# the other way and group by their vector width, which moved a uint8 pixel by 1 in about one
# image of 70: this is 3.4.2's arithmetic in numpy, equal to MXNet's on every image tried. Its
# float32 Lanczos-4 (weights from double sin and cos, taps added first to last) is done the same
# way, one float32 step apart from today's OpenCV in places otherwise.
def _mx_bicubic_taps(n_out, n_in):
    """Source indices (clamped at the edges) and float32 weights of OpenCV's cubic kernel."""
    numpy = _mx_numpy_for_images()
    f32 = numpy.float32
    f = ((numpy.arange(n_out, dtype=numpy.float64) + 0.5) * (1.0 / (float(n_out) / n_in)) - 0.5).astype(f32)
    first = numpy.floor(f).astype(numpy.int64)
    x, a, one = (f - first.astype(f32)).astype(f32), f32(-0.75), f32(1)
    c0 = ((a * (x + one) - f32(5) * a) * (x + one) + f32(8) * a) * (x + one) - f32(4) * a
    c1 = ((a + f32(2)) * x - (a + f32(3))) * x * x + one
    c2 = ((a + f32(2)) * (one - x) - (a + f32(3))) * (one - x) * (one - x) + one
    c3 = one - c0 - c1 - c2
    return numpy.clip(first[:, None] - 1 + numpy.arange(4), 0, n_in - 1), numpy.stack([c0, c1, c2, c3], axis=1)


def _mx_resize_bicubic(array, w, h):
    """cv::resize(..., INTER_CUBIC) of OpenCV 3.4.2 on an (H, W, C) uint8 or float32 numpy array
    (Note [bicubic resize])."""
    numpy = _mx_numpy_for_images()
    height, width, channels = array.shape
    if (height, width) == (h, w):
        return array.copy()
    xi, xc = _mx_bicubic_taps(w, width)
    yi, yc = _mx_bicubic_taps(h, height)
    if array.dtype != numpy.uint8:
        return _mx_resize_float(array, (xi, xc), (yi, yc))
    xa = numpy.rint(xc * numpy.float32(2048)).astype(numpy.int64)
    ya = numpy.rint(yc * numpy.float32(2048)).astype(numpy.int64)
    src = array.astype(numpy.int64)
    rows = sum(src[:, xi[:, j], :] * xa[None, :, j, None] for j in range(4)).reshape(height, w * channels)
    taps = [rows[yi[:, k]] for k in range(4)]
    vec = (w * channels) // 8 * 8  # the SSE2 part of each row
    scale = numpy.float32(1.0 / (2048 * 2048))
    s = taps[0][:, :vec].astype(numpy.float32) * (ya[:, 0].astype(numpy.float32) * scale)[:, None]
    for k in range(1, 4):
        s = s + taps[k][:, :vec].astype(numpy.float32) * (ya[:, k].astype(numpy.float32) * scale)[:, None]
    out = numpy.empty((h, w * channels), numpy.int64)
    out[:, :vec] = numpy.rint(s)
    out[:, vec:] = (sum(taps[k][:, vec:] * ya[:, k, None] for k in range(4)) + (1 << 21)) >> 22
    return numpy.clip(out, 0, 255).astype(numpy.uint8).reshape(h, w, channels)


def _mx_resize_float(array, x_taps, y_taps):
    """A float32 separable resize with OpenCV's order of sums: each output the taps' products
    added first to last, along the rows, then down the columns (Note [bicubic resize])."""
    (xi, xc), (yi, yc) = x_taps, y_taps
    rows = array[:, xi[:, 0], :] * xc[None, :, 0, None]
    for j in range(1, xi.shape[1]):
        rows = rows + array[:, xi[:, j], :] * xc[None, :, j, None]
    out = rows[yi[:, 0]] * yc[:, 0, None, None]
    for k in range(1, yi.shape[1]):
        out = out + rows[yi[:, k]] * yc[:, k, None, None]
    return out


def _mx_lanczos_taps(n_out, n_in):
    """Source indices (clamped) and float32 weights of OpenCV's Lanczos-4 kernel: sin and cos in
    double of (x + 3 - i) pi / 4, x + 3 - i itself in float32, the weights scaled to sum 1."""
    import math

    numpy = _mx_numpy_for_images()
    f32 = numpy.float32
    f = ((numpy.arange(n_out, dtype=numpy.float64) + 0.5) * (1.0 / (float(n_out) / n_in)) - 0.5).astype(f32)
    first = numpy.floor(f).astype(numpy.int64)
    x = (f - first.astype(f32)).astype(f32)
    s45 = 0.70710678118654752440084436210485
    cs = ((1, 0), (-s45, -s45), (0, 1), (s45, -s45), (-1, 0), (s45, s45), (0, -1), (-s45, s45))
    weights = numpy.zeros((n_out, 8), f32)
    for d in range(n_out):
        if x[d] < numpy.finfo(f32).eps:
            weights[d, 3] = 1
            continue
        shifted = x[d] + f32(3)
        y0 = -float(shifted) * math.pi * 0.25
        s0, c0 = math.sin(y0), math.cos(y0)
        total = f32(0)
        for i in range(8):
            y = -float(shifted - f32(i)) * math.pi * 0.25
            weights[d, i] = f32((cs[i][0] * s0 + cs[i][1] * c0) / (y * y))
            total = f32(total + weights[d, i])
        weights[d] = weights[d] * (f32(1) / total)
    return numpy.clip(first[:, None] - 3 + numpy.arange(8), 0, n_in - 1), weights


def _mx_imresize(src, w, h, interp=1, out=None):
    """mx.image.imresize(src, w, h, interp=1): an (H, W, C) image resized by OpenCV to width w and
    height h with interpolation code `interp` (0 to 5)."""
    return _mx_image_out(_mx_cv_resize(src, w, h, interp), out)


def _mx_imdecode(buf, flag=1, to_rgb=True, out=None):
    """mx.image.imdecode(buf, flag=1, to_rgb=True): an encoded image (bytes, bytearray, a uint8
    array) decoded by OpenCV to (H, W, 3) uint8 RGB (BGR if not to_rgb), (H, W, 1) when flag=0."""
    numpy = _mx_numpy_for_images()
    if isinstance(buf, torch.Tensor):
        buf = buf.detach().cpu().numpy()
    if not isinstance(buf, (bytes, bytearray, numpy.ndarray)):
        raise ValueError("buf must be of type bytes, bytearray or numpy.ndarray,"
                         "if you would like to input type str, please convert to bytes")
    cv2 = _mx_cv2()
    image = cv2.imdecode(numpy.frombuffer(buf, dtype=numpy.uint8), int(flag))
    if image is None:
        raise ValueError("Decoding failed. Invalid image file.")
    if image.ndim == 2:
        image = image[:, :, None]
    if to_rgb and flag != 0 and image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    return _mx_image_out(torch.from_numpy(numpy.ascontiguousarray(image)), out)


def _mx_imread(filename, flag=1, to_rgb=True, out=None):
    """mx.image.imread(filename, flag=1, to_rgb=True): the file's image, decoded as imdecode does."""
    with open(filename, "rb") as f:
        return _mx_imdecode(f.read(), flag, to_rgb, out)


def _mx_get_interp_method(interp, sizes=()):
    """mx.image's interpolation code: 9 bicubic to enlarge, area to shrink, else bilinear (bicubic
    without sizes); 10 one of 0-4 drawn with Python's `random.randint` (Note [image random streams])."""
    import random

    if interp == 9:
        if sizes:
            oh, ow, nh, nw = sizes
            if nh > oh and nw > ow:
                return 2
            if nh < oh and nw < ow:
                return 3
            return 1
        return 2
    if interp == 10:
        return random.randint(0, 4)
    if interp not in (0, 1, 2, 3, 4):
        raise ValueError("Unknown interp method %d" % interp)
    return interp


def _mx_scale_down(src_size, size):
    """mx.image.scale_down: the crop (width, height) shrunk, ratio kept, to fit src_size."""
    w, h = size
    sw, sh = src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


def _mx_resize_short(src, size, interp=2):
    """mx.image.resize_short: the shorter edge resized to size, the longer one to size * long // short."""
    h, w = src.shape[0], src.shape[1]
    if h > w:
        new_h, new_w = size * h // w, size
    else:
        new_h, new_w = size, size * w // h
    return _mx_cv_resize(src, new_w, new_h, _mx_get_interp_method(interp, (h, w, new_h, new_w)))


def _mx_fixed_crop(src, x0, y0, w, h, size=None, interp=2):
    """mx.image.fixed_crop: src[y0:y0+h, x0:x0+w] (a copy), resized to size = (width, height) when
    given and other than (w, h) as MXNet compares them (a list size always resizes, to itself)."""
    out = src[y0:y0 + h, x0:x0 + w].clone()
    if size is not None and (w, h) != size:
        method = _mx_get_interp_method(interp, (h, w, size[1], size[0]))  # draws for 10, as MXNet
        if (out.shape[1], out.shape[0]) != tuple(size):  # OpenCV copies an image of the same size
            out = _mx_cv_resize(out, size[0], size[1], method)
    return out


def _mx_random_crop(src, size, interp=2):
    """mx.image.random_crop: a (width, height) = size crop at offsets from Python's `random`,
    shrunk to fit and resized back when the image is smaller; returns (image, (x0, y0, w, h))."""
    import random

    h, w = src.shape[0], src.shape[1]
    new_w, new_h = _mx_scale_down((w, h), size)
    x0 = random.randint(0, w - new_w)
    y0 = random.randint(0, h - new_h)
    return _mx_fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def _mx_center_crop(src, size, interp=2):
    """mx.image.center_crop: the centre (width, height) = size crop, shrunk to fit and resized
    back when the image is smaller; returns (image, (x0, y0, w, h))."""
    h, w = src.shape[0], src.shape[1]
    new_w, new_h = _mx_scale_down((w, h), size)
    x0, y0 = int((w - new_w) / 2), int((h - new_h) / 2)
    return _mx_fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def _mx_random_size_crop(src, size, area, ratio, interp=2, **kwargs):
    """mx.image.random_size_crop: up to ten draws (Python's `random`) of an area fraction and a
    log-uniform aspect ratio for a crop that fits, resized to size; else the centre crop."""
    import numbers
    import random

    numpy = _mx_numpy()  # numpy's log and exp, as MXNet takes them
    if numpy is not None:
        log, exp, sqrt = numpy.log, numpy.exp, numpy.sqrt
    else:
        import math

        log, exp, sqrt = math.log, math.exp, math.sqrt
    h, w = src.shape[0], src.shape[1]
    src_area = h * w
    if "min_area" in kwargs:
        area = kwargs.pop("min_area")
    if kwargs:
        raise TypeError("unexpected keyword arguments for `random_size_crop`.")
    if isinstance(area, numbers.Number):
        area = (area, 1.0)
    for _ in range(10):
        target_area = random.uniform(area[0], area[1]) * src_area
        log_ratio = (log(ratio[0]), log(ratio[1]))
        new_ratio = exp(random.uniform(*log_ratio))
        new_w = int(round(sqrt(target_area * new_ratio)))
        new_h = int(round(sqrt(target_area / new_ratio)))
        if new_w <= w and new_h <= h:
            x0 = random.randint(0, w - new_w)
            y0 = random.randint(0, h - new_h)
            return _mx_fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)
    return _mx_center_crop(src, size, interp)


def _mx_color_normalize(src, mean, std=None):
    """mx.image.color_normalize: src -= mean, src /= std, in place as in MXNet; returns src."""
    if mean is not None:
        src -= mean
    if std is not None:
        src /= std
    return src


class _mx_Augmenter:
    """mx.image.Augmenter: an image transform called on an (H, W, C) image, its arguments kept for
    `dumps()` (tensors as lists, as MXNet keeps NDArrays). Note [image augmenters]: each subclass
    calls the function MXNet's calls, drawing from Python's `random` where MXNet's does."""

    _mx_name = "augmenter"

    def __init__(self, **kwargs):
        self._kwargs = {k: v.tolist() if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}

    def dumps(self):
        import json

        return json.dumps([self._mx_name, self._kwargs])

    def __call__(self, src):
        raise NotImplementedError("Must override implementation.")


class _mx_HorizontalFlipAug(_mx_Augmenter):
    """mx.image.HorizontalFlipAug(p): flips the width axis when `random.random() < p`."""

    _mx_name = "horizontalflipaug"

    def __init__(self, p):
        super().__init__(p=p)
        self.p = p

    def __call__(self, src):
        import random

        return torch.flip(src, dims=(1,)) if random.random() < self.p else src


class _mx_RandomCropAug(_mx_Augmenter):
    """mx.image.RandomCropAug(size, interp=2): mx.image.random_crop's image."""

    _mx_name = "randomcropaug"

    def __init__(self, size, interp=2):
        super().__init__(size=size, interp=interp)
        self.size, self.interp = size, interp

    def __call__(self, src):
        return _mx_random_crop(src, self.size, self.interp)[0]


class _mx_CenterCropAug(_mx_RandomCropAug):
    """mx.image.CenterCropAug(size, interp=2): mx.image.center_crop's image."""

    _mx_name = "centercropaug"

    def __call__(self, src):
        return _mx_center_crop(src, self.size, self.interp)[0]


class _mx_ResizeAug(_mx_RandomCropAug):
    """mx.image.ResizeAug(size, interp=2): mx.image.resize_short."""

    _mx_name = "resizeaug"

    def __call__(self, src):
        return _mx_resize_short(src, self.size, self.interp)


class _mx_ForceResizeAug(_mx_RandomCropAug):
    """mx.image.ForceResizeAug(size, interp=2): resized to size = (width, height)."""

    _mx_name = "forceresizeaug"

    def __call__(self, src):
        sizes = (src.shape[0], src.shape[1], self.size[1], self.size[0])
        return _mx_imresize(src, *self.size, interp=_mx_get_interp_method(self.interp, sizes))


class _mx_RandomSizedCropAug(_mx_Augmenter):
    """mx.image.RandomSizedCropAug(size, area, ratio, interp=2): mx.image.random_size_crop's image."""

    _mx_name = "randomsizedcropaug"

    def __init__(self, size, area, ratio, interp=2, **kwargs):
        super().__init__(size=size, area=area, ratio=ratio, interp=interp)
        self.size, self.ratio, self.interp = size, ratio, interp
        self.area = kwargs.pop("min_area") if "min_area" in kwargs else area
        if kwargs:
            raise TypeError("unexpected keyword arguments for `RandomSizedCropAug`.")

    def __call__(self, src):
        return _mx_random_size_crop(src, self.size, self.area, self.ratio, self.interp)[0]


class _mx_CastAug(_mx_Augmenter):
    """mx.image.CastAug(typ='float32'): the image cast to the dtype."""

    _mx_name = "castaug"

    def __init__(self, typ="float32"):
        super().__init__(type=typ)
        self.typ = typ

    def __call__(self, src):
        return src.to(_mx_dtype(self.typ))


class _mx_ColorNormalizeAug(_mx_Augmenter):
    """mx.image.ColorNormalizeAug(mean, std): mx.image.color_normalize (in place, as MXNet's)."""

    _mx_name = "colornormalizeaug"

    def __init__(self, mean, std):
        super().__init__(mean=mean, std=std)
        self.mean = mean if mean is None or isinstance(mean, torch.Tensor) else torch.tensor(mean, dtype=torch.float32)
        self.std = std if std is None or isinstance(std, torch.Tensor) else torch.tensor(std, dtype=torch.float32)

    def __call__(self, src):
        return _mx_color_normalize(src, self.mean, self.std)


class _mx_ImageFolderDataset(_mx_Dataset):
    """gluon.data.vision.ImageFolderDataset(root, flag=1, transform=None): the .jpg/.jpeg/.png
    files of root's sub-folders, sorted, labelled by their folder's place among the sorted
    folders; items (filename, label), synsets the folder names; each sample (imread(file, flag),
    label) or transform(image, label)."""

    def __init__(self, root, flag=1, transform=None):
        import os

        self._root = os.path.expanduser(root)
        self._flag = flag
        self._transform = transform
        self._exts = [".jpg", ".jpeg", ".png"]
        self._list_images(self._root)

    def _list_images(self, root):
        import os
        import warnings

        self.synsets = []
        self.items = []
        for folder in sorted(os.listdir(root)):
            path = os.path.join(root, folder)
            if not os.path.isdir(path):
                warnings.warn("Ignoring %s, which is not a directory." % path, stacklevel=3)
                continue
            label = len(self.synsets)
            self.synsets.append(folder)
            for filename in sorted(os.listdir(path)):
                filename = os.path.join(path, filename)
                ext = os.path.splitext(filename)[1]
                if ext.lower() not in self._exts:
                    warnings.warn("Ignoring %s of type %s. Only support %s" % (filename, ext, ", ".join(self._exts)))
                    continue
                self.items.append((filename, label))

    def __getitem__(self, idx):
        img = _mx_imread(self.items[idx][0], self._flag)
        label = self.items[idx][1]
        if self._transform is not None:
            return self._transform(img, label)
        return img, label

    def __len__(self):
        return len(self.items)


class _mx_Resize(torch.nn.Module):
    """transforms.Resize(size, keep_ratio=False, interpolation=1): an (H, W, C) image or (N, H, W, C)
    batch resized by OpenCV to size = (width, height); an int is a square, or with keep_ratio the
    shorter edge, the longer one long * size // short (MXNet's integer division)."""

    def __init__(self, size, keep_ratio=False, interpolation=1):
        super().__init__()
        self._keep = keep_ratio
        self._size = size
        self._interpolation = interpolation

    def _target(self, h, w):
        size = tuple(self._size) if isinstance(self._size, (tuple, list)) else (self._size,)
        if len(size) == 2:
            return size[1], size[0]
        if not self._keep:
            return size[0], size[0]
        if h > w:
            return h * size[0] // w, size[0]
        return size[0], w * size[0] // h

    def forward(self, x):
        if x.dim() not in (3, 4):
            raise ValueError(f"Resize takes an (H, W, C) image or an (N, H, W, C) batch, not shape {tuple(x.shape)}")
        h, w = self._target(x.shape[-3], x.shape[-2])
        if x.dim() == 3:
            return _mx_cv_resize(x, w, h, self._interpolation)
        return torch.stack([_mx_cv_resize(image, w, h, self._interpolation) for image in x])


class _mx_RandomResizedCrop(torch.nn.Module):
    """transforms.RandomResizedCrop(size, scale=(0.08, 1.0), ratio=(3/4, 4/3), interpolation=1):
    mx.image.random_size_crop, drawing from Python's `random` as Gluon does (Note [image random
    streams]); size (width, height), an int a square."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=1):
        import numbers

        super().__init__()
        if isinstance(size, numbers.Number):
            size = (size, size)
        self._args = (size, scale, ratio, interpolation)

    def forward(self, x):
        return _mx_random_size_crop(x, *self._args)[0]
