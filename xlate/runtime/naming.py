"""Gluon's parameter names for a converted model: `collect_params(select)`, `block.name`,
`block.prefix` (copied as text into converted programs; torch and other `_mx_*` helpers only).

Note [Gluon names]
MXNet 1.9.1 names a block when it is built (`_BlockScope.create`): inside the `name_scope()`
of a block P it takes P's prefix, then its class's alias (the class name in lower case:
`dense`, `conv`, `batchnorm`, `hybridsequential`, `resnetv1b`) and a counter kept per alias
by P's scope, then `_` (`resnetv1b0_layers1_conv0_`); `prefix='x_'` replaces alias and
counter (the counter does not move), and `prefix=''` makes a block that opens no scope of its
own: its children count and name in the scope around it. A block built outside any scope
takes a counter per alias kept for the whole process (`dense0_`, `dense1_`). A parameter's
name is its block's prefix and the name `params.get` gave it (`conv0_weight`,
`batchnorm0_gamma`); `collect_params()` lists a block's own parameters in the order it made
them, then each child's, in the order the children were registered.

The converted model is a tree of torch modules that keeps Gluon's children in Gluon's order
(an attribute assignment or `add` registers both), so `_mx_block_prefixes` walks it and
counts as Gluon's scopes would, on the assumption Gluon code nearly always meets: each block
was built inside its parent's name scope, in the order it was registered. A block that knows
better says so on itself: `_mx_prefix` (the `prefix=` Gluon was given, set by
`_mx_named`), `_mx_alias` (its Gluon alias where the torch class is no guide), `_mx_outside`
(its children were built in the scope around it, not in its own). A top-level
block takes the process-wide counter of its alias when it is first named, so two top-level
models of one class are numbered in the order the program first asks for their names (Gluon:
the order it built them). torch attribute names become Gluon's through `_mx_gluon_layers()`,
the correspondence the checker's layer families declare (tests/test_naming.py holds the two
tables equal). A converted class's own parameter is named by its attribute, which is Gluon's
name when `self.x = self.params.get('x', ...)`; a tensor that carries `_mx_name` is named by
that instead (nothing sets it yet for `self.w = self.params.get('scale', ...)`).

Not reproduced (the names then differ from Gluon's): blocks built outside their parent's name
scope (a layer made at the top level and assigned into a model, `__init__` code without
`with self.name_scope()`) unless the runtime says so (`_mx_named(outside=True)`, the model zoo), a block built in one scope and registered in another, `prefix=`
reaching a converted class through `**kwargs`, `params=` sharing (left by the converter).
Finding a child's top-level block scans the live objects once per call: cheap at set-up, not
meant for every training step.
"""
import torch

class _mx_GluonNames:
    """The process-wide counters of top-level blocks, and the layer table once built."""

    roots = {}  # Gluon alias -> top-level blocks of it named so far (Gluon's NameManager)
    layers = None  # _mx_gluon_layers(), built at the first use
    # runtime classes whose torch base is not their Gluon class
    runtime = {"_mx_BatchNorm": "batchnorm", "_mx_SyncBatchNorm": "syncbatchnorm", "_mx_Concurrent": "hybridconcurrent",
               "_mx_Lambda": "hybridlambda"}


