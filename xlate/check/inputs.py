"""Input specifications (`x:float32[4,7,3]`, `ids:int64[4,7]<10`) and the random arrays
drawn for them: non-zero, asymmetric, reproducible from a seed."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

import numpy as np

_SPEC = re.compile(r"^(?P<name>[A-Za-z_]\w*):(?P<dtype>\w+)\[(?P<shape>[\d,\s]*)\](?:<(?P<high>\d+))?$")
_FLOATS = ("float16", "float32", "float64")
_INTS = ("int32", "int64", "uint8")


class SpecError(ValueError):
    pass


@dataclass(frozen=True)
class InputSpec:
    name: str
    dtype: str
    shape: tuple[int, ...]
    high: Optional[int] = None  # integer inputs: values in [0, high)

    def __str__(self) -> str:
        tail = f"<{self.high}" if self.high is not None else ""
        return f"{self.name}:{self.dtype}[{','.join(map(str, self.shape))}]{tail}"


def parse(text: str) -> InputSpec:
    m = _SPEC.match(text.strip())
    if not m:
        raise SpecError(f"input {text!r}: expected NAME:DTYPE[D1,D2,...] (e.g. x:float32[4,7,3], ids:int64[4,7]<10)")
    dtype = m["dtype"]
    if dtype not in _FLOATS + _INTS:
        raise SpecError(f"input {text!r}: dtype must be one of {', '.join(_FLOATS + _INTS)}")
    shape = tuple(int(d) for d in m["shape"].replace(" ", "").split(",") if d)
    if any(d <= 0 for d in shape):
        raise SpecError(f"input {text!r}: every dimension must be positive")
    high = int(m["high"]) if m["high"] else None
    if dtype in _INTS and high is None:
        raise SpecError(f"input {text!r}: integer inputs need an upper bound, e.g. {text}<10")
    if dtype in _FLOATS and high is not None:
        raise SpecError(f"input {text!r}: an upper bound only applies to integer inputs")
    return InputSpec(m["name"], dtype, shape, high)


def draw(spec: InputSpec, rng: np.random.Generator) -> np.ndarray:
    """Floats in +-[0.1, 1) (never zero, no symmetry); integers uniform in [0, high)."""
    if spec.high is not None:
        return rng.integers(0, spec.high, size=spec.shape).astype(spec.dtype)
    magnitude = rng.uniform(0.1, 1.0, size=spec.shape)
    sign = np.where(rng.random(size=spec.shape) < 0.5, -1.0, 1.0)
    return (magnitude * sign).astype(spec.dtype)


def asymmetric_like(shape: tuple, name: str, rng: np.random.Generator) -> np.ndarray:
    """A parameter value that is never constant or zero, scaled by its fan-in."""
    if name.endswith("running_var") or name.endswith("moving_var"):
        return rng.uniform(0.5, 1.5, size=shape).astype(np.float32)
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    scale = np.float32(1.0 / np.sqrt(max(fan_in, 1)) if len(shape) > 1 else 0.5)
    u = rng.random(size=shape, dtype=np.float32) * 1.6 - 0.8  # uniform in [-0.8, 0.8)
    return (u + np.copysign(np.float32(0.2), u)) * scale  # |value| in [0.2, 1.0) * scale
