"""Container and wrapper modules for Gluon blocks torch has no class for (copied as text)."""
import torch


class _mx_Lambda(torch.nn.Module):
    """Gluon (Hybrid)Lambda: a module that calls `function` on its inputs; no parameters."""

    def __init__(self, function, prefix=None):
        super().__init__()
        self.function = function

    def forward(self, *args):
        return self.function(*args)


class _mx_Concurrent(torch.nn.Sequential):
    """Gluon (Hybrid)Concurrent: runs every child on the same input and concatenates the
    outputs along `axis` (Gluon's default -1)."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.axis = axis

    def forward(self, x):
        return torch.cat([child(x) for child in self], dim=self.axis)


class _mx_Sequential(torch.nn.Sequential):
    """The base of a Gluon Sequential subclass with an __init__ of its own (Note [sliced Sequential
    subclasses] in xlate/convert/sequential_base.py). Gluon slices one as `type(self)(prefix=...)`
    holding those children, renumbered from 0: the subclass's own defaults. torch's Sequential
    passes the children to the constructor, which such an __init__ takes as its first argument."""

    def __getitem__(self, idx):
        if not isinstance(idx, slice):
            return super().__getitem__(idx)
        net = type(self)()
        for module in list(self._modules.values())[idx]:
            net.append(module)
        return net


def _mx_add(receiver, *blocks, **kwargs):
    """`x.add(...)` where the converter could not tell what `x` is (a parameter, a value from
    another module or notebook cell): a converted Gluon container (a torch Sequential, which has
    no `add`) appends each block, in order, and returns None as Gluon's `add` does; anything
    else (a set, a metric, a container helper with its own `add`) calls its own `add`."""
    if isinstance(receiver, torch.nn.Module) and not hasattr(type(receiver), "add") and hasattr(receiver, "append") \
            and not kwargs:
        for block in blocks:
            receiver.append(block)
        return None
    return receiver.add(*blocks, **kwargs)


def _mx_sequential_add(seq, *blocks):
    """`HybridSequential.add(self, *blocks)` named explicitly in a subclass that overrides `add`
    (sockeye's EncoderSequence checks each block, then calls its base's): each block appended in
    order under the next index, as Gluon's add registers them; None, as Gluon's add returns."""
    for block in blocks:
        torch.nn.Sequential.append(seq, block)


def _mx_compile(net):
    """`net.hybridize(...)` under `xlate convert --hybridize compile`: `net.compile()` (torch.compile
    in place; the module and its state_dict keys stay the same). Gluon code hybridizes before the
    first forward, while a deferred layer (in_channels=0) still waits for its size: a net with
    one runs its first call eagerly, which fixes the sizes, and compiles from the second on, so
    dynamo never traces a lazy layer's first call. Returns None, as hybridize() does."""
    lazy = torch.nn.modules.lazy.LazyModuleMixin
    if not any(isinstance(m, lazy) and m.has_uninitialized_params() for m in net.modules()):
        net.compile()
        return None

    def compile_after_first_call(module, args, output):
        handle.remove()
        module.compile()

    handle = net.register_forward_hook(compile_after_first_call)
    return None


def _mx_own(block, name, *args, **arguments):
    """Note [a block's own methods]: `(found, result)`. Where the block's class, a class of the program,
    defines Gluon's method `name` itself (`cast`, `initialize`, `load_parameters`, `collect_params`),
    a call the converter made a helper's runs that method, with the arguments given (those left at
    Gluon's defaults are not passed); a call through `super()` is Gluon's own method, on the block
    (the helper's work), and so is the method's own call of the helper for the same block."""
    if isinstance(block, super):
        return False, block.__self__
    if not isinstance(block, torch.nn.Module):
        return False, block
    for klass in type(block).__mro__:
        if klass is torch.nn.Module or klass.__name__.startswith("_mx_") or klass.__module__.startswith("torch."):
            return False, block
        if name in vars(klass):
            break
    busy = block.__dict__.setdefault("_mx_own_busy", set())
    if name in busy:
        return False, block
    busy.add(name)
    try:
        return True, getattr(block, name)(*args, **arguments)
    finally:
        busy.discard(name)