def _mx_gluon_layers():
    """torch class -> (Gluon alias, {torch parameter or buffer: Gluon parameter}), looked up on
    a module's MRO so that the runtime layers (`_mx_Dense(torch.nn.Linear)`) map too; None for
    a fused RNN layer (`_mx_rnn_param_name`). State absent here is not Gluon's (BatchNorm's
    num_batches_tracked). The same correspondences as the checker's layer families."""
    conv = {"weight": "weight", "bias": "bias"}
    norm = {"weight": "gamma", "bias": "beta"}
    stats = {**norm, "running_mean": "running_mean", "running_var": "running_var"}
    table = {"Linear": ("dense", conv), "LazyLinear": ("dense", conv), "SyncBatchNorm": ("syncbatchnorm", stats),
             "LayerNorm": ("layernorm", norm), "GroupNorm": ("groupnorm", norm),
             "Embedding": ("embedding", {"weight": "weight"}), "PReLU": ("prelu", {"weight": "alpha"}),
             "RNN": ("rnn", None), "LSTM": ("lstm", None), "GRU": ("gru", None), "Sequential": ("hybridsequential", {}),
             "ReLU": ("relu", {}), "Sigmoid": ("sigmoid", {}), "Tanh": ("tanh", {}), "Softplus": ("softrelu", {}),
             "Softsign": ("softsign", {}), "Dropout": ("dropout", {}), "Flatten": ("flatten", {}),
             "LeakyReLU": ("leakyrelu", {}), "ELU": ("elu", {}), "SELU": ("selu", {}), "GELU": ("gelu", {})}
    for n in (1, 2, 3):
        for lazy in ("", "Lazy"):
            table[f"{lazy}Conv{n}d"] = table[f"{lazy}ConvTranspose{n}d"] = ("conv", conv)
            table[f"{lazy}BatchNorm{n}d"] = ("batchnorm", stats)
        table[f"InstanceNorm{n}d"] = ("instancenorm", norm)
        for kind in ("Max", "Avg", "AdaptiveMax", "AdaptiveAvg"):
            table[f"{kind}Pool{n}d"] = ("pool", {})
    return table


def _mx_layer_entry(module):
    """The `_mx_gluon_layers()` entry of the first torch class on the module's MRO that has one."""
    if _mx_GluonNames.layers is None:
        _mx_GluonNames.layers = _mx_gluon_layers()
    for cls in type(module).__mro__:
        if cls.__module__.startswith("torch.") and cls.__name__ in _mx_GluonNames.layers:
            return _mx_GluonNames.layers[cls.__name__]
    return None


def _mx_gluon_alias(module):
    """Gluon's `_alias()`: what the block says, the class name of a converted Gluon class, the
    Gluon class a runtime layer or a torch layer stands for."""
    own = getattr(module, "_mx_alias", None)
    if own is not None:
        return own
    name = type(module).__name__
    if name in _mx_GluonNames.runtime:
        return _mx_GluonNames.runtime[name]
    if type(module).__module__.startswith("torch.") or name.startswith("_mx_"):
        entry = _mx_layer_entry(module)
        if entry is not None:
            return entry[0]
        return name[4:].lower() if name.startswith("_mx_") else name.lower()
    return name.lower()  # a converted Gluon class: Gluon's default alias


def _mx_named(block, prefix=None, alias=None, outside=False):
    """A block built with Gluon's `prefix=` (None: Gluon's default), or of a Gluon class whose
    alias its torch class does not tell (Gluon's plain Sequential is `sequential`, torch's
    Sequential stands for HybridSequential): what Gluon names it by (Note [Gluon names]).
    `outside=True`: its children were built outside its name scope, in the scope it was
    itself built in (`self.out = nn.HybridSequential()` filled after `with self.name_scope()`
    has ended for it, as Gluon's LinearBottleneck does), so they count and name there."""
    if prefix is not None:
        block._mx_prefix = prefix
    if alias is not None:
        block._mx_alias = alias
    if outside:
        block._mx_outside = True
    return block


def _mx_rnn_param_name(attr):
    """`weight_ih_l0_reverse` (torch's fused RNN) -> `r0_i2h_weight` (Gluon's)."""
    kind, _, rest = attr.partition("_l")
    layer, _, reverse = rest.partition("_")
    table = {"weight_ih": "i2h_weight", "weight_hh": "h2h_weight", "bias_ih": "i2h_bias", "bias_hh": "h2h_bias",
             "weight_hr": "h2r_weight"}
    if kind not in table or not layer.isdigit():
        return None
    return f"{'r' if reverse == 'reverse' else 'l'}{layer}_{table[kind]}"


