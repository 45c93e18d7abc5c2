"""Constructs of production Gluon packages xlate was not tuned to (issue 21: gluonts, sockeye 2),
each as a class. The operators they brought (MX094-MX099) are compared with MXNet in
xlate.check.rule_cases (tests/test_numeric_ndarray.py)."""
from xlate.convert.engine import convert_source


# -- F as a value: a property that gives the namespace (gluonts' distributions) -----------------------
def test_namespace_from_a_property_resolves_in_the_class_and_its_subclasses():
    src = '''
from mxnet import nd


def getF(x):
    return nd


class Normal:
    def __init__(self, mu):
        self.mu = mu

    @property
    def F(self):
        return getF(self.mu)

    def log_prob(self, x):
        F = self.F
        return F.square(x - self.mu)


class Shifted(Normal):
    def mean(self):
        F = self.F
        return F.exp(self.mu)
'''
    out = convert_source(src.lstrip("\n")).output
    assert "return torch.square(x - self.mu)" in out
    assert "return torch.exp(self.mu)" in out
    assert "F.square" not in out and "F.exp" not in out


# -- a module whose top-level code uses MXNet still imports without it (sockeye's utils, data_io) ---------
_TOP_LEVEL = '''
import mxnet as mx
import mxnet.autograd as autograd
from mxnet import nd

mx.autograd = autograd  # gluonts' trainer: an import still used by a statement is kept


def double(x):
    return nd.relu(x) * 2


class Iter(mx.io.DataIter):
    def __init__(self):
        super().__init__()


@mx.operator.register("PrintValue")
class PrintValueProp(mx.operator.CustomOpProp):
    pass
'''

_RUN = '''
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "mxnet" or name.startswith("mxnet."):
            raise ImportError("blocked")
sys.meta_path.insert(0, Block())
import torch
from pkg import utils
print(utils.double(torch.tensor([-1.0, 2.0])).tolist(), utils.PrintValueProp.__name__)
try:
    utils.Iter()
except ImportError as e:
    print("raised", str(e).split(" is ")[0])
'''


def test_top_level_mxnet_code_left_keeps_the_module_importable_without_mxnet(tmp_path):
    import subprocess
    import sys

    from xlate.cli import main

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "utils.py").write_text(_TOP_LEVEL.lstrip("\n"))
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "pkg"), "-o", str(out / "pkg"), "--exit-zero"]) == 0
    converted = (out / "pkg" / "utils.py").read_text()
    assert "mx.autograd = autograd" in converted and "torch.relu(x) * 2" in converted
    done = subprocess.run([sys.executable, "-c", _RUN], cwd=out, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["[0.0, 4.0] PrintValueProp", "raised mxnet.io.DataIter"]