def _mx_cast(block, dtype):
    """Gluon's `block.cast(dtype)`: every parameter and running statistic of the block and its
    children in `dtype`, but a BatchNorm's kept in float32 when `dtype` is float16, as Gluon's
    _BatchNorm.cast does (torch's `module.to(float16)` casts them too). Something that is not a
    torch module (a value xlate could not type) casts itself. A block whose class casts itself its
    own way does that (Note [a block's own methods])."""
    found, block = _mx_own(block, "cast", dtype)
    if found:
        return block
    if not isinstance(block, torch.nn.Module):
        return block.cast(dtype)
    dtype = _mx_dtype(dtype)
    for module in block.modules():
        own = torch.float32 if dtype == torch.float16 and isinstance(module, torch.nn.modules.batchnorm._BatchNorm) \
            else dtype
        with torch.no_grad():
            for param in module.parameters(recurse=False):
                if not param.is_floating_point():
                    continue
                if torch.nn.parameter.is_lazy(param):  # a deferred size: it is made in `own` (Gluon's too)
                    param.data = torch.empty(0, dtype=own, device=param.device)
                    continue
                param.data = param.data.to(own)
                if param.grad is not None:
                    param.grad = param.grad.to(own)
            for name, buffer in list(module.named_buffers(recurse=False)):
                if buffer is None or not buffer.is_floating_point():
                    continue
                if torch.nn.parameter.is_lazy(buffer):
                    buffer.data = torch.empty(0, dtype=own, device=buffer.device)
                else:
                    module._buffers[name] = buffer.to(own)
    return None


def _mx_reg_params(block, exclude=()):
    """What Gluon's hybrid_forward receives in its `**kwargs`: every parameter and constant the
    block holds as an attribute of its own (`_reg_params`, keyed by the attribute's name, also one
    set with `setattr(self, name, param)`), less those its signature names (`exclude`). The
    translation's forward reads them from the module's own parameters and buffers."""
    own = {**block._parameters, **block._buffers}
    return {name: value for name, value in own.items() if value is not None and name not in exclude}


def _mx_forward_params(block):
    """The block's own parameters and running statistics by the names Gluon's hybrid_forward
    receives them under (Note [hybrid_forward patched]), in Gluon's order: a norm layer's
    `weight`/`bias` are Gluon's `gamma`/`beta`; torch's own counter `num_batches_tracked` is no
    Gluon parameter. Maps each Gluon name to the torch attribute that holds it."""
    norm = (torch.nn.modules.batchnorm._NormBase, torch.nn.LayerNorm, torch.nn.GroupNorm)
    renamed = {"weight": "gamma", "bias": "beta"} if isinstance(block, norm) else {}
    return {renamed.get(name, name): name for name in _mx_reg_params(block) if name != "num_batches_tracked"}


