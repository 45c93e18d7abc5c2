"""Pair check: an MXNet model and its PyTorch translation, same weights, same inputs.

Runs, in order: inference forward (MXNet outside `autograd.record()`, PyTorch in `.eval()`),
then training forward and backward with one random head gradient (outputs, gradients with
respect to every input and every parameter). Dropout cannot be matched value for value (the
generators differ), so training runs with every Dropout rate set to 0 on both sides.

With a `NoiseFloor` (noise mode, Note [noise floor] in noise.py) a float64 copy of the PyTorch
model runs the same steps, and a quantity that differs is judged by how far each float32 side
is from that float64 result.

Note [heads of the training outputs]
The head gradients (one random cotangent per output, the same on both sides) are drawn for the
training forward's outputs, after MXNet's training forward has run, not for the inference
outputs: a detector returns its raw class and box predictions and its anchors when training and
the decoded, suppressed boxes otherwise (`if autograd.is_training(): return ...`; GluonOCR's CLRS,
SSD-like heads), other outputs in other shapes and number. Drawn for the inference outputs they
stopped the checker before any gradient was compared (MXNet's backward refuses heads of another
number, or fails on their sizes). Where the two forwards return the same shapes the draws are the
same as before, in the same order from the same generator: golden references stay valid.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

from xlate.check import families, golden, noise, precision  # noqa: F401  (families: registers every layer family)
from xlate.check.compare import Mismatch, Tolerance, measure, tolerance_for
from xlate.check.noise import Deviations, NoiseFloor
from xlate.check.inputs import InputSpec, draw
from xlate.check.loading import LoadError, load, load_step  # noqa: F401  (LoadError: re-exported)
from xlate.check.mapping import MappingError, Pair, is_constant, mx_to_pt_value, pair, transfer
from xlate.check.sides import (dropout_rates, flatten, lazy, mx_array, mx_kept, mx_prepare, mx_run, no_dropout,
                               pt_run, torch_tensor)


@dataclass
class Check:
    what: str
    mismatch: Optional[Mismatch]
    max_abs: Optional[float] = None  # the greatest |PyTorch - MXNet|, passing or not
    noise: Optional[Deviations] = None  # noise mode, where the strict comparison failed

    @property
    def ok(self) -> bool:
        return self.mismatch is None


def compared(what: str, expected, actual, tol: Tolerance, reference=None,
             floor: Optional[NoiseFloor] = None, pt_reference=None) -> Check:
    """A check of `actual` against `expected`, with its greatest absolute difference; in noise
    mode (`reference`: the float64 result, `floor`) values that differ are judged against it."""
    mismatch, max_abs = measure(what, expected, actual, tol)
    if mismatch is None or mismatch.reason != "values" or reference is None or floor is None:
        return Check(what, mismatch, max_abs)  # equal, or a shape, NaN or Inf: no noise excuses those
    judged, deviations = noise.judge(what, expected, actual, reference, tol, floor, pt_reference)
    return Check(what, judged, max_abs, deviations)


@dataclass
class Result:
    mx_ref: str
    pt_ref: str
    devices: dict
    checks: list[Check] = field(default_factory=list)
    divergence: Optional[str] = None
    unchecked: list[str] = field(default_factory=list)  # said in the report, never silent
    advice: list[str] = field(default_factory=list)  # about the model files and the weights compared
    noise: Optional[NoiseFloor] = None  # noise mode, when its float64 copy ran
    precision: dict = field(default_factory=dict)  # the settings pinned while checking (precision.py)
    kinks: list = field(default_factory=list)  # noise mode: every layer whose kinks were followed

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def _divergence(pairs: list[Pair], mx_net, pt_model, arrays, device, tol,
                floor: Optional[NoiseFloor] = None) -> Optional[str]:
    """The first paired layer whose outputs differ (forward hooks on both sides); in noise mode
    judged against a float64 copy's layer outputs."""
    import torch

    seen_mx, seen_pt, seen_ref, handles = {}, {}, {}, []

    def keep(store, i, value) -> None:  # a hook that returned a value would replace the output
        store.setdefault(i, value)

    for i, pr in enumerate(pairs):
        handles.append(pr.mx_block.register_forward_hook(
            lambda b, inp, out, i=i: keep(seen_mx, i, flatten(out)[0].asnumpy())))
        handles.append(pr.pt_module.register_forward_hook(
            lambda m, inp, out, i=i: keep(seen_pt, i, flatten(out)[0].detach().cpu().numpy())))
    replica = noise.float64_copy(pt_model) if floor is not None else None  # None: judged strictly
    if replica is not None:
        for i, pr in enumerate(noise.in_copy(pairs, pt_model, replica)):
            handles.append(pr.pt_module.register_forward_hook(
                lambda m, inp, out, i=i: keep(seen_ref, i, flatten(out)[0].detach().numpy())))
    try:
        mx_run(mx_net, arrays, train=False)
        with torch.no_grad():
            pt_run(pt_model, arrays, device, train=False)
        if replica is not None:
            try:
                with torch.no_grad(), noise.float64_default():
                    pt_run(replica, [noise.upcast(a) for a in arrays], "cpu", train=False)
            except Exception:  # judged strictly below, as without noise mode
                seen_ref.clear()
    finally:
        for h in handles:
            (h.detach if hasattr(h, "detach") else h.remove)()
    diverging = [(pr, c.mismatch) for i, pr in enumerate(pairs) if i in seen_mx and i in seen_pt
                 for c in [compared("output", seen_mx[i], seen_pt[i], tol, seen_ref.get(i), floor)] if not c.ok]
    # layers one side ran and the other never called (skipped, or packed into another call)
    unrun = [pr.pt_path for i, pr in enumerate(pairs) if i in seen_mx and i not in seen_pt]
    hint = f"; paired layers PyTorch never called: {', '.join(unrun)}" if unrun else ""
    # a block containing the diverging layer diverges too: name the innermost, first one
    for pr, m in diverging:
        if not any(other.mx_path.startswith(pr.mx_path + ".") for other, _ in diverging):
            return (f"{pr.mx_path} ({type(pr.mx_block).__name__}) <-> {pr.pt_path} "
                    f"({type(pr.pt_module).__name__}): {m.format()}{hint}")
    return f"no paired layer's own output differs{hint}" if hint else None


