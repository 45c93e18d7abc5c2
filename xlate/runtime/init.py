"""Gluon initialisation in PyTorch: initializers, per-parameter tags and `net.initialize()`.

The converter never imports this module: it copies the text of each `_mx_*` function a
converted file needs (see xlate/runtime/__init__.py), so the text may use `torch` and other `_mx_*`
helpers only. The tests import it and compare every helper against live MXNet.

Note [Gluon initialisation]
In Gluon a parameter holds no values until `initialize()`; each parameter then gets its own
initializer when it has one (a layer's `weight_initializer=`, `bias_initializer='zeros'`,
BatchNorm's gamma 'ones', PReLU's Constant(0.25), `params.get(..., init=)`), and the global
one otherwise (`initialize(init=Uniform(0.07))`), applied as a *weight* whatever the name:
a custom `params.get('bias', shape=...)` without init is drawn like a weight
(mxnet/initializer.py `Initializer.__call__`, gluon/parameter.py `_finish_deferred_init`).
A second `initialize()` leaves initialised parameters alone unless `force_reinit=True`.

PyTorch modules are filled when built, so the translation keeps torch's constructors and
re-applies Gluon's choices in `_mx_initialize`: a tensor tagged `_mx_init` (by
`_mx_init_params` or `_mx_parameter`) uses its tag, a tag of None meaning the global
initializer; an untagged parameter gets what its Gluon layer would give it, read off the
torch module type and parameter name (norm scale 1 / shift 0 / running mean 0 / var 1,
PReLU its `init`, biases 0, everything else the global initializer). Lazy parameters are
filled by a forward pre-hook that runs right after torch materialises them.
"""
import torch


def _mx_default_init(tensor):
    """MXNet's default initializer, Uniform(0.07)."""
    return torch.nn.init.uniform_(tensor, -0.07, 0.07)


def _mx_after_materialize(module, key, fn):
    """Run fn(module) once, right after the first forward materialises module's lazy
    parameters (a pre-hook registered after torch's own lazy one runs after it). Values loaded
    with load_state_dict before that forward win, as in Gluon, whose load_parameters after
    initialize() keeps what it loaded: loading cancels every pending call."""
    _mx_cancel_pending(module, (key,))

    def hook(mod, args):
        if any(torch.nn.parameter.is_lazy(t) for t in list(mod.parameters(False)) + list(mod.buffers(False))):
            return None
        _mx_cancel_pending(mod, (key,))
        fn(mod)
        return None

    setattr(module, key, module.register_forward_pre_hook(hook))
    if not getattr(module, "_mx_load_cancels", False):
        module._mx_load_cancels = True
        module.register_load_state_dict_post_hook(lambda mod, incompatible: _mx_cancel_pending(mod))


def _mx_cancel_pending(module, keys=("_mx_tag_hook", "_mx_init_hook")):
    """Drop the calls `_mx_after_materialize` left waiting on `module`."""
    for key in keys:
        handle = getattr(module, key, None)
        if handle is not None:
            handle.remove()
        setattr(module, key, None)


def _mx_init_params(module, **inits):
    """Tag module's parameters with their Gluon initializer (`weight=`, `bias=`, ...) and
    apply it now (or when a lazy parameter gets its shape); returns the module. An initializer
    known only at run time may be one of Gluon's names (`bias_initializer='zeros'`, a default
    handed down through a package's constructors, or a name `@mx.init.register` gave): it is
    looked up as Gluon looks it up (`_mx_initializer`)."""
    inits = {name: _mx_initializer(init) for name, init in inits.items()}

    def apply(mod):
        with torch.no_grad():
            for name in inits:
                tensor = getattr(mod, name)
                # a tensor initialize() already gave its value keeps it (Gluon draws deferred ones only)
                if tensor is not None and inits[name] is not None and not getattr(tensor, "_mx_ready", False):
                    inits[name](tensor)

    for name, init in inits.items():
        tensor = getattr(module, name)
        if tensor is not None:
            tensor._mx_init = init
    if any(torch.nn.parameter.is_lazy(getattr(module, n)) for n in inits if getattr(module, n) is not None):
        _mx_after_materialize(module, "_mx_tag_hook", apply)
    else:
        apply(module)
    return module


