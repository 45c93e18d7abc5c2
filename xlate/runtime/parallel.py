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

Note [one process per device]
`xlate convert --multi-device distributed` writes the form that scales: the script is
launched with `torchrun --nproc_per_node N` (N = len(ctx)), and each process takes one
device and one slice. `_mx_to_ctx_distributed` joins the process group torchrun describes
(gloo on CPU, nccl on CUDA), puts the model on ctx[rank], and before the first forward pass
draws any deferred (lazy) parameters with a forward in eval mode (nothing moves) and copies
every parameter and buffer from rank 0, as MXNet initialises once and copies to every
device. `_mx_split_and_load_distributed` gives each process its own slice with MXNet's
sizes (even_split rules). The Trainer's `allreduce_grads` (part of `step`) then SUMS each
gradient over the processes with `torch.distributed.all_reduce`, what MXNet's kvstore
computes over devices, before `step` divides by batch_size. torch's DistributedDataParallel
wrapper is not used: it AVERAGES gradients (a factor 1/N), it cannot wrap a model whose sizes
are still deferred (lazy modules, Gluon's in_units=0), and it renames the model's state
(`module.` prefixes) and hides its attributes from the code that follows. Per-process
values (a loss summed over the process's slices) cover that process's slice only, and every
process runs the rest of the script (printing, saving) too.
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
    return _mx_slices_on_first_device(data, ctx_list, lambda n: _mx_split_data(data, n, batch_axis, even_split))


def _mx_slices_on_first_device(data, ctx_list, split):
    """The batch, or its slices `split(len(ctx_list))` when there are several contexts, on the
    first context's device, each slice marked with its device's number."""
    ctx_list = list(ctx_list) if isinstance(ctx_list, (list, tuple)) else [ctx_list]
    device = ctx_list[0]
    if len(ctx_list) == 1:
        return [data.to(device)]
    pieces = [piece.to(device) for piece in split(len(ctx_list))]
    for i, piece in enumerate(pieces):
        piece._mx_device = i  # whose BatchNorm statistics it moves (Note [a BatchNorm per device])
    return pieces


def _mx_gcv_split_data(data, num_slice, batch_axis=0, even_split=True, multiplier=1):
    """GluonCV's `utils.split_data`: not Gluon's sizes: each slice `(size // multiplier) //
    num_slice * multiplier` long and the last one the rest (10 rows on 3: 3-3-4, where Gluon gives
    4-3-3); with even_split=False and fewer rows than slices, one slice a row."""
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError(f"data with shape {tuple(data.shape)} cannot be evenly split into {num_slice} slices "
                         f"along axis {batch_axis}. Use a batch size that's multiple of {num_slice} or set "
                         "even_split=False to allow uneven partitioning of data.")
    step = (int(size / multiplier) // num_slice) * multiplier
    if not even_split and size < num_slice:
        step, num_slice = 1, size
    if even_split and batch_axis != 0:
        return list(torch.chunk(data, num_slice, dim=batch_axis))
    return [data.narrow(batch_axis, i * step, (step if i < num_slice - 1 else size - i * step))
            for i in range(num_slice)]


def _mx_gcv_split_and_load(data, ctx_list, batch_axis=0, even_split=True, multiplier=1):
    """GluonCV's `utils.split_and_load`: its slices (`_mx_gcv_split_data`), all on the first
    context's device, where the model is (Note [one process, several devices])."""
    if not isinstance(data, torch.Tensor):
        data = torch.as_tensor(data, dtype=torch.float32)
    return _mx_slices_on_first_device(data, ctx_list,
                                      lambda n: _mx_gcv_split_data(data, n, batch_axis, even_split, multiplier))


def _mx_to_ctx(net, ctx):
    """`net.initialize(ctx=...)` / `collect_params().reset_ctx(...)`: the model on the context,
    or on the first of a list of them (Note [one process, several devices])."""
    if isinstance(ctx, (list, tuple)):
        if len(ctx) > 1:
            _mx_per_device(net)
        ctx = ctx[0]
    return net.to(ctx)


def _mx_per_device(net):
    """Note [a BatchNorm per device]: MXNet keeps a copy of the model on each context, and the
    trainer keeps their parameters equal, but not BatchNorm's running statistics: each copy's
    move with its own slice, and the first context's are what predicts there, what
    save_parameters writes and what collect_params shows. Here one model runs every slice, so
    a call on a slice of `_mx_split_and_load` says which context it stands for (the slice's
    `_mx_device`), and `_mx_BatchNorm` moves (and, predicting, reads) that context's copy of
    its statistics; the first context's copy is the module's own buffers."""
    if getattr(net, "_mx_device_hooks", False):
        return
    net._mx_device_hooks = True
    saved = []

    def enter(module, args):
        state = _mx_autograd_state()
        saved.append(getattr(state, "device", 0))
        state.device = getattr(args[0], "_mx_device", 0) if args else 0

    def leave(module, args, output):
        _mx_autograd_state().device = saved.pop()

    net.register_forward_pre_hook(enter)
    net.register_forward_hook(leave)


def _mx_to_ctx_distributed(net, ctx):
    """`net.initialize(ctx=[...])` under `--multi-device distributed` (Note [one process per
    device]): one process per context, launched by torchrun; without torchrun (one process)
    the same as `_mx_to_ctx`."""
    import torch.distributed as dist

    ctx = list(ctx) if isinstance(ctx, (list, tuple)) else [ctx]
    if not dist.is_initialized() and dist.is_torchelastic_launched():  # torchrun's environment
        dist.init_process_group("nccl" if torch.device(ctx[0]).type == "cuda" else "gloo")
    if not dist.is_initialized() or dist.get_world_size() == 1:
        return _mx_to_ctx(net, ctx)
    if dist.get_world_size() != len(ctx):
        raise ValueError(f"{dist.get_world_size()} processes for {len(ctx)} contexts: launch one process per "
                         f"context (torchrun --nproc_per_node {len(ctx)})")
    net.to(ctx[dist.get_rank()])

    def synchronise(module, args, kwargs):
        handle.remove()
        if any(torch.nn.parameter.is_lazy(t) for t in [*module.parameters(), *module.buffers()]):
            training = module.training
            module.eval()  # sizes fixed and deferred values drawn; nothing moves in eval mode
            with torch.no_grad():
                module(*args, **kwargs)
            module.train(training)
        with torch.no_grad():
            for tensor in [*module.parameters(), *module.buffers()]:
                dist.broadcast(tensor, 0)
        for param in module.parameters():
            param._mx_all_reduce = True

    handle = net.register_forward_pre_hook(synchronise, with_kwargs=True)
    return net


def _mx_split_and_load_distributed(data, ctx_list, batch_axis=0, even_split=True):
    """`gluon.utils.split_and_load` under `--multi-device distributed` (Note [one process per
    device]): this process's slice, with MXNet's sizes, on its device (a list of one)."""
    import torch.distributed as dist

    if not dist.is_initialized() or dist.get_world_size() == 1:
        return _mx_split_and_load(data, ctx_list, batch_axis, even_split)
    if not isinstance(data, torch.Tensor):
        data = torch.as_tensor(data, dtype=torch.float32)
    ctx_list = list(ctx_list) if isinstance(ctx_list, (list, tuple)) else [ctx_list]
    if dist.get_world_size() != len(ctx_list):
        raise ValueError(f"{dist.get_world_size()} processes for {len(ctx_list)} contexts")
    rank = dist.get_rank()
    return [_mx_split_data(data, len(ctx_list), batch_axis, even_split)[rank].to(ctx_list[rank])]


class _mx_KVStore:
    """The store `mx.kv.create(name)` gives in one process ('local', 'device', 'nccl', ...), with
    MXNet's semantics on a single worker: rank 0 of 1 worker; `init` stores a copy of a value;
    `push` sums a list of values (one per device) and stores the sum, or hands it to the updater
    set on the store (`updater(key, pushed, stored)`, which updates `stored` in place); `pull`
    copies the stored value into `out` (each array of a list); `pushpull` does both, into the
    pushed arrays when no `out` is given. Keys are ints or strings, one or a list of them. A
    distributed store ('dist_*', 'horovod', 'byteps') needs other processes: it raises here."""

    rank = 0
    num_workers = 1

    def __init__(self, name="local"):
        if name.startswith(("dist", "horovod", "byteps")):
            raise NotImplementedError(f"kvstore '{name}' is MXNet's distributed training: run the model under "
                                      "torch.nn.parallel.DistributedDataParallel")
        self.type, self._store, self._updater = name, {}, None

    @staticmethod
    def _pairs(key, value):
        return list(zip(key, value)) if isinstance(key, (list, tuple)) else [(key, value)]

    def init(self, key, value):
        for k, v in self._pairs(key, value):
            self._store[k] = (v[0] if isinstance(v, (list, tuple)) else v).detach().clone()

    def push(self, key, value, priority=0):
        for k, v in self._pairs(key, value):
            values = list(v) if isinstance(v, (list, tuple)) else [v]
            merged = values[0].detach().clone()
            for other in values[1:]:
                merged += other.detach().to(merged.device)
            if self._updater is not None:
                with torch.no_grad():
                    self._updater(k, merged.to(self._store[k].device), self._store[k])
            else:
                self._store[k] = merged

    def pull(self, key, out=None, priority=0, ignore_sparse=True):
        for k, o in self._pairs(key, out):
            for target in (o if isinstance(o, (list, tuple)) else [o]):
                with torch.no_grad():
                    target.copy_(self._store[k])

    def pushpull(self, key, value, out=None, priority=0):
        self.push(key, value, priority)
        self.pull(key, value if out is None else out, priority)

    def _set_updater(self, updater):
        self._updater = updater

    def set_optimizer(self, optimizer):
        raise NotImplementedError("kvstore.set_optimizer: give the optimizer to the Trainer (`_mx_Trainer`), "
                                  "which updates the parameters itself")

    def set_gradient_compression(self, compression_params):
        raise NotImplementedError("gradient compression (2-bit / 1-bit) has no torch counterpart here: drop it, "
                                  "or use a DDP communication hook")


def _mx_kv_create(name="local"):
    """mx.kv.create(name='local'): MXNet's key-value store for one process (`_mx_KVStore`)."""
    return _mx_KVStore(name)
