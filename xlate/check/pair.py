"""Pair check: an MXNet model and its PyTorch translation, same weights, same inputs.

Runs, in order: inference forward (MXNet outside `autograd.record()`, PyTorch in `.eval()`),
then training forward and backward with one random head gradient (outputs, gradients with
respect to every input and every parameter). Dropout cannot be matched value for value (the
generators differ), so training runs with every Dropout rate set to 0 on both sides.
"""
from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np

from xlate.check import families  # noqa: F401  (registers every layer family)
from xlate.check.compare import Mismatch, Tolerance, compare, tolerance_for
from xlate.check.inputs import InputSpec, asymmetric_like, draw
from xlate.check.mapping import MappingError, Pair, mx_to_pt_value, transfer


class LoadError(Exception):
    """A model that cannot be loaded or built: exit code 2, with file and reason."""


@dataclass
class Check:
    what: str
    mismatch: Optional[Mismatch]

    @property
    def ok(self) -> bool:
        return self.mismatch is None


@dataclass
class Result:
    mx_ref: str
    pt_ref: str
    devices: dict
    checks: list[Check] = field(default_factory=list)
    divergence: Optional[str] = None

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def load(ref: str, kwargs: dict) -> Any:
    """Build `Name(**kwargs)` from `path.py:Name`; importing the file runs its code."""
    path_text, _, name = ref.rpartition(":")
    if not path_text or not name:
        raise LoadError(f"{ref}: expected FILE.py:NAME")
    path = Path(path_text)
    if not path.is_file():
        raise LoadError(f"{path}: no such file")
    module_name = f"_xlate_check_{abs(hash(path.resolve()))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.resolve().parent))
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise LoadError(f"{path}: importing it failed: {type(e).__name__}: {e}") from e
    finally:
        sys.path.pop(0)
    factory = getattr(module, name, None)
    if factory is None:
        raise LoadError(f"{path}: has no {name}")
    try:
        return factory(**kwargs)
    except Exception as e:
        raise LoadError(f"{ref}: building it failed: {type(e).__name__}: {e}") from e


def _flatten(value) -> list:
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


# -- the MXNet side ------------------------------------------------------------------------
def _mx_prepare(net, arrays, rng):
    import mxnet as mx

    if not any(p._data is not None for p in net.collect_params().values()):
        net.initialize()
    net(*[mx.nd.array(a, dtype=a.dtype) for a in arrays])  # materialise deferred shapes
    for name, p in net.collect_params().items():
        p.set_data(mx.nd.array(asymmetric_like(p.shape, name, rng), dtype=p.dtype))


def _mx_run(net, arrays, train: bool, heads=None):
    import mxnet as mx

    xs = [mx.nd.array(a, dtype=a.dtype) for a in arrays]
    if not train:
        return [o.asnumpy() for o in _flatten(net(*xs))], None
    for x in xs:
        if np.issubdtype(x.dtype, np.floating):
            x.attach_grad()
    with mx.autograd.record():
        outs = _flatten(net(*xs))
    mx.autograd.backward(outs, [mx.nd.array(h) for h in heads])
    grads = [x.grad.asnumpy() if np.issubdtype(x.dtype, np.floating) else None for x in xs]
    return [o.asnumpy() for o in outs], grads


# -- the PyTorch side ----------------------------------------------------------------------
def _pt_run(model, arrays, device, train: bool, heads=None):
    import torch

    xs = [torch.as_tensor(a).to(device) for a in arrays]
    if not train:
        model.eval()
        with torch.no_grad():
            return [o.detach().cpu().numpy() for o in _flatten(model(*xs))], None
    model.train()
    xs = [x.requires_grad_() if x.is_floating_point() else x for x in xs]
    outs = _flatten(model(*xs))
    torch.autograd.backward(outs, [torch.as_tensor(h).to(device) for h in heads])
    grads = [x.grad.detach().cpu().numpy() if x.is_floating_point() else None for x in xs]
    return [o.detach().cpu().numpy() for o in outs], grads


def _no_dropout(mx_net, pt_model) -> None:
    import torch

    for m in pt_model.modules():
        if isinstance(m, torch.nn.modules.dropout._DropoutNd):
            m.p = 0.0

    def walk(block):
        if type(block).__name__ == "Dropout":
            block._rate = 0.0
        for child in getattr(block, "_children", {}).values():
            walk(child)

    walk(mx_net)