def _mx_param_arrays(param):
    """Gluon's `param._data` where it is tested against None (Note [whether a parameter is initialised]
    in xlate/convert/transforms/param_internals.py): [the tensor] once Gluon would hold its arrays
    (drawn by initialize(), loaded), else None."""
    return [param] if getattr(param, "_mx_ready", False) else None


def _mx_requires_grad(grad_req):
    """A Parameter's `grad_req` known only at run time, as `requires_grad`: 'write' trains, 'null'
    does not. 'add' (MXNet sums the gradients of successive backward passes into the parameter
    until the program zeroes them) raises: the translated training steps write gradients."""
    if grad_req in ("write", "null"):
        return grad_req == "write"
    raise NotImplementedError(f"grad_req={grad_req!r}: only 'write' and 'null' have a translation (MXNet's "
                              "'add' keeps summing gradients over backward passes until zeroed)")


def _mx_parameter(shape, *, init=None, dtype=torch.float32, requires_grad=True):
    """A Gluon `params.get(name, shape=..., init=...)` parameter. Gluon leaves it empty until
    `initialize()`; here it is filled at once: by `init`, or by Uniform(0.07), what the default
    `initialize()` gives a parameter without its own initializer. The tag (None: the global
    initializer) tells a translated `initialize()` what to draw it with. A shape that is None
    or holds a 0 is Gluon's deferred shape: the parameter stays uninitialised until its shape
    is set (Note [deferred parameters])."""
    init = _mx_initializer(init)  # Gluon also takes an initializer's name ('ones')
    dims = (shape,) if isinstance(shape, int) else tuple(shape) if shape is not None else None
    if dims is None or 0 in dims or -1 in dims:  # 0: unknown in MXNet 1.x, -1 in its numpy shapes (MXNet 2)
        param = torch.nn.UninitializedParameter(requires_grad=requires_grad, dtype=dtype)
        param._mx_init, param._mx_shape = init, shape
        return param
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    param = torch.nn.Parameter(torch.empty(shape, dtype=dtype), requires_grad=requires_grad)
    param._mx_init = init
    with torch.no_grad():
        (init if init is not None else _mx_default_init)(param)
    return param


# Note [deferred parameters]
# Gluon code that learns a parameter's size from its input declares it without one
# (`params.get('W', allow_deferred_init=True)`, or a shape with a 0), sets `param.shape` in
# the forward and calls `param._finish_deferred_init()` before `param.data()`. The translation
# keeps the same object: a torch UninitializedParameter, registered on the module when it is
# assigned, that `_mx_set_shape` materialises in place (so an optimizer built before the first
# call holds the same tensor and updates it) and fills with its own initializer, or with the
# one `_mx_initialize` was given while it had no shape (Gluon's default Uniform(0.07) when
# initialize() never reached it, where Gluon would refuse to run). The state_dict is complete
# after the first forward (torch cannot save or load a tensor without a shape).
def _mx_set_shape(param, shape):
    """Gluon's `param.shape = shape` (and `_finish_deferred_init()`): give a deferred parameter
    its shape and initial values; a known shape must agree, 0 (or -1) standing for any size."""
    shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    if not torch.nn.parameter.is_lazy(param):
        if len(shape) != param.dim() or any(d > 0 and d != n for d, n in zip(shape, param.shape)):
            raise ValueError(f"parameter shape {tuple(param.shape)} is incompatible with {shape}")
        return param
    partial = getattr(param, "_mx_shape", None)
    if partial is not None:
        partial = (partial,) if isinstance(partial, int) else tuple(partial)
        if len(partial) != len(shape) or any(p > 0 and p != d for p, d in zip(partial, shape)):
            raise ValueError(f"parameter shape {partial} is incompatible with {shape}")
    init = param._mx_init if getattr(param, "_mx_init", None) is not None else \
        getattr(param, "_mx_global_init", _mx_default_init)
    param.materialize(shape)
    with torch.no_grad():
        init(param)
    param._mx_ready = True
    return param


def _mx_finish_deferred_init(param):
    """Gluon's `param._finish_deferred_init()`: `_mx_set_shape` already did the work; a
    parameter still without a shape is an error, as in Gluon."""
    if torch.nn.parameter.is_lazy(param):
        raise RuntimeError("the parameter's shape is not set: assign `param.shape` (`_mx_set_shape`) first")
    return param


