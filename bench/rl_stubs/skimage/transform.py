import numpy as np


def resize(img, shape, **kwargs):
    """Nearest-neighbour resize to `shape` with floats in [0, 1], as skimage returns for uint8 input."""
    img = np.asarray(img)
    rows = (np.arange(shape[0]) * img.shape[0] // shape[0])
    cols = (np.arange(shape[1]) * img.shape[1] // shape[1])
    out = img[rows][:, cols].astype(np.float64)
    return out / 255.0 if img.dtype == np.uint8 else out