Observations = dict  # check name -> array, in the order the checks are made


def _mx_observe(mx_net, pairs: list[Pair], arrays, rng, specs,
                layers: bool = True) -> tuple[Observations, Observations, list, dict]:
    """What MXNet computes, keyed by the PyTorch names it must be compared with, the head
    gradients drawn for its outputs, and the Signs of its training forward at every paired layer
    (pair index -> noise.Signs: what finding its kinks needs, live or recorded; Note [kinks]),
    empty unless `layers`."""
    mx_out = mx_run(mx_net, arrays, train=False)[0]
    inference = {f"inference: output {i}": o for i, o in enumerate(mx_out)}
    heads: list = []

    def draw_heads(outs):  # Note [heads of the training outputs]
        heads[:] = [draw(InputSpec("head", np.dtype(o.dtype).name, o.shape), rng) for o in outs]
        return heads

    seen, handles = noise.capture(pairs if layers else [], "mx")
    try:
        outs, grads = mx_run(mx_net, arrays, train=True, heads=draw_heads)
    finally:
        noise.remove(handles)
    signs = {i: sign for i, value in seen.items() for sign in [noise.Signs.of(value)] if sign is not None}
    training = {f"training: output {i}": o for i, o in enumerate(outs)}
    training.update({f"training: gradient of {s.name}": g for s, g in zip(specs, grads) if g is not None})
    for pr in pairs:
        for m in pr.maps:
            param = pr.mx_block._reg_params.get(m.mx)
            if param is None or not hasattr(pr.pt_module, m.pt):
                continue
            name = _pt_name(pr, m)
            if param.grad_req == "null":  # running statistics: torch buffers
                training[f"training: {name} after the step"] = mx_to_pt_value(m, param.data().asnumpy(), pr)
            elif m.to_mx is not None:  # e.g. per-group gamma: torch's gradient folds back, not ours out
                training[f"training: gradient of {name}{MX_LAYOUT}"] = param.grad().asnumpy()
            else:
                training[f"training: gradient of {name}"] = mx_to_pt_value(m, param.grad().asnumpy(), pr)
    return inference, training, heads, signs