def _mx_is_norm(module):
    return (hasattr(module, "running_mean") or hasattr(module, "running_var")
            or any("Norm" in cls.__name__ for cls in type(module).__mro__))


def _mx_layer_default(module, name, init):
    """The initializer Gluon's layer gives an untagged parameter or running statistic."""
    if _mx_is_norm(module):
        if name in ("weight", "running_var", "gamma"):
            return torch.nn.init.ones_
        return torch.nn.init.zeros_
    if isinstance(module, torch.nn.PReLU):
        return lambda t: torch.nn.init.constant_(t, module.init)
    if name.startswith("bias") or name.endswith("bias") or name == "beta":
        return torch.nn.init.zeros_
    if name == "gamma":
        return torch.nn.init.ones_
    return init


def _mx_init_module(module, init, force_reinit, only=None):
    """Gluon's `initialize()` for the tensors `module` owns itself (not its children's); `only`: the ids of
    the tensors to draw (a ParameterDict's), None for all."""
    tensors = list(module.named_parameters(recurse=False))
    if _mx_is_norm(module):
        tensors += [(n, b) for n, b in module.named_buffers(recurse=False) if n in ("running_mean", "running_var")]
    if only is not None:
        tensors = [(n, t) for n, t in tensors if id(t) in only]
    pending = False
    with torch.no_grad():
        for name, tensor in tensors:
            if torch.nn.parameter.is_lazy(tensor):
                tensor._mx_global_init = init  # what a deferred parameter is drawn with (Note [deferred parameters])
                pending = True
                continue
            if getattr(tensor, "_mx_ready", False) and not force_reinit:
                continue  # Gluon: "already initialized, ignoring"
            if hasattr(tensor, "_mx_init"):
                chosen = tensor._mx_init if tensor._mx_init is not None else init
            else:
                chosen = _mx_layer_default(module, name, init)
            chosen(tensor)
            tensor._mx_ready = True
        for name, tensor in tensors:  # set_data() before the deferred size was known: Gluon's values now
            value = getattr(tensor, "_mx_set_value", None)
            if value is not None and not torch.nn.parameter.is_lazy(tensor):
                tensor.copy_(value)
                tensor._mx_set_value = None
        if _mx_is_norm(module) and getattr(module, "num_batches_tracked", None) is not None \
                and not torch.nn.parameter.is_lazy(module.num_batches_tracked):
            module.num_batches_tracked.zero_()
    if pending:
        _mx_after_materialize(module, "_mx_init_hook", lambda m: _mx_init_module(m, init, force_reinit, only))


def _mx_set_data(param, data):
    """Gluon's `p.set_data(v)`: copied in place (broadcast, cast to the parameter's dtype and
    device), like MXNet's `arr[:] = v`, so optimizers and tied layers keep the same tensor. On a
    parameter whose size is still deferred (a layer before its first forward), MXNet keeps the
    value for the deferred initialisation; here the initialisation after the first forward
    copies it in place of the drawn values (`_mx_init_module`)."""
    value = data if isinstance(data, torch.Tensor) else torch.as_tensor(data)
    if torch.nn.parameter.is_lazy(param):
        param._mx_set_value = value
        return
    with torch.no_grad():
        param.copy_(value)


def _mx_set_data_method(obj, data):
    """`x.set_data(v)` where the converter could not tell whether x is a Gluon Parameter (a loop
    over `enumerate(net.collect_params().values())`): a torch tensor is a converted Parameter (an
    MXNet array has no set_data), copied into as `_mx_set_data` does; anything else its own method."""
    if isinstance(obj, torch.Tensor):
        return _mx_set_data(obj, data)
    return obj.set_data(data)


