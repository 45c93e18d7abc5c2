"""MXNet's namespace returned by a function, alone or among other values (issue 21, item 1; Note
[namespace in a returned tuple] in xlate/convert/kinds.py): MXNet's own rnn_cell.py writes
`inputs, axis, F, batch_size = _format_sequence(...)`. Each spelling of the table converts every
`F.op`, or, where the function may return something else, leaves it reported at its line; a tree
where the helper lives in another module computes MXNet's numbers."""
from __future__ import annotations

import importlib
import sys

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from test_package import convert_tree

pytestmark = pytest.mark.mxnet

_FORMAT = """\
from mxnet import ndarray, symbol

def _format(x, layout):
    if isinstance(x, symbol.Symbol):
        F = symbol
    else:
        F = ndarray
    return {ret}
"""

# (what _format returns, the caller's unpacking): the namespace at any place, a list target, a
# return handed on from another helper, a method on self, a parameter rebound to the namespace
SPELLINGS = [
    ("x, layout.find('T'), F", "x, axis, G = _format(x, layout)"),
    ("F, x", "G, x = _format(x, layout)"),
    ("x, F", "[x, G] = _format(x, layout)"),
    ("(x, F) if layout else (x, ndarray)", "x, G = _format(x, layout)"),  # either branch gives it
]


@pytest.mark.parametrize("ret,unpack", SPELLINGS)
def test_the_unpacked_namespace_converts(ret, unpack):
    from xlate.convert.engine import convert_source
    body = f"def unroll(x, layout):\n    {unpack}\n    return G.concat(x, G.relu(x), dim=1)\n"
    out = convert_source(_FORMAT.format(ret=ret) + "\n" + body).output
    assert "G.concat" not in out and "G.relu" not in out and "torch.cat([x, torch.relu(x)], dim=1)" in out, out


@pytest.mark.parametrize("source", [
    # handed on: `return _format(...)` in a second helper
    _FORMAT.format(ret="x, F") + "\ndef _again(x):\n    return _format(x, 'NTC')\n\n"
    "def unroll(x):\n    x, G = _again(x)\n    return G.relu(x)\n",
    # a method of the class returns it
    "from mxnet import nd, gluon\n\nclass Cell(gluon.Block):\n    def _fmt(self, x):\n        return x, nd\n\n"
    "    def unroll(self, x):\n        x, G = self._fmt(x)\n        return G.relu(x)\n",
    # a parameter named F, rebound to the namespace a helper gives (gluonts' NanMixture)
    "from mxnet import nd\n\ndef getF(x):\n    return nd\n\nclass Mix:\n    def __init__(self, x, F=None):\n"
    "        F = getF(x)\n        self.y = F.relu(x)\n",
])
def test_the_namespace_flows_on(source):
    from xlate.convert.engine import convert_source
    out = convert_source(source).output
    assert "torch.relu(x)" in out and ".relu(x)" not in out.replace("torch.relu(x)", ""), out


def test_a_place_that_is_not_always_the_namespace_is_reported_at_its_line():
    from xlate.convert.engine import convert_source
    source = (_FORMAT.format(ret="(x, F) if layout else (x, x)") + "\ndef unroll(x, layout):\n"
              "    x, G = _format(x, layout)\n    return G.relu(x)\n")
    result = convert_source(source)
    line = source.splitlines().index("    return G.relu(x)") + 1
    assert "G.relu(x)" in result.output
    assert any(d.line == line and d.status == "manual" for d in result.diagnostics), result.diagnostics


