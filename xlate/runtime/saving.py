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
        import warnings  # on stderr, filtered like any warning: stdout stays the script's own

        warnings.warn(f"{fname} held MXNet parameters: copied to {kept} before PyTorch's are saved there "
                      "(xlate convert-weights reads the MXNet file)", UserWarning, stacklevel=2)
    return fname


def _mx_save_on_rank0(obj, fname):
    """`save_parameters` under `--multi-device distributed` (Note [one process per device] in
    parallel.py): the processes hold the same parameters, so rank 0 alone writes the file
    (through `_mx_checkpoint_path`); without a process group, as one process does."""
    if not torch.distributed.is_initialized() or torch.distributed.get_rank() == 0:
        torch.save(obj, _mx_checkpoint_path(fname))
