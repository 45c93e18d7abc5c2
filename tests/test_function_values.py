"""MXNet functions of several parameters bound as values at module level (`zeros = np.zeros`, as
d2l's library binds them; Note [functions as values] in xlate/convert/func_values.py): the
converted module is run with torch and each binding is called from outside it, as a notebook calls
`d2l.zeros(...)`, with the argument patterns d2l's notebooks use (positional, keyword, defaults
left out); the result must be MXNet's function's on the same arguments, values and dtype.
"""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet


@pytest.fixture(autouse=True)
def _leave_mxnet_in_its_nd_mode():
    """The programs run `npx.set_np()`, which is process-wide: undo it for the next file's tests."""
    yield
    import_mxnet().util.reset_np()

LIBRARY = """
from mxnet import np, npx
ones = np.ones
zeros = np.zeros
zeros_like = np.zeros_like
ones_like = np.ones_like
arange = np.arange
meshgrid = np.meshgrid
linspace = np.linspace
normal = np.random.normal
matmul = np.dot
concat = np.concatenate
stack = np.stack
eye = np.eye
expand_dims = np.expand_dims
batch_matmul = npx.batch_dot
"""

# (binding, args, kwargs); "A"... name arrays (the same numbers on both sides); scale=0 makes
# normal's draw its loc exactly, so its values (and dtype and shape) are compared
CALLS = [
    ("zeros", ((2, 3),), {}), ("zeros", (4, "int32"), {}), ("zeros", (), {"shape": (2,), "dtype": "float64"}),
    ("ones", ((2, 2),), {}), ("ones", (3,), {"dtype": "int64"}),
    ("zeros_like", ("A",), {}), ("ones_like", ("A",), {"dtype": "int32"}),
    ("arange", (5,), {}), ("arange", (1, 4), {}), ("arange", (1, 3, 0.5), {}), ("arange", (6,), {"dtype": "int32"}),
    ("arange", (2, 9), {"step": 2}), ("arange", (-2.0, 2.0, 0.25), {}),
    ("meshgrid", ("v3", "v2"), {}),
    ("linspace", (0, 1, 5), {}), ("linspace", (-2, 3), {}), ("linspace", (0, 10), {"num": 7}),
    ("normal", (3.5, 0.0, (2, 3)), {}), ("normal", (), {"loc": -1.5, "scale": 0.0, "size": 4}),
    ("normal", (2.0, 0.0), {}),
    ("matmul", ("A", "B"), {}), ("matmul", ("v3", "v3"), {}), ("matmul", ("C3", "B"), {}),
    ("concat", (["A", "A2"],), {}), ("concat", (["A", "A2"], 1), {}),
    ("stack", (["A", "A2"],), {}), ("stack", (["A", "A2"],), {"axis": 2}),
    ("eye", (3,), {}), ("eye", (3, 4, 1), {}), ("eye", (2,), {"dtype": "int32"}), ("eye", (3,), {"k": -1}),
    ("expand_dims", ("A", 1), {}), ("expand_dims", ("A",), {"axis": 0}),
    ("batch_matmul", ("C3", "D3"), {}),
]


def _arrays(np):
    rs = np.random.RandomState(11)
    return {"A": rs.randn(2, 3), "A2": rs.randn(2, 3) * 3 + 1, "B": rs.randn(3, 4), "C3": rs.randn(2, 2, 3),
            "D3": rs.randn(2, 3, 5), "v3": rs.randn(3), "v2": rs.randn(2) - 2}


def _args(value, arrays, make):
    if isinstance(value, str) and value in arrays:
        return make(arrays[value].astype("float32"))
    if isinstance(value, list):
        return [_args(v, arrays, make) for v in value]
    return value


def _plain(value, np, torch):
    if isinstance(value, (tuple, list)):
        return [_plain(v, np, torch) for v in value]
    if isinstance(value, torch.Tensor):
        return str(value.dtype).rsplit(".", 1)[-1], value.detach().double().numpy()
    return np.dtype(value.dtype).name, value.asnumpy().astype("float64")


def test_bindings_called_from_another_module_give_mxnets_results():
    np, torch, mx = import_numpy(), import_torch(), import_mxnet()
    result = convert_source(LIBRARY)
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    assert "mxnet" not in "".join(ln for ln in result.output.splitlines() if ln.startswith(("from", "import")))
    converted, original = {}, {}
    exec(compile(result.output, "<converted>", "exec"), converted)
    exec(compile(LIBRARY, "<original>", "exec"), original)
    arrays = _arrays(np)
    bad = []
    for name, args, kwargs in CALLS:
        want = original[name](*_args(list(args), arrays, mx.np.array), **kwargs)
        got = converted[name](*_args(list(args), arrays, torch.tensor), **kwargs)
        w, g = _plain(want, np, torch), _plain(got, np, torch)
        pairs = list(zip(w, g)) if isinstance(w, list) else [(w, g)]
        if isinstance(w, list) and len(w) != len(g) or any(
                a[0] != b[0] or a[1].shape != b[1].shape or not np.allclose(a[1], b[1], rtol=1e-5, atol=1e-6)
                for a, b in pairs):
            bad.append(f"{name}{args} {kwargs}: MXNet {w} converted {g}")
    assert not bad, "\n".join(bad)