def _mx_initialize(net, init=None, *, force_reinit=False):
    """Gluon `net.initialize(init)`: a parameter tagged with its own initializer uses it; an
    untagged one what its Gluon layer gives it (norm scale 1, shift 0, running mean 0 and var 1,
    PReLU its init, biases 0); the rest `init`, default Uniform(0.07). Already initialised
    tensors are kept unless force_reinit; lazy ones are drawn after the first forward. The
    model then follows MXNet's training flag (Note [MXNet's mode]): it predicts unless
    autograd.record() or train_mode() says otherwise. A parameter (`m.input_max.initialize(...)` where
    xlate could not tell the receiver from a block) is initialised as Gluon's Parameter.initialize. A
    block whose class initialises itself its own way does that (Note [a block's own methods])."""
    given = {k: v for k, v in (("init", init), ("force_reinit", force_reinit)) if v not in (None, False)}
    found, net = _mx_own(net, "initialize", **given)
    if found:
        return net
    if isinstance(net, torch.Tensor):  # as Gluon's Parameter.initialize does with an initializer function
        if getattr(net, "_mx_ready", False) and not force_reinit:
            return net
        chosen = init or getattr(net, "_mx_init", None) or _mx_default_init
        if torch.nn.parameter.is_lazy(net):
            net._mx_global_init = chosen  # Note [deferred parameters]
        else:
            with torch.no_grad():
                chosen(net)
            net._mx_ready = True
        return net
    if not isinstance(net, torch.nn.Module):  # Note [initialize on a value of no known type]
        if init is None and not force_reinit and callable(getattr(net, "initialize", None)):
            return net.initialize()
        raise TypeError(f"initialize() with a Gluon initializer on a {type(net).__name__}, which is no converted "
                        "block: the converter took it for one; call its own initialize with its own arguments")
    init = _mx_default_init if init is None else init
    for module in net.modules():
        _mx_init_module(module, init, force_reinit)
    return _mx_follow_mode(net)


# Note [initialize on a value of no known type]
# `x.initialize()` with no arguments on a value the converter cannot type (a function's parameter)
# is taken for Gluon's Block.initialize, the common case (`def train(net): net.initialize()`), to
# keep the output plain; with arguments that are not an initializer, `_mx_initialize_method` decides
# at run time. Any other class may have an initialize() of its own (an environment, a client), so
# here a value that is no torch module calls its own method: exact, since no argument was translated.


def _mx_initialize_method(obj, *args, **kwargs):
    """`x.initialize(...)` where the converter could not tell whether x is a Gluon block (gluonts'
    trainer: `net.initialize(ctx=self.ctx, init=self.init)`): a torch module (a converted block) is
    initialised as Gluon's Block.initialize(init, ctx, verbose, force_reinit) does, `init` an
    initializer function, a registered name or None, then moved to the context; any other object
    calls its own initialize with the same arguments (a parameter: Gluon's Parameter.initialize)."""
    if isinstance(obj, torch.Tensor):
        return _mx_param_initialize(obj, *args, **kwargs)
    if isinstance(obj, (super, torch.nn.Module)):  # Note [a block's own methods]
        names = ("init", "ctx", "verbose", "force_reinit")
        given = {**dict(zip(names, args)), **kwargs}
        found, obj = _mx_own(obj, "initialize", **{k: v for k, v in given.items() if v not in (None, False)})
        if found:
            return obj
    block = getattr(obj, "_mx_block", None) if isinstance(obj, dict) else None
    if not isinstance(obj, torch.nn.Module) and block is None:
        return obj.initialize(*args, **kwargs)

    def bind(init=None, ctx=None, verbose=False, force_reinit=False):
        return init, ctx, force_reinit

    init, ctx, force_reinit = bind(*args, **kwargs)
    if block is not None:  # Gluon's ParameterDict.initialize: its own parameters, each as its block draws it
        init = _mx_initializer(init)
        only = {id(t) for t in obj.values()}
        for module in block.modules():
            _mx_init_module(module, _mx_default_init if init is None else init, force_reinit, only)
        _mx_follow_mode(block)
        if ctx is not None:
            obj.reset_ctx(ctx[0] if isinstance(ctx, (list, tuple)) else ctx)
        return
    _mx_initialize(obj, _mx_initializer(init), force_reinit=force_reinit)
    if ctx is not None:
        _mx_to_ctx(obj, ctx)