def _mx_hybrid_forward(block):
    """`block.hybrid_forward` read as a value: a converted block's forward as of this read, whose
    signature gains MXNet's `F` first, as the hybrid_forward it was (gluonts reads the names of a
    network's inputs from it). Called with parameters after the inputs (positionally, in Gluon's
    order, or by Gluon's names: `origin(F, x, weight_q, bias)` of a quantizing patch), the forward
    runs with those tensors in place of the block's own, as Gluon's hybrid_forward computes with
    what it is given. Any other object's own attribute."""
    if not isinstance(block, torch.nn.Module) or not hasattr(block, "forward"):
        return block.hybrid_forward
    import inspect

    forward = block.forward
    signature = inspect.signature(forward)
    positional = [p for p in signature.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    takes_varargs = any(p.kind == p.VAR_POSITIONAL for p in signature.parameters.values())

    def hybrid_forward(F, *args, **kwargs):
        names = _mx_forward_params(block)
        given = {k: kwargs.pop(k) for k in list(kwargs) if k in names and k not in signature.parameters}
        if len(args) > len(positional) and not takes_varargs:
            given.update(zip(names, args[len(positional):]))
            args = args[:len(positional)]
        if not given:
            return forward(*args, **kwargs)
        swapped = {}
        try:
            for gluon_name, value in given.items():
                name = names[gluon_name]
                table = block._parameters if name in block._parameters else block._buffers
                swapped[name] = (table, table[name])
                table[name] = value
            return forward(*args, **kwargs)
        finally:
            for name, (table, value) in swapped.items():
                table[name] = value

    first = inspect.Parameter("F", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    hybrid_forward.__signature__ = signature.replace(parameters=[first, *signature.parameters.values()])
    return hybrid_forward


def _mx_set_hybrid_forward(block, function):
    """`block.hybrid_forward = function` (a quantizing patch, `types.MethodType(f, block)`): from
    now on the block's forward calls `function(F, *inputs, **params)` as Gluon's forward calls
    hybrid_forward, its own parameters and running statistics by Gluon's names, read at each call
    (one registered after the patch is passed too). `F` is None: converted code reads no
    namespace from it. Any other object gets the attribute."""
    if not isinstance(block, torch.nn.Module):
        block.hybrid_forward = function
        return

    def forward(*args, **kwargs):
        params = {gluon_name: getattr(block, name) for gluon_name, name in _mx_forward_params(block).items()}
        return function(None, *args, **{**params, **kwargs})

    block.forward = forward


def _mx_summary(block, *inputs):
    """Gluon's `block.summary(*inputs)`: runs the block once on `inputs` and prints Gluon's table
    (every block but the Sequential containers, in the order their forward ends; each block's own
    parameters, running statistics included, as Gluon counts them). Layers are named by their
    torch classes (`Linear-1` where Gluon prints `Dense-1`). A value that is not a torch module
    summarises itself."""
    if not isinstance(block, torch.nn.Module):
        return block.summary(*inputs)

    def shape_text(value):
        if isinstance(value, torch.Tensor):
            return tuple(value.shape)
        if isinstance(value, (list, tuple)):
            return [shape_text(v) for v in value]
        return value

    def shapes(value):
        found = shape_text(value)
        return (str(found)[1:-1] if isinstance(found, list) else str(found)).replace("L", "")

    rows, seen, hooks = [("Input", shapes(list(inputs) if len(inputs) > 1 else inputs[0]), 0, 0, 0)], set(), []

    def hook(module, _, outputs):
        own = list(module.parameters(recurse=False))
        own += [b for n, b in module.named_buffers(recurse=False) if n in ("running_mean", "running_var")]
        total = sum(p.numel() for p in own)
        trainable = sum(p.numel() for p in own if isinstance(p, torch.nn.Parameter) and p.requires_grad)
        shared = sum(p.numel() for p in own if id(p) in seen)
        seen.update(id(p) for p in own)
        rows.append((f"{type(module).__name__}-{len(rows)}", shapes(outputs), total, trainable, shared))

    for module in block.modules():
        if type(module) is not torch.nn.Sequential and not isinstance(module, _mx_Sequential):
            hooks.append(module.register_forward_hook(hook))
    try:
        block(*inputs)
    finally:
        for handle in hooks:
            handle.remove()
    line = "{:>20}  {:>42} {:>15}"
    print("-" * 80)
    print(line.format("Layer (type)", "Output Shape", "Param #"))
    print("=" * 80)
    for name, shape, total, _, _ in rows:
        print(line.format(name, str(shape), total))
    total, trainable, shared = (sum(r[i] for r in rows) for i in (2, 3, 4))
    print("=" * 80)
    print("Parameters in forward computation graph, duplicate included")
    print("   Total params: " + str(total))
    print("   Trainable params: " + str(trainable))
    print("   Non-trainable params: " + str(total - trainable))
    print("Shared params in forward computation graph: " + str(shared))
    print("Unique parameters in model: " + str(total - shared))
    print("-" * 80)


def _mx_infer_shape(block, *args):
    """Gluon's `block.infer_shape(*args)` (and what `optimize_for(x, ...)` does to the sizes):
    every deferred size known from `args`. torch learns a lazy layer's size only from a call, so
    the block runs once without gradient, in predict mode (no running statistic moves, no
    dropout), and the outputs are dropped. A value that is not a torch module infers itself."""
    if not isinstance(block, torch.nn.Module):
        return block.infer_shape(*args)
    training = block.training
    block.eval()
    try:
        with torch.no_grad():
            block(*args)
    finally:
        block.train(training)
    return None


def _mx_optimize_for(block, x, *args, backend=None, **kwargs):
    """Gluon's `block.optimize_for(x, ..., backend=...)`: hybridize for a subgraph backend, with
    the sizes inferred from the inputs. torch runs the module eagerly: only the sizes are done
    here (`_mx_infer_shape`); a value that is not a torch module optimises itself."""
    if not isinstance(block, torch.nn.Module):
        return block.optimize_for(x, *args, backend=backend, **kwargs)
    return _mx_infer_shape(block, x, *args)


def _mx_lambda_function(function, table, hybrid):
    """What a (Hybrid)Lambda block calls, given a value that may be a function or an operator's name
    (Note [operators by name] in xlate/convert/namespace_getattr.py): a name picks from `table`,
    the operators its file names in strings (any other raises, naming itself); a HybridLambda's own
    function takes F first, passed as None (its `F.*` are translated where it is defined)."""
    if isinstance(function, str):
        return _mx_operator(function, table)
    return (lambda *args: function(None, *args)) if hybrid else function


# Note [a block's own methods]
# The converter turns a Gluon method called on a block into a helper that does what Gluon's Block
# does (`net.cast('float16')` -> `_mx_cast(net, 'float16')`). A class of the program may define the
# method itself: ResNeSt's and GluonCV's DropBlock casts and records its dtype, gluon-faster-rcnn's
# networks initialise only what a pretrained base did not load, sockeye's model loads its own way.
# The helper bypassed those, and the program's state silently differed (the recorded dtype, a
# print, a skipped step). The helpers of those methods (`_mx_cast`, `_mx_initialize`,
# `_mx_initialize_method`, `_mx_load_parameters`, `_mx_collect_params`) run the class's own method
# first, with the arguments the program gave; inside it, `super().cast(dtype)` (the helper on
# `super()`) is Gluon's method on the block itself, as is a call of the helper on the same block
# while the method runs.