MX_LAYOUT = " (in MXNet's layout)"


def _pt_name(pr: Pair, m) -> str:
    return f"{pr.pt_path}.{m.pt}" if pr.pt_path != type(pr.pt_module).__name__ else m.pt


def _pt_observe(pt_model, arrays, heads, specs, device, pairs=()) -> tuple[Observations, Observations]:
    """What PyTorch computes: every output, input gradient, parameter gradient and buffer;
    with the pairing, also the gradients a family compares in MXNet's layout."""
    inference = {f"inference: output {i}": o
                 for i, o in enumerate(pt_run(pt_model, arrays, device, train=False)[0])}
    outs, grads = pt_run(pt_model, arrays, device, train=True, heads=heads)
    training = {f"training: output {i}": o for i, o in enumerate(outs)}
    training.update({f"training: gradient of {s.name}": g for s, g in zip(specs, grads) if g is not None})
    # a tensor two modules share (a decoder tied to its embedding) under each of its names: the
    # MXNet side names the shared Parameter after each block that holds it
    for name, p in pt_model.named_parameters(remove_duplicate=False):
        if p.grad is not None:
            training[f"training: gradient of {name}"] = _copy(p.grad)
        elif p.requires_grad and type(p).__name__ != "UninitializedParameter":
            # a parameter the forward did not use (a VGG's unused last block): torch leaves its
            # gradient None where MXNet writes zeros; zeros are what it is, and what is compared
            training[f"training: gradient of {name}"] = np.zeros(tuple(p.shape), dtype=_copy(p).dtype)
    for name, b in pt_model.named_buffers():
        training[f"training: {name} after the step"] = _copy(b)
    for name, p in pt_model.named_parameters():  # frozen: what MXNet keeps with grad_req='null'
        if not p.requires_grad:
            training[f"training: {name} after the step"] = _copy(p)
    for pr in pairs:
        for m in pr.maps:
            target = getattr(pr.pt_module, m.pt, None)
            if m.to_mx is not None and target is not None and target.grad is not None:
                grad = _copy(target.grad)
                training[f"training: gradient of {_pt_name(pr, m)}{MX_LAYOUT}"] = m.to_mx(grad, pr.mx_block, pr.pt_module)
    return inference, training


def _copy(tensor) -> np.ndarray:
    """A tensor's values as they are now: .numpy() of a CPU tensor is a view of its storage,
    which the model's next forward (running statistics) or load_state_dict would change."""
    return tensor.detach().cpu().numpy().copy()


def _judge(result: Result, phase: str, expected: Observations, actual: Observations, tol,
           reference: Optional[Observations] = None, pt_reference: Optional[Observations] = None) -> None:
    n_mx = sum(k.startswith(f"{phase}: output ") for k in expected)
    n_pt = sum(k.startswith(f"{phase}: output ") for k in actual)
    if n_mx != n_pt:
        result.checks.append(Check(f"{phase}: outputs", Mismatch(
            f"{phase}: outputs", f"PyTorch returns {n_pt} arrays where MXNet returns {n_mx}")))
    for key, value in expected.items():
        if key.startswith(f"{phase}: output ") and n_mx == 1:
            label = f"{phase}: output"
        else:
            label = key
        if key not in actual:
            if key.endswith(MX_LAYOUT):
                if key not in result.unchecked:  # needs the MXNet block to fold back (--against)
                    result.unchecked.append(key)
            elif not key.startswith(f"{phase}: output "):
                result.checks.append(Check(label, Mismatch(label, "PyTorch computes no such value")))
            continue
        result.checks.append(compared(label, value, actual[key], tol(value.dtype), (reference or {}).get(key),
                                      result.noise, (pt_reference or {}).get(key)))