def _mx_own_params(module):
    """(Gluon name without prefix, tensor) for the module's own parameters and the persistent
    buffers Gluon has as parameters (running statistics, a converted class's constants), in
    the order the module made them."""
    entry = _mx_layer_entry(module)
    ours = not (type(module).__module__.startswith("torch.") or type(module).__name__.startswith("_mx_"))

    def gluon(attr, is_param):
        if entry is not None and entry[1] is None:
            return _mx_rnn_param_name(attr)
        found = entry[1].get(attr) if entry is not None else None
        return found if found is not None or not (is_param or ours) else attr

    own = [(getattr(t, "_mx_name", None) or gluon(n, True), t) for n, t in module._parameters.items() if t is not None]
    own += [(getattr(t, "_mx_name", None) or gluon(n, False), t) for n, t in module._buffers.items()
            if t is not None and n not in module._non_persistent_buffers_set]
    return [(n, t) for n, t in own if n is not None]


def _mx_root_prefix(block):
    """A top-level block's prefix: its own `prefix=`, or its alias and the process-wide counter."""
    prefix = getattr(block, "_mx_prefix", None)
    if prefix is None:
        prefix = getattr(block, "_mx_root", None)
    if prefix is None:
        alias = _mx_gluon_alias(block)
        count = _mx_GluonNames.roots.get(alias, 0)
        _mx_GluonNames.roots[alias] = count + 1
        prefix = f"{alias}{count}_"
        block._mx_root = prefix
    return prefix


def _mx_block_prefixes(root):
    """{id(module): Gluon prefix} for every module of the tree (Note [Gluon names])."""
    prefixes = {}

    def visit(module, prefix, outer, counters):
        # `outer`, `counters`: the prefix and counters of the scope the module was named in
        prefixes[id(module)] = prefix
        # a block with prefix '' opens no scope: its children count in the scope around it;
        # so do the children of a block filled outside its own scope (`_mx_named(outside=True)`)
        if getattr(module, "_mx_outside", False):
            base, scope = outer, counters
        else:
            base, scope = prefix, counters if getattr(module, "_mx_prefix", None) == "" else {}
        for child in module._modules.values():
            if child is None or id(child) in prefixes:
                continue  # a block reached twice keeps its first name, as Gluon's
            if getattr(child, "_mx_root", None) is not None:  # named as a top-level block before
                visit(child, child._mx_root, child._mx_root, {})
                continue
            own = getattr(child, "_mx_prefix", None)
            if own is None:
                alias = _mx_gluon_alias(child)
                count = scope.get(alias, 0)
                scope[alias] = count + 1
                own = f"{alias}{count}_"
            visit(child, base + own, base, scope)

    def visit_top(module, prefix):
        # a top-level block filled outside any name scope: its children were built in no scope,
        # so they are top-level blocks too, each with the process-wide counter of its alias
        if not getattr(module, "_mx_outside", False):
            return visit(module, prefix, prefix, {})
        prefixes[id(module)] = prefix
        for child in module._modules.values():
            if child is not None and id(child) not in prefixes:
                visit_top(child, _mx_root_prefix(child))

    visit_top(root, _mx_root_prefix(root))
    return prefixes


def _mx_gluon_params(block, prefixes):
    """[(Gluon full name, tensor)] of `block`'s tree in `collect_params()`'s order, with the
    prefixes of `_mx_block_prefixes`; a tensor reached twice counts once."""
    seen, named = set(), []
    for module in _mx_modules_in_order(block):
        for name, tensor in _mx_own_params(module):
            if id(tensor) not in seen:
                seen.add(id(tensor))
                named.append((prefixes[id(module)] + name, tensor))
    return named


def _mx_modules_in_order(block, _seen=None):
    """The block, then each child's tree, in registration order (each module once)."""
    seen = set() if _seen is None else _seen
    if id(block) in seen:
        return []
    seen.add(id(block))
    found = [block]
    for child in block._modules.values():
        if child is not None:
            found += _mx_modules_in_order(child, seen)
    return found


