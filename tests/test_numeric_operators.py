"""The 8xx operators against live MXNet: the samplers by shape, dtype and moments (Note [sampler
moments] in xlate/check/operator_cases.py; their linear algebra and foreach cases run value by
value with the other operator cases, in test_numeric_ndarray.py)."""
import pytest

from mxsupport import import_mxnet, import_torch
from xlate.check.operator_cases import SAMPLER_CASES, check_multinomial, check_sampler

pytestmark = pytest.mark.mxnet


@pytest.fixture(scope="module")
def frameworks():
    return import_mxnet(), import_torch()


@pytest.mark.parametrize("case", SAMPLER_CASES, ids=[c[0] for c in SAMPLER_CASES])
def test_sampler_shapes_dtypes_and_moments(case, frameworks):
    check_sampler(*case)


def test_sample_multinomial(frameworks):
    check_multinomial()
