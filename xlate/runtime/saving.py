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


def _mx_is_mxnet_file(fname):
    """Whether `fname` holds an MXNet NDArray file (its magic, 0x112, in the first eight bytes);
    False where there is no file (or a file object is given)."""
    try:
        with open(fname, "rb") as f:
            return f.read(8) == (0x112).to_bytes(8, "little")
    except (OSError, TypeError):
        return False


def _mx_checkpoint_path(fname):
    """`fname`, after copying an MXNet parameter file found there to `<fname>.mxnet`
    (Note [MXNet checkpoints])."""
    if _mx_is_mxnet_file(fname):
        kept = f"{fname}.mxnet"
        with open(fname, "rb") as source, open(kept, "wb") as target:
            target.write(source.read())
        import warnings  # on stderr, filtered like any warning: stdout stays the script's own

        warnings.warn(f"{fname} held MXNet parameters: copied to {kept} before PyTorch's are saved there "
                      "(xlate convert-weights reads the MXNet file)", UserWarning, stacklevel=2)
    return fname



# Note [exported models]
# Gluon's `block.export(path, epoch)` writes MXNet's graph (`path-symbol.json`) and its parameters
# (`path-%04d.params`, keyed `arg:`/`aux:` by Gluon names) for SymbolBlock.imports, the Module API or
# the C++ runtime. PyTorch can read neither, and a graph of its own (torch.export, TorchScript) needs
# an example input, which the MXNet call does not name (MXNet's graph is the one its last hybridized
# forward cached). So the translation writes what a PyTorch program loads the model from: the
# state_dict, under MXNet's file stem with PyTorch's suffix (`path-0000.pt`: never under a name that
# says MXNet's format), and warns at run time which file it wrote and how to load it; the report says
# the same at the call.
def _mx_export(block, *args, **kwargs):
    """Gluon's `block.export(path, epoch=0, remove_amp_cast=True)`: torch.save of the block's
    state_dict to `path-%04d.pt` (Note [exported models]); returns None, as Gluon's does. Any
    other object's `export` is its own."""
    if not isinstance(block, torch.nn.Module):
        return block.export(*args, **kwargs)

    def bound(path, epoch=0, remove_amp_cast=True):  # Gluon's signature; the graph's AMP casts do not apply
        return path, epoch

    path, epoch = bound(*args, **kwargs)
    fname = "%s-%04d.pt" % (path, epoch)
    torch.save(block.state_dict(), fname)
    import warnings

    warnings.warn(f"export({path!r}): wrote {fname}, a PyTorch state_dict, where MXNet writes "
                  f"{path}-symbol.json and {path}-{epoch:04d}.params; load it with "
                  f"net.load_state_dict(torch.load({fname!r})) into the translated model, or save a graph "
                  "with torch.export.export(net, (example_input,))", UserWarning, stacklevel=2)


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
    then follows MXNet's training flag (Note [MXNet's mode]): it predicts outside record(). What
    was loaded is initialised, as in Gluon: an `initialize()` afterwards draws only the rest."""
    given = {k: v for k, v in (("ctx", ctx), ("allow_missing", allow_missing), ("ignore_extra", ignore_extra),
                               ("cast_dtype", cast_dtype)) if v not in (None, False)}
    if dtype_source != "current":
        given["dtype_source"] = dtype_source
    found, net = _mx_own(net, "load_parameters", filename, **given)  # Note [a block's own methods]
    if found:
        return net
    if dtype_source not in ("current", "saved"):
        raise ValueError(f"dtype_source must be 'current' or 'saved', got {dtype_source!r}")
    if _mx_is_mxnet_file(filename):
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
    own = net.state_dict(keep_vars=True)
    for name in saved:  # loaded counts as initialised: Gluon's initialize() afterwards keeps these values
        if name in own:
            own[name]._mx_ready = True
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


# Note [NDArray files]
# `nd.save(fname, data)` writes MXNet's own binary format, and `nd.load(fname)` reads it: a list
# of arrays, or a dict when names were saved. The helpers write and read the same bytes, so a
# file an MXNet program saved loads in the converted one and the other way round, and lists and
# dicts round-trip (a single array is saved as a list of one, as MXNet does). Layout, all
# little-endian: uint64 0x112, uint64 0, uint64 count; per array uint32 magic (0xF993FAC9, or
# 0xF993FACA under numpy shapes, where ndim 0 is a scalar), int32 storage type (0: dense),
# uint32 ndim, int64 dims, int32 device type and id, int32 dtype flag, the raw values; then
# uint64 count of names, each a uint64 length and its bytes. MXNet's own writer cannot read
# back a 0-d array saved without numpy shapes; the helper saves those with the numpy magic.
def _mx_nd_dtype_flags():
    """MXNet's dtype flags (mshadow's type_flag) -> torch dtypes."""
    return {0: torch.float32, 1: torch.float64, 2: torch.float16, 3: torch.uint8, 4: torch.int32, 5: torch.int8,
            6: torch.int64, 7: torch.bool, 12: torch.bfloat16}


def _mx_nd_save(fname, data):
    """`nd.save(fname, data)`: an array, a list of arrays or a dict str -> array, in MXNet's
    format (Note [NDArray files])."""
    import struct

    if isinstance(data, torch.Tensor):
        data = [data]
    if isinstance(data, dict):
        if any(not isinstance(k, str) for k in data) or any(not isinstance(v, torch.Tensor) for v in data.values()):
            raise TypeError("save only accept dict str->NDArray or list of NDArray")
        names, arrays = list(data.keys()), list(data.values())
    elif isinstance(data, list):
        if any(not isinstance(v, torch.Tensor) for v in data):
            raise TypeError("save only accept dict str->NDArray or list of NDArray")
        names, arrays = [], data
    else:
        raise ValueError("data needs to either be a NDArray, dict of str, NDArray pairs or a list of NDarrays.")
    flags = {dtype: flag for flag, dtype in _mx_nd_dtype_flags().items()}
    out = [struct.pack("<QQQ", 0x112, 0, len(arrays))]
    for array in arrays:
        if array.dtype not in flags:
            raise TypeError(f"nd.save: MXNet has no {array.dtype} arrays")
        values = array.detach().cpu()
        magic = 0xF993FACA if values.dim() == 0 else 0xF993FAC9
        out.append(struct.pack(f"<IiI{values.dim()}q", magic, 0, values.dim(), *values.shape))
        out.append(struct.pack("<iii", 1, 0, flags[array.dtype]))
        out.append(bytes(values.clone(memory_format=torch.contiguous_format).untyped_storage()))  # its own storage
    out.append(struct.pack("<Q", len(names)))
    for name in names:
        encoded = name.encode("utf-8")
        out.append(struct.pack("<Q", len(encoded)) + encoded)
    with open(fname, "wb") as f:
        f.write(b"".join(out))


def _mx_nd_load(fname):
    """`nd.load(fname)`: the arrays of a file MXNet's `nd.save` (or `_mx_nd_save`) wrote, as a
    list, or a dict when the file names them (Note [NDArray files])."""
    import struct

    with open(fname, "rb") as f:
        blob = f.read()
    pos = 0

    def take(fmt):
        nonlocal pos
        values = struct.unpack_from("<" + fmt, blob, pos)
        pos += struct.calcsize("<" + fmt)
        return values

    try:
        magic, _, count = take("QQQ")
        if magic != 0x112:
            raise ValueError("not an NDArray file")
        arrays = []
        for _ in range(count):
            array_magic, stype, ndim = take("IiI")
            if array_magic not in (0xF993FAC9, 0xF993FACA):
                raise ValueError("an array in a format older than MXNet 1.0")
            if stype != 0:
                raise NotImplementedError(f"{fname}: a sparse array (storage type {stype}) is not translated")
            shape = take(f"{ndim}q")
            _, _, flag = take("iii")
            dtype = _mx_nd_dtype_flags()[flag]
            numel = 1
            for d in shape:
                numel *= d
            size = numel * torch.empty((), dtype=dtype).element_size()
            raw = bytearray(blob[pos:pos + size])
            if len(raw) != size:
                raise ValueError("the file ends inside an array")
            pos += size
            flat = torch.frombuffer(raw, dtype=dtype) if size else torch.empty(0, dtype=dtype)
            arrays.append(flat.reshape(shape))
        (named,) = take("Q")
        names = []
        for _ in range(named):
            (length,) = take("Q")
            names.append(blob[pos:pos + length].decode("utf-8"))
            pos += length
    except (struct.error, KeyError, ValueError) as e:
        raise ValueError(f"{fname}: not a file MXNet's nd.save writes ({e})") from None
    return dict(zip(names, arrays)) if names else arrays
