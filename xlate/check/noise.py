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

K = 50, from measurements (the K each case needs: the greatest (|M_i - R_i| - tolerance) /
max |T - R|). MXNet's kernels are noisier than PyTorch's, and not by a constant factor: MXNet
sums sequentially in float32 (BatchNorm statistics, gamma and beta gradients), PyTorch pairwise,
so MXNet's error grows with the number of values summed and with |mean| / std of a channel.
Correct translations needed: GluonCV models at the bench's inputs at most 19x (raw ratio;
mobilenetv2_0.25, mobilenet0.25; resnet18s 1.4x); the AlexNet of fixtures/zoo_package 16 at
batch 2 and 29 at batch 4 (5 seeds each), but up to 122 at batch 8, where MXNet sums 1152 values a
channel for the first BatchNorm's gamma gradient (2 of 5 seeds fail there: noise mode errs on
the safe side). Wrong translations: an unbiased running variance, the subtlest measured (its
effect shrinks as 1/n), needs 764 and more on that AlexNet at batch 2 and 146 at batch 8 (so K
cannot be raised to cover batch 8 without letting it through), 2e3 on the deep model of
tests/test_check_noise.py; momentum not flipped, a Dense activation dropped, LRN k=1 and every
mutant of tests/mutants need 1e4..1e7.

A quantity whose noise allowance K * max|T - R| reaches a quarter of its values (max |R|)
cannot be judged in float32: PyTorch's own float32 result is so far from the exact one (behind
BatchNorms over 2 values a channel, say) that K times it would pass errors as large as the
values. It FAILS, saying so: noise mode never passes what it could not judge; larger inputs make
it judgeable. A quantity that is zero (float64 gives 1e-14 for the gradient of a bias before a
BatchNorm, float32 gives noise) is judged against the noise as any other.

Noise mode only loosens the comparison where PyTorch's own float32 result shows the noise;
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
JUDGEABLE = 0.25  # the greatest allowance, as a fraction of max |R|, that still judges anything
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
    'unjudgeable' (the allowance would reach a quarter of the values), 'exceeds'."""
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
                    f"magnitude {self.scale:.3g} (MXNet by {self.mx:.3g}), so K={self.k:g} times that would pass "
                    f"errors of a quarter of the values; larger inputs (more values per BatchNorm channel) make "
                    f"it judgeable")
        return (f"MXNet is {times} further from the float64 result than PyTorch float32 "
                f"(greatest deviations {self.mx:.3g} and {self.pt:.3g}; K={self.k:g} allowed)")


def judge(what: str, mx_value, pt_value, ref_value, tol: Tolerance, floor: NoiseFloor,
          pt_ref_value=None) -> tuple[Optional[Mismatch], Deviations]:
    """MXNet's value against the float64 reference, with PyTorch float32's own deviation from
    it as the noise level (Note [noise floor]); `pt_ref_value`, when MXNet's reference followed
    its kinks (Note [kinks]), is the plain float64 result PyTorch float32 is measured against."""
    m, t, r = (np.asarray(v, dtype=np.float64) for v in (mx_value, pt_value, ref_value))
    r_t = r if pt_ref_value is None else np.asarray(pt_ref_value, dtype=np.float64)
    if not (np.isfinite(m).all() and np.isfinite(t).all() and np.isfinite(r).all() and np.isfinite(r_t).all()):
        dev = Deviations(float("nan"), float("nan"), float("nan"), floor.k, "exceeds")
        return Mismatch(what, "NaN or Inf in PyTorch's float32 or float64 result: noise mode cannot judge "
                              "(never a match)", r.shape, m.shape, noise=dev), dev
    dev_m, dev_t = np.abs(m - r), np.abs(t - r_t)
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
def float64_copy(pt_model, advice: Optional[list] = None):
    """A deep copy in float64 on the CPU: same weights and buffers (upcast, exactly), same modes.
    None, with the reason in `advice`, for a model that cannot be copied (it holds a lock, an
    open file, an MXNet block): noise mode then compares strictly."""
    try:
        return copy.deepcopy(pt_model).to("cpu").double()
    except Exception as e:
        if advice is not None:
            advice.append(f"noise mode: the PyTorch model cannot be copied to run in float64 ({type(e).__name__}: "
                          f"{str(e).splitlines()[0] if str(e) else ''}); every quantity was compared strictly")
        return None


@contextmanager
def float64_default():
    """Tensors the model creates while running (torch.zeros(...), torch.tensor(0.5)) in float64 too;
    on all the process's threads where the checker runs float32 on one (Note [pinned precision])."""
    import torch

    from xlate.check.precision import all_threads

    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        with all_threads():
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