@pytest.mark.parametrize("ret,converted", [("x, F", True), ("(x, F) if layout else (x, x)", False)])
def test_across_modules_the_place_converts_or_is_reported_at_its_line(tmp_path, ret, converted):
    # the module unpacking it imports nothing else of MXNet: the helper's fact makes it MXNet code
    from xlate.convert.engine import convert_source
    from xlate.convert.package import tree_contexts
    files = {"mpk/__init__.py": "", "mpk/fmt.py": _FORMAT.format(ret=ret),
             "mpk/use.py": "from .fmt import _format\n\ndef unroll(x, layout):\n    x, G = _format(x, layout)\n"
                           "    return G.relu(x)\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    contexts = tree_contexts(tmp_path, sorted(tmp_path.rglob("*.py")), lambda p: p.read_text())
    result = convert_source(files["mpk/use.py"], options={"context": contexts[tmp_path / "mpk/use.py"]})
    if converted:
        assert "return torch.relu(x)" in result.output, result.output
    else:
        assert "G.relu(x)" in result.output
        assert [(d.line, d.status) for d in result.diagnostics if d.line == 5] == [(5, "manual")], result.diagnostics


TREE = {
    "rpk/__init__.py": "",
    # MXNet's _format_sequence, cut down: the namespace among the values it returns
    "rpk/seq.py": """\
        from mxnet import ndarray, symbol

        def format_sequence(length, inputs, layout, merge):
            axis = layout.find('T')
            if isinstance(inputs, symbol.Symbol):
                F = symbol
            else:
                F = ndarray
                inputs = list(ndarray.split(inputs, axis=axis, num_outputs=length, squeeze_axis=1))
            return inputs, axis, F, inputs[0].shape[0]

        def begin_state(F, batch_size, hidden):
            return F.zeros((batch_size, hidden))
        """,
    "rpk/cell.py": """\
        from mxnet import gluon
        from .seq import format_sequence, begin_state

        class Cell(gluon.Block):
            def __init__(self, hidden, **kwargs):
                super(Cell, self).__init__(**kwargs)
                self.dense = gluon.nn.Dense(hidden, in_units=3 + hidden, flatten=False)
                self.hidden = hidden

            def unroll(self, length, inputs, layout='NTC'):
                inputs, axis, F, batch_size = format_sequence(length, inputs, layout, False)
                state = begin_state(F, batch_size, self.hidden)
                outputs = []
                for step in inputs:
                    state = F.tanh(self.dense(F.concat(step, state, dim=1)))
                    outputs.append(state)
                return F.stack(*outputs, axis=axis)
        """,
}


def test_a_cell_unrolled_through_a_returned_namespace_computes_mxnets_numbers(tmp_path):
    out = convert_tree(tmp_path, TREE)
    assert "F." not in out["rpk/cell.py"], out["rpk/cell.py"]
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    rng = np.random.default_rng(7)
    x = rng.uniform(-1.0, 1.0, (2, 4, 3)).astype("float32")
    weight = rng.uniform(-0.5, 0.5, (5, 8)).astype("float32")
    bias = rng.uniform(-0.5, 0.5, (5,)).astype("float32")

    def run(root, array, setup):
        sys.path.insert(0, str(tmp_path / root))
        try:
            cell = importlib.import_module("rpk.cell").Cell(5)
            setup(cell)
            return cell.unroll(4, array(x))
        finally:
            sys.path.remove(str(tmp_path / root))
            for name in [n for n in sys.modules if n == "rpk" or n.startswith("rpk.")]:
                del sys.modules[name]

    def mx_setup(cell):
        cell.initialize()
        cell.dense.weight.set_data(mx.nd.array(weight))
        cell.dense.bias.set_data(mx.nd.array(bias))

    def pt_setup(cell):
        with torch.no_grad():
            cell.dense.weight.copy_(torch.tensor(weight))
            cell.dense.bias.copy_(torch.tensor(bias))

    expected = run("src", mx.nd.array, mx_setup).asnumpy()
    got = run("out", torch.tensor, pt_setup).detach().numpy()
    assert got.shape == expected.shape == (2, 4, 5)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)



# Note [a package returned by a helper]: MXNet's packages returned by a lazy-import helper of another module
# (autogluon's try_import_gluonnlp) or of the same one, bound once in a function
LAZY_TREE = {
    "lpk/__init__.py": "",
    "lpk/lazy.py": """\
        def try_import_gluonnlp():
            try:
                import gluonnlp
            except ImportError:
                raise ImportError("install gluonnlp")
            return gluonnlp
        """,
    "lpk/batch.py": """\
        from .lazy import try_import_gluonnlp

        def _mxnet():
            import mxnet
            return mxnet

        def batchify(samples):
            nlp = try_import_gluonnlp()
            fn = nlp.data.batchify.Tuple(nlp.data.batchify.Pad(axis=0, pad_val=-1), nlp.data.batchify.Stack())
            return fn(samples)

        def squash(x):
            m = _mxnet()
            return m.nd.relu(x) * m.nd.sigmoid(x)
        """,
}


