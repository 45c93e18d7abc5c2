"""Gluon's data parallelism over a list of contexts, in one torch process.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only. tests/test_training_scripts.py runs a two-context MXNet loop against its
translation.

Note [one process, several devices]
A Gluon loop over `ctx = [mx.gpu(0), mx.gpu(1)]` splits each batch with
`split_and_load` (MXNet's slice sizes: the first `size % n` slices are one longer, and
`even_split=True` refuses a batch that does not divide), runs the one model on every slice,
calls backward per slice and lets the Trainer sum the gradients over devices before it
divides by batch_size. The translation keeps that arithmetic exactly: the model lives on the
first device (`_mx_to_ctx`), every slice is cut with MXNet's sizes and runs there, one after
another, and each backward adds into the same `.grad`, which is the sum MXNet's allreduce
computes (`trainer.zero_grad()` goes before the loop of backward calls). The numbers are
MXNet's; the devices after the first are not used (no parallel speed-up). One difference
remains: MXNet keeps a copy of BatchNorm's running statistics per device (the first
device's copy sees only the first slice), the translation one copy that every slice moves.
"""

import torch


def _mx_split_data(data, num_slice, batch_axis=0, even_split=True):
    """`gluon.utils.split_data`: `num_slice` slices along `batch_axis` with MXNet's sizes."""
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError(f"data with shape {tuple(data.shape)} cannot be evenly split into {num_slice} slices "
                         f"along axis {batch_axis}. Use a batch size that's multiple of {num_slice} or set "
                         "even_split=False to allow uneven partitioning of data.")
    if num_slice == 1:
        return [data]
    each, extras = divmod(size, num_slice)
    sizes = [each + 1] * extras + [each] * (num_slice - extras)
    return list(torch.split(data, sizes, dim=batch_axis))


def _mx_split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """`gluon.utils.split_and_load` (Note [one process, several devices]): MXNet's slices,
    all on the first context's device, where the model is. A batch that is not an array yet
    (numpy) becomes float32, as `nd.array` makes it."""
    if not isinstance(data, torch.Tensor):
        data = torch.as_tensor(data, dtype=torch.float32)
    ctx_list = list(ctx_list) if isinstance(ctx_list, (list, tuple)) else [ctx_list]
    device = ctx_list[0]
    if len(ctx_list) == 1:
        return [data.to(device)]
    return [piece.to(device) for piece in _mx_split_data(data, len(ctx_list), batch_axis, even_split)]


def _mx_to_ctx(net, ctx):
    """`net.initialize(ctx=...)` / `collect_params().reset_ctx(...)`: the model on the context,
    or on the first of a list of them (Note [one process, several devices])."""
    if isinstance(ctx, (list, tuple)):
        ctx = ctx[0]
    return net.to(ctx)