def _mx_xavier(rnd_type="uniform", factor_type="avg", magnitude=3):
    """MXNet Xavier: scale sqrt(magnitude / factor) from fans that count the receptive field;
    uniform in [-scale, scale] or normal with std scale."""
    if rnd_type not in ("uniform", "gaussian") or factor_type not in ("avg", "in", "out"):
        raise ValueError(f"Xavier: unknown rnd_type {rnd_type!r} or factor_type {factor_type!r}")

    def init(tensor):
        shape = tensor.shape
        if len(shape) < 2:
            raise ValueError("Xavier initializer cannot be applied to a vector: it requires at least 2D")
        hw = 1
        for d in shape[2:]:
            hw *= d
        fan_in, fan_out = shape[1] * hw, shape[0] * hw
        factor = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}[factor_type]
        scale = (float(magnitude) / factor) ** 0.5
        if rnd_type == "uniform":
            return torch.nn.init.uniform_(tensor, -scale, scale)
        return torch.nn.init.normal_(tensor, 0.0, scale)

    return init


def _mx_constant(value):
    """MXNet Constant(value): a scalar, or an array broadcast to the parameter's shape."""

    def init(tensor):
        with torch.no_grad():
            return tensor.copy_(torch.as_tensor(value, dtype=tensor.dtype).expand_as(tensor))

    return init


def _mx_orthogonal(scale=1.414, rand_type="uniform"):
    """MXNet Orthogonal: the SVD factor of a uniform(-1, 1) (or standard normal) matrix of shape
    (rows, rest) that has that shape, times scale (torch.nn.init.orthogonal_ uses QR of a
    normal matrix instead)."""
    if rand_type not in ("uniform", "normal"):
        raise ValueError(f"Orthogonal: unknown rand_type {rand_type!r}")

    def init(tensor):
        nout = tensor.shape[0]
        nin = tensor.numel() // nout
        with torch.no_grad():
            if rand_type == "uniform":
                tmp = torch.rand(nout, nin) * 2.0 - 1.0
            else:
                tmp = torch.randn(nout, nin)
            u, _, vh = torch.linalg.svd(tmp, full_matrices=False)
            res = u if u.shape == tmp.shape else vh
            return tensor.copy_((scale * res).reshape(tensor.shape))

    return init