def test_a_parameter_the_translation_cannot_take_is_a_type_error():
    """`out=` is left out of the value's parameters: a caller passing it gets a TypeError, never
    a result that ignored it."""
    torch = import_torch()
    converted = {}
    exec(compile(convert_source(LIBRARY).output, "<converted>", "exec"), converted)
    a = torch.ones(2, 2)
    with pytest.raises(TypeError):
        converted["concat"]([a, a], 0, out=a)
    with pytest.raises(TypeError):
        converted["linspace"](0, 1, 5, endpoint=False)  # translated only as a literal


LIBRARY_TREE = {
    "d2l/__init__.py": "",
    "d2l/mxnet.py": """\
import sys
from mxnet import np, npx
from mxnet.gluon import nn
nn_Module = nn.Block
d2l = sys.modules[__name__]
tensor = np.array
zeros = np.zeros
arange = np.arange
class Module(d2l.nn_Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Dense(3, in_units=2)
nn_Module = nn.Block
""",
    "nb.py": """\
from d2l import mxnet as d2l
from mxnet import np, npx
npx.set_np()
features = np.arange(12.0).reshape(6, 2) * 0.5 - 1
idx = d2l.tensor([4, 1, 3])
picked = features[idx]
z = d2l.zeros((2, 3)) + d2l.arange(3) * 1.5
class Tiny(d2l.Module):
    def shapes(self):
        return [tuple(p.shape) for p in self.collect_params().values()]
tiny = Tiny()
tiny.initialize()
shapes = tiny.shapes()
""",
}


def _run_tree(root, module: str) -> dict:
    import sys

    sys.path.insert(0, str(root))
    try:
        scope = {"__name__": "__nb__"}
        exec(compile((root / f"{module}.py").read_text(), module, "exec"), scope)
        return scope
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == "d2l" or m.startswith("d2l.") or m == "_mx_compat"]:
            del sys.modules[name]


def test_another_modules_alias_is_the_mxnet_function_there(tmp_path):
    """A notebook's `d2l.tensor(idx)` (the library binds `tensor = np.array`) is MXNet's array,
    so `features[idx]` indexes as MXNet does with float indices (Note [module aliases]); a class
    deriving from `d2l.Module` (the library's `class Module(d2l.nn_Module)`, `nn_Module = nn.Block`
    bound twice, as v1.0.3's library does) is a Gluon block in the notebook."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from xlate.cli import main

    np, torch = import_numpy(), import_torch()
    import_mxnet()
    for rel, text in LIBRARY_TREE.items():
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / rel).write_text(text)
    with redirect_stderr(io.StringIO()), redirect_stdout(io.StringIO()):
        main(["convert", str(tmp_path / "src"), "-o", str(tmp_path / "out"), "-j", "1"])
    # and a class deriving, through the module, from the library's block is a block there too
    assert "_mx_index" in (tmp_path / "out" / "nb.py").read_text()
    assert "collect_params" not in (tmp_path / "out" / "nb.py").read_text()
    want, got = _run_tree(tmp_path / "src", "nb"), _run_tree(tmp_path / "out", "nb")
    assert want["shapes"] == got["shapes"]
    for name in ("picked", "z"):
        w, g = _plain(want[name], np, torch), _plain(got[name], np, torch)
        assert w[0] == g[0] and np.array_equal(w[1], g[1]), (name, w, g)


def test_a_value_computed_from_an_mxnet_call_is_no_binding():
    """`r = nd.abs(b).T` at module level binds a value, not MXNet's `abs`: reading `r` later is
    no MXNet reference (it was reported "`mxnet.ndarray.abs(b).T` has no rule yet" at each
    read, found by bench/drawn/typed.py), and the value is MXNet's."""
    mx, np, _ = import_mxnet(), import_numpy(), import_torch()
    source = ("from mxnet import nd\nb = nd.array([[1., -2., 3.], [-4., 5., -6.]])\n"
              "r = nd.abs(b).T\ns = nd.relu(b).shape\nouts = [r, s]\n")
    converted = convert_source(source)
    assert [d for d in converted.diagnostics if d.status == "manual"] == []
    mx_scope, pt_scope = {}, {}
    exec(source, mx_scope)
    exec(converted.output, pt_scope)
    np.testing.assert_array_equal(pt_scope["outs"][0].numpy(), mx_scope["outs"][0].asnumpy())
    assert tuple(pt_scope["outs"][1]) == mx_scope["outs"][1] == (2, 3)
