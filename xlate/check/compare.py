"""Comparing arrays: one tolerance table, and mismatch reports that say how many elements
differ, by how much and where (the shape of torch.testing.assert_close's messages)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float


# torch.testing.assert_close's defaults, by dtype name.
TOLERANCES = {
    "float16": Tolerance(1e-3, 1e-5),
    "bfloat16": Tolerance(1.6e-2, 1e-5),
    "float32": Tolerance(1.3e-6, 1e-5),
    "float64": Tolerance(1e-7, 1e-7),
}
EXACT = Tolerance(0.0, 0.0)


def tolerance_for(dtype, override: Optional[Tolerance] = None) -> Tolerance:
    if override is not None:
        return override
    return TOLERANCES.get(np.dtype(dtype).name if not isinstance(dtype, str) else dtype, EXACT)


@dataclass(frozen=True)
class Mismatch:
    what: str
    reason: str
    expected_shape: tuple = ()
    actual_shape: tuple = ()
    max_abs: float = float("nan")
    max_rel: float = float("nan")
    mismatched: int = 0
    total: int = 0
    first_index: Optional[tuple] = None
    expected_value: Optional[float] = None
    actual_value: Optional[float] = None
    noise: Any = None  # noise mode (xlate.check.noise.Deviations): measured against the float64 result

    def format(self) -> str:
        if self.reason != "values":
            return f"{self.what}: {self.reason}"
        where = ""
        if self.first_index is not None:
            where = (f"; first at index {self.first_index}: expected {self.expected_value:.6g}, "
                     f"got {self.actual_value:.6g}")
        if self.noise is not None:  # expected: the float64 result; actual: MXNet's
            if self.first_index is not None:
                where = (f"; first at index {self.first_index}: float64 {self.expected_value:.6g}, "
                         f"MXNet {self.actual_value:.6g}")
            how = "and" if self.noise.verdict == "unjudgeable" else "beyond float32 noise:"
            return (f"{self.what}: {self.mismatched} of {self.total} elements differ "
                    f"({100 * self.mismatched / max(self.total, 1):.1f}%) {how} {self.noise.summary()}{where}")
        return (f"{self.what}: {self.mismatched} of {self.total} elements differ "
                f"({100 * self.mismatched / max(self.total, 1):.1f}%); greatest absolute difference "
                f"{self.max_abs:.3g}, greatest relative difference {self.max_rel:.3g}{where}")


def compare(what: str, expected, actual, tol: Tolerance) -> Optional[Mismatch]:
    """None when `actual` matches `expected` within `tol`; NaN and Inf never match."""
    return measure(what, expected, actual, tol)[0]


def measure(what: str, expected, actual, tol: Tolerance) -> tuple[Optional[Mismatch], Optional[float]]:
    """compare(), and the greatest absolute difference (None when shapes differ or NaN/Inf)."""
    e = np.asarray(expected)
    a = np.asarray(actual)
    if e.shape != a.shape:
        return Mismatch(what, f"shape {a.shape} where MXNet gives {e.shape}", e.shape, a.shape), None
    # the pass/fail test in the arrays' own precision, in place; statistics in float64 only on
    # failure. A NaN or Inf on either side makes the greatest difference non-finite.
    common = np.result_type(e.dtype, a.dtype, np.float32)
    e_c = e.astype(common, copy=False)
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf: caught just below
        diff = np.abs(np.subtract(a, e_c, dtype=common))
    greatest = float(diff.max()) if diff.size else 0.0
    if not np.isfinite(greatest):
        finite_e, finite_a = np.isfinite(e).all(), np.isfinite(a).all()
        side = "both sides" if not (finite_e or finite_a) else ("MXNet" if not finite_e else "PyTorch")
        return Mismatch(what, f"NaN or Inf on {side} (never a match)", e.shape, a.shape), None
    if greatest <= tol.atol:  # nothing can exceed atol + rtol * |e|
        return None, greatest
    allowed = np.abs(e_c)
    allowed *= tol.rtol
    allowed += tol.atol
    if not (diff > allowed).any():
        return None, greatest
    return _values(what, e, a, tol), greatest


def _values(what: str, e: np.ndarray, a: np.ndarray, tol: Tolerance) -> Optional[Mismatch]:
    e64, a64 = e.astype(np.float64), a.astype(np.float64)
    diff = np.abs(a64 - e64)
    wrong = diff > tol.atol + tol.rtol * np.abs(e64)
    if not wrong.any():  # float32 rounding put it just over the line
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(e64 != 0, diff / np.abs(e64), np.where(diff == 0, 0.0, np.inf))
    first = tuple(int(i) for i in np.argwhere(wrong)[0])
    return Mismatch(
        what, "values", e.shape, a.shape,
        max_abs=float(diff.max()), max_rel=float(rel.max()),
        mismatched=int(wrong.sum()), total=int(wrong.size), first_index=first,
        expected_value=float(e64[first]), actual_value=float(a64[first]),
    )
