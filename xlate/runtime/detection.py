"""MXNet's contrib detection operators that SSD-style Gluon code calls (MX009)."""
import torch


def _mx_MultiBoxPrior(data=None, sizes=(1.0,), ratios=(1.0,), clip=False, steps=(-1.0, -1.0), offsets=(0.5, 0.5),
                      out=None, name=None):
    """MXNet's contrib.MultiBoxPrior: anchor boxes (1, H*W*(len(sizes)+len(ratios)-1), 4), corners
    (xmin, ymin, xmax, ymax) in [0, 1] units of the (N, C, H, W) input's last two axes. Per position,
    row by row: every size with the first ratio, then every further ratio with the first size; a box
    is w = size * H / W * sqrt(ratio) / 2, h = size / sqrt(ratio) / 2 about its centre
    ((col + offsets[1]) * step_x, (row + offsets[0]) * step_y), the steps 1/W and 1/H unless given
    (steps[0] is y's). float32 as MXNet computes it; only the input's shape is read (no gradient).
    MXNet takes float32 input only; the helper gives another float input's dtype the same float32
    numbers (the checker's float64 replica runs through it)."""
    if out is not None:
        raise NotImplementedError("MultiBoxPrior(out=...): assign the result instead")
    height, width = int(data.shape[2]), int(data.shape[3])
    sizes, ratios = [float(s) for s in sizes], [float(r) for r in ratios]
    step_y = float(steps[0]) if float(steps[0]) > 0 else 1.0 / height
    step_x = float(steps[1]) if float(steps[1]) > 0 else 1.0 / width
    f32 = dict(dtype=torch.float32, device=data.device)
    # MXNet's C++ in single precision: (r + offset) * step, size * in_height / in_width * ratio / 2
    cy = (torch.arange(height, **f32) + torch.tensor(float(offsets[0]), **f32)) * torch.tensor(step_y, **f32)
    cx = (torch.arange(width, **f32) + torch.tensor(float(offsets[1]), **f32)) * torch.tensor(step_x, **f32)
    shapes = [(s, ratios[0] if ratios else 1.0) for s in sizes] + [(sizes[0], r) for r in ratios[1:]]
    half = []
    for size, ratio in shapes:
        root = torch.sqrt(torch.tensor(ratio, **f32))
        s = torch.tensor(size, **f32)
        half.append(torch.stack([s * height / width * root / 2, s / root / 2]))
    half = torch.stack(half)  # (A, 2): w/2, h/2
    cy, cx = torch.meshgrid(cy, cx, indexing="ij")
    centre = torch.stack([cx, cy], dim=-1).reshape(-1, 1, 2)  # (H*W, 1, 2)
    boxes = torch.cat([centre - half, centre + half], dim=-1).reshape(1, -1, 4)
    boxes = boxes.clamp(0.0, 1.0) if clip else boxes
    return boxes.to(data.dtype) if data.dtype.is_floating_point else boxes
