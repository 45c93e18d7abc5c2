"""Shared utilities for the tests that compare translations against live MXNet.

Every helper here skips the calling test (``pytest.importorskip``) when mxnet, torch or
numpy is not installed, so the converter's own tests still run on a machine without them.
"""
from __future__ import annotations

import warnings
import zlib
from typing import Any, Callable, Optional, Sequence

import pytest

# numpy >= 1.24 removed the aliases mxnet 1.9.1 still uses at import time.
_NUMPY_ALIASES = {"bool": bool, "int": int, "float": float, "complex": complex, "object": object, "str": str}


def import_numpy():
    np = pytest.importorskip("numpy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, value in _NUMPY_ALIASES.items():
            try:
                getattr(np, name)
            except AttributeError:
                setattr(np, name, value)
    return np


def import_mxnet():
    """`mxnet`, with numpy's removed aliases restored first; skips the test without it."""
    import_numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pytest.importorskip("mxnet")


def import_torch():
    return pytest.importorskip("torch")


# -- converting and running snippets -------------------------------------------------

def convert(source: str):
    """`convert_source` with every rule enabled (the converter itself needs neither framework)."""
    from xlate.engine import convert_source

    return convert_source(source)


def load(source: str, name: str = "f") -> Callable:
    """Exec `source` in a fresh namespace and return its function `name`."""
    namespace: dict = {"__name__": "snippet"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(source, "<snippet>", "exec"), namespace)
    return namespace[name]


def check_codes(result, expected: Sequence[str]) -> None:
    """Each entry is "MX028" (status fixed) or "MX041:review"; nothing may be left manual."""
    seen = {(d.code, d.status) for d in result.diagnostics}
    for item in expected:
        code, _, status = item.partition(":")
        status = status or "fixed"
        assert (code, status) in seen, f"expected {code} with status {status}; got {sorted(seen)}\n{result.output}"
    manual = [(d.code, d.message) for d in result.diagnostics if d.status == "manual"]
    assert not manual, f"left for a human: {manual}\n{result.output}"
    assert "mxnet" not in result.output, result.output


def seed_for(key: str) -> int:
    return zlib.crc32(key.encode())


# -- inputs -----------------------------------------------------------------------------

def make_input(rng, spec) -> Any:
    """A numpy input from a spec.

    A spec is a shape tuple (float32, asymmetric, |x| >= 0.1, no ties) or a tuple whose
    first item names a kind: ("pos", shape), ("unit", shape), ("ids", shape, low, high)
    (float32 integers), ("cond", shape) (float 0/1/2 values, both outcomes present),
    ("int32", shape, low, high), ("const", value) (a fixed numpy array, used as given).
    """
    np = import_numpy()
    if not spec or isinstance(spec[0], int):
        shape = tuple(spec)
        size = int(np.prod(shape)) if shape else 1
        # distinct magnitudes in [0.1, 1.6), more positive than negative values
        mag = 0.1 + (rng.permutation(size) + rng.uniform(0.05, 0.95, size)) / max(size, 1) * 1.5
        sign = np.where(rng.uniform(size=size) < 0.6, 1.0, -1.0)
        return (mag * sign).reshape(shape).astype(np.float32)
    kind, shape = spec[0], tuple(spec[1]) if len(spec) > 1 else ()
    if kind == "pos":
        return rng.uniform(0.2, 2.0, size=shape).astype(np.float32)
    if kind == "unit":
        return rng.uniform(-0.9, 0.9, size=shape).astype(np.float32)
    if kind == "ids":
        return rng.integers(spec[2], spec[3], size=shape).astype(np.float32)
    if kind == "int32":
        return rng.integers(spec[2], spec[3], size=shape).astype(np.int32)
    if kind == "cond":
        c = rng.choice(np.array([0.0, 1.0, 2.0], dtype=np.float32), size=shape)
        flat = c.reshape(-1)
        if flat.size >= 2:
            flat[0], flat[1] = 0.0, 2.0
        return c
    if kind == "const":
        value = np.array(spec[1])
        return value.astype(np.float32) if value.dtype == np.float64 else value
    raise ValueError(f"unknown input kind {kind!r}")


def to_mx(mx, array):
    return mx.nd.array(array, dtype=array.dtype)


def to_torch(torch, array):
    return torch.from_numpy(array.copy())


# -- comparing outputs -----------------------------------------------------------------

_MX_DEVICE = {"cpu": "cpu", "cpu_pinned": "cpu", "gpu": "cuda"}


def compare(actual, expected, *, path: str = "out", check_dtype: bool = True, **tol) -> None:
    """torch result `actual` against MXNet result `expected` (values, shapes and dtypes)."""
    np = import_numpy()
    mx = import_mxnet()
    torch = import_torch()
    if isinstance(expected, mx.nd.NDArray):
        assert isinstance(actual, torch.Tensor), f"{path}: expected a tensor, got {type(actual).__name__}"
        exp = torch.from_numpy(expected.asnumpy())
        assert tuple(actual.shape) == tuple(exp.shape), f"{path}: shape {tuple(actual.shape)} != {tuple(exp.shape)}"
        torch.testing.assert_close(actual.detach(), exp, check_dtype=check_dtype, msg=lambda m: f"{path}: {m}", **tol)
    elif isinstance(expected, (list, tuple)):
        assert isinstance(actual, (list, tuple)), f"{path}: expected a sequence, got {type(actual).__name__}"
        assert len(actual) == len(expected), f"{path}: {len(actual)} items != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            compare(a, e, path=f"{path}[{i}]", check_dtype=check_dtype, **tol)
    elif isinstance(expected, np.ndarray):
        assert isinstance(actual, np.ndarray), f"{path}: expected a numpy array, got {type(actual).__name__}"
        assert actual.dtype == expected.dtype, f"{path}: dtype {actual.dtype} != {expected.dtype}"
        torch.testing.assert_close(torch.from_numpy(actual), torch.from_numpy(expected), **tol)
    elif isinstance(expected, mx.Context):
        assert isinstance(actual, torch.device), f"{path}: expected a torch.device, got {actual!r}"
        assert actual.type == _MX_DEVICE[expected.device_type], f"{path}: {actual} for {expected}"
        if actual.type == "cuda":
            assert (actual.index or 0) == expected.device_id, f"{path}: {actual} for {expected}"
    elif expected is None or isinstance(expected, (bool, int, np.integer)):
        assert actual == expected and isinstance(actual, (bool, int, np.integer)) or actual is expected, \
            f"{path}: {actual!r} != {expected!r}"
        assert isinstance(actual, bool) == isinstance(expected, bool), f"{path}: {actual!r} != {expected!r}"
    elif isinstance(expected, (float, np.floating)):
        assert isinstance(actual, (float, np.floating)), f"{path}: expected a float, got {actual!r}"
        torch.testing.assert_close(float(actual), float(expected), msg=lambda m: f"{path}: {m}", **tol)
    elif isinstance(expected, range):
        assert list(actual) == list(expected), f"{path}: {actual!r} != {expected!r}"
    else:
        raise TypeError(f"{path}: cannot compare MXNet result of type {type(expected).__name__}")


def flat_outputs(out) -> list:
    return [o for item in out for o in flat_outputs(item)] if isinstance(out, (list, tuple)) else [out]


def run_mx(fn: Callable, inputs: Sequence, grad: Sequence[int] = (), heads: Optional[list] = None):
    """Call the MXNet function; with `grad`, backward `heads` and return the input gradients."""
    mx = import_mxnet()
    args = [to_mx(mx, a) for a in inputs]
    if not grad:
        return fn(*args), None
    for i in grad:
        args[i].attach_grad()
    with mx.autograd.record():
        out = fn(*args)
    outs = flat_outputs(out)
    mx.autograd.backward(outs, [to_mx(mx, h) for h in heads])
    return out, [args[i].grad for i in grad]


def run_torch(fn: Callable, inputs: Sequence, grad: Sequence[int] = (), heads: Optional[list] = None):
    torch = import_torch()
    args = [to_torch(torch, a) for a in inputs]
    for i in grad:
        args[i].requires_grad_(True)
    out = fn(*args)
    if grad:
        outs = flat_outputs(out)
        torch.autograd.backward(outs, [to_torch(torch, h) for h in heads])
        return out, [args[i].grad for i in grad]
    return out, None
