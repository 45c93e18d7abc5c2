"""Noise mode (`xlate check --noise-floor`): telling float32 rounding from a translation error.

Note [noise floor]
In training mode a deep model amplifies float32 rounding: BatchNorm over few values per channel
divides by a small batch standard deviation, layer after layer, and MXNet and PyTorch then
differ by 1e-5..1e-3 (some gradients by more) where both compute the same function. The strict
comparison cannot tell that from a wrong translation. Noise mode asks the question that can:
how far is each side from the exact result? A float64 copy of the PyTorch model (same weights,
inputs, head gradients, train/eval modes, dropout off) gives the reference R; T is PyTorch's
float32 result and M MXNet's. A quantity passes when, for every element i,

    |M_i - R_i| <= atol + rtol * |R_i| + K * max_j |T_j - R_j|

(the usual float32 tolerance, plus K times the greatest deviation of PyTorch's own float32
result in that quantity). The noise level is per quantity, an L-infinity norm, not per element:
two float32 runs round independently, so a small |T_i - R_i| at one element says nothing about
how small |M_i - R_i| must be there; the greatest deviation over the tensor is a stable measure
of how far float32 lands from the exact result in that quantity.

K = 200, from measurements (bench/noise_floor.md): MXNet's kernels are noisier than PyTorch's,
and not by a constant factor. MXNet sums sequentially in float32 (its BatchNorm statistics and
gamma/beta gradients), PyTorch pairwise, so MXNet's error grows with the number of values summed
and with |mean| / std of a channel, PyTorch's barely. Largest MXNet / PyTorch ratios measured on
correct translations: 10 on GluonCV models (mobilenet0.25), 122 on the AlexNet of
fixtures/zoo_package at batch 8 (gamma gradient of the first BatchNorm, 1152 values a channel).
Wrong translations measured at 2e3 and more (the same note).

A quantity whose noise allowance K * max|T - R| reaches a tenth of its values (max |R|) cannot
be judged in float32: PyTorch's own float32 result is off from the exact one by more than a
translation error of 10% would be (gradients behind a BatchNorm over 2 values a channel, say).
It FAILS, saying so: noise mode never passes what it could not judge. Larger inputs (more values
per channel) make such quantities judgeable.

Noise mode only ever loosens the comparison where PyTorch's own float32 result shows the noise;
where float32 and float64 agree (inference, most running statistics) it is the strict one.
"""
from __future__ import annotations

import copy
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Optional

import numpy as np

from xlate.check.compare import Mismatch, Tolerance

K = 50.0  # Note [noise floor]
JUDGEABLE = 0.1  # the greatest allowance, as a fraction of max |R|, that still judges anything
ZERO = 1e-6  # max |R| at most this times float32's deviation: float64 says the quantity is zero


@dataclass(frozen=True)
class NoiseFloor:
    """Noise mode's settings: K times PyTorch float32's own deviation is allowed."""
    k: float = K
    judgeable: float = JUDGEABLE

    def __post_init__(self):
        if not self.k > 0:
            raise ValueError(f"noise floor K must be positive, got {self.k}")


@dataclass(frozen=True)
class Deviations:
    """One quantity in noise mode: greatest |M - R|, greatest |T - R|, greatest |R|, and the
    verdict: 'tolerance' (within the strict tolerance of R), 'noise' (within K x float32 noise),
    'unjudgeable' (the allowance would reach a tenth of the values), 'exceeds'."""
    mx: float
    pt: float
    scale: float
    k: float
    verdict: str

    @property
    def ratio(self) -> float:
        return self.mx / self.pt if self.pt > 0 else (float("inf") if self.mx > 0 else 1.0)

    def summary(self) -> str:
        if self.verdict == "tolerance":
            return "within tolerance of the float64 result"
        times = f"{self.ratio:.3g}x" if np.isfinite(self.ratio) else "infinitely"
        if self.verdict == "noise":
            return f"within float32 noise: {times} PyTorch float32's deviation from the float64 result (K={self.k:g})"
        if self.verdict == "unjudgeable":
            return (f"cannot be judged in float32: PyTorch float32 itself is off from the float64 result by "
                    f"{self.pt:.3g}, {100 * self.pt / max(self.scale, 1e-300):.3g}% of the values' greatest "
                    f"magnitude {self.scale:.3g}, so K={self.k:g} times that would pass errors of any size; "
                    f"larger inputs (more values per BatchNorm channel) make it judgeable")
        return (f"MXNet is {times} further from the float64 result than PyTorch float32 "
                f"(greatest deviations {self.mx:.3g} and {self.pt:.3g}; K={self.k:g} allowed)")


