"""MXNet's autograd calls that take several heads or return gradients, in torch.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only. Compared with MXNet in tests/test_numeric_training.py.

MXNet's backward of a non-scalar head is the backward of its sum (a head gradient of ones);
torch raises for a non-scalar tensor without `gradient=`. MXNet's `autograd.grad` always
returns a list (even for one variable: its code re-binds `variables` before testing it).

Note [MXNet's mode]
MXNet keeps two process-wide flags: recording (autograd.record() / pause()) and training
(record(train_mode=...), train_mode(), predict_mode(), pause(train_mode=...)); BatchNorm and
Dropout read the training flag when they run, so a model called outside record() predicts,
whatever it did before. A torch module reads its own `.training`. The translation keeps
MXNet's rule at run time: the flags live in one object per process (`_mx_autograd_state`,
shared by every converted tree and the checker in that process), and every model that a
converted program initialises or loads (`_mx_initialize`, `_mx_load_parameters`) is registered
there and switched whenever the training flag changes, so it predicts or trains as MXNet's
flag says however it was built, hybridized or passed around. Nothing runs per forward: the
switch happens at the flag's changes (a `.train(flag)` on each registered model, skipped when
it is there already). A model that converted code never initialises or loads (one built by
hand-written torch code) keeps its own mode, as torch users expect. The gradient mode follows
the recording flag inside the scopes (record: torch.enable_grad, pause: torch.no_grad) and is
restored on exit; outside any scope torch records as it always does, which changes no value.

Note [hooks under torch.compile]
A helper that acts in backward (BatchNorm's running statistics, Note [statistics in backward]
in norms.py) wraps its output in `_mx_OnBackward.apply(y, hook)` rather than calling
`y.register_hook(hook)`: the same gradient passes through the same hook, but dynamo traces an
autograd.Function the same way on every supported torch, and a hook on an intermediate tensor
it does not. torch 2.4 breaks the graph at each such hook ("Compilation of intermediate hooks
requires compiled autograd": 119 graph breaks in GluonCV's resnet50_v1b converted), and torch 2.11
rewrites it into an autograd.Function of its own whose inputs it moves after the hooked tensor,
which comes out of the same batch_norm call: "Argument 'h_52' of Node 'y_52' was used before it
has been defined" from inductor, an UnboundLocalError from the eager backend. Eagerly it returns
y itself (mark_dirty: no copy, and in-place ops on y stay allowed, which a view forbids); under
compile a clone, since dynamo on torch 2.4 and 2.11 traces mark_dirty's output as a view.
"""
import torch


class _mx_OnBackward(torch.autograd.Function):
    """`_mx_OnBackward.apply(y, hook)`: y itself, whose gradient now passes through `hook(grad)`
    in backward, as after `y.register_hook(hook)` (Note [hooks under torch.compile])."""

    @staticmethod
    def forward(ctx, y, hook):
        ctx.hook = hook
        if torch.compiler.is_compiling():  # a copy that inductor fuses into y's kernel
            return y.clone()
        ctx.mark_dirty(y)  # y itself, no copy, and in-place ops on it stay allowed
        return y

    @staticmethod
    def backward(ctx, grad):
        return ctx.hook(grad), None


def _mx_autograd_state():
    """MXNet's process-wide autograd flags and the models that follow them (Note [MXNet's
    mode]): one object for the process, kept in sys.modules, so that helpers pasted into
    several converted trees share it."""
    import sys

    state = sys.modules.get("_mx_autograd_state")
    if state is None:
        import types
        import weakref

        state = types.ModuleType("_mx_autograd_state", "MXNet's autograd flags (xlate runtime)")
        state.recording, state.training, state.models = False, False, weakref.WeakSet()
        state.device = 0  # the context a call on a slice stands for (Note [a BatchNorm per device])
        state = sys.modules.setdefault("_mx_autograd_state", state)
    return state


def _mx_follow_mode(net):
    """Register a model: from now on it trains or predicts as MXNet's training flag says (it
    predicts outside record()); returns it."""
    state = _mx_autograd_state()
    state.models.add(net)
    if net.training != state.training:
        net.train(state.training)
    return net


