"""MXNet's image functions and Gluon's vision transforms (xlate/runtime/image.py and colour.py, Note [OpenCV
images]) against live MXNet 1.9.1, pixel for pixel: decoding, resizing with each interpolation
code, crops at the edges and past them, keep_ratio, ImageFolderDataset through a DataLoader;
the random crops under the same Python seed; the colour adjustments for a given factor."""
from __future__ import annotations

import random
import sys

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
cv2 = pytest.importorskip("cv2")

from xlate.runtime import load  # noqa: E402

pytestmark = pytest.mark.mxnet
th = load()
T = mx.gluon.data.vision.transforms

# (height, width, channels): odd widths and heights, gray and colour, tall and wide, tiny
SHAPES = [(7, 5, 3), (32, 33, 3), (50, 37, 1), (13, 200, 3), (97, 131, 3)]
# (width, height) targets: shrink, enlarge, squeeze one side and stretch the other
TARGETS = [(3, 4), (20, 31), (99, 45), (64, 64)]


def _image(shape, seed=0):
    """A smooth image with noise (a JPEG of pure noise says little about decoding)."""
    rng = np.random.RandomState(seed + sum(shape))
    h, w, c = shape
    yy, xx = np.mgrid[0:h, 0:w]
    base = (xx * 255 // max(w - 1, 1) + yy * 3)[:, :, None] + np.arange(c) * 40
    return np.clip(base + rng.randint(-30, 30, shape), 0, 255).astype(np.uint8)


def _same(ours, theirs):
    expected = theirs.asnumpy() if hasattr(theirs, "asnumpy") else theirs
    assert isinstance(ours, torch.Tensor)
    assert str(ours.dtype).replace("torch.", "") == str(expected.dtype), (ours.dtype, expected.dtype)
    np.testing.assert_array_equal(ours.numpy(), expected)


def _nd(x, dtype="uint8"):
    return mx.nd.array(x, dtype=dtype)


@pytest.mark.parametrize("shape", SHAPES)
def test_decoding_gives_mxnets_pixels(shape, tmp_path):
    """imdecode and imread: PNG, JPEG (two qualities) and BMP, gray or colour files, flag 0/1, to_rgb."""
    image = _image(shape)
    for i, (ext, params) in enumerate(((".png", []), (".jpg", [cv2.IMWRITE_JPEG_QUALITY, 95]),
                                       (".jpg", [cv2.IMWRITE_JPEG_QUALITY, 40]), (".bmp", []))):
        buf = cv2.imencode(ext, image, params)[1].tobytes()
        path = tmp_path / f"{i}{ext}"
        path.write_bytes(buf)
        for flag in (0, 1):
            for to_rgb in (0, 1):
                expected = mx.image.imdecode(buf, flag=flag, to_rgb=to_rgb)
                _same(th._mx_imdecode(buf, flag=flag, to_rgb=to_rgb), expected)
                _same(th._mx_imdecode(bytearray(buf), flag, to_rgb), expected)
                _same(th._mx_imread(str(path), flag, to_rgb), mx.image.imread(str(path), flag, to_rgb))
        _same(th._mx_imdecode(np.frombuffer(buf, np.uint8)), mx.image.imdecode(np.frombuffer(buf, np.uint8)))
    with pytest.raises(ValueError, match="convert to bytes"):
        th._mx_imdecode("not bytes")
    with pytest.raises(ValueError, match="Invalid image"):
        th._mx_imdecode(b"not an image")


@pytest.mark.parametrize("shape", SHAPES)
def test_imresize_each_interpolation_code(shape):
    """imresize to each target with codes 0-5, uint8 and float32: MXNet's pixels."""
    image = _image(shape)
    for w, h in TARGETS + [(shape[1] * 2 + 1, shape[0] * 3)]:
        for interp in range(6):
            for dtype in ("uint8", "float32"):
                expected = mx.image.imresize(_nd(image, dtype), w, h, interp=interp).asnumpy()
                got = th._mx_imresize(torch.from_numpy(image.astype(dtype)), w, h, interp=interp)
                assert got.dtype == getattr(torch, dtype) and tuple(got.shape) == expected.shape
                _same(got, expected)
    with pytest.raises(ValueError, match="interpolation"):
        th._mx_imresize(torch.from_numpy(image), 4, 4, interp=9)


def test_bicubic_and_lanczos_over_drawn_sizes():
    """Bicubic (code 2, the default of mx.image's crops and resize_short) and float32 Lanczos are
    OpenCV 3.4.2's arithmetic (Note [bicubic resize]): rows of every length mod 8, equal."""
    rng = np.random.RandomState(5)
    for trial in range(40):
        h, w, c = int(rng.randint(1, 40)), int(rng.randint(1, 40)), (1, 3)[trial % 2]
        nw, nh = int(rng.randint(1, 70)), int(rng.randint(1, 70))
        image = rng.randint(0, 256, (h, w, c)).astype(np.uint8)
        for dtype, interp in (("uint8", 2), ("float32", 2), ("float32", 4)):
            _same(th._mx_imresize(torch.from_numpy(image.astype(dtype)), nw, nh, interp=interp),
                  mx.image.imresize(_nd(image, dtype), nw, nh, interp=interp))


@pytest.mark.parametrize("shape", SHAPES)
def test_resize_short_and_crops(shape):
    """resize_short (auto code 9 and bicubic), fixed_crop at the image's edges with and without a
    resize (each interpolation code, uint8 and float32), center_crop of a smaller and a larger size, color_normalize in place."""
    image, h, w = _image(shape), shape[0], shape[1]
    src, ours = _nd(image), torch.from_numpy(image)
    for size, interp in ((5, 9), (40, 9), (24, 1), (11, 0), (9, 3), (17, 2)):
        _same(th._mx_resize_short(ours, size, interp), mx.image.resize_short(src, size, interp))
    for x0, y0, cw, ch, size in ((0, 0, w, h, None), (w - 3, h - 2, 3, 2, None), (w - 3, h - 2, 3, 2, (8, 9)),
                                 (1, 1, w - 1, h - 1, (w - 1, h - 1)), (0, h // 2, w // 2 + 1, h - h // 2, (6, 4))):
        _same(th._mx_fixed_crop(ours, x0, y0, cw, ch, size, 1), mx.image.fixed_crop(src, x0, y0, cw, ch, size, 1))
    # each interpolation code a crop resizes with (9: chosen by the sizes), float32 images too
    flt, flt_src = torch.from_numpy(image.astype("float32")), _nd(image, "float32")
    for interp in (0, 2, 3, 4, 9):
        for x0, y0, cw, ch, size in ((w - 3, h - 2, 3, 2, (8, 9)), (1, 1, w - 1, h - 1, (w // 2 + 1, h * 2))):
            _same(th._mx_fixed_crop(ours, x0, y0, cw, ch, size, interp),
                  mx.image.fixed_crop(src, x0, y0, cw, ch, size, interp))
            _same(th._mx_fixed_crop(flt, x0, y0, cw, ch, size, interp),
                  mx.image.fixed_crop(flt_src, x0, y0, cw, ch, size, interp))
    for size, interp in ((5, 9), (13, 4), (24, 1)):
        _same(th._mx_resize_short(flt, size, interp), mx.image.resize_short(flt_src, size, interp))
    for size in ((4, 3), (w, h), (w + 3, h // 2 + 1), (2 * w, 2 * h), [w - 1, h]):
        expected, box = mx.image.center_crop(src, size, 1)
        got, ours_box = th._mx_center_crop(ours, size, 1)
        _same(got, expected)
        assert ours_box == box
        _same(th._mx_CenterCrop(size)(ours), T.CenterCrop(size)(src))
    mean, std = np.array([9.5, 3.0, 7.25][:shape[2]], "float32"), np.array([2.0, 0.5, 4.0][:shape[2]], "float32")
    theirs, mine = _nd(image, "float32"), torch.from_numpy(image.astype("float32"))
    out = th._mx_color_normalize(mine, torch.from_numpy(mean), torch.from_numpy(std))
    expected = mx.image.color_normalize(theirs, _nd(mean, "float32"), _nd(std, "float32"))
    assert out is mine
    _same(out, expected)


@pytest.mark.parametrize("shape", SHAPES[:4])
def test_resize_transform(shape):
    """transforms.Resize: an int (square or, keep_ratio, the short side), a (w, h) pair, each
    interpolation code, on an image and on a batch, uint8 and float32."""
    image = _image(shape)
    src, ours = _nd(image), torch.from_numpy(image)
    for size, keep in ((16, False), (16, True), (9, True), ((21, 8), False), ((21, 8), True), ([6, 30], False)):
        for interp in range(6):
            _same(th._mx_Resize(size, keep, interp)(ours), T.Resize(size, keep, interp)(src))
    batch = np.stack([image, image[::-1].copy()])
    _same(th._mx_Resize(10, True)(torch.from_numpy(batch)), T.Resize(10, True)(_nd(batch)))
    flt = image.astype("float32")
    for size, keep in ((16, True), ((21, 8), False)):
        for interp in range(5):
            _same(th._mx_Resize(size, keep, interp)(torch.from_numpy(flt)), T.Resize(size, keep, interp)(_nd(flt, "float32")))


def test_random_crops_draw_as_mxnet_draws():
    """random_crop, random_size_crop (code 10 draws one more number) and RandomResizedCrop:
    under the same `random.seed` the same crops, pixel for pixel, and the same stream after."""
    for shape in SHAPES:
        image = _image(shape, seed=1)
        src, ours = _nd(image), torch.from_numpy(image)
        h, w = shape[:2]
        cases = [("random_crop", (min(w, 6), min(h, 5)), 1), ("random_crop", (w + 4, h), 0),
                 ("random_size_crop", (12, 10), 1), ("random_size_crop", (8, 8), 10)]
        for seed in range(3):
            for name, size, interp in cases:
                args = (size, 0.3, (0.5, 2.0)) if name == "random_size_crop" else (size,)
                random.seed(seed)
                expected, box = getattr(mx.image, name)(src, *args, interp=interp)
                after = random.random()
                random.seed(seed)
                got, ours_box = getattr(th, f"_mx_{name}")(ours, *args, interp=interp)
                assert ours_box == box and random.random() == after
                _same(got, expected)
            for args in ((16,), ((10, 14), (0.08, 1.0), (0.75, 1.333)), (9, (0.9, 1.0), (3.0, 4.0), 0)):
                random.seed(seed)
                expected = T.RandomResizedCrop(*args)(src)
                random.seed(seed)
                _same(th._mx_RandomResizedCrop(*args)(ours), expected)


@pytest.mark.parametrize("shape", [(7, 9, 3), (16, 33, 3), (5, 4, 1)])
def test_colour_adjustments_for_a_given_factor(shape):
    """MXNet's brightness, contrast, saturation and hue operators drawn between equal bounds, and
    adjust_lighting: the helpers' float32 arithmetic and uint8 casts give the same values."""
    image = _image(shape, seed=2)
    for dtype in ("uint8", "float32"):
        src, ours = _nd(image, dtype), torch.from_numpy(image.astype(dtype))
        for factor in (0.3, 1.0, 1.6):
            for op, helper in ((mx.nd.image.random_brightness, th._mx_adjust_brightness),
                               (mx.nd.image.random_contrast, th._mx_adjust_contrast),
                               (mx.nd.image.random_saturation, th._mx_adjust_saturation),
                               (mx.nd.image.random_hue, th._mx_adjust_hue)):
                if shape[2] == 1 and helper is th._mx_adjust_hue:
                    continue  # MXNet leaves a one-channel output unwritten (garbage); the helper copies
                _same(helper(ours, factor), op(src, factor, factor))
        if shape[2] == 3:
            for alpha in ((0.1, -0.2, 0.05), (1.0, 0.5, -2.0)):
                _same(th._mx_adjust_lighting(ours, alpha), mx.nd.image.adjust_lighting(src, alpha=alpha))


def test_random_colour_transforms_keep_gluons_ranges():
    """With amount 0 Gluon's colour transforms draw a factor between equal bounds: the same
    pixels; with an amount, torch's generator draws (MXNet's own cannot be reproduced) factors in
    Gluon's range: brightness 0.5 makes every pixel x * a, a in [0.5, 1.5]."""
    image = _image((9, 11, 3), seed=3)
    src, ours = _nd(image), torch.from_numpy(image)
    for name in ("RandomBrightness", "RandomContrast", "RandomSaturation", "RandomHue"):
        _same(getattr(th, f"_mx_{name}")(0)(ours), getattr(T, name)(0)(src))
    _same(th._mx_RandomColorJitter()(ours), image)  # MXNet leaves its output unwritten: zeros or garbage
    _same(th._mx_RandomLighting(0)(ours), T.RandomLighting(0)(src))
    torch.manual_seed(0)
    flat = torch.full((4, 4, 3), 100, dtype=torch.uint8)
    factors = {int(th._mx_RandomBrightness(0.5)(flat)[0, 0, 0]) for _ in range(200)}
    assert min(factors) >= 50 and max(factors) <= 150 and len(factors) > 50
    jitter = th._mx_RandomColorJitter(0.2, 0.2, 0.2, 0.05)
    outs = [jitter(ours) for _ in range(5)]
    assert all(o.dtype == torch.uint8 and o.shape == ours.shape for o in outs)
    assert len({o.sum().item() for o in outs}) > 1


@pytest.mark.filterwarnings("ignore:Ignoring")
def test_image_folder_dataset_through_a_dataloader(tmp_path):
    """ImageFolderDataset: classes, items and samples as Gluon's (files of other types and loose
    files skipped), and seeded batches through a DataLoader with a random crop, equal."""
    for split, shape in (("cat", (30, 41, 3)), ("dog", (35, 29, 3))):
        folder = tmp_path / split
        folder.mkdir()
        for i in range(3):
            ext = (".png", ".jpg", ".JPEG")[i]
            cv2.imwrite(str(folder / f"{i}{ext}"), _image(shape, seed=i))
        (folder / "notes.txt").write_text("skipped")
    (tmp_path / "loose.png").write_bytes(b"")
    with pytest.warns(UserWarning):
        theirs = mx.gluon.data.vision.ImageFolderDataset(str(tmp_path))
    with pytest.warns(UserWarning):
        ours = th._mx_ImageFolderDataset(str(tmp_path))
    assert ours.synsets == theirs.synsets and ours.items == theirs.items and len(ours) == len(theirs) == 6
    for i in range(len(ours)):
        (image, label), (expected, their_label) = ours[i], theirs[i]
        _same(image, expected)
        assert label == their_label
    gray = th._mx_ImageFolderDataset(str(tmp_path), flag=0, transform=lambda x, y: (x, y + 1))
    _same(gray[4][0], mx.gluon.data.vision.ImageFolderDataset(str(tmp_path), flag=0)[4][0])
    assert gray[4][1] == 2
    augment = [T.RandomResizedCrop(12), T.ToTensor(), T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])]
    ours_augment = [th._mx_RandomResizedCrop(12), th._mx_ToTensor(),
                    th._mx_Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])]
    batches = {}
    for side, data, loader, compose in (("mxnet", theirs, mx.gluon.data.DataLoader, T.Compose),
                                        ("torch", ours, th._mx_DataLoader, th._mx_Compose)):
        random.seed(4)
        np.random.seed(4)
        steps = augment if side == "mxnet" else ours_augment
        batches[side] = [(x, y) for x, y in loader(data.transform_first(compose(list(steps))), 4, shuffle=True)]
    assert len(batches["mxnet"]) == len(batches["torch"]) == 2
    for (x, y), (ex, ey) in zip(batches["torch"], batches["mxnet"]):
        _same(x, ex)
        np.testing.assert_array_equal(y.numpy(), ey.asnumpy())


def test_missing_opencv_names_the_extra(monkeypatch):
    """OpenCV is imported by the helper that needs it: without it, an ImportError naming the
    extra; the helpers that need no resize still run."""
    monkeypatch.setitem(sys.modules, "cv2", None)
    image = torch.from_numpy(_image((8, 9, 3)))
    with pytest.raises(ImportError, match=r"opencv-python-headless.*xlate\[image\]"):
        th._mx_imresize(image, 4, 4)
    assert tuple(th._mx_CenterCrop(4)(image).shape) == (4, 4, 3)
    assert th._mx_adjust_brightness(image, 0.5).dtype == torch.uint8


def test_nd_image_operators():
    """MX004: nd.image.resize and crop (image and batch), the colour operators between equal
    bounds and adjust_lighting, as MXNet's; a batch where MXNet takes one image fails alike."""
    image = _image((11, 14, 3), seed=6)
    batch = np.stack([image, image[::-1].copy()])
    for data in (image, batch):
        src, ours = _nd(data), torch.from_numpy(data)
        for size, keep, interp in ((7, False, 1), (9, True, 2), ((5, 12), False, 3)):
            _same(th._mx_image_resize(ours, size, keep, interp), mx.nd.image.resize(src, size, keep, interp))
        _same(th._mx_image_crop(ours, 2, 3, 5, 4), mx.nd.image.crop(src, 2, 3, 5, 4))
    src, ours = _nd(image), torch.from_numpy(image)
    for name in ("brightness", "contrast", "saturation", "hue"):
        _same(getattr(th, f"_mx_image_random_{name}")(ours, 0.7, 0.7), getattr(mx.nd.image, f"random_{name}")(src, 0.7, 0.7))
        with pytest.raises(ValueError, match="height, width, channels"):
            getattr(th, f"_mx_image_random_{name}")(torch.from_numpy(batch), 0.7, 0.7)
    _same(th._mx_image_adjust_lighting(ours, (0.3, -0.1, 0.2)), mx.nd.image.adjust_lighting(src, (0.3, -0.1, 0.2)))
    _same(th._mx_image_random_lighting(ours, 0.0), mx.nd.image.random_lighting(src, 0.0))
    with pytest.raises(ValueError, match="outside"):
        th._mx_image_crop(ours, 10, 3, 5, 4)


def test_image_augmenters_draw_and_crop_as_mxnets():
    """Note [image augmenters]: mx.image's augmenter classes against MXNet's, pixel for pixel, under the
    same `random` seeds (the flip's draw and the crops' offsets), the stream after them, and dumps()."""
    image = _image((13, 17, 3), seed=2)
    src, ours = _nd(image), torch.from_numpy(image)
    cases = [("HorizontalFlipAug", (0.5,)), ("RandomCropAug", ((9, 7), 1)), ("CenterCropAug", ((20, 9),)),
             ("ResizeAug", (8, 2)), ("ForceResizeAug", ((11, 5), 0)), ("RandomSizedCropAug", ((6, 6), 0.3, (0.5, 2.0))),
             ("CastAug", ()), ("ColorNormalizeAug", ([120.0, 110.5, 90.0], [60.0, 55.0, 70.5]))]
    for name, args in cases:
        for seed in range(3):
            source = (src.astype("float32"), ours.float()) if name == "ColorNormalizeAug" else (src, ours)
            random.seed(seed)
            theirs = getattr(mx.image, name)(*args)
            expected, after = theirs(source[0]), random.random()
            random.seed(seed)
            mine = getattr(th, f"_mx_{name}")(*args)
            _same(mine(source[1]), expected)
            assert random.random() == after and mine.dumps() == theirs.dumps(), name
