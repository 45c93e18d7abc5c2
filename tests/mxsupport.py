"""Imports for the tests that compare translations against live MXNet: each skips the calling
test (``pytest.importorskip``) when mxnet, torch or numpy is missing, so the converter's own
tests still run on a machine without them. Inputs and seeds come from the package
(xlate.check.rule_cases), which the self-check uses too.
"""
from __future__ import annotations

import warnings

import pytest

from xlate.check.rule_cases import make_input, seed_for  # noqa: F401  (re-exported for the tests)

def import_numpy():
    return pytest.importorskip("numpy")


def import_mxnet():
    """`mxnet`; importing xlate.check (above) restored the numpy aliases it needs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pytest.importorskip("mxnet")


def import_torch():
    return pytest.importorskip("torch")