def _mx_set_training(train_mode):
    """`autograd.set_training(flag)`: sets MXNet's training flag, switching every registered
    model; returns the previous flag."""
    state = _mx_autograd_state()
    previous, flag = state.training, bool(train_mode)
    state.training = flag
    for net in list(state.models):
        if net.training != flag:
            net.train(flag)
    return previous


def _mx_set_recording(is_recording):
    """`autograd.set_recording(flag)`: MXNet's recording flag; returns the previous flag.
    Turning it on turns torch's gradient mode on; turning it off leaves torch's mode alone
    (torch recording where MXNet does not changes no value, and a program-wide no_grad would
    outlive MXNet's scope)."""
    state = _mx_autograd_state()
    previous = state.recording
    state.recording = bool(is_recording)
    if state.recording:
        torch.set_grad_enabled(True)
    return previous


def _mx_is_training():
    """`autograd.is_training()`: MXNet's training flag (False outside record())."""
    return _mx_autograd_state().training


def _mx_is_recording():
    """`autograd.is_recording()`: MXNet's recording flag (False outside record())."""
    return _mx_autograd_state().recording


class _mx_autograd_scope:
    """The scope of `autograd.record()` and friends: sets the flags it names (None keeps the
    enclosing value) and restores them, and torch's gradient mode, on exit."""

    def __init__(self, recording, training):
        self._flags = (recording, training)
        self._saved = []

    def __enter__(self):
        state = _mx_autograd_state()
        self._saved.append((state.recording, state.training, torch.is_grad_enabled()))
        recording, training = self._flags
        if recording is not None:
            state.recording = bool(recording)
            torch.set_grad_enabled(state.recording)
        if training is not None:
            _mx_set_training(training)
        return self

    def __exit__(self, *exc):
        recording, training, grad = self._saved.pop()
        _mx_autograd_state().recording = recording
        torch.set_grad_enabled(grad)
        _mx_set_training(training)
        return False


def _mx_record(train_mode=True):
    """`autograd.record(train_mode=True)`: records (torch.enable_grad) with MXNet's training
    flag set, so registered models train inside and return to the enclosing mode after."""
    return _mx_autograd_scope(True, train_mode)


def _mx_pause(train_mode=False):
    """`autograd.pause(train_mode=False)`: stops recording (torch.no_grad); models predict
    unless train_mode=True."""
    return _mx_autograd_scope(False, train_mode)


def _mx_train_mode():
    """`autograd.train_mode()`: MXNet's training flag on, recording as it is."""
    return _mx_autograd_scope(None, True)


def _mx_predict_mode():
    """`autograd.predict_mode()`: MXNet's training flag off, recording as it is."""
    return _mx_autograd_scope(None, False)


def _mx_head_grads(heads, head_grads):
    """Heads as a list, with ones where MXNet would use them."""
    heads = [heads] if isinstance(heads, torch.Tensor) else list(heads)
    if head_grads is None:
        head_grads = [None] * len(heads)
    elif isinstance(head_grads, torch.Tensor):
        head_grads = [head_grads]
    grads = [torch.ones_like(h) if g is None else g for h, g in zip(heads, head_grads)]
    return heads, grads


def _mx_backward(heads, head_grads=None, retain_graph=False, train_mode=True):
    """`mx.autograd.backward(heads, head_grads)`: gradients of the heads (ones where no head
    gradient is given) into every leaf that requires them."""
    heads, grads = _mx_head_grads(heads, head_grads)
    torch.autograd.backward(heads, grads, retain_graph=retain_graph)


def _mx_grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False, train_mode=True):
    """`mx.autograd.grad`: the gradients of the heads with respect to `variables`, as a list;
    retain_graph defaults to create_graph, as in MXNet."""
    heads, grads = _mx_head_grads(heads, head_grads)
    variables = [variables] if isinstance(variables, torch.Tensor) else list(variables)
    if not variables:
        raise AssertionError("variables cannot be an empty list.")
    retain = create_graph if retain_graph is None else retain_graph
    return list(torch.autograd.grad(heads, variables, grads, retain_graph=retain, create_graph=create_graph))


