"""What the checker computes in: float32 in full, pinned while it checks and restored after.

Note [pinned precision]
torch lets cuDNN use TF32 for float32 convolutions and RNNs by default (`cudnn.allow_tf32` is
True), which keeps 10 bits of mantissa: on a GPU the translation then differs from MXNet by
1e-3 where the CPU agrees to 1e-6, and every recorded reference "diverges" (lstm_tagger 0 of 1
checks, MobileNetV2 124 of 269 on CUDA, Equal on the CPU). A user's program may also have
turned on TF32 matmuls (`set_float32_matmul_precision("high")`), bf16 in oneDNN on the CPU,
reduced-precision reductions in half-precision matmuls, or cuDNN's benchmark mode (which picks
algorithms by speed, run by run). The checker compares float32 against float32, so while it
runs every such knob is set to full precision (and cuDNN to deterministic algorithms, so that
a verdict is the same run after run), and set back to what it was afterwards, exceptions
included. The report's header says what was pinned.

PyTorch's float32 results on the CPU also depend on the number of threads (a BatchNorm's sums
are split among them), and importing MXNet leaves torch one thread: a recording replayed
without MXNet ran PyTorch float32 on two threads where the live check had run it on one, so
noise mode measured another float32 noise and found other kinks (MobileNetV2 at batch 1: 260
of 269 checks live, 267 replayed). So float32 runs on one thread while the checker checks; the
float64 reference of noise mode, whose rounding is 1e9 times finer and which costs the most,
runs on the threads the process had (`all_threads`).

torch has two APIs for the TF32 switches: the legacy flags (`cuda.matmul.allow_tf32`,
`cudnn.allow_tf32`, `set_float32_matmul_precision`, torch 2.4 on) and, from torch 2.9, a
`fp32_precision` per backend and operator. They share one state, and torch raises when a
legacy getter reads a state the new API set that it cannot express ("mix of the legacy and new
APIs"). So where the new API exists only it is used, every node of it saved and restored
exactly (parents before children, as setting a parent changes the children that inherit), which
leaves the legacy getters reading what they read before; on older torch only the legacy flags.
"""
from __future__ import annotations

import functools
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Knob:
    name: str
    get: Callable[[], Any]
    set: Callable[[Any], None]
    pinned: Any


def knobs() -> list[Knob]:
    """Every precision setting this torch has, in the order to set and to restore them."""
    import torch

    b = torch.backends
    found: list[Knob] = []

    def add(name: str, owner: str, attr: str, pinned) -> None:
        obj = b
        for part in owner.split(".") if owner else ():
            obj = getattr(obj, part, None)
            if obj is None:
                return
        try:
            getattr(obj, attr)
        except AttributeError:
            return
        found.append(Knob(name, lambda: getattr(obj, attr), lambda value: setattr(obj, attr, value), pinned))

    if _has_fp32_precision(b):
        # parents first: setting one changes the children that inherit from it
        for owner in ("", "cuda.matmul", "cudnn", "cudnn.conv", "cudnn.rnn", "mkldnn", "mkldnn.matmul",
                      "mkldnn.conv", "mkldnn.rnn"):
            add(f"{owner or 'backends'}.fp32_precision", owner, "fp32_precision", "ieee")
    else:
        add("cuda.matmul.allow_tf32", "cuda.matmul", "allow_tf32", False)
        add("cudnn.allow_tf32", "cudnn", "allow_tf32", False)
        # last: on torch before 2.9 allow_tf32 is this setting seen from cuBLAS, and setting it
        # back after allow_tf32 restores a "medium" that allow_tf32=True would read as "high"
        found.append(Knob("float32_matmul_precision", torch.get_float32_matmul_precision,
                          torch.set_float32_matmul_precision, "highest"))
    add("cuda.matmul.allow_fp16_reduced_precision_reduction", "cuda.matmul",
        "allow_fp16_reduced_precision_reduction", False)
    add("cuda.matmul.allow_bf16_reduced_precision_reduction", "cuda.matmul",
        "allow_bf16_reduced_precision_reduction", False)
    add("cuda.matmul.allow_fp16_accumulation", "cuda.matmul", "allow_fp16_accumulation", False)
    add("cudnn.benchmark", "cudnn", "benchmark", False)
    add("cudnn.deterministic", "cudnn", "deterministic", True)
    found.append(Knob("threads", torch.get_num_threads, torch.set_num_threads, 1))
    return found


def _has_fp32_precision(backends) -> bool:
    try:
        return isinstance(backends.cudnn.conv.fp32_precision, str)
    except (AttributeError, RuntimeError):
        return False


@contextmanager
def pinned():
    """Every knob of Note [pinned precision] at full precision inside, as it was after (an
    exception inside included). Yields the settings in force, for the report."""
    # every value read before any is set: setting a parent changes the children that inherit
    saved = [(knob, knob.get()) for knob in knobs()]
    _THREADS.append(dict((k.name, v) for k, v in saved)["threads"])
    try:
        for knob, _ in saved:
            knob.set(knob.pinned)
        yield {knob.name: knob.get() for knob, _ in saved}
    finally:
        _THREADS.pop()
        for knob, value in saved:  # parents before children, as they were set
            knob.set(value)


_THREADS: list[int] = []  # the process's thread count, per pinned() active


@contextmanager
def all_threads():
    """Inside pinned(): the threads the process had, for the float64 reference (Note [pinned
    precision]); elsewhere nothing changes."""
    import torch

    if not _THREADS:
        yield
        return
    old = torch.get_num_threads()
    torch.set_num_threads(_THREADS[0])
    try:
        yield
    finally:
        torch.set_num_threads(old)


def pinning(fn):
    """`fn` run inside `pinned()`; a result with a `precision` field gets the settings."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        with pinned() as settings:
            result = fn(*args, **kwargs)
        if hasattr(result, "precision"):
            result.precision = settings
        return result

    return run


def describe(settings: dict) -> str:
    """One line for the report's header (the JSON report lists every setting)."""
    suffix = ".fp32_precision"
    fp32 = {name[:-len(suffix)]: value for name, value in settings.items() if name.endswith(suffix)}
    parts = []
    if fp32 and len(set(fp32.values())) == 1:
        parts.append(f"fp32_precision={next(iter(fp32.values()))} in {', '.join(fp32)}")
    else:
        parts.extend(f"{name}{suffix}={value}" for name, value in fp32.items())
    parts.extend(f"{name}={value}" for name, value in settings.items() if not name.endswith(suffix))
    return f"precision: full float32 while checking, restored after ({'; '.join(parts)})"