def _divergence(pairs: list[Pair], mx_net, pt_model, arrays, device, tol) -> Optional[str]:
    """The first paired layer whose outputs differ (forward hooks on both sides)."""
    import torch

    seen_mx, seen_pt, handles = {}, {}, []

    def keep(store, i, value) -> None:  # a hook that returned a value would replace the output
        store.setdefault(i, value)

    for i, pr in enumerate(pairs):
        handles.append(pr.mx_block.register_forward_hook(
            lambda b, inp, out, i=i: keep(seen_mx, i, _flatten(out)[0].asnumpy())))
        handles.append(pr.pt_module.register_forward_hook(
            lambda m, inp, out, i=i: keep(seen_pt, i, _flatten(out)[0].detach().cpu().numpy())))
    try:
        _mx_run(mx_net, arrays, train=False)
        with torch.no_grad():
            _pt_run(pt_model, arrays, device, train=False)
    finally:
        for h in handles:
            (h.detach if hasattr(h, "detach") else h.remove)()
    for i, pr in enumerate(pairs):
        if i in seen_mx and i in seen_pt:
            m = compare("output", seen_mx[i], seen_pt[i], tol)
            if m is not None:
                return (f"{pr.mx_path} ({type(pr.mx_block).__name__}) <-> {pr.pt_path} "
                        f"({type(pr.pt_module).__name__}): {m.format()}")
    return None


def check_pair(mx_ref: str, pt_ref: str, inputs: list[InputSpec], *, mx_kwargs=None, pt_kwargs=None,
               seed: int = 0, device: str = "cpu", tolerance: Optional[Tolerance] = None) -> Result:
    import torch

    rng = np.random.default_rng(seed)
    arrays = [draw(s, rng) for s in inputs]
    mx_net = load(mx_ref, mx_kwargs or {})
    pt_model = load(pt_ref, pt_kwargs or {}).to(device)
    result = Result(mx_ref, pt_ref, {"mxnet": "cpu", "pytorch": device})
    try:
        _mx_prepare(mx_net, arrays, rng)
        with torch.no_grad():  # materialise lazy modules before copying into them
            _pt_run(pt_model, arrays, device, train=False)
        pairs = transfer(mx_net, pt_model)
    except MappingError:
        raise
    except Exception as e:
        raise LoadError(f"running the models failed: {type(e).__name__}: {e}") from e
    tol = lambda dtype: tolerance_for(dtype, tolerance)  # noqa: E731

    mx_out, _ = _mx_run(mx_net, arrays, train=False)
    pt_out, _ = _pt_run(pt_model, arrays, device, train=False)
    _outputs(result, "inference", mx_out, pt_out, tol)
    if not result.ok:
        result.divergence = _divergence(pairs, mx_net, pt_model, arrays, device, tol("float32"))
        return result

    _no_dropout(mx_net, pt_model)
    heads = [draw(InputSpec("head", str(o.dtype), o.shape), rng) for o in mx_out]
    mx_out, mx_grads = _mx_run(mx_net, arrays, train=True, heads=heads)
    pt_out, pt_grads = _pt_run(pt_model, arrays, device, train=True, heads=heads)
    _outputs(result, "training", mx_out, pt_out, tol)
    for spec, g_mx, g_pt in zip(inputs, mx_grads, pt_grads):
        if g_mx is not None:
            result.checks.append(Check(f"training: gradient of {spec.name}",
                                       compare(f"d/d{spec.name}", g_mx, g_pt, tol(g_mx.dtype))))
    _gradients_and_state(result, pairs, tol("float32"))
    return result


def _gradients_and_state(result: Result, pairs: list[Pair], default: Tolerance) -> None:
    """Parameter gradients in the PyTorch layout, and the running statistics (MXNet keeps them
    as grad_req='null' parameters, torch as buffers) after the training step."""
    for pr in pairs:
        tol_p = pr.family.tolerance if pr.family and pr.family.tolerance else default
        for m in pr.maps:
            param = pr.mx_block._reg_params.get(m.mx)
            target = getattr(pr.pt_module, m.pt, None)
            if param is None or target is None:
                continue
            if param.grad_req == "null":
                if m.pt in pr.pt_module._buffers:
                    what = f"training: {pr.mx_path}.{m.mx} -> {pr.pt_path}.{m.pt} after the step"
                    value = mx_to_pt_value(m, param.data().asnumpy(), pr)
                    result.checks.append(Check(what, compare(what, value, target.detach().cpu().numpy(), tol_p)))
                continue
            if target.grad is None:
                continue
            g_mx = mx_to_pt_value(m, param.grad().asnumpy(), pr)
            what = f"training: gradient of {pr.mx_path}.{m.mx} -> {pr.pt_path}.{m.pt}"
            result.checks.append(Check(what, compare(what, g_mx, target.grad.detach().cpu().numpy(), tol_p)))


def _outputs(result: Result, phase: str, mx_out, pt_out, tol) -> None:
    if len(mx_out) != len(pt_out):
        result.checks.append(Check(f"{phase}: outputs", Mismatch(
            f"{phase}: outputs", f"PyTorch returns {len(pt_out)} arrays where MXNet returns {len(mx_out)}")))
        return
    for i, (a, b) in enumerate(zip(mx_out, pt_out)):
        what = f"{phase}: output {i}" if len(mx_out) > 1 else f"{phase}: output"
        result.checks.append(Check(what, compare(what, a, b, tol(a.dtype))))
