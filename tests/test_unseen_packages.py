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
