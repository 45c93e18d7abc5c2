"""Imports for the tests that compare translations against live MXNet: each skips the calling
test (``pytest.importorskip``) when mxnet, torch or numpy is missing, so the converter's own
tests still run on a machine without them. Inputs and seeds come from the package
(xlate.check.rule_cases), which the self-check uses too.
"""
from __future__ import annotations

import warnings

import pytest

from xlate.check.rule_cases import make_input, seed_for  # noqa: F401  (re-exported for the tests)

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