def _reference(replica, arrays, heads, specs, pairs, result: Result, pt_model) -> Optional[tuple]:
    """Noise mode: what `replica`, a float64 copy of `pt_model` made before either ran, computes
    with the same inputs and head gradients, upcast (inference, then training: as `pt_model`);
    None, with the reason in the advice and every comparison strict, when it cannot run."""
    try:
        return _run_float64(replica, arrays, heads, specs, pairs, pt_model)
    except Exception as e:
        result.advice.append(f"noise mode: the float64 copy of the PyTorch model did not run ({type(e).__name__}: "
                             f"{str(e).splitlines()[0] if str(e) else ''}); every quantity was compared strictly")
        result.noise = None
        return None


def _run_float64(replica, arrays, heads, specs, pairs, pt_model) -> tuple[Observations, Observations]:
    with noise.float64_default():
        return _pt_observe(replica, [noise.upcast(a) for a in arrays], [noise.upcast(h) for h in heads],
                           specs, "cpu", noise.in_copy(pairs, pt_model, replica))


def _prepare(mx_net, pt_model, inputs, seed, device, keep_weights: bool = False):
    import torch

    rng = np.random.default_rng(seed)
    arrays = [draw(s, rng) for s in inputs]
    try:
        if keep_weights:  # both sides as they are: paired, nothing drawn or copied
            mx_kept(mx_net, arrays)
            pt_model.to(device)
            if lazy(pt_model):
                raise LoadError("keep_weights: the PyTorch model has lazy tensors without values to keep; "
                                "load its weights (load_state_dict) before the check")
            with torch.no_grad():  # a model that cannot run says so here, as a load error
                pt_run(pt_model, arrays, device, train=False)
            return rng, arrays, pair(mx_net, pt_model)
        drawn = mx_prepare(mx_net, arrays, rng)
        pt_model.to(device)
        if lazy(pt_model):  # materialise lazy modules before copying into them
            with torch.no_grad():
                pt_run(pt_model, arrays, device, train=False)
        pairs = transfer(mx_net, pt_model, drawn)
    except (MappingError, LoadError):
        raise
    except Exception as e:
        raise LoadError(f"running the models failed: {type(e).__name__}: {e}") from e
    return rng, arrays, pairs


@dataclass(frozen=True)
class Steps:
    """k optimizer steps: `make_step(model, **args)` on each side (the model passed
    positionally) returns `step(*inputs, *labels) -> loss`."""
    mx_ref: str
    pt_ref: str
    count: int = 3
    mx_args: dict = field(default_factory=dict)
    pt_args: dict = field(default_factory=dict)
    labels: tuple = ()  # InputSpecs passed to the step after the model's inputs


def check_pair(mx_ref: str, pt_ref: str, inputs: list[InputSpec], *, mx_kwargs=None, pt_kwargs=None,
               **options) -> Result:
    """Load both models from their files (classes, factories or instances: loading.py) and
    compare them (see check_models); advice about the files goes into the result."""
    advice: list[str] = []
    mx_net = load(mx_ref, mx_kwargs or {}, framework="mxnet", advice=advice)
    pt_model = load(pt_ref, pt_kwargs or {}, framework="pytorch", advice=advice)
    result = check_models(mx_net, pt_model, inputs, mx_ref=mx_ref, pt_ref=pt_ref, pt_args=pt_kwargs,
                          mx_args=mx_kwargs, **options)
    result.advice[:0] = [a for a in advice if a not in result.advice]
    return result