def _mx_top_block(block):
    """The top-level block that holds `block` (torch modules keep no link to their parents:
    every live module's children are looked at once)."""
    import gc

    parents = {}
    for obj in gc.get_objects():
        if issubclass(type(obj), torch.nn.Module):  # type(): a __class__ property may warn
            for child in obj._modules.values():
                if child is not None:
                    parents.setdefault(id(child), obj)
    seen = {id(block)}
    while id(block) in parents and id(parents[id(block)]) not in seen:
        block = parents[id(block)]
        seen.add(id(block))
    return block


def _mx_block_prefix(block):
    """Gluon's `block.prefix` (`hybridsequential0_dense1_`), under its top-level block. A block
    that is no torch module (one xlate could not type) answers for itself."""
    if not isinstance(block, torch.nn.Module):
        return block.prefix
    return _mx_block_prefixes(_mx_top_block(block))[id(block)]


def _mx_param_name(param):
    """Gluon's `param.name` of a translated parameter: its full name (`m_dense0_weight`) in the
    model that holds it, as `_mx_collect_params` names it; a tensor no module holds has none."""
    import gc

    owner = next((obj for obj in gc.get_objects() if issubclass(type(obj), torch.nn.Module)
                  and any(t is param for t in (*obj._parameters.values(), *obj._buffers.values()))), None)
    if owner is None:
        raise AttributeError("a tensor no module holds has no Gluon name")
    top = _mx_top_block(owner)
    return next(name for name, tensor in _mx_gluon_params(top, _mx_block_prefixes(top)) if tensor is param)


def _mx_block_name(block):
    """Gluon's `block.name`: the prefix without its trailing `_`; a parameter's full name."""
    if isinstance(block, torch.Tensor):  # `net.dense.weight.name`: reached from a block, a Parameter's
        return _mx_param_name(block)
    if not isinstance(block, torch.nn.Module):
        return block.name
    prefix = _mx_block_prefix(block)
    return prefix[:-1] if prefix.endswith("_") else prefix


def _mx_collect_params(block, select=None):
    """Gluon's `block.collect_params(select)`: a `_mx_ParameterDict` keyed by Gluon's full names
    (running statistics included, as Gluon counts them), in Gluon's order; `select` is a regular
    expression matched at the start of each name (`re.match`). Something that is no torch
    module (a value xlate could not type) collects its own, and so does a block whose class collects
    its own way (Note [a block's own methods])."""
    found, block = _mx_own(block, "collect_params", *(() if select is None else (select,)))
    if found:
        return block
    if not isinstance(block, torch.nn.Module):
        return block.collect_params(select) if select is not None else block.collect_params()
    import re

    pattern = re.compile(select) if select else None
    prefixes = _mx_block_prefixes(_mx_top_block(block))
    named = [(n, t) for n, t in _mx_gluon_params(block, prefixes) if pattern is None or pattern.match(n)]
    found = _mx_ParameterDict(named, prefix=prefixes[id(block)])
    found._mx_block = block  # its `initialize()` draws as the block's does (_mx_initialize_method)
    return found


def _mx_block_params(block):
    """Gluon's `block.params`: the block's own parameters (its children's are not in it; Gluon
    1.x's ParameterDict of the block), keyed by Gluon's full names, with the block's prefix. A
    value that is no torch module, or a module with an attribute of its own named `params` (a
    from-scratch model's list of arrays), gives that attribute."""
    if not isinstance(block, torch.nn.Module) or "params" in vars(block):
        return block.params
    own = {id(t) for t in list(block._parameters.values()) + list(block._buffers.values()) if t is not None}
    every = _mx_collect_params(block)
    return _mx_BlockParams([(n, t) for n, t in every.items() if id(t) in own], prefix=every.prefix)



def _mx_param_data(param, ctx=None):
    """`p.data(ctx)` read off a value xlate could not type (a layer of a model from another cell,
    `params[k]`): a torch tensor (a converted Gluon Parameter) gives its data, as the evident
    case's `p.data`; any other value its own `data(...)`."""
    if isinstance(param, torch.Tensor):
        return param.data
    return param.data() if ctx is None else param.data(ctx)


