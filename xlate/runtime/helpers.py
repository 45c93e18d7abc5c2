"""Helpers that converted files carry when no plain PyTorch expression is exact.

The converter never imports this module: it copies the text of each `_mx_*` function it
needs into the converted file, so converted code depends on torch alone. The tests import
it (with torch installed) and compare every helper against live MXNet.
"""
import torch


def _mx_reshape(x, shape, reverse=False):
    """MXNet reshape: 0 copies a dim, -1 infers, -2 copies the rest, -3 merges two, -4 splits one."""
    src = list(x.shape)
    spec = [shape] if isinstance(shape, int) else list(shape)
    if reverse:
        src, spec = src[::-1], spec[::-1]
    out, i, j, infer = [], 0, 0, -1
    while j < len(spec):
        d = spec[j]
        if d == 0:
            out.append(src[i])
            i += 1
        elif d == -1:
            infer = j  # MXNet keeps the -1's place in the spec, even after a -4 shifted the output
            out.append(1)
            i += 1
        elif d == -2:
            out.extend(src[i:])
            i = len(src)
        elif d == -3:
            out.append(src[i] * src[i + 1])
            i += 2
        elif d == -4:
            d0, d1, d2 = src[i], spec[j + 1], spec[j + 2]
            d1 = d0 // d2 if d1 == -1 else d1
            d2 = d0 // d1 if d2 == -1 else d2
            out.extend([d1, d2])
            i += 1
            j += 2
        else:
            out.append(d)
            i += 1
        j += 1
    if infer >= 0:
        known = 1
        for d in out:
            known *= d
        out[infer] = x.numel() // known
    return x.reshape(out[::-1] if reverse else out)


def _mx_dot(a, b, transpose_a=False, transpose_b=False):
    """MXNet dot: contracts a's last axis (first if transpose_a) with b's first (last if transpose_b)."""
    out = torch.tensordot(a, b, dims=([0 if transpose_a else a.dim() - 1], [b.dim() - 1 if transpose_b else 0]))
    return out.reshape(1) if out.dim() == 0 else out


def _mx_other_axes(x, axis):
    """The axes an MXNet reduction with exclude=True reduces over."""
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = [a % x.dim() for a in axes]
    return [d for d in range(x.dim()) if d not in axes]


def _mx_reduce_exclude(x, axis, op, keepdims=False):
    """An MXNet reduction with exclude=True: over every axis but `axis`; none left, nothing reduced."""
    axes = _mx_other_axes(x, axis)
    if not axes:
        return x.clone()
    if op == "prod":
        out = x
        for d in sorted(axes, reverse=True):
            out = out.prod(dim=d, keepdim=keepdims)
        return torch.atleast_1d(out)
    fn = {"max": torch.amax, "min": torch.amin}.get(op) or getattr(torch, op)
    return torch.atleast_1d(fn(x, dim=axes, keepdim=keepdims))


def _mx_where(condition, x, y):
    """MXNet where: a 1-D condition selects rows (axis 0); non-zero means true."""
    cond = condition != 0
    if cond.dim() == 1 and x.dim() > 1:
        cond = cond.reshape(-1, *([1] * (x.dim() - 1)))
    return torch.where(cond, x, y)


def _mx_one_hot(indices, depth, on_value=1.0, off_value=0.0, dtype=torch.float32):
    """MXNet one_hot: out-of-range ids give an all-off row instead of an error."""
    hot = indices.long().unsqueeze(-1) == torch.arange(depth, device=indices.device)
    on = torch.tensor(on_value, dtype=dtype, device=indices.device)
    off = torch.tensor(off_value, dtype=dtype, device=indices.device)
    return torch.where(hot, on, off)


def _mx_pick(data, index, axis=-1, mode="clip", keepdims=False):
    """MXNet pick: data[..., index, ...] along `axis`; 'clip' clamps ids, 'wrap' wraps them."""
    n = data.shape[axis]
    idx = index.long()
    idx = idx.clamp(0, n - 1) if mode == "clip" else idx % n
    out = torch.gather(data, axis, idx.unsqueeze(axis))
    out = out if keepdims else out.squeeze(axis)
    return out.reshape(1) if out.dim() == 0 else out


def _mx_sequence_mask(data, sequence_length=None, use_sequence_length=False, value=0.0, axis=0):
    """MXNet SequenceMask: positions at or past each length along `axis` (0 = time-major) get `value`."""
    if not use_sequence_length:
        return data
    steps = torch.arange(data.shape[axis], device=data.device)
    lengths = sequence_length.to(steps.device).long()  # MXNet truncates fractional lengths
    if axis == 0:
        keep = steps[:, None] < lengths[None, :]
    else:
        keep = steps[None, :] < lengths[:, None]
    keep = keep.reshape(keep.shape + (1,) * (data.dim() - 2))
    return data.masked_fill(~keep, value)