@precision.pinning
def check_models(mx_net, pt_model, inputs: list[InputSpec], *, mx_ref: str = "MXNet", pt_ref: str = "PyTorch",
                 seed: int = 0, device: str = "cpu", tolerance: Optional[Tolerance] = None,
                 record: Optional[Path] = None, steps: Optional[Steps] = None, pt_args=None,
                 mx_args=None, keep_weights: bool = False, noise_floor: Optional[NoiseFloor] = None) -> Result:
    """Run both models and compare, in full float32 (Note [pinned precision]); with `record`,
    also store the golden reference there;
    with `steps`, then train both for k steps and compare after each; with `noise_floor`,
    judge what differs against a float64 copy of the PyTorch model (Note [noise floor]).

    The MXNet weights are overwritten with random asymmetric values and copied into the
    PyTorch model; with `keep_weights`, both models keep the weights they hold (loaded from
    files, say), every mapped tensor is compared first, and the rest runs on them."""
    rng, arrays, pairs = _prepare(mx_net, pt_model, inputs, seed, device, keep_weights)
    state = {k: _copy(v) for k, v in pt_model.state_dict().items()}  # not views: the model runs on
    mx_saved = {name: p.data().copy() for name, p in mx_net.collect_params().items()}
    cpu_copy = copy.deepcopy(pt_model).to("cpu") if device != "cpu" else None
    fixed = _constants_and_rates(pairs, mx_net, pt_model, tolerance)
    advice = []
    if keep_weights:
        kept, advice = _kept_weights(pairs, tolerance)
        fixed += kept
    no_dropout(mx_net, pt_model)
    result = Result(mx_ref, pt_ref, {"mxnet": "cpu", "pytorch": device}, checks=fixed, advice=advice,
                    noise=noise_floor)
    replica = noise.float64_copy(pt_model, result.advice) if noise_floor is not None else None  # before it runs
    result.noise = noise_floor if replica is not None else None
    *expected, heads, mx_signs = _mx_observe(mx_net, pairs, arrays, rng, inputs,
                                             layers=record is not None or result.noise is not None)
    if record is not None:
        golden.save(record, mx_ref, pt_ref, inputs, seed, arrays, heads, state, expected, pt_args, mx_args,
                    layers={pairs[i].pt_path: sign for i, sign in mx_signs.items()})
    actual = _pt_observe(pt_model, arrays, heads, inputs, device, pairs)
    reference = _reference(replica, arrays, heads, inputs, pairs, result, pt_model) if replica is not None else None
    result = _compare_all(result, expected, actual, tolerance, reference)
    if cpu_copy is not None:
        _device_against_cpu(result, cpu_copy, arrays, heads, inputs, actual, tolerance, reference)
    inference_ok = all(c.ok for c in result.checks if c.what.startswith("inference"))
    if not result.ok and result.noise is not None and inference_ok:
        _follow_kinks(result, expected, actual, (pairs, mx_signs, pairs), pt_model, state, (arrays, heads, inputs),
                      tolerance, reference)
    if not result.ok:  # both sides as they started (running statistics), as the inference comparison ran
        for name, p in mx_net.collect_params().items():
            p.set_data(mx_saved[name])
        pt_model.load_state_dict({k: torch_tensor(v) for k, v in state.items()})
        result.divergence = _divergence(pairs, mx_net, pt_model, arrays, device, tolerance_for("float32", tolerance),
                                        result.noise)
    elif steps is not None and steps.count > 0:
        for name, p in mx_net.collect_params().items():  # both sides start again from the copy
            p.set_data(mx_saved[name])
        pt_model.load_state_dict({k: torch_tensor(v) for k, v in state.items()})
        pt_model.zero_grad(set_to_none=True)  # no gradient left over from the comparison above
        _train(result, steps, mx_net, pt_model, pairs, inputs, rng, device, tolerance)
    return result


