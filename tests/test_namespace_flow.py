"""MXNet's operator namespace wherever it flows in a package (issue 21, item 1): handed to
functions of modules that import nothing of MXNet (under any parameter name, by position or keyword), taken from a helper (`getF(x)`), stored on an
object (`self.F = F or getF(x)`) and read back (`F = self.F`). The converted tree computes
MXNet's numbers, and the module whose F was guessed by its name says so."""
from __future__ import annotations

import importlib
import re
import sys

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from test_package import convert_tree

TREE = {
    "fpk/__init__.py": "",
    "fpk/util.py": """\
        import mxnet as mx

        def getF(var):
            if isinstance(var, mx.nd.NDArray):
                return mx.nd
            return mx.sym

        # which namespace it was handed (autogluon's mxnet_is_ndarray): a constant in translated code (MX137)
        def is_ndarray(F):
            return F.__name__ == 'mxnet.ndarray'
        """,
    # imports nothing of MXNet: every function calls MXNet through F
    "fpk/ops.py": """\
        def attend(F, q, k):
            return F.softmax(F.batch_dot(q, k, transpose_b=True), axis=-1)

        # named otherwise: taken as the namespace because the model passes it (Note [namespace by flow])
        def gate(backend, x):
            return backend.broadcast_mul(backend.sigmoid(x), backend.tanh(x))

        def scale(x, ops=None):
            return ops.relu(x) * 0.5
        """,
    "fpk/distr.py": """\
        import math
        from .util import getF

        class Gaussian:
            def __init__(self, mu, sigma, F=None):
                self.mu = mu
                self.sigma = sigma
                self.F = F if F else getF(mu)

            def log_prob(self, x):
                F = self.F
                return -1.0 * (F.log(self.sigma) + 0.5 * math.log(2 * math.pi)
                               + 0.5 * F.square((x - self.mu) / self.sigma))

            def scale(self):
                F = getF(self.mu)
                return F.broadcast_mul(self.sigma, self.sigma)
        """,
    "fpk/model.py": """\
        from mxnet import gluon
        from .distr import Gaussian
        from .ops import attend, gate
        from .util import is_ndarray
        from . import ops

        class Net(gluon.HybridBlock):
            def hybrid_forward(self, F, x, y):
                g = Gaussian(x, F.exp(y), F=F)
                return g.log_prob(x) + F.batch_dot(attend(F, x, y), y) + gate(F, y) + g.scale() + ops.scale(x, ops=F) \\
                    + (x * 2.0 if is_ndarray(F) else x)
        """,
}


def test_the_namespace_flows_through_helpers_attributes_and_modules(tmp_path):
    out = convert_tree(tmp_path, TREE)
    assert not re.search(r"\b(F|backend|ops)\.", out["fpk/ops.py"]), out["fpk/ops.py"]  # no MXNet operator left
    assert "F.log" not in out["fpk/distr.py"] and "F.broadcast_mul" not in out["fpk/distr.py"]
    assert "F.batch_dot" not in out["fpk/model.py"]
    np = import_numpy()
    mx = import_mxnet()
    torch = import_torch()
    rng = np.random.default_rng(3)
    x = rng.uniform(0.5, 1.5, (2, 3, 4)).astype("float32")
    y = rng.uniform(-1.0, 1.0, (2, 3, 4)).astype("float32")
    sys.path.insert(0, str(tmp_path / "src"))
    try:
        expected = importlib.import_module("fpk.model").Net()(mx.nd.array(x), mx.nd.array(y)).asnumpy()
    finally:
        sys.path.remove(str(tmp_path / "src"))
        for name in [n for n in sys.modules if n == "fpk" or n.startswith("fpk.")]:
            del sys.modules[name]
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        got = importlib.import_module("fpk.model").Net()(torch.tensor(x), torch.tensor(y)).numpy()
    finally:
        sys.path.remove(str(tmp_path / "out"))
        for name in [n for n in sys.modules if n == "fpk" or n.startswith("fpk.")]:
            del sys.modules[name]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_a_module_of_f_helpers_is_converted_and_the_guess_is_reported():
    from xlate.convert.engine import convert_source
    result = convert_source("def gate(F, x):\n    return F.broadcast_mul(F.sigmoid(x), x)\n")
    assert result.output == "import torch\ndef gate(F, x):\n    return torch.sigmoid(x) * x\n"
    assert [(d.code, d.status, d.line) for d in result.diagnostics if d.code == "MX174"] == [("MX174", "review", 1)]


@pytest.mark.parametrize("source", [
    # F is torch's functional module here: never MXNet's namespace
    "import torch.nn.functional as F\ndef f(x):\n    return F.relu(x)\n",
    "from torch.nn import functional as F\ndef g(F, x):\n    return F.relu(x)\n",
])
def test_f_bound_by_the_module_is_left_alone(source):
    from xlate.convert.engine import convert_source
    result = convert_source(source)
    assert result.output == source and not result.diagnostics