# -- kinks ----------------------------------------------------------------------------------
NEAR = 1e-2  # Signs keeps exactly the values within this fraction of the layer's greatest magnitude


@dataclass(frozen=True)
class Signs:
    """What kink detection needs of one float32 side's training-forward output at one paired
    layer (Note [kinks]): which values are positive (a bit each), and exactly the values near zero,
    within NEAR of the greatest magnitude (10 times find_kinks' `limit`: a value rounding moved
    across zero is far nearer). MXNet's are taken during its training forward and recorded with
    a golden reference, so that `--against` follows MXNet's kinks as the live check does, from
    32 times less than the outputs themselves."""
    shape: tuple
    positive: np.ndarray  # np.packbits(value > 0), flat
    near_index: np.ndarray  # flat indices of the values kept
    near_value: np.ndarray

    @classmethod
    def of(cls, value) -> Optional["Signs"]:
        """None for what has no kinks to find: not floating point, empty, NaN or Inf."""
        v = np.asarray(value)
        if not np.issubdtype(v.dtype, np.floating) or not v.size or not np.isfinite(v).all():
            return None
        flat = v.reshape(-1)
        index = np.flatnonzero(np.abs(flat) <= NEAR * float(np.abs(flat).max()))
        return cls(tuple(v.shape), np.packbits(flat > 0), index.astype(np.int64), flat[index].copy())

    def positives(self) -> np.ndarray:
        size = int(np.prod(self.shape, dtype=np.int64))
        return np.unpackbits(self.positive, count=size).astype(bool).reshape(self.shape)

    def values(self) -> np.ndarray:
        """The values kept, NaN elsewhere."""
        out = np.full(int(np.prod(self.shape, dtype=np.int64)), np.nan)
        out[self.near_index] = self.near_value
        return out.reshape(self.shape)


@dataclass
class Kinks:
    """Values one float32 side's training forward put on the other side of zero from the float64
    result (Note [kinks]): pair index -> (mask, that side's value minus float64's there), and per
    layer what was crossed (`layers`: for the JSON report)."""
    side: str
    shifts: dict
    layers: list

    def count(self) -> int:
        return sum(layer["values"] for layer in self.layers)

    def describe(self) -> str:
        n, m = self.count(), len(self.layers)
        return f"{n} value{'s' * (n != 1)} in {m} layer{'s' * (m != 1)} of {self.side}"


def kinks_followed(found: list, ok: bool) -> str:
    """One line for the report; the values and layers are in `--format json` (`kinks`)."""
    return ("noise mode: float32 rounding crossed a kink (Note [kinks]) at " + " and ".join(
        k.describe() for k in found) + "'s training forward; the float64 reference took each side's branch "
        "there, and each side was judged against its own" + ("" if ok else ", and they still differ beyond "
        "float32 noise") + " (each layer: --format json)")


def capture(pairs, side: str):
    """Forward hooks on every paired layer of `side` ("mx", "pt", or "ref" for the float64
    copy's pairs) that keep each layer's first output of the next forward; returns (the dict
    they fill, index -> array, and the handles to remove)."""
    from xlate.check.sides import flatten

    seen: dict = {}

    def keep(i, value) -> None:  # a hook that returned a value would replace the output
        seen.setdefault(i, value)

    handles = []
    for i, pr in enumerate(pairs):
        if side == "mx":
            handles.append(pr.mx_block.register_forward_hook(
                lambda b, inp, out, i=i: keep(i, flatten(out)[0].asnumpy())))
        else:
            handles.append(pr.pt_module.register_forward_hook(
                lambda m, inp, out, i=i: keep(i, flatten(out)[0].detach().cpu().numpy())))
    return seen, handles


