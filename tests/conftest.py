"""Every test starts from the same global random state, whatever ran before it in its process.

A test that draws weights from MXNet's, NumPy's or torch's global generator (an `initialize()`
without a seed) otherwise gets the state that earlier tests left, and xdist's distribution
decides which those were: one draw in a dozen put a float32 comparison just past its tolerance
(two CI failures, neither reproducible alone). A framework not imported yet is left alone: it
is not imported here, so tests that need neither stay free of both."""
import os
import random
import sys

import pytest

# Note [one thread a worker]: the suite runs in as many xdist workers as there are cores (-n 2 on
# CI's two), and torch and MXNet would each start an OpenMP pool of one thread per core in every
# worker, whose spinning threads take the other worker's core. Set before either is imported
# (this file loads first); a value the caller chose is kept.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


_RECURSION_LIMIT = sys.getrecursionlimit()


@pytest.fixture(autouse=True)
def _same_random_state_in_every_order():
    # and the interpreter's recursion limit, which decides whether Python's parser accepts a deep
    # expression (tests/test_reliability.py): a test that left it raised made that test's outcome
    # depend on the worker it ran in
    sys.setrecursionlimit(_RECURSION_LIMIT)
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