def _mx_attach_grad(array, grad_req="write", stype=None):
    """`x.attach_grad(grad_req)`: x becomes a leaf that collects gradients, and its gradient is
    zeros at once, as MXNet allocates it (torch's is None until a backward reaches x; a backward
    adds to zeros what it would have stored); with 'add' the Trainer's zero_grad leaves its
    gradient alone, as Gluon accumulates it. Returns None, as MXNet's does (a notebook cell ending
    in `x.attach_grad()` displays nothing)."""
    if grad_req == "null":
        array.requires_grad_(False)
        return None
    array.requires_grad_()
    array.grad = torch.zeros_like(array)
    array._mx_grad_req = grad_req
    return None


def _mx_array_backward(array, out_grad=None, retain_graph=False, train_mode=True):
    """`y.backward(out_grad)` where no Trainer step follows to zero the gradients first: MXNet's
    default grad_req='write' overwrites the gradient of every array this backward reaches,
    torch adds to it, so those gradients are zeroed first (in place, as MXNet writes into the
    same array); one attached with grad_req='add' keeps adding (`_mx_attach_grad`). The head
    gradient defaults to ones (the backward of the sum)."""
    leaves, seen, stack = [], set(), [array.grad_fn]
    if array.grad_fn is None and array.requires_grad:
        leaves.append(array)
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        if hasattr(fn, "variable"):  # an AccumulateGrad node: its leaf receives a gradient
            leaves.append(fn.variable)
        stack.extend(f for f, _ in fn.next_functions)
    for leaf in leaves:
        if leaf.grad is not None and getattr(leaf, "_mx_grad_req", "write") != "add":
            leaf.grad.zero_()
    array.backward(torch.ones_like(array) if out_grad is None else out_grad, retain_graph=retain_graph)


def _mx_detach_spent(x):
    """`x.detach()` as a statement (its result thrown away, a no-op in MXNet): MXNet's backward
    frees the graph behind the arrays it went through, and a later backward stops at them as at
    constants, where torch raises. So x is detached in place where a backward has freed its graph
    (the first tensor its graph saved can no longer be read), and left as it is while the graph
    is alive (MXNet's gradient still flows through it then). Anything else: its own detach()."""
    if not isinstance(x, torch.Tensor):
        return x.detach()
    todo, seen = [x.grad_fn], set()
    while todo and len(seen) < 10000:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        for name in dir(node):
            if not name.startswith("_saved_"):
                continue
            try:
                value = getattr(node, name)
            except RuntimeError:  # freed by a backward
                x.detach_()
                return None
            if isinstance(value, torch.Tensor) or (isinstance(value, (tuple, list)) and value
                                                  and isinstance(value[0], torch.Tensor)):
                return None  # a tensor it saved is still there: the graph is alive
        todo.extend(fn for fn, _ in node.next_functions)
    return None


def _mx_with_grad(param):
    """`p.data()` in a function that reads gradients (d2l's grad_clipping): the Parameter itself
    (torch keeps the gradient there; `p.data.grad` is always None), holding a gradient of zeros
    where no backward has reached it yet, as MXNet's data array holds from initialisation on
    (torch's is None until then: `p.grad ** 2` raised). A parameter that takes no gradient
    (grad_req='null') has none, in MXNet too."""
    if param.grad is None and param.requires_grad and not torch.nn.parameter.is_lazy(param):
        param.grad = torch.zeros_like(param)
    return param


def _mx_amp_initialized():
    """`amp._amp_initialized`, whether MXNet's automatic mixed precision casts operators to float16:
    code that picks a smaller fill for masked scores (-1e4, not -1e18) asks it. Translated code
    casts under torch.autocast, on either device; nothing else in it is MXNet's AMP."""
    return torch.is_autocast_enabled("cpu") or torch.is_autocast_enabled("cuda")
