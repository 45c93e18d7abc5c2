"""The constructs of d2l's MXNet library (issue 25, bench/d2l_library.py) that xlate translates by
class, each converted and run against live MXNet on the same inputs."""
from __future__ import annotations

import numpy as onp
import pytest

from mxsupport import import_mxnet, import_torch

from xlate.check import rule_cases

pytestmark = pytest.mark.mxnet


def both(source: str, *inputs, name: str = "f", dialect: bool = True):
    """(MXNet's result, the converted code's result) of `name(*inputs)`."""
    import_mxnet()
    import_torch()
    result = rule_cases.convert(source)
    assert "mxnet" not in result.output, result.output
    expected, _ = rule_cases.run_mx(rule_cases.load(source, name), inputs, dialect=dialect)
    actual, _ = rule_cases.run_torch(rule_cases.load(result.output, name), inputs)
    return expected, actual, result


def same(expected, actual) -> None:
    assert not rule_cases.problems(rule_cases.compare_outputs(actual, expected))


# -- methods whose arguments are forwarded (`lambda x, *args, **kwargs: x.astype(*args, **kwargs)`)

FORWARDED = '''
from mxnet import np, npx
npx.set_np()
astype = lambda x, *args, **kwargs: x.astype(*args, **kwargs)

def f(x, y):
    cmp = astype(x.argmax(axis=1), y.dtype) == y
    return astype(cmp, y.dtype).sum(), astype(x, 'int32'), astype(x, dtype='float16', copy=False)
'''


def test_astype_with_forwarded_arguments_gives_mxnets_dtypes():
    rng = onp.random.RandomState(0)
    x = rng.normal(size=(6, 3)).astype("float32") * 3
    y = rng.randint(0, 3, size=6).astype("float32")
    expected, actual, result = both(FORWARDED, x, y)
    assert "_mx_astype(x, *args, **kwargs)" in result.output
    same(expected, actual)