def _follow_kinks(result: Result, expected, actual, layers, pt_model, state, run, tolerance,
                  reference) -> None:
    """Noise mode, training differing beyond the noise: where a float32 side's forward crossed a
    kink (Note [kinks]), run the float64 reference again taking that side's branch there, and
    judge the training quantities with MXNet's deviation measured against MXNet's and PyTorch
    float32's against PyTorch's; the report says how many values moved, the JSON report where.
    `layers`: the pairs hooked, MXNet's Signs at each (pair index -> noise.Signs; live or
    recorded), and the pairs whose gradients are folded into MXNet's layout (none in a replay)."""
    pairs, mx_signs, layout_pairs = layers
    arrays, heads, inputs = run
    pt_model.load_state_dict({k: torch_tensor(v) for k, v in state.items()})
    found = noise.find_kinks(pairs, mx_signs, pt_model, arrays)
    pt_model.load_state_dict({k: torch_tensor(v) for k, v in state.items()})
    if not found:
        return
    followed = {}
    for kinks in found:
        replica = noise.float64_copy(pt_model)
        if replica is None:
            return
        handles = noise.follow(noise.in_copy(pairs, pt_model, replica), kinks)
        try:
            followed[kinks.side] = _run_float64(replica, arrays, heads, inputs, layout_pairs, pt_model)[1]
        except Exception:  # judged as before, against the plain float64 result
            result.advice.append(f"noise mode: float32 rounding crossed a kink at {kinks.describe()}'s training "
                                 f"forward; the float64 reference could not be run again taking that branch")
            return
        finally:
            for h in handles:
                h.remove()
    result.checks = [c for c in result.checks if not c.what.startswith("training")]
    _judge(result, "training", expected[1], actual[1], lambda dtype: tolerance_for(dtype, tolerance),
           followed.get("MXNet", reference[1]), followed.get("PyTorch float32", reference[1]))
    result.advice.append(noise.kinks_followed(found, result.ok))
    result.kinks = [{"side": k.side, **layer} for k in found for layer in k.layers]


def _constants_and_rates(pairs: list[Pair], mx_net, pt_model, tolerance) -> list[Check]:
    """Before running: fixed tables (gluon Constants) must equal the translation's own, and
    the non-zero dropout rates must agree (training then runs with dropout off on both sides,
    which would hide a wrong rate)."""
    checks = []
    for pr in pairs:
        for m in pr.maps:
            param, target = pr.mx_block._reg_params.get(m.mx), getattr(pr.pt_module, m.pt, None)
            if param is not None and target is not None and is_constant(param):
                what = f"constant {_pt_name(pr, m)}"
                value = mx_to_pt_value(m, param.data().asnumpy(), pr)
                checks.append(compared(what, value, target.detach().cpu().numpy(),
                                   tolerance_for(value.dtype, tolerance)))
    mx_rates, pt_rates = dropout_rates(mx_net=mx_net), dropout_rates(pt_model=pt_model)
    if mx_rates != pt_rates:
        checks.append(Check("dropout rates", Mismatch(
            "dropout rates", f"non-zero rates in order: MXNet {mx_rates}, PyTorch {pt_rates}")))
    return checks


def _kept_weights(pairs: list[Pair], tolerance) -> tuple[list[Check], list[str]]:
    """keep_weights: every mapped tensor of the PyTorch model must equal MXNet's through the
    mapping; and a kept tensor that holds one value throughout (a bias never trained, gamma
    all ones) hides a translation that ignores or permutes it, which random weights would not."""
    checks, uniform = [], []
    for pr in pairs:
        for m in pr.maps:
            param, target = pr.mx_block._reg_params.get(m.mx), getattr(pr.pt_module, m.pt, None)
            if param is None or target is None or is_constant(param):
                continue
            name = _pt_name(pr, m)
            value = mx_to_pt_value(m, param.data().asnumpy(), pr)
            checks.append(compared(f"kept weights: {name}", value, target.detach().cpu().numpy(),
                                   tolerance_for(value.dtype, tolerance)))
            if value.size > 1 and np.all(value == value.flat[0]):
                uniform.append(name)
    advice = []
    if uniform:
        advice.append(f"advice: kept tensors that hold one value throughout: {', '.join(uniform)}; a translation "
                      f"that ignored or permuted them would pass on these weights (`xlate check` without "
                      f"--keep-weights compares on random ones)")
    return checks, advice


