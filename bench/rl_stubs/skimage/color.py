import numpy as np


def rgb2gray(img):
    img = np.asarray(img, dtype=np.float64)
    return img[..., :3] @ np.array([0.2125, 0.7154, 0.0721]) if img.ndim == 3 else img
