"""Weight transfer between an MXNet (Gluon) model and its PyTorch translation.

Note [weight layouts]
Each layer family declares once how its MXNet parameters map onto the PyTorch module's
state (`Family`, registered with `register`): the local Gluon name (`weight`, `gamma`,
`l0_i2h_weight`), the torch attribute (`weight`, `weight_ih_l0`) and, where the layouts
differ, a conversion each way (GroupNorm's per-group gamma is repeated per channel going to
torch and summed per group coming back). The checker and the weight-conversion command use
the same declarations.

Models are paired leaf by leaf in registration order: every block that owns parameters on
the MXNet side, every module that owns parameters on the PyTorch side. A block of a type no
family declares (a custom `self.params.get(...)`) maps its own parameters by name. A pairing
that does not fit fails with the names and shapes on both sides, never silently. A parameter a
program added to a declared layer (`m.input_max = m.params.get(...)`) maps by its name when the
torch module holds one of that name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

import numpy as np

# every family registered before any pairing: without them each block would be paired by its
# parameter names, and fail with a misleading error (families -> layers -> registry: no cycle)
from xlate.check import families  # noqa: F401
from xlate.check.registry import (  # noqa: F401  (re-exported: where callers have found them)
    _BY_MX, FAMILIES, Convert, Family, MappingError, ParamMap, family_of, register)


# -- leaves -------------------------------------------------------------------------------
def mx_leaves(block, path: str = "", _seen: Optional[set] = None) -> Iterator[tuple[str, Any]]:
    """(path, block) for every Gluon block owning parameters, in registration order; a block
    reached twice (`self.output` also added to `self.head`) counts once, at its first path, as
    torch's named_modules() counts a shared module."""
    seen = set() if _seen is None else _seen
    if id(block) in seen:
        return
    seen.add(id(block))
    if getattr(block, "_reg_params", None):
        yield path or type(block).__name__, block
    for name, child in getattr(block, "_children", {}).items():
        child = child() if callable(child) and not hasattr(child, "_children") else child  # weakref
        yield from mx_leaves(child, f"{path}.{name}" if path else name, seen)


def pt_leaves(module) -> Iterator[tuple[str, Any]]:
    """(path, module) for every torch module owning parameters or persistent buffers (a fixed
    table MXNet keeps as a Constant parameter), in registration order."""
    for path, mod in module.named_modules():
        owns = any(p is not None for p in mod._parameters.values()) or any(
            b is not None and n not in mod._non_persistent_buffers_set for n, b in mod._buffers.items())
        if owns:
            yield path or type(mod).__name__, mod


def is_constant(param) -> bool:
    """A gluon Constant: a fixed table, compared with the translation's, never overwritten."""
    return any(c.__name__ == "Constant" for c in type(param).__mro__)


def _mx_params(block, known: Optional[dict] = None) -> dict[str, np.ndarray]:
    known = known or {}
    return {name: known[id(p)] if id(p) in known else p.data().asnumpy() for name, p in block._reg_params.items()}


def _pt_state(module) -> dict[str, Any]:
    state = {n: p for n, p in module._parameters.items() if p is not None}
    state.update({n: b for n, b in module._buffers.items() if b is not None})
    return state


def _shape_of(value) -> str:
    if type(value).__name__ in ("UninitializedParameter", "UninitializedBuffer"):
        return "(lazy)"  # a lazy torch tensor has no shape before its first forward
    return str(tuple(np.shape(value)))


def _describe(items: dict) -> str:
    return ", ".join(f"{k} {_shape_of(v)}" for k, v in items.items()) or "no parameters"


# -- pairing ------------------------------------------------------------------------------
@dataclass
class Pair:
    mx_path: str
    pt_path: str
    mx_block: Any
    pt_module: Any
    family: Optional[Family]
    maps: tuple[ParamMap, ...] = field(default_factory=tuple)