def test_a_package_a_helper_returns_translates_where_it_is_used(tmp_path):
    out = convert_tree(tmp_path, LAZY_TREE)
    assert "nlp.data" not in out["lpk/batch.py"] and "m.nd" not in out["lpk/batch.py"], out["lpk/batch.py"]
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    rng = np.random.default_rng(3)
    samples = [(rng.integers(0, 9, n).astype("int32"), int(rng.integers(0, 5))) for n in (3, 5, 2)]
    x = rng.uniform(-2.0, 2.0, (3, 4)).astype("float32")

    def run(root, array):
        sys.path.insert(0, str(tmp_path / root))
        try:
            batch = importlib.import_module("lpk.batch")
            return batch.batchify(samples), batch.squash(array(x))
        finally:
            sys.path.remove(str(tmp_path / root))
            for name in [n for n in sys.modules if n == "lpk" or n.startswith("lpk.")]:
                del sys.modules[name]

    (mx_tokens, mx_labels), mx_y = run("src", mx.nd.array)
    (pt_tokens, pt_labels), pt_y = run("out", torch.tensor)
    np.testing.assert_array_equal(pt_tokens.numpy(), mx_tokens.asnumpy())
    np.testing.assert_array_equal(pt_labels.numpy(), mx_labels.asnumpy())
    assert str(pt_tokens.dtype).split(".")[-1] == np.dtype(mx_tokens.dtype).name and mx_tokens.shape == (3, 5)
    np.testing.assert_allclose(pt_y.numpy(), mx_y.asnumpy(), rtol=1e-6, atol=1e-7)


# Note [symbol and Module values]: Modules built in one module of the tree, handed to a training script by a
# function (alone, at a place of a returned tuple, through a function that returns another's), and the Module's
# methods there: each left and reported at its line, `backward()` never taken for an NDArray's
@pytest.mark.parametrize("ret,call,unpack", [
    ("gen, dis", "make()", "gen, dis = {}"),
    ("gen, dis", "make()", "(gen, dis) = {}"),
    ("dis", "make()", "dis = {}"),
    ("_make()", "make()", "gen, dis = {}"),
    ("gen, dis", "mods.make()", "gen, dis = {}"),
])
def test_module_api_values_from_another_module_are_reported_at_each_line(tmp_path, ret, call, unpack):
    from xlate.convert.engine import convert_source
    from xlate.convert.package import tree_contexts
    mods = ("import mxnet as mx\n\ndef _make():\n    gen = mx.mod.Module(mx.sym.var('x'))\n"
            "    dis = mx.mod.Module(mx.sym.var('y'))\n    return gen, dis\n\n"
            "def make():\n    gen, dis = _make()\n    return {}\n").format(ret)
    use = ("from mpk import mods\nfrom mpk.mods import make\nimport mxnet as mx\n\n" + unpack.format(call) +
           "\ndis.forward(batch, is_train=True)\nout = dis.get_outputs()[0]\ndis.backward()\n"
           "grads = [g.copyto(g.context) for g in dis._exec_group.grad_arrays]\nx = mx.nd.ones((2,))\n")
    files = {"mpk/__init__.py": "", "mpk/mods.py": mods, "mpk/train.py": use}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    contexts = tree_contexts(tmp_path, sorted(tmp_path.rglob("*.py")), lambda p: p.read_text())
    result = convert_source(use, options={"context": contexts[tmp_path / "mpk/train.py"]})
    assert "dis.backward()" in result.output and "_mx_array_backward" not in result.output, result.output
    assert [d.line for d in result.diagnostics if d.code == "MX921"] == [6, 7, 8, 9], result.diagnostics


def test_module_api_values_in_the_file_are_reported_at_each_line():
    # a Module kept on `self`, one handed to a function, the symbol a checkpoint gives: each use at its line
    from xlate.convert.engine import convert_source
    source = ("import mxnet as mx\nclass Runner(object):\n    def __init__(self, sym):\n"
              "        self.mod = None\n        self.mod = mx.mod.Module(sym)\n    def step(self, batch):\n"
              "        self.mod.forward(batch)\n        return self.mod.get_outputs()[0]\n"
              "def score(model, it):\n    return model.score(it, 'acc')\n"
              "sym, args, aux = mx.model.load_checkpoint('m', 1)\nscore(mx.mod.Module(sym), None)\n"
              "print(sym.list_arguments())\n")
    result = convert_source(source)
    assert [d.line for d in result.diagnostics if d.code == "MX921"] == [7, 8, 10, 13], result.diagnostics