def _device_against_cpu(result: Result, cpu_model, arrays, heads, inputs, actual, tolerance, reference) -> None:
    """On a GPU run, the same PyTorch model and state on the CPU must agree with the GPU (in
    noise mode: the GPU no further from the float64 result than K times the CPU)."""
    no_dropout(None, cpu_model)
    cpu = _pt_observe(cpu_model, arrays, heads, inputs, "cpu")
    tol = lambda dtype: tolerance_for(dtype, tolerance)  # noqa: E731
    for i, (phase_cpu, phase_dev) in enumerate(zip(cpu, actual)):
        for key, value in phase_cpu.items():
            if key in phase_dev:
                what = f"{result.devices['pytorch']} vs cpu: {key}"
                ref = reference[i].get(key) if reference is not None else None
                result.checks.append(compared(what, value, phase_dev[key], tol(value.dtype), ref, result.noise))


def _train(result: Result, steps: Steps, mx_net, pt_model, pairs, inputs, rng, device, tolerance) -> None:
    """k steps on the same fresh batches; after each: the loss, every mapped parameter and
    running statistic. Stops at the first step that diverges. In noise mode a float64 copy
    of the PyTorch model takes the same steps (its own make_step) as the reference."""
    import mxnet as mx
    import torch

    mx_step = load_step(steps.mx_ref, mx_net, steps.mx_args, advice=result.advice)
    pt_step = load_step(steps.pt_ref, pt_model, steps.pt_args, advice=result.advice)
    ref_step, ref_pairs = None, [None] * len(pairs)
    replica = noise.float64_copy(pt_model, result.advice) if result.noise is not None else None
    if replica is not None:
        ref_step = load_step(steps.pt_ref, replica, steps.pt_args, advice=[])
        ref_pairs = noise.in_copy(pairs, pt_model, replica)
    tol = lambda dtype: tolerance_for(dtype, tolerance)  # noqa: E731
    numpy = lambda v: v.detach().cpu().numpy() if hasattr(v, "detach") else np.asarray(v)  # noqa: E731
    for k in range(1, steps.count + 1):
        batch = [draw(s, rng) for s in list(inputs) + list(steps.labels)]
        mx_loss = mx_step(*[mx_array(mx)(a, dtype=a.dtype) for a in batch])
        pt_loss = numpy(pt_step(*[torch.as_tensor(a).to(device) for a in batch]))
        mx_loss = mx_loss.asnumpy() if hasattr(mx_loss, "asnumpy") else np.asarray(mx_loss)
        ref_loss = None
        if ref_step is not None:
            try:
                with noise.float64_default():
                    ref_loss = numpy(ref_step(*[torch.as_tensor(noise.upcast(a)) for a in batch]))
            except Exception as e:
                result.advice.append(f"noise mode: the float64 copy could not take step {k} ({type(e).__name__}: "
                                     f"{e}); the steps from there on were compared strictly")
                ref_step, ref_pairs = None, [None] * len(pairs)
        floor = result.noise if ref_step is not None else None
        before = len(result.checks)
        result.checks.append(compared(f"step {k}: loss", mx_loss, pt_loss, tol(mx_loss.dtype), ref_loss, floor))
        for pr, ref_pr in zip(pairs, ref_pairs):
            for m in pr.maps:
                param, target = pr.mx_block._reg_params.get(m.mx), getattr(pr.pt_module, m.pt, None)
                if param is None or target is None:
                    continue
                what = f"step {k}: {_pt_name(pr, m)}"
                value = mx_to_pt_value(m, param.data().asnumpy(), pr)
                ref = numpy(getattr(ref_pr.pt_module, m.pt)) if floor is not None else None
                result.checks.append(compared(what, value, numpy(target), tol(value.dtype), ref, floor))
        if not all(c.ok for c in result.checks[before:]):
            return


