"""Running each framework: drawing (or keeping) weights, forward and backward passes.
Model files are loaded by loading.py."""
from __future__ import annotations

import numpy as np

from xlate.check.inputs import asymmetric_like
from xlate.check.loading import LoadError, load  # noqa: F401  (where callers have found them)
from xlate.check.mapping import is_constant


def flatten(value) -> list:
    """A model's outputs as a list of arrays: tuples and lists in order, a dict (sockeye's
    `{'logits': ..., 'length_ratio': ...}`) by its keys' order, which is the model code's on both sides."""
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in flatten(item)]
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in flatten(item)]
    return [value]


# -- the MXNet side ------------------------------------------------------------------------
def mx_prepare(net, arrays, rng):
    """Give every MXNet parameter random asymmetric values (Constants keep theirs); returns
    {id(Parameter): value} so the transfer need not read them back."""
    import mxnet as mx

    params = net.collect_params()
    by_name: dict = {}
    initializer = _asymmetric_initializer(mx, rng, by_name)
    # draw while initialising (one pass instead of initialising and overwriting); parameters the
    # model's own code initialised (GluonCV's segmentation models call self.head.initialize())
    # are left to the loop below, which redraws them
    for p in params.values():
        if p._data is None and not p._deferred_init:
            p.initialize(None, None, initializer)  # what net.initialize(initializer) does for each
    if any(p._data is None or 0 in p.shape for p in params.values()):  # deferred shapes need one pass
        net(*[mx_array(mx)(a, dtype=a.dtype) for a in arrays])
    drawn = {}
    for name, p in params.items():
        if is_constant(p):  # keeps its real value, to be compared with the translation's
            continue
        value = by_name.get(name)
        if value is None:  # initialised before we came (by the model's own code)
            value = asymmetric_like(p.shape, name, rng)
            p.set_data(mx_array(mx)(value, dtype=p.dtype))
        drawn[id(p)] = value.astype(p.dtype, copy=False)
    return drawn


def mx_kept(net, arrays) -> None:
    """keep_weights: every MXNet parameter must already hold a value (loaded, or initialised by
    the model's own code); a deferred shape is completed by one forward pass, as Gluon does."""
    import mxnet as mx

    params = net.collect_params()
    if any(p._data is None for p in params.values()):
        try:
            net(*[mx_array(mx)(a, dtype=a.dtype) for a in arrays])
        except Exception:  # an uninitialised parameter: listed below
            pass
    missing = [f"{name} {p.shape}" for name, p in params.items() if p._data is None]
    if missing:
        raise LoadError(f"keep_weights: MXNet parameters without values to keep: {', '.join(missing)}; "
                        f"load them (load_parameters) or initialise the model before the check")


def _asymmetric_initializer(mx, rng, by_name: dict):
    class Asymmetric(mx.init.Initializer):
        def __call__(self, desc, arr):
            own = getattr(desc, "attrs", {}).get("__init__", "")
            chosen = mx.init.create(own) if own else self  # MXNet passes the one it picked
            if chosen is not self:  # a parameter's own initializer (a Constant's table) wins
                chosen._init_weight(desc, arr)
                return
            value = asymmetric_like(arr.shape, str(desc), rng)
            arr[:] = value
            by_name[str(desc)] = value

    return Asymmetric()


def mx_array(mx):
    """The array constructor Gluon blocks take now: mx.np.array once a model's file has turned
    numpy mode on (`npx.set_np()`, the numpy dialect), else mx.nd.array."""
    return mx.np.array if mx.util.is_np_array() else mx.nd.array


def mx_run(net, arrays, train: bool, heads=None):
    import mxnet as mx

    xs = [mx_array(mx)(a, dtype=a.dtype) for a in arrays]
    if not train:
        return [o.asnumpy() for o in flatten(net(*xs))], None
    for x in xs:
        if np.issubdtype(x.dtype, np.floating):
            x.attach_grad()
    with mx.autograd.record():
        outs = flatten(net(*xs))
    if callable(heads):  # drawn for the training outputs themselves (Note [heads of the training outputs])
        heads = heads(outs)
    # each cotangent in its output's dtype: a float64 model's backward refuses float32 heads
    head_arrays = [mx_array(mx)(h, dtype=o.dtype) for h, o in zip(heads, outs)]
    try:
        mx.autograd.backward(outs, head_arrays)
    except mx.base.MXNetError as e:
        if "Cannot differentiate node" not in str(e):
            raise
        # an output off the graph (a constant length handed back, as torch's pt_run skips one
        # that needs no gradient): the backward runs from the others. MXNet updates BatchNorm's
        # running statistics in the backward, so each probe did it once more (a Darknet beside
        # constant anchors, MXNet-Detector): they are put back before the one that counts
        aux = [p for p in net.collect_params().values() if p.grad_req == "null" and p._data is not None]
        saved = [p.data().copy() for p in aux]
        live = [(o, h) for o, h in zip(outs, head_arrays) if _recorded(mx, o, h)]
        for p, value in zip(aux, saved):
            p.set_data(value)
        if live:
            mx.autograd.backward([o for o, _ in live], [h for _, h in live])
    grads = [x.grad.asnumpy() if np.issubdtype(x.dtype, np.floating) else None for x in xs]
    return [o.asnumpy() for o in outs], grads


def _recorded(mx, array, head) -> bool:
    """Whether a backward can start from `array`: MXNet records no node for an operator none of
    whose inputs is on the graph (`F.identity(valid_length)` of a constant). Only on the path where
    the backward over every output failed; each input's gradient is written, not added, so the
    backward that follows over the live outputs leaves its own values."""
    try:
        mx.autograd.backward([array], [head], retain_graph=True)
    except mx.base.MXNetError:
        return False
    return True