def remove(handles) -> None:
    for h in handles:
        (h.detach if hasattr(h, "detach") else h.remove)()


def find_kinks(pairs, mx_signs: dict, pt_model, arrays, limit: float = 1e-3) -> list:
    """Note [kinks]
    Float32 rounding can move a value across a kink: a BatchNorm output the float64 result puts
    just above zero lands just below it in float32, the ReLU after it takes the other branch, and
    every gradient upstream of it moves by a discrete step (a percent of a gamma gradient, say),
    not by amplified rounding; the other float32 side, which kept the branch, gives no measure of
    it. MXNet's training forward, hooked at every paired layer, leaves its Signs (`mx_signs`,
    pair index -> Signs: live, or from a recording); one training-mode forward of PyTorch float32
    and of a float64 copy, hooked the same way, gives theirs. A value counts as crossed on a
    float32 side when it is of the other sign than the float64 one, which is within `limit` of the
    layer's greatest magnitude, and the side's own value is near zero too (kept in its Signs). A
    layer counts only when no larger value changed sign: a translation error moves large values
    too. Returns a Kinks for each side that crossed any (running statistics move: the caller
    restores them).
    Following a side's kinks (`follow`) moves only those values, each by less than limit times
    its layer's greatest magnitude, in the float64 reference that side is measured against; what
    a wrong translation does to every other value stays and is judged as before, and PyTorch
    float32's noise level, measured against its own followed reference, only shrinks. Measured:
    cifar_resnet20_v1 at 4x3x64x64, one BatchNorm output of 262144 at 6e-7 in float64 rounded
    below zero by MXNet, moved a gamma gradient by 1.6% and the input gradient by 6% (7e4 times
    PyTorch's noise); taking MXNet's branch there, everything is within 2x of it."""
    import torch

    replica = float64_copy(pt_model)
    if replica is None:
        return []
    seen_pt, handles = capture(pairs, "pt")
    seen_ref, more = capture(in_copy(pairs, pt_model, replica), "ref")
    try:
        pt_model.train()
        replica.train()
        device = next((p.device for p in pt_model.parameters()), "cpu")
        with torch.no_grad():
            pt_model(*[torch.as_tensor(a).to(device) for a in arrays])
            with float64_default():
                replica(*[torch.as_tensor(upcast(a)) for a in arrays])
    except Exception:  # no kinks found: the comparison stands as it is
        return []
    finally:
        remove(handles + more)
    pt_signs = {i: Signs.of(v) for i, v in seen_pt.items()}
    found = []
    for name, signs in (("MXNet", mx_signs), ("PyTorch float32", pt_signs)):
        shifts, layers = {}, []
        for i, pr in enumerate(pairs):
            sign, r = signs.get(i), seen_ref.get(i)
            if sign is None or r is None or sign.shape != r.shape or not r.size:
                continue
            crossed = sign.positives() != (r > 0)
            near = np.abs(r) <= limit * np.abs(r).max()
            values = sign.values()
            if not crossed.any() or (crossed & ~near).any() or np.isnan(values[crossed]).any():
                continue
            shifts[i] = (crossed, np.where(crossed, values - r, 0.0))
            layers.append({"layer": pr.pt_path, "values": int(crossed.sum()), "of": int(r.size),
                           "float64_at_most": float(np.abs(r[crossed]).max())})
        if shifts:
            found.append(Kinks(name, shifts, layers))
    return found


def follow(replica_pairs, kinks: Kinks) -> list:
    """Hooks on the float64 copy's paired modules that, in training mode, move the values of
    `kinks` to that float32 side's (added as a constant: the gradient through them is untouched,
    the activation after them takes that side's branch). Returns the handles to remove."""
    import torch

    handles = []
    for i, (mask, shift) in kinks.shifts.items():
        delta, done = torch.as_tensor(shift), []

        def shifted(module, inputs, out, delta=delta, done=done):
            # the first training-mode call only: the one find_kinks looked at
            if module.training and not done and isinstance(out, torch.Tensor) and out.shape == delta.shape:
                done.append(True)
                return out + delta.to(out.dtype)
            return None

        handles.append(replica_pairs[i].pt_module.register_forward_hook(shifted))
    return handles