def pair(mx_model, pt_model) -> list[Pair]:
    """Pair the parameter-owning leaves of both models, checking every parameter maps."""
    mx = list(mx_leaves(mx_model))
    pt = list(pt_leaves(pt_model))
    if len(mx) != len(pt):
        lines = [f"MXNet has {len(mx)} blocks with parameters, PyTorch {len(pt)} modules:"]
        for i in range(max(len(mx), len(pt))):
            left = f"{mx[i][0]} [{type(mx[i][1]).__name__}: {_describe(_mx_params(mx[i][1]))}]" if i < len(mx) else "-"
            right = f"{pt[i][0]} [{type(pt[i][1]).__name__}: {_describe(_pt_state(pt[i][1]))}]" if i < len(pt) else "-"
            lines.append(f"  {i}: {left}  <->  {right}")
        raise MappingError("\n".join(lines))
    pairs = []
    for (mpath, mblock), (ppath, pmod) in zip(mx, pt):
        fam = family_of(mblock)
        # a subclass of a declared torch type fits (an exact MXNet-style BatchNorm, say)
        if fam is not None and not {c.__name__ for c in type(pmod).__mro__} & set(fam.pt_types):
            raise MappingError(
                f"{mpath} ({type(mblock).__name__}, family {fam.name}: {_describe(_mx_params(mblock))}) "
                f"is paired with {ppath} ({type(pmod).__name__}: {_describe(_pt_state(pmod))}); "
                f"expected one of {', '.join(fam.pt_types)}")
        maps = fam.maps(mblock, pmod) if fam else tuple(ParamMap(n, n) for n in mblock._reg_params)
        # a parameter a program registered on a declared layer after building it (a quantizer's `input_max` on
        # a Conv2D) has the attribute's name on both sides: it maps by that name
        state, mapped = _pt_state(pmod), {m.mx for m in maps}
        maps = tuple(maps) + tuple(ParamMap(n, n) for n in mblock._reg_params if n not in mapped and n in state)
        _check_names(mpath, mblock, ppath, pmod, maps)
        pairs.append(Pair(mpath, ppath, mblock, pmod, fam, maps))
    return pairs


def _check_names(mpath, mblock, ppath, pmod, maps) -> None:
    mx_names, pt_state = set(mblock._reg_params), _pt_state(pmod)
    # an optional parameter (a bias) is either on both sides or on neither
    absent = {m for m in maps if m.optional and m.mx not in mx_names and m.pt not in pt_state}
    wanted_mx = {m.mx for m in maps if m not in absent}
    wanted_pt = {m.pt for m in maps if m not in absent}
    missing_mx = wanted_mx - mx_names
    extra_mx = mx_names - {m.mx for m in maps}
    missing_pt = wanted_pt - set(pt_state)
    extra_pt = {n for n, p in pmod._parameters.items() if p is not None} - {m.pt for m in maps}
    if missing_mx or extra_mx or missing_pt or extra_pt:
        unmatched = sorted(missing_mx | extra_mx) + sorted(missing_pt | extra_pt)
        raise MappingError(
            f"parameters that do not map: {', '.join(unmatched)} (MXNet {mpath} "
            f"[{type(mblock).__name__}] has {_describe(_mx_params(mblock))}; PyTorch {ppath} "
            f"[{type(pmod).__name__}] has {_describe(pt_state)})")


def mx_to_pt_value(m: ParamMap, value: np.ndarray, pr: Pair) -> np.ndarray:
    return m.to_pt(value, pr.mx_block, pr.pt_module) if m.to_pt else value


def transfer(mx_model, pt_model, known: Optional[dict] = None) -> list[Pair]:
    """Copy every MXNet parameter (and running statistic) into the PyTorch model; `known`
    maps id(Parameter) to its value when the caller has it (saves reading it back)."""
    import torch

    pairs = pair(mx_model, pt_model)
    for pr in pairs:
        params = _mx_params(pr.mx_block, known)
        state = _pt_state(pr.pt_module)
        for m in pr.maps:
            if m.optional and (m.mx not in params or m.pt not in state):
                continue
            if is_constant(pr.mx_block._reg_params[m.mx]):
                continue  # the translation must compute its own copy: compared, not copied
            value = mx_to_pt_value(m, params[m.mx], pr)
            target = state[m.pt]
            if tuple(target.shape) != value.shape:
                raise MappingError(
                    f"{pr.mx_path}.{m.mx} {params[m.mx].shape} -> {pr.pt_path}.{m.pt}: "
                    f"PyTorch expects {tuple(target.shape)}, the mapping gives {value.shape}")
            with torch.no_grad():
                target.copy_(torch.as_tensor(value, dtype=target.dtype))
    return pairs
