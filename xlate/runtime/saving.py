"""Where a converted script saves its parameters.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only.

Note [MXNet checkpoints]
`net.save_parameters('model.params')` becomes `torch.save(net.state_dict(), ...)` to the same
path. Run in the original's folder, the converted script would overwrite the MXNet checkpoint
that `xlate convert-weights` (and the MXNet script) still need, silently: the two formats
share the file name. So the path goes through `_mx_checkpoint_path`, which copies an MXNet
parameter file found there (MXNet's NDArray-list magic, 0x112, in its first eight bytes) to
`<path>.mxnet` with a warning before torch writes; a PyTorch file there is overwritten as
usual.
"""

import torch


def _mx_checkpoint_path(fname):
    """`fname`, after copying an MXNet parameter file found there to `<fname>.mxnet`
    (Note [MXNet checkpoints])."""
    try:
        with open(fname, "rb") as f:
            magic = f.read(8)
    except (OSError, TypeError):  # no file there (or a file object): nothing to keep
        return fname
    if magic == (0x112).to_bytes(8, "little"):
        kept = f"{fname}.mxnet"
        with open(fname, "rb") as source, open(kept, "wb") as target:
            target.write(source.read())
        print(UserWarning(f"{fname} held MXNet parameters: copied to {kept} before PyTorch's are saved there "
                          "(xlate convert-weights reads the MXNet file)"))
    return fname


def _mx_save_on_rank0(obj, fname):
    """`save_parameters` under `--multi-device distributed` (Note [one process per device] in
    parallel.py): the processes hold the same parameters, so rank 0 alone writes the file
    (through `_mx_checkpoint_path`); without a process group, as one process does."""
    if not torch.distributed.is_initialized() or torch.distributed.get_rank() == 0:
        torch.save(obj, _mx_checkpoint_path(fname))


def _mx_load_parameters(net, filename, ctx=None, allow_missing=False, ignore_extra=False, cast_dtype=False,
                        dtype_source="current"):
    """Gluon's `net.load_parameters(...)` from a PyTorch state_dict file: one the translated
    `save_parameters` wrote, or an MXNet file converted by `xlate convert-weights` (an MXNet file
    itself is refused with that command; Note [MXNet checkpoints]). As in Gluon, a name the model
    has and the file lacks raises unless allow_missing, a name the file has and the model lacks
    unless ignore_extra; values are cast to each parameter's dtype. With a context (or a list of
    them: the first, where split_and_load puts every slice) the model moves there. The model
    then follows MXNet's training flag (Note [MXNet's mode]): it predicts outside record()."""
    if dtype_source not in ("current", "saved"):
        raise ValueError(f"dtype_source must be 'current' or 'saved', got {dtype_source!r}")
    try:
        with open(filename, "rb") as f:
            magic = f.read(8)
    except TypeError:  # a file object: torch.load reads it
        magic = b""
    if magic == (0x112).to_bytes(8, "little"):
        raise ValueError(f"{filename} is an MXNet parameter file: convert it to a PyTorch one first "
                         f"(`xlate convert-weights {filename} --mx MODEL --pt MODEL -o OUT`) and load that")
    # a state_dict holds tensors only; weights_only said, so that torch 2.4 and 2.5 (default False,
    # with a FutureWarning) read it as 2.6 and later (default True) do
    saved = torch.load(filename, map_location="cpu", weights_only=True)
    if cast_dtype and dtype_source == "saved":
        own = dict(net.state_dict())
        for name, value in saved.items():
            if name in own and own[name].is_floating_point() and value.dtype != own[name].dtype:
                own[name].data = own[name].data.to(value.dtype)
    result = net.load_state_dict(saved, strict=False)
    if result.missing_keys and not allow_missing:
        raise AssertionError(f"Parameter '{result.missing_keys[0]}' is missing in file '{filename}', which contains "
                             "parameters: " + ", ".join(f"'{k}'" for k in saved) + ". Set allow_missing=True to "
                             "ignore missing parameters.")
    if result.unexpected_keys and not ignore_extra:
        raise ValueError(f"Parameter '{result.unexpected_keys[0]}' loaded from file '{filename}' is not present in "
                         "this model, which contains parameters " + ", ".join(f"'{k}'" for k in net.state_dict())
                         + ". Set ignore_extra=True to ignore. ")
    if ctx is not None:
        net.to(ctx[0] if isinstance(ctx, (list, tuple)) else ctx)
    _mx_follow_mode(net)