def _mx_param_value(param, ctx=None):
    """`p.data(ctx)` read in a forward or under autograd.record off a value xlate could not type: a
    torch tensor (a converted Gluon Parameter: an MXNet array has no data()) is the Parameter
    itself, so the computation reaches its gradient as MXNet's does; any other value its own
    data(...)."""
    if isinstance(param, torch.Tensor):
        return param
    return param.data() if ctx is None else param.data(ctx)


def _mx_shared(block, params):
    """Gluon's `params=` on a layer: it uses another block's parameters (d2l's `nn.Dense(8,
    params=shared.params)`): each of the layer's parameters becomes the very tensor of that
    Gluon name in `params` (a ParameterDict of the converted model: `block.params`,
    `collect_params()`), so a write or an update through either layer is seen by both, as in
    Gluon. None shares nothing."""
    if params is None:
        return block
    entry = _mx_layer_entry(block)
    if entry is None or not hasattr(params, "get"):
        raise NotImplementedError(f"params= on {type(block).__name__}: reuse the other module, or assign its "
                                  "tensors to this one, by hand")
    for attr, gluon in entry[1].items():
        try:
            other = params.get(gluon)
        except KeyError:  # Gluon makes a new parameter in the shared dict: the layer keeps its own
            continue
        if attr in block._parameters and block._parameters[attr] is not None:
            setattr(block, attr, other)
        elif attr in block._buffers and block._buffers[attr] is not None:
            block._buffers[attr] = other  # a BatchNorm's running statistics: one set for both
    if isinstance(block, torch.nn.LazyLinear) and not torch.nn.parameter.is_lazy(block.weight):
        # a Dense of deferred input size tied to another's weight (a decoder tied to its embedding):
        # Gluon shares at once and the weight gives the input size, so the layer is a Linear now (torch's
        # lazy hook would try to materialise the shared weight at the first call); its own bias is
        # Gluon Dense's default, zeros
        block.in_features = block.weight.shape[1]
        if block.bias is not None and torch.nn.parameter.is_lazy(block.bias):
            block.bias.materialize((block.out_features,))
            with torch.no_grad():
                block.bias.zero_()
        block._initialize_hook.remove()
        block._load_hook.remove()
        del block._initialize_hook, block._load_hook
        block.__class__ = torch.nn.Linear
    return block


def _mx_collect_params_method(block):
    """`block.collect_params` read, not called: the bound method, Gluon's signature."""
    if not isinstance(block, torch.nn.Module):
        return block.collect_params
    return lambda select=None: _mx_collect_params(block, select)


class _mx_ParameterDict(dict):
    """Gluon's ParameterDict of a converted model: full Gluon name -> torch tensor (a
    parameter, or a running statistic's buffer), ordered as Gluon's; `setattr`, `get`,
    `zero_grad`, `prefix`. A torch optimizer takes `.values()`; `_mx_Trainer` takes the dict
    itself and orders it as Gluon's Trainer does (sorted by name)."""

    def __init__(self, items=(), prefix=""):
        super().__init__(items)
        self.prefix = prefix

    def get(self, name, **kwargs):
        """Gluon's `params.get(name)`: the parameter named prefix + name. Gluon would make a new,
        unattached parameter for a name it does not hold; that is an error here."""
        full = self.prefix + name
        if full in self:
            return self[full]
        if name in self:
            return self[name]
        raise KeyError(f"no parameter {full!r} in this ParameterDict (its names: {', '.join(self)}); Gluon would "
                       f"create a new parameter attached to no block")

    def setattr(self, name, value):
        """Gluon's `setattr(name, value)` on every parameter: grad_req ('null' freezes, 'write'
        trains, 'add' keeps gradients across steps); lr_mult / wd_mult for `_mx_Trainer`."""
        for tensor in self.values():
            _mx_set_param_attr(tensor, name, value)

    def zero_grad(self):
        for tensor in self.values():
            if tensor.grad is not None:
                tensor.grad.zero_()

    def reset_ctx(self, ctx):
        """Each tensor (and its gradient) moved to the device in place; a list of contexts is
        data parallelism, which this does not do."""
        if isinstance(ctx, (list, tuple)):
            raise NotImplementedError("reset_ctx to a list of contexts is data parallelism: use "
                                      "DistributedDataParallel, one device per process")
        with torch.no_grad():
            for tensor in self.values():
                tensor.data = tensor.data.to(ctx)
                if tensor.grad is not None:
                    tensor.grad = tensor.grad.to(ctx)

    def __repr__(self):
        # a parameter of a layer not run yet has no shape (Gluon prints its unknown sizes as 0)
        lines = "\n".join(f"  {name} {'(not initialised)' if torch.nn.parameter.is_lazy(t) else tuple(t.shape)}"
                          for name, t in self.items())
        return f"{self.prefix} (\n{lines}\n)"



