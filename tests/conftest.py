"""Every test starts from the same global random state, whatever ran before it in its process.

A test that draws weights from MXNet's, NumPy's or torch's global generator (an `initialize()`
without a seed) otherwise gets the state that earlier tests left, and xdist's distribution
decides which those were: one draw in a dozen put a float32 comparison just past its tolerance
(two CI failures, neither reproducible alone). A framework not imported yet is left alone: it
is not imported here, so tests that need neither stay free of both."""
import random
import sys

import pytest


@pytest.fixture(autouse=True)
def _same_random_state_in_every_order():
    random.seed(0)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(0)
    mxnet = sys.modules.get("mxnet")
    if mxnet is not None and hasattr(mxnet, "random") and hasattr(mxnet.random, "seed"):
        mxnet.random.seed(0)
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "manual_seed"):
        torch.manual_seed(0)
    yield