def _mx_bilinear():
    """MXNet Bilinear: the bilinear upsampling kernel in every (out, in) slot of a 4-D weight."""

    def init(tensor):
        shape = tensor.shape
        f = float(-(-shape[3] // 2))
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        xs = 1 - (torch.arange(shape[3], dtype=torch.float64) / f - c).abs()
        ys = 1 - (torch.arange(shape[2], dtype=torch.float64) / f - c).abs()
        with torch.no_grad():
            return tensor.copy_((ys[:, None] * xs[None, :]).expand(shape))

    return init


def _mx_lstm_bias(forget_bias=1.0):
    """MXNet LSTMBias: zeros but the forget gate's quarter (the second, in MXNet's and torch's
    gate order i, f, g, o), set to forget_bias."""

    def init(tensor):
        hidden = tensor.shape[0] // 4
        with torch.no_grad():
            tensor.zero_()
            tensor[hidden:2 * hidden] = forget_bias
        return tensor

    return init


# Note [custom initializers]
# Gluon code writes its own initializer as a subclass of mx.init.Initializer that overrides
# `_init_weight(name, arr)` and fills `arr` in place (`arr[:] = ...`, `nd.random.normal(...,
# out=arr)`). The translation keeps the class, on the base `_mx_Initializer`, whose instances
# are what translated code takes an initializer to be: a function that fills a tensor (`init(w)`,
# Note [Gluon initialisation]). Gluon hands the initializer a parameter gets (its own, or the
# one initialize() was given) to `_init_weight` whatever the parameter's name
# (gluon/parameter.py passes it as the InitDesc's `__init__`), and so does a call with the tensor
# alone. `name` is then 'weight', where Gluon passes the parameter's own name ('dense0_weight',
# or 'dense0_bias' for a bias given this initializer). A call with a name and an array, as user code may
# write (`init('fc_bias', arr)`), dispatches on the name's ending as MXNet's does.
class _mx_Initializer:
    """Gluon's `Initializer` as a base class: a subclass overrides `_init_weight(name, arr)`
    (and maybe `_init_bias`, `_init_gamma`, ...), which fill the torch tensor `arr` in place."""

    registry_of_initializers = True  # its registry is where `_mx_initializer` looks a name up

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._verbose = False
        self._print_func = None

    def set_verbosity(self, verbose=False, print_func=None):
        self._verbose, self._print_func = verbose, print_func  # MXNet logs at INFO level: not translated
        return self

    def __call__(self, desc, arr=None):
        with torch.no_grad():
            if arr is None:  # init(tensor): how translated code calls an initializer
                desc.zero_()  # Gluon hands initializers a zeroed array
                self._init_weight("weight", desc)
                return desc
            name = str(desc)
            if name.startswith("upsampling"):
                self._init_bilinear(name, arr)
            elif name.endswith("bias"):
                self._init_bias(name, arr)
            elif name.endswith("gamma"):
                self._init_gamma(name, arr)
            elif name.endswith("beta"):
                self._init_beta(name, arr)
            elif name.endswith("weight"):
                self._init_weight(name, arr)
            elif name.endswith(("moving_mean", "moving_inv_var", "moving_avg", "min")):
                self._init_zero(name, arr)
            elif name.endswith(("moving_var", "max")):
                self._init_one(name, arr)
            else:
                self._init_default(name, arr)
        return arr

    def _init_bilinear(self, _, arr):
        _mx_bilinear()(arr)

    def _init_zero(self, _, arr):
        arr[:] = 0.0

    def _init_one(self, _, arr):
        arr[:] = 1.0

    def _init_bias(self, _, arr):
        arr[:] = 0.0

    def _init_gamma(self, _, arr):
        arr[:] = 1.0

    def _init_beta(self, _, arr):
        arr[:] = 0.0

    def _init_weight(self, name, arr):
        raise NotImplementedError("Must override it")

    def _init_default(self, name, _):
        raise ValueError(f"Unknown initialization pattern for {name}. Default initialization is now limited to "
                         f'"weight", "bias", "gamma" (1.0), and "beta" (0.0).')

    def __eq__(self, other):
        if not isinstance(other, _mx_Initializer):
            return NotImplemented
        return type(self) is type(other) and self._kwargs == other._kwargs

    __hash__ = object.__hash__

    def __repr__(self):
        return f"{type(self).__name__}({self._kwargs})"


def _mx_init_create(*args, **kwargs):
    """`mx.init.create(name, *args, **kwargs)`: the initializer registered under `name` (any case), made
    with the arguments its MXNet class takes: the classes registered with `@mx.init.register` first,
    then MXNet's own (Xavier's rnd_type, factor_type, magnitude; MSRAPrelu's factor_type, slope; ...).
    An initializer itself is returned as it is; a dict is keyword arguments and a JSON string
    `'["xavier", {...}]'` is decoded, as mx.registry's create does."""
    import json

    name = args[0] if args else kwargs.pop("initializer")
    args = args[1:]
    if callable(name) and not isinstance(name, type):
        assert not args and not kwargs, "initializer is already an instance. Additional arguments are invalid"
        return name
    if isinstance(name, dict):
        return _mx_init_create(**name)
    if name.startswith("["):
        name, kwargs = json.loads(name)
        return _mx_init_create(name, **kwargs)
    if name.startswith("{"):
        return _mx_init_create(**json.loads(name))
    key = name.lower()
    registered = _mx_registry.table.get(_mx_Initializer, {})
    if key in registered:
        return registered[key](*args, **kwargs)
    own = {
        "zero": lambda: torch.nn.init.zeros_, "zeros": lambda: torch.nn.init.zeros_,
        "one": lambda: torch.nn.init.ones_, "ones": lambda: torch.nn.init.ones_,
        "constant": _mx_constant, "xavier": _mx_xavier, "orthogonal": _mx_orthogonal, "bilinear": _mx_bilinear,
        "lstmbias": _mx_lstm_bias,
        "uniform": lambda scale=0.07: (lambda t: torch.nn.init.uniform_(t, -scale, scale)),
        "normal": lambda sigma=0.01: (lambda t: torch.nn.init.normal_(t, 0.0, sigma)),
        # MXNet's MSRAPrelu is Xavier('gaussian', factor_type, 2 / (1 + slope ** 2))
        "msraprelu": lambda factor_type="avg", slope=0.25: _mx_xavier("gaussian", factor_type, 2.0 / (1 + slope ** 2)),
    }
    if key not in own:  # Mixed, Load, FusedRNN select by Gluon parameter names (MX520)
        raise NotImplementedError(f"mx.init.create({name!r}): initializer {key!r} has no translation "
                                  "(registered ones and MXNet's own built-ins do)")
    return own[key](*args, **kwargs)


def _mx_init_register(klass, name=None):
    """`@mx.init.register`: a custom initializer registered under its lower-cased class name, so that
    a parameter given that name as a string (`weight_initializer='truncnorm'`) draws with it
    (`_mx_initializer`), as `mx.init.create(name)` finds it in MXNet (Note [one registry])."""
    return _mx_registry_get_register_func(_mx_Initializer, "initializer")(klass, name)


def _mx_init_alias(*aliases):
    """`@mx.init.alias('a', 'b')`: the class registered under each name given."""
    return _mx_registry_get_alias_func(_mx_Initializer, "initializer")(*aliases)


def _mx_init_weight(init, name, arr):
    """`init._init_weight(name, arr)`: a custom initializer's own method (Note [custom
    initializers]); a translated MXNet initializer is a function of the tensor, called with it (a
    function kept as a class attribute (a translated `xavier = Xavier()` in a class body) comes back
    bound to the instance: its function is called)."""
    method = getattr(init, "_init_weight", None)
    if method is not None:
        return method(name, arr)
    with torch.no_grad():
        getattr(init, "__func__", init)(arr)
    return None


def _mx_param_initialize(param, init=None, ctx=None, default_init=None, force_reinit=False):
    """Gluon's `param.initialize(init, ctx, default_init, force_reinit)` on one Parameter (a
    layer's `net[0].weight`, or one made on its own): kept as it is once initialised unless
    force_reinit (Gluon warns and ignores the call); else drawn with `init`, else its own
    initializer, else `default_init` (Uniform(0.07)), then moved to `ctx` in place (the first
    device of a list). A parameter without its shape yet is drawn when it gets one."""
    if getattr(param, "_mx_ready", False) and not force_reinit:
        return param
    chosen = _mx_initializer(init)
    if chosen is None:
        chosen = getattr(param, "_mx_init", None) or _mx_initializer(default_init) or _mx_default_init
    if torch.nn.parameter.is_lazy(param):
        param._mx_global_init = chosen  # Note [deferred parameters]
    else:
        with torch.no_grad():
            chosen(param)
        param._mx_ready = True
    if ctx is not None:
        device = ctx[0] if isinstance(ctx, (list, tuple)) else ctx
        with torch.no_grad():
            param.data = param.data.to(device)
    return param


def _mx_param_attr(module, name, value):
    """Gluon's `collect_params().setattr(name, value)` for what torch parameters cannot carry
    (lr_mult, wd_mult): recorded on every parameter as `_mx_<name>`, for an optimizer built
    with parameter groups to read."""
    for param in module.parameters():
        setattr(param, f"_mx_{name}", value)


def _mx_param_zero_grad(param):
    """Gluon's `param.zero_grad()` on one parameter: its gradient set to zeros in place (a
    gradient not made yet stays unmade, as `_mx_collect_params(net).zero_grad()` leaves it)."""
    if param.grad is not None:
        param.grad.zero_()


def _mx_param_reset_ctx(param, ctx):
    """Gluon's `param.reset_ctx(ctx)` on one parameter: its data (and gradient) moved to the
    device in place, so the module holding it sees it there (a lazy parameter not yet sized
    too). A list of contexts is data parallelism, which this does not do."""
    if isinstance(ctx, (list, tuple)):
        raise NotImplementedError("reset_ctx to a list of contexts is data parallelism: use "
                                  "DistributedDataParallel, one device per process")
    with torch.no_grad():
        param.data = param.data.to(ctx)
        if param.grad is not None:
            param.grad = param.grad.to(ctx)


def _mx_list_ctx(value):
    """Gluon's `list_ctx()`: the devices a Parameter (a tensor: one device), a ParameterDict
    (a dict of tensors) or a block's parameters live on, in first-seen order."""
    if isinstance(value, torch.Tensor):
        return [value.device]
    tensors = value.values() if isinstance(value, dict) else value.parameters()
    devices = []
    for tensor in tensors:
        if tensor.device not in devices:
            devices.append(tensor.device)
    return devices