@precision.pinning
def check_against(directory: Path, pt_ref: Optional[str] = None, *, pt_kwargs=None, device: str = "cpu",
                  tolerance: Optional[Tolerance] = None, noise_floor: Optional[NoiseFloor] = None) -> Result:
    """The PyTorch side alone against a golden reference recorded with MXNet (in noise mode,
    judged against a float64 copy of the PyTorch model where they differ)."""
    try:
        ref = golden.load(directory)
    except golden.ReferenceError as e:
        raise LoadError(str(e)) from e
    pt_ref = pt_ref or ref.pt_ref
    advice: list[str] = []
    pt_model = load(pt_ref, ref.pt_args if pt_kwargs is None else pt_kwargs, framework="pytorch",
                    advice=advice).to(device)
    import torch

    if lazy(pt_model):
        with torch.no_grad():
            pt_run(pt_model, ref.arrays, device, train=False)
    missing, unexpected = pt_model.load_state_dict({k: torch_tensor(v) for k, v in ref.state.items()},
                                                   strict=False)
    if missing or unexpected:
        raise LoadError(f"{pt_ref} does not fit the recorded weights: missing {missing}, unexpected {unexpected}")
    no_dropout(None, pt_model)
    result = Result(ref.mx_ref + " (recorded)", pt_ref, {"mxnet": "recorded", "pytorch": device}, advice=advice,
                    noise=noise_floor)
    replica = noise.float64_copy(pt_model, result.advice) if noise_floor is not None else None
    result.noise = noise_floor if replica is not None else None
    state = {k: _copy(v) for k, v in pt_model.state_dict().items()}
    actual = _pt_observe(pt_model, ref.arrays, ref.heads, ref.inputs, device)
    reference = _reference(replica, ref.arrays, ref.heads, ref.inputs, [], result, pt_model) \
        if replica is not None else None
    result = _compare_all(result, ref.expected, actual, tolerance, reference)
    inference_ok = all(c.ok for c in result.checks if c.what.startswith("inference"))
    if not result.ok and result.noise is not None and inference_ok:  # as check_models does
        if not ref.layers:
            result.advice.append("noise mode: this recording holds no MXNet layer outputs (recorded by an older "
                                 "xlate), so kinks MXNet's rounding crossed (Note [kinks]) cannot be followed as "
                                 "the live check follows them; record it again")
        else:
            pairs, mx_signs = _recorded_layers(pt_model, ref.layers)
            _follow_kinks(result, ref.expected, actual, (pairs, mx_signs, []), pt_model, state,
                          (ref.arrays, ref.heads, ref.inputs), tolerance, reference)
    return result


def _recorded_layers(pt_model, layers: dict) -> tuple[list[Pair], dict]:
    """The PyTorch modules a recording holds MXNet's Signs for (by the path it was paired with),
    as pairs without an MXNet side, and those Signs by pair index."""
    modules = {path or type(mod).__name__: mod for path, mod in pt_model.named_modules()}
    pairs = [Pair("", path, None, modules[path], None) for path in layers if path in modules]
    return pairs, {i: layers[pr.pt_path] for i, pr in enumerate(pairs)}


def _compare_all(result: Result, expected, actual, tolerance, reference=None) -> Result:
    tol = lambda dtype: tolerance_for(dtype, tolerance)  # noqa: E731
    # both phases, whatever the first gives: a translation wrong at inference (a running
    # statistic's convention, say) can still be right in training, and a GPU that fails the one
    # output check must not leave every gradient unexamined
    _judge(result, "inference", expected[0], actual[0], tol, reference and reference[0])
    _judge(result, "training", expected[1], actual[1], tol, reference and reference[1])
    return result