def judge(what: str, mx_value, pt_value, ref_value, tol: Tolerance,
          floor: NoiseFloor) -> tuple[Optional[Mismatch], Deviations]:
    """MXNet's value against the float64 reference, with PyTorch float32's own deviation from
    it as the noise level (Note [noise floor]). Shapes, NaN and Inf are the caller's (strict) test."""
    m, t, r = (np.asarray(v, dtype=np.float64) for v in (mx_value, pt_value, ref_value))
    if not (np.isfinite(m).all() and np.isfinite(t).all() and np.isfinite(r).all()):
        dev = Deviations(float("nan"), float("nan"), float("nan"), floor.k, "exceeds")
        return Mismatch(what, "NaN or Inf in PyTorch's float32 or float64 result: noise mode cannot judge "
                              "(never a match)", r.shape, m.shape, noise=dev), dev
    dev_m, dev_t = np.abs(m - r), np.abs(t - r)
    worst_m = float(dev_m.max()) if dev_m.size else 0.0
    worst_t = float(dev_t.max()) if dev_t.size else 0.0
    scale = float(np.abs(r).max()) if r.size else 0.0
    within_tol = tol.atol + tol.rtol * np.abs(r)
    if not (dev_m > within_tol).any():
        return None, Deviations(worst_m, worst_t, scale, floor.k, "tolerance")
    allowance = floor.k * worst_t
    if allowance >= floor.judgeable * scale and scale > ZERO * worst_t:
        dev = Deviations(worst_m, worst_t, scale, floor.k, "unjudgeable")
        return _mismatch(what, m, r, dev_m > within_tol, dev), dev
    wrong = dev_m > within_tol + allowance
    if not wrong.any():
        return None, Deviations(worst_m, worst_t, scale, floor.k, "noise")
    dev = Deviations(worst_m, worst_t, scale, floor.k, "exceeds")
    return _mismatch(what, m, r, wrong, dev), dev


def _mismatch(what: str, m: np.ndarray, r: np.ndarray, wrong: np.ndarray, dev: Deviations) -> Mismatch:
    diff = np.abs(m - r)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(r != 0, diff / np.abs(r), np.where(diff == 0, 0.0, np.inf))
    first = tuple(int(i) for i in np.argwhere(wrong)[0])
    return Mismatch(what, "values", r.shape, m.shape, max_abs=float(diff.max()), max_rel=float(rel.max()),
                    mismatched=int(wrong.sum()), total=int(wrong.size), first_index=first,
                    expected_value=float(r[first]), actual_value=float(m[first]), noise=dev)


# -- the float64 reference ------------------------------------------------------------------
def float64_copy(pt_model):
    """A deep copy in float64 on the CPU: same weights and buffers (upcast, exactly), same modes."""
    return copy.deepcopy(pt_model).to("cpu").double()


@contextmanager
def float64_default():
    """Tensors the model creates while running (torch.zeros(...), torch.tensor(0.5)) in float64 too."""
    import torch

    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(old)


def upcast(array: np.ndarray) -> np.ndarray:
    return array.astype(np.float64) if np.issubdtype(array.dtype, np.floating) else array


def in_copy(pairs, original, replica):
    """The pairs with each PyTorch module replaced by its counterpart in `replica` (a deep copy
    of `original`), matched by position in named_modules()."""
    from dataclasses import replace

    index = {id(mod): i for i, (_, mod) in enumerate(original.named_modules())}
    mods = [mod for _, mod in replica.named_modules()]
    return [replace(pr, pt_module=mods[index[id(pr.pt_module)]]) for pr in pairs]
