"""Constructs of production Gluon packages xlate was not tuned to (issue 21: gluonts, sockeye 2),
each as a class. The operators they brought (MX094-MX099) are compared with MXNet in
xlate.check.rule_cases (tests/test_numeric_ndarray.py)."""
import numpy as np
import pytest

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

mx.autograd = autograd  # gluonts' trainer: a no-op in MXNet, removed (MX837)
mx.nd.waitall = print  # a write into MXNet's module: the import it reads is kept


def double(x):
    return nd.relu(x) * 2


class Iter(mx.io.MXDataIter):  # a C++ iterator: no translation
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
    assert "mx.autograd = autograd" not in converted and "mx.nd.waitall = print" in converted
    assert "torch.relu(x) * 2" in converted
    done = subprocess.run([sys.executable, "-c", _RUN], cwd=out, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["[0.0, 4.0] PrintValueProp", "raised mxnet.io.MXDataIter"]


# -- a deferred parameter handed to an operator (sockeye's QuantizableDense) ----------------------------
_DEFERRED_FC = '''
from mxnet import gluon


class Dense(gluon.HybridBlock):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self._units = units
        self.weight = self.params.get("weight", shape=(units, 0), allow_deferred_init=True)

    def hybrid_forward(self, F, x, weight):
        return F.FullyConnected(x, weight, no_bias=True, num_hidden=self._units, flatten=False)
'''


@pytest.mark.mxnet
def test_a_deferred_weight_handed_to_fully_connected_takes_its_size_from_the_data():
    from tests.mxsupport import import_mxnet, import_torch
    from xlate.check.rule_cases import load

    mx, torch = import_mxnet(), import_torch()
    src = _DEFERRED_FC.lstrip("\n")
    mx_net = load(src, "Dense")(4)
    mx_net.initialize()
    x = np.random.default_rng(3).uniform(-1, 1, size=(2, 3, 5)).astype(np.float32)
    expected = mx_net(mx.nd.array(x)).asnumpy()
    pt_net = load(convert_source(src).output, "Dense")(4)
    pt_net(torch.tensor(x))  # the first call gives the weight its shape, (4, 5), as Gluon's does
    with torch.no_grad():
        pt_net.weight.copy_(torch.tensor(mx_net.weight.data().asnumpy()))
    np.testing.assert_allclose(pt_net(torch.tensor(x)).detach().numpy(), expected, rtol=1e-5, atol=1e-6)


def test_namespace_kept_on_self_resolves_where_it_is_called_through():
    # gluonts' kernels: `self.F = F if F else getF(x)`, then `self.F.op(...)` in other methods
    src = '''
from mxnet import nd


def getF(x):
    return nd


class Kernel:
    def __init__(self, amplitude, F=None):
        self.F = F if F else getF(amplitude)
        self.amplitude = amplitude

    def gram(self, x):
        return self.F.broadcast_mul(self.F.exp(x), self.amplitude)


class Normal:
    def __init__(self, mu):
        self.mu = mu

    @property
    def F(self):
        return getF(self.mu)

    def mean(self):
        return self.F.where(self.mu > 0, self.mu, self.F.zeros_like(self.mu))
'''
    out = convert_source(src.lstrip("\n")).output
    assert "return torch.exp(x) * self.amplitude" in out
    assert "self.F." not in out


def test_an_abstract_namespace_property_is_taken_by_its_name_and_said():
    # gluonts' Distribution: `def F(self): raise NotImplementedError()`, read by the base's own methods
    src = '''
from mxnet import nd


class Distribution:
    @property
    def F(self):
        raise NotImplementedError()

    def cdf_clipped(self, x):
        F = self.F
        return F.broadcast_minimum(x, F.ones_like(x))
'''
    result = convert_source(src.lstrip("\n"))
    assert "return _mx_minimum(x, torch.ones_like(x))" in result.output
    said = [d for d in result.diagnostics if d.code == "MX174"]
    assert len(said) == 1 and said[0].line == 6 and "abstract property `F`" in said[0].message


def test_a_stdlib_submodule_mxnet_imported_gets_its_own_import():
    # sockeye's data_io: `import multiprocessing` and `multiprocessing.pool.Pool`, loaded by `import mxnet`
    src = '''
import multiprocessing
import os
import mxnet as mx


def start(pool: multiprocessing.pool.Pool = None, n: int = 2):
    return mx.nd.zeros((n,)), os.path.join("a", "b")
'''
    out = convert_source(src.lstrip("\n")).output
    assert "import multiprocessing\nimport multiprocessing.pool  # MXNet's import loaded it" in out
    assert "import os.path" not in out  # os is no package: os.path is its attribute
    assert convert_source(out).output == out


def test_the_text_filter_before_the_submodule_parse_misses_no_read():
    """`_may_read` lets import_submodules skip its parse; a read spelled with spaces, a line
    break or parentheses between the two words still gets its import."""
    from xlate.convert.submodules import MXNET_LOADED, _may_read, import_submodules

    for i, dotted in enumerate(sorted(MXNET_LOADED)):
        root, sub = dotted.split(".")
        spelling = [f"{root}.{sub}", f"{root} . {sub}", f"({root}).{sub}", f"{root}.\\\n    {sub}"][i % 4]
        text = f"import {root}\nx = {spelling}\n"
        assert _may_read(text), text
        assert f"import {dotted}  #" in import_submodules(text), text
    assert not _may_read("import multiprocessing\nx = multiprocessing.cpu_count()\n")


@pytest.mark.parametrize("minimum", ["1.4.0", "1.9.1", "1.9.2", "1.10", "2.0.0"])
def test_a_check_of_mxnets_version_goes_exactly_where_mxnet_191_passes_it(minimum):
    """MX546: gluonnlp's `check_version(min, library=mx)` is dropped only where MXNet 1.9.1 (which
    the translation reproduces) passes it; gluonnlp's own check is the reference."""
    from mxsupport import import_mxnet
    mx = import_mxnet()
    nlp = pytest.importorskip("gluonnlp")
    try:
        nlp.utils.version.check_version(minimum, library=mx)
        passes = True
    except AssertionError:
        passes = False
    src = f"import mxnet as mx\nimport gluonnlp as nlp\nnlp.utils.check_version('{minimum}', library=mx)\n"
    result = convert_source(src)
    assert ("check_version" not in result.output) == passes, result.output
    assert [d.status for d in result.diagnostics if d.code == "MX546"] == ["fixed" if passes else "manual"]


def test_a_contexts_fields_are_mxnets_on_the_device_it_becomes():
    """MX549: the converted program reads MXNet's device_type/device_id/device_typeid off the
    torch.device each Context becomes (as MX501/MX502 write them); other values keep their own."""
    import types
    from mxsupport import import_mxnet
    mx = import_mxnet()
    torch = pytest.importorskip("torch")
    from xlate.runtime import load
    field = load()._mx_context_field
    pairs = [(mx.cpu(), torch.device("cpu")), (mx.cpu(3), torch.device("cpu", 3)), (mx.gpu(0), torch.device("cuda", 0)),
             (mx.gpu(2), torch.device("cuda", 2))]
    for context, device in pairs:
        for name in ("device_type", "device_id", "device_typeid"):
            assert field(device, name) == getattr(context, name), (context, name)
    assert field(types.SimpleNamespace(device_id=7), "device_id") == 7
    src = "import mxnet as mx\ndef ids(cs):\n    return [(c.device_type, c.device_id) for c in cs]\n"
    out = convert_source(src).output
    namespace = {}
    exec(out, namespace)  # the helper is pasted after the code
    assert namespace["ids"]([torch.device("cuda", 1), torch.device("cpu")]) == [("gpu", 1), ("cpu", 0)]


def test_a_method_no_ndarray_has_on_a_blocks_input_holds_nothing_back():
    """sockeye's BeamSearch.forward takes a lexicon object beside its arrays, and gluonts' attention a
    dict cache: a block's input is only taken for an array, so a method no NDArray has (MX917) is a
    review item there, and the values made from it still convert (they were held as MXNet's)."""
    src = '''
import mxnet as mx
from mxnet import gluon


class Search(gluon.Block):
    def forward(self, source, lexicon, cache):
        ids = lexicon.get_trg_ids(source.asnumpy())
        ids = mx.nd.array(ids, dtype='int32')
        keys = list(cache.keys())
        return mx.nd.concat(ids, ids, dim=0), keys
'''
    result = convert_source(src)
    assert "mx.nd" not in result.output and "torch.cat" in result.output
    assert [(d.code, d.status) for d in result.diagnostics if d.code == "MX917"] == [("MX917", "review")] * 2
    assert not [d for d in result.diagnostics if d.status == "manual"]