class _mx_BlockParams(_mx_ParameterDict):
    """`block.params` of a converted block: its ParameterDict, whose `get` also makes a parameter it
    does not hold, as Gluon's does (a helper handed `self.params`: `self.w = register(self.params, 'w',
    shape=..., init=..., dtype=...)`); the block registers it when it is assigned to an attribute."""

    def get(self, name, **kwargs):
        if self.prefix + name in self or name in self or not kwargs:
            return super().get(name, **kwargs)
        differentiable = kwargs.get("differentiable", True) and kwargs.get("grad_req", "write") != "null"
        param = _mx_parameter(kwargs.get("shape"), init=kwargs.get("init"),
                              dtype=_mx_dtype(kwargs.get("dtype", "float32")), requires_grad=differentiable)
        self[self.prefix + name] = param
        return param


class _mx_GluonParameterDict(_mx_ParameterDict):
    """`gluon.ParameterDict(prefix, shared)` the program makes itself (a tutorial's `pd =
    gluon.ParameterDict(prefix='block1_')`, a dict gathering several blocks' parameters for one
    Trainer): `get(name, shape=..., init=..., grad_req=..., dtype=...)` makes the parameter under
    prefix + name when neither this dict nor `shared` holds it, as Gluon does; `update(other)` and
    `initialize(init, ctx, verbose, force_reinit)` are Gluon's (each parameter's own initializer first)."""

    def __init__(self, prefix="", shared=None):
        super().__init__((), prefix)
        self._mx_shared_dict = shared

    def get(self, name, **kwargs):
        full = self.prefix + name
        if full in self:
            return self[full]
        if self._mx_shared_dict is not None and full in self._mx_shared_dict:
            self[full] = self._mx_shared_dict[full]
            return self[full]
        grad_req = kwargs.get("grad_req", "write")
        differentiable = kwargs.get("differentiable", True)
        param = _mx_parameter(kwargs.get("shape"), init=kwargs.get("init"),
                              dtype=_mx_dtype(kwargs.get("dtype", "float32")),
                              requires_grad=grad_req != "null" and differentiable)
        for attr in ("lr_mult", "wd_mult"):
            if attr in kwargs:
                _mx_set_param_attr(param, attr, kwargs[attr])
        self[full] = param
        return param

    def initialize(self, init=None, ctx=None, verbose=False, force_reinit=False):
        for param in self.values():
            _mx_param_initialize(param, None, ctx, init if init is not None else _mx_default_init, force_reinit)


def _mx_set_param_attr(tensor, name, value):
    """One Gluon Parameter attribute on a torch tensor. Running statistics (buffers, Gluon's
    non-differentiable parameters) keep grad_req 'null' whatever is set, as in Gluon."""
    if name == "grad_req":
        if value not in ("null", "write", "add"):
            raise ValueError(f"grad_req must be one of 'write', 'add', or 'null', but got {value!r}")
        if not isinstance(tensor, torch.nn.Parameter) or getattr(tensor, "_mx_differentiable", True) is False:
            return
        tensor.requires_grad_(value != "null")
        tensor._mx_grad_req = value
    elif name in ("lr_mult", "wd_mult"):
        setattr(tensor, f"_mx_{name}", value)
    else:
        raise AttributeError(f"setattr({name!r}): xlate translates grad_req, lr_mult and wd_mult of a Parameter")