# -- the PyTorch side ----------------------------------------------------------------------
def pt_run(model, arrays, device, train: bool, heads=None):
    import torch

    xs = [torch.as_tensor(a).to(device) for a in arrays]
    if not train:
        model.eval()
        with torch.no_grad():
            return [o.detach().cpu().numpy() for o in flatten(model(*xs))], None
    model.train()
    xs = [x.requires_grad_() if x.is_floating_point() else x for x in xs]
    outs = flatten(model(*xs))
    grads_out = [torch.as_tensor(h).to(device) for h in heads]
    # an output of another shape than MXNet's fails its own check; where only the layout of the
    # same values differs (MXNet's (1,) sum against torch's 0-d one) the backward still runs, so
    # the gradients are compared too, instead of the check stopping with torch's shape error
    if len(outs) != len(grads_out) or any(o.numel() != g.numel() for o, g in zip(outs, grads_out)):
        # other outputs than MXNet's: their checks fail; no backward can take MXNet's head gradients
        return [o.detach().cpu().numpy() for o in outs], [None] * len(xs)
    grads_out = [g.reshape(o.shape) if o.shape != g.shape else g for o, g in zip(outs, grads_out)]
    # an output off the graph (an index, a length handed through as an integer) takes no gradient;
    # an input the outputs do not reach gets none in torch, where MXNet writes zeros into its grad
    live = [(o, g) for o, g in zip(outs, grads_out) if o.requires_grad]
    if live:
        torch.autograd.backward([o for o, _ in live], [g for _, g in live])
    grads = [(torch.zeros_like(x) if x.grad is None else x.grad).detach().cpu().numpy()
             if x.is_floating_point() else None for x in xs]
    return [o.detach().cpu().numpy() for o in outs], grads


# Recurrent cells that drop at random (Gluon's and their translations, `_mx_ZoneoutCell`): the
# attributes holding their rates, on both sides. DropoutCell keeps Gluon's `_rate` (MXNet) and
# is a torch Dropout (PyTorch).
_CELL_RATES = {"ZoneoutCell": ("zoneout_outputs", "zoneout_states"),
               "VariationalDropoutCell": ("drop_inputs", "drop_states", "drop_outputs"),
               # gluonnlp's AWD language model: dropout between layers, on embedding rows, on h2h weights
               "AWDRNN": ("_drop_h", "_drop_e", "_weight_drop")}


def _own_dropout(module) -> bool:
    """A translated block that keeps its rate in `_dropout` as the Gluon block does (gluonnlp's
    cells, encoders and language models): MXNet's side reads `_dropout` from any block, so this
    side reads it from every module but torch's own dropout, recurrent and attention modules."""
    import torch

    return isinstance(getattr(module, "_dropout", None), (int, float)) and not isinstance(
        module, (torch.nn.modules.dropout._DropoutNd, torch.nn.RNNBase, torch.nn.MultiheadAttention))


def _cell_rates(obj) -> tuple[str, ...]:
    for cls in type(obj).__mro__:
        found = _CELL_RATES.get(cls.__name__.replace("_mx_", ""))
        if found:
            return found
    return ()


def dropout_rates(mx_net=None, pt_model=None) -> list[float]:
    """The non-zero dropout rates of one model, in registration order."""
    rates = []
    if pt_model is not None:
        import torch

        for m in pt_model.modules():
            if isinstance(m, torch.nn.modules.dropout._DropoutNd):
                rates.append(float(m.p))
            elif isinstance(m, (torch.nn.RNNBase, torch.nn.MultiheadAttention)):
                rates.append(float(m.dropout))
            rates.extend(float(getattr(m, a)) for a in _cell_rates(m))
            if _own_dropout(m):
                rates.append(float(m._dropout))

    def walk(block):
        rates.extend(float(getattr(block, a)) for a in _cell_rates(block))
        if type(block).__name__ in ("Dropout", "DropoutCell"):
            rates.append(float(block._rate))
        elif isinstance(getattr(block, "_dropout", None), (int, float)):
            rates.append(float(block._dropout))
        for child in getattr(block, "_children", {}).values():
            walk(child)

    if mx_net is not None:
        walk(mx_net)
    return [round(r, 6) for r in rates if r]


def no_dropout(mx_net, pt_model) -> None:
    """Dropout masks cannot match (different generators): rate 0 on both sides."""
    import torch

    for m in pt_model.modules():
        if isinstance(m, torch.nn.modules.dropout._DropoutNd):
            m.p = 0.0
        elif isinstance(m, (torch.nn.RNNBase, torch.nn.MultiheadAttention)):  # between layers, on weights
            m.dropout = 0.0
        for a in _cell_rates(m):
            setattr(m, a, 0.0)
        if _own_dropout(m):
            m._dropout = 0.0

    def walk(block):
        for a in _cell_rates(block):
            setattr(block, a, 0.0)
        if type(block).__name__ in ("Dropout", "DropoutCell"):
            block._rate = 0.0
        elif hasattr(block, "_dropout") and isinstance(block._dropout, (int, float)):
            block._dropout = 0.0  # gluon.rnn layers (MXNet's CPU kernel ignores it anyway)
        for param in getattr(block, "_reg_params", {}).values():
            if type(param).__name__ == "WeightDropParameter":  # gluonnlp's apply_weight_drop
                param._rate = 0.0
        for child in getattr(block, "_children", {}).values():
            walk(child)

    if mx_net is not None:
        walk(mx_net)


def lazy(model) -> bool:
    import torch

    # a lazy norm without affine parameters has only lazy buffers
    return any(isinstance(t, torch.nn.parameter.UninitializedTensorMixin)
               for t in (*model.parameters(), *model.buffers()))


def torch_tensor(value):
    import torch

    return torch.as_tensor(value)
