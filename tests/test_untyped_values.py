"""Values xlate cannot type, against live MXNet (issue 21): a full reduction of one (`loss.mean()` on
what another module returns) has NDArray's shape (1,) at run time, mx.np's () in a file of the
numpy dialect, and a NumPy array's own result (Note [untyped full reductions]); a converted value's
dtype compared with a string or a NumPy dtype (MX806) gives what MXNet's comparison gives."""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

pytestmark = pytest.mark.mxnet

OPS = ("sum", "mean", "max", "min", "prod")
ND_SOURCE = ("from mxnet import nd\n\ndef reduce_all(loss):\n    return "
             + ", ".join(f"loss.{op}()" for op in OPS) + "\n")


def _run(source: str, name: str):
    from xlate.convert.engine import convert_source
    result = convert_source(source)
    space: dict = {}
    exec(compile(result.output, "<converted>", "exec"), space)
    return result, space[name]


def test_untyped_full_reductions_have_ndarrays_shape_and_gradient():
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, reduce_all = _run(ND_SOURCE, "reduce_all")
    assert result.output.count("_mx_reduce_method(loss, ") == len(OPS), result.output
    original: dict = {}
    exec(ND_SOURCE, original)
    rng = np.random.default_rng(11)
    for shape in [(3,), (2, 3), (2, 1, 3)]:
        x = rng.uniform(0.5, 1.5, shape).astype("float32")
        x.flat[-1] = x.max()  # a tie: MXNet gives each tied maximum the whole gradient
        mx_x = mx.nd.array(x)
        mx_x.attach_grad()
        with mx.autograd.record():
            want = original["reduce_all"](mx_x)
            mx.nd.add_n(*want).backward()
        pt_x = torch.tensor(x, requires_grad=True)
        got = reduce_all(pt_x)
        sum(got).backward()
        for op, w, g in zip(OPS, want, got):
            assert tuple(g.shape) == w.shape == (1,), (op, shape)
            np.testing.assert_allclose(g.detach().numpy(), w.asnumpy(), rtol=1e-6, err_msg=op)
        np.testing.assert_allclose(pt_x.grad.numpy(), mx_x.grad.asnumpy(), rtol=1e-5, atol=1e-6)
        assert [np.shape(v) for v in reduce_all(x)] == [()] * len(OPS)  # a NumPy array: its own methods


def test_untyped_full_reductions_in_the_numpy_dialect_are_0d():
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    source = "from mxnet import np, npx\nnpx.set_np()\n\ndef total(loss):\n    return loss.mean()\n"
    result, total = _run(source, "total")
    assert "_mx_reduce_method" not in result.output
    x = np.random.default_rng(2).uniform(-1.0, 1.0, (2, 3)).astype("float32")
    with mx.util.np_shape(True), mx.util.np_array(True):  # set_np for this block only: the flags are global
        want = mx.np.array(x).mean()
    got = total(torch.tensor(x))
    assert tuple(got.shape) == want.shape == ()
    np.testing.assert_allclose(got.numpy(), want.asnumpy(), rtol=1e-6)


DTYPE_SOURCE = """\
import numpy as np
from mxnet import nd
INT8 = 'int8'

def checks(w, x):
    return (w.dtype == INT8, w.dtype != INT8, x.dtype == np.float16, np.float16 != x.dtype,
            x.dtype == np.dtype('float32'), x.dtype != np.float32, x.dtype is np.float16, x.dtype is not np.float32)
"""


@pytest.mark.parametrize("w_dtype,x_dtype", [("int8", "float16"), ("float32", "float32"), ("int8", "float32")])
def test_dtype_comparisons_mean_what_mxnets_do(w_dtype, x_dtype):
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, checks = _run(DTYPE_SOURCE, "checks")
    assert [d.code for d in result.diagnostics].count("MX806") == 8  # `is` against a NumPy type: its == there
    original: dict = {}
    exec(DTYPE_SOURCE, original)
    # a Parameter's dtype is what it was given (sockeye's `dtype=C.DTYPE_INT8`), an NDArray's NumPy's
    w = mx.gluon.Parameter("w", shape=(2,), dtype=w_dtype, init=mx.init.Zero())
    w.initialize()
    want = original["checks"](w, mx.nd.zeros((2,), dtype=x_dtype))
    got = checks(torch.zeros(2, dtype=getattr(torch, w_dtype)), torch.zeros(2, dtype=getattr(torch, x_dtype)))
    assert got == want


def test_an_ndarrays_dtype_against_a_string_is_marked_for_review():
    from xlate.convert.engine import convert_source
    result = convert_source("from mxnet import nd\nx = nd.zeros(2)\nhalf = x.dtype == 'float16'\n")
    assert [(d.code, d.status, d.line) for d in result.diagnostics if d.code == "MX806"] == [("MX806", "review", 3)]


def test_an_untyped_values_dtype_against_a_string_is_marked_for_review_where_it_may_be_an_ndarray():
    """`ident(b).dtype == 'float32'`: False in MXNet on an NDArray, the helper's True was reported fixed;
    code that handles no MXNet array (a NumPy pipeline) and the numpy dialect keep it fixed."""
    from xlate.convert.engine import convert_source
    source = ("import numpy as np\nfrom mxnet import nd\n\ndef half(x):\n    return nd.relu(x), x.dtype == 'float16'\n\n"
              "def is_byte(img):\n    return np.asarray(img).dtype == 'uint8', img.dtype != 'uint8'\n")
    statuses = [(d.line, d.status) for d in convert_source(source).diagnostics if d.code == "MX806"]
    assert statuses == [(5, "review"), (8, "fixed")], statuses
    dialect = "from mxnet import np, npx\nnpx.set_np()\n\ndef half(x):\n    return np.abs(x), x.dtype == 'float16'\n"
    assert [d.status for d in convert_source(dialect).diagnostics if d.code == "MX806"] == ["fixed"]


SPELLINGS = ["float32", "float16", "float64", "int8", "int32", "int64", "uint8", "bool", "nonsense"]


def test_the_helper_agrees_with_numpys_dtype_equality_on_every_spelling():
    np, torch = import_numpy(), import_torch()
    from xlate.runtime import load  # the helpers read one another's names: one module holds them all
    _mx_dtype_equal = load()._mx_dtype_equal
    kinds = [lambda s: s, lambda s: np.dtype(s), lambda s: np.dtype(s).type]  # 'int8', dtype('int8'), numpy.int8
    for name in SPELLINGS[:-1]:
        t = getattr(torch, name)
        for other in SPELLINGS:
            for spell in kinds if other != "nonsense" else kinds[:1]:
                value = spell(other)
                want = other != "nonsense" and np.dtype(name) == np.dtype(other)
                assert _mx_dtype_equal(t, value) is want and _mx_dtype_equal(value, t) is want, (name, value)
    assert _mx_dtype_equal("int8", "int8") and not _mx_dtype_equal("float", "float64")  # no torch dtype: ==
    assert _mx_dtype_equal(torch.float64, float) and _mx_dtype_equal(torch.int64, int)


def test_untyped_take_takes_rows_as_mxnet_and_leaves_numpy_its_own():
    """`net(x).take(ids, axis=-1)` (sockeye's test of vocabulary selection): torch's own `take`
    indexes the flattened tensor; a NumPy array keeps its own take."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    source = ("from mxnet import nd\n\ndef pick(y, ids):\n"
              "    return y.take(ids, axis=-1), y.take(ids), y.take(ids, axis=1, mode='wrap')\n")
    result, pick = _run(source, "pick")
    assert result.output.count("_mx_take_method(y, ") == 3, result.output
    original: dict = {}
    exec(source, original)
    rng = np.random.default_rng(4)
    y = rng.normal(size=(2, 3, 5)).astype("float32")
    ids = np.array([4.0, 0.0, 2.7, 7.0], dtype="float32")  # float ids, one past the end
    want = original["pick"](mx.nd.array(y), mx.nd.array(ids))
    got = pick(torch.tensor(y), torch.tensor(ids))
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g.numpy(), w.asnumpy())
    int_ids = np.array([1, 0])
    for g, w in zip(pick(y, int_ids), (y.take(int_ids, axis=-1), y.take(int_ids), y.take(int_ids, axis=1, mode="wrap"))):
        np.testing.assert_array_equal(g, w)


PROBES = '''
import numpy as np
from mxnet import nd


def as_numpy(x):
    if hasattr(x, 'asnumpy'):
        x = x.asnumpy()
    return x, hasattr(x, 'numpy'), hasattr(x, 'context')
'''


def test_a_values_probe_of_ndarrays_api_answers_as_ndarray_did():
    """MX191: `hasattr(x, 'asnumpy')` is True for an NDArray and False for a tensor; converted, a
    tensor (an NDArray, converted) answers as NDArray did and a NumPy array for itself."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, as_numpy = _run(PROBES, "as_numpy")
    original: dict = {}
    exec(PROBES, original)
    values = np.arange(1.5, 4.5, dtype="float32")
    for mx_value, pt_value in [(mx.nd.array(values), torch.tensor(values)), (values, values)]:
        want, got = original["as_numpy"](mx_value), as_numpy(pt_value)
        assert want[1:] == got[1:] and type(want[0]) is type(got[0]) is np.ndarray, (want, got)
        np.testing.assert_array_equal(want[0], got[0])


COMPARE_SOURCE = """\
from mxnet import nd

def hard_negatives(cls_targets, losses, ratio):
    out = []
    for ct, loss in zip(cls_targets, losses):
        pos = ct > 0
        neg = ct == 0
        rank = loss * (pos - 1)
        hard = rank < pos.sum(axis=1, keepdims=True) * ratio
        out.append((nd.where(pos + hard > 0, loss, nd.zeros_like(loss)), neg.mean(), 0 < ct))
    if len(cls_targets) > 1 and not ratio < 0:
        return out, ratio > 1
    return out, None

def strides(stride, channels, in_channels):
    return stride != 1 or channels != in_channels, len(channels) > 1

def picked(x, t):
    return x[t > 0]
"""


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_comparisons_of_untyped_values_give_mxnets_dtype(dtype):
    """Note [comparisons of untyped values]: `pos = ct > 0` on a loop variable over arrays is MXNet's 0/1
    in the arrays' dtype (`pos - 1` raised on torch's bool); a truth value, an index, a comparison of
    numbers or sizes stays as written; a NumPy value gets its own bool."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, _ = _run(COMPARE_SOURCE, "hard_negatives")
    assert [d.code for d in result.diagnostics].count("MX542") == 5, result.output  # pos, neg, hard, 0 < ct, ratio > 1
    assert all(d.counts is False for d in result.diagnostics if d.code == "MX542")
    for kept in ("len(cls_targets) > 1", "not ratio < 0", "stride != 1 or channels != in_channels",
                 "len(channels) > 1", "x[t > 0]"):
        assert kept in result.output, kept
    space: dict = {}
    exec(compile(result.output, "<converted>", "exec"), space)
    original: dict = {}
    exec(COMPARE_SOURCE, original)
    rng = np.random.default_rng(5)
    targets = [rng.integers(0, 3, (2, 6)).astype(dtype) for _ in range(2)]
    losses = [rng.uniform(0, 1, (2, 6)).astype(dtype) for _ in range(2)]
    want, want_flag = original["hard_negatives"]([mx.nd.array(t, dtype=dtype) for t in targets],
                                                 [mx.nd.array(v, dtype=dtype) for v in losses], 3)
    got, got_flag = space["hard_negatives"]([torch.tensor(t) for t in targets], [torch.tensor(v) for v in losses], 3)
    assert got_flag is want_flag is True
    for w_row, g_row in zip(want, got):
        for w, g in zip(w_row, g_row):
            assert str(g.dtype).split(".")[-1] == str(w.dtype.__name__ if hasattr(w.dtype, "__name__") else w.dtype)
            np.testing.assert_allclose(g.numpy(), w.asnumpy(), rtol=1e-6)
    assert space["_mx_compare"](targets[0], ">", 0).dtype == np.bool_  # a NumPy array: NumPy's own bool
    assert space["_mx_compare"](2, "<=", 3) is True


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32"])
def test_untyped_reductions_of_integer_arrays_stay_in_their_dtype(dtype):
    """MXNet sums and multiplies an integer array in its own dtype (wrapping) and its mean truncates;
    torch's sum and prod give int64 and its mean refuses integers."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    _, reduce_all = _run(ND_SOURCE, "reduce_all")
    x = np.array([[100, 7, 3], [100, 100, 5]] if dtype != "int8" else [[100, -7, 3], [100, 100, -5]], dtype=dtype)
    want = mx.nd.array(x, dtype=dtype)
    for op, got in zip(OPS, reduce_all(torch.tensor(x))):
        w = getattr(want, op)()
        assert got.dtype == getattr(torch, dtype) and w.dtype == np.dtype(dtype), op
        np.testing.assert_array_equal(got.numpy(), w.asnumpy(), err_msg=op)


ONLY_MXNET_SOURCE = """\
from mxnet import nd

def features(x, labels, sizes):
    parts = labels.split_v2(indices_or_sections=sizes, axis=0)
    return x.cbrt(), x.depth_to_space(2), x.radians(), parts[1]
"""


def test_mxnet_only_methods_on_untyped_values_are_mxnets():
    """Note [array methods without a method rule]: `x.cbrt()`, `labels.split_v2(...)` on a function's
    parameter: no NumPy array, torch tensor or builtin has these methods, so the receiver is an MXNet
    array; they were left as written, with no report, and raised AttributeError on the tensor."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, features = _run(ONLY_MXNET_SOURCE, "features")
    assert ".cbrt()" not in result.output and ".split_v2(" not in result.output, result.output
    original: dict = {}
    exec(ONLY_MXNET_SOURCE, original)
    x = np.random.default_rng(4).uniform(-2, 2, (1, 8, 2, 3)).astype("float32")
    labels = np.arange(10, dtype="float32").reshape(5, 2)
    want = original["features"](mx.nd.array(x), mx.nd.array(labels), (2, 3))
    got = features(torch.tensor(x), torch.tensor(labels), (2, 3))
    for w, g in zip(want, got):
        assert tuple(g.shape) == w.shape
        np.testing.assert_allclose(g.numpy(), w.asnumpy(), rtol=1e-6, atol=1e-7)
    from xlate.convert.engine import convert_source  # a module defining such a method keeps its calls as written
    kept = convert_source("from mxnet import nd\n\nclass Angle:\n    def radians(self):\n        return 1.0\n\n"
                          "def f(a):\n    return a.radians()\n").output
    assert "return a.radians()" in kept


_OPS = ("==", "!=", "<", "<=", ">", ">=")


def _comparison_program(op: str, array_left: bool, use: str) -> str:
    side = "v" if array_left else "0.5"
    other = "0.5" if array_left else "v"
    cmp = f"{side} {op} {other}"
    body = {"kept": f"    m = {cmp}\n    return m - 1, m.sum()\n",
            "returned": f"    return ({cmp}) * v, nd.relu(v)\n",
            "tested": f"    if ({cmp}).sum() > 0:\n        return v * 2, nd.relu(v)\n    return v, nd.relu(v)\n"}[use]
    return "from mxnet import nd\n\ndef f(v):\n    w = nd.relu(v)\n" + body


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_comparison_spellings_of_untyped_values_agree_with_mxnet_and_numpy(dtype):
    """Note [comparisons of untyped values], drawn: each operator, the array on either side, the result kept
    and computed with, returned in arithmetic, or read as a truth value; an MXNet array in MXNet against its
    tensor converted (values and dtype), and a NumPy array, which keeps NumPy's own answer."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()

    @settings(max_examples=12, deadline=None, derandomize=True)
    @given(op=st.sampled_from(_OPS), array_left=st.booleans(), use=st.sampled_from(["kept", "returned", "tested"]),
           seed=st.integers(0, 2 ** 16))
    def check(op, array_left, use, seed):
        source = _comparison_program(op, array_left, use)
        result, converted = _run(source, "f")
        original: dict = {}
        exec(source, original)
        x = np.random.default_rng(seed).integers(-2, 3, (2, 3)).astype(dtype)
        want = original["f"](mx.nd.array(x, dtype=dtype))
        got = converted(torch.tensor(x))
        for w, g in zip(want, got):
            assert str(g.dtype).rsplit(".", 1)[-1] == np.dtype(w.dtype).name, (source, result.output)
            np.testing.assert_array_equal(g.numpy(), w.asnumpy(), err_msg=source)
        if use == "kept":  # NumPy's comparison stays NumPy's bool array
            mask = converted.__globals__["_mx_compare"](x, op, 0.5) if "_mx_compare" in result.output else None
            assert mask is None or mask.dtype == np.bool_

    check()


EMBEDDING_SOURCE = """\
import numpy as np
from mxnet import nd


class ExternalEmbedding:
    def __init__(self, num, dim, ctx):
        self.emb = nd.empty((num, dim), dtype=np.float32, ctx=ctx)

    def __call__(self, idx):
        if self.emb.context != idx.context:
            idx = idx.as_in_context(self.emb.context)
        return nd.take(self.emb, idx) * 2

    def load(self, values):
        self.emb = nd.array(values)
"""


def test_an_attribute_the_class_only_binds_to_mxnet_arrays_is_one():
    """dgl-ke's ExternalEmbedding: `self.emb` is bound to NDArrays alone in its class, so `self.emb.context`
    is an array's device; it stayed as written (taken for an object's setting, as `self.ctx` is) and
    raised AttributeError on the converted tensor. `self.<attr>.ctx` of an attribute xlate cannot type is
    decided at run time; `self.ctx` itself stays."""
    from xlate.convert.engine import convert_source
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, _ = _run(EMBEDDING_SOURCE, "ExternalEmbedding")
    assert ".context" not in result.output.split("def _mx_")[0], result.output
    space, original = {}, {}
    exec(compile(result.output, "<converted>", "exec"), space)
    exec(EMBEDDING_SOURCE, original)
    values = np.random.default_rng(8).uniform(-1, 1, (5, 3)).astype("float32")
    ours, theirs = space["ExternalEmbedding"](5, 3, torch.device("cpu")), original["ExternalEmbedding"](5, 3, mx.cpu())
    ours.load(values)
    theirs.load(values)
    idx = np.array([4, 0, 2], dtype="float32")
    np.testing.assert_array_equal(ours(torch.tensor(idx)).numpy(), theirs(mx.nd.array(idx)).asnumpy())
    out = convert_source("from mxnet import nd\n\nclass T:\n    def __init__(self, learner, ctx):\n"
                         "        self.learner, self.ctx = learner, ctx\n\n    def run(self, x):\n"
                         "        return x.as_in_context(self.learner.ctx), self.ctx\n").output
    assert "_mx_device_of(self.learner, 'ctx')), self.ctx" in out


def test_storage_type_is_mxnets_and_the_c_handle_is_said_on_arrays_only():
    """`x.stype` stayed as written and raised AttributeError on the converted tensor, with nothing reported
    (MX821 now gives MXNet's 'default' for a dense array, and any other value's own); `x.handle` and
    `x.writable` are reported on a proven NDArray (MX822) and left alone elsewhere (`self.handle` of a file)."""
    mx, torch = import_mxnet(), import_torch()
    source = ("from mxnet import nd\n\nx = nd.ones((2,))\n\ndef kinds(y):\n    return x.stype, y.stype\n\n"
              "class Stream:\n    def __init__(self, handle):\n        self.handle = handle\n\n"
              "    def fileno(self):\n        return self.handle, x.handle\n")
    result, kinds = _run(source, "kinds")
    original: dict = {}
    exec(source, original)
    assert kinds(torch.zeros(3)) == original["kinds"](mx.nd.zeros(3)) == ("default", "default")
    assert [(d.line, d.code, d.status) for d in result.diagnostics if d.code in ("MX821", "MX822")] == [
        (6, "MX821", "fixed"), (6, "MX821", "fixed"), (13, "MX822", "manual")]


def test_a_comparison_as_an_index_reads_positions_as_mxnet_does():
    """Note [a comparison as an index]: `x[x > 0]` on NDArrays gathers rows 0 and 1 in MXNet 1.x, and
    `x[x < 0] = 0` sets whole rows; made float the index raised in torch. Both keep MXNet's numbers, for review."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    source = ("from mxnet import nd\n\ndef f(v):\n    x = nd.array(v)\n    y = x[x > 0]\n    x[x < 0] = 0\n"
              "    return y, x\n")
    result, f = _run(source, "f")
    original: dict = {}
    exec(source, original)
    v = [[-1.0, 2.0], [3.0, -4.0]]
    for w, g in zip(original["f"](v), f(v)):
        np.testing.assert_array_equal(g.numpy(), w.asnumpy())
    assert [(d.code, d.status) for d in result.diagnostics if d.code == "MX540"] == [("MX540", "review")] * 2
    # a comparison of values xlate cannot type as an index: positions for a tensor, NumPy's mask for NumPy
    untyped = "from mxnet import nd\n\ndef g(x, t):\n    y = nd.relu(x)\n    return y[t > 0]\n"
    result, g = _run(untyped, "g")
    exec(untyped, original)
    assert [(d.code, d.status) for d in result.diagnostics if d.code == "MX542"] == [("MX542", "review")]
    x, t = np.array(v, dtype="float32"), np.array([[1.0, -1.0], [-1.0, 1.0]], dtype="float32")
    np.testing.assert_array_equal(g(torch.tensor(x), torch.tensor(t)).numpy(),
                                  original["g"](mx.nd.array(x), mx.nd.array(t)).asnumpy())
    np.testing.assert_array_equal(g(torch.tensor(x), t).numpy(), np.maximum(x, 0)[t > 0])


COPY_SOURCE = """\
from mxnet import nd

def doubled(x, table, **kwargs):
    y = x.copy()
    y[0] = 9
    opts = kwargs.copy()
    seen = {'a': 1}
    return nd.relu(y), table.copy(), opts, seen.copy(), x

def config(cfg):
    return cfg.copy()
"""


def test_untyped_copy_in_code_that_handles_arrays_clones_a_tensor():
    """Note [untyped copy]: `x.copy()` on a parameter was left, and torch raised AttributeError on a
    converted array; in code that handles arrays it is `_mx_copy_method`, a new array as MXNet's, and
    a dict's or a NumPy array's own copy; plain containers and code with no arrays keep `.copy()`."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, doubled = _run(COPY_SOURCE, "doubled")
    out = result.output
    assert [d.line for d in result.diagnostics if d.code == "MX046"] == [4, 8], out
    assert "y = _mx_copy_method(x)" in out and "_mx_copy_method(table)," in out, out
    for kept in ("kwargs.copy()", "seen.copy()", "cfg.copy()"):
        assert kept in out, kept
    original: dict = {}
    exec(COPY_SOURCE, original)
    x = np.arange(1.0, 4.0, dtype="float32")
    want = original["doubled"](mx.nd.array(x), {"t": 1}, k=2)
    got = doubled(torch.tensor(x), {"t": 1}, k=2)
    np.testing.assert_array_equal(got[0].numpy(), want[0].asnumpy())
    np.testing.assert_array_equal(got[4].numpy(), want[4].asnumpy())  # the copy was written, not x
    assert got[1:4] == want[1:4]
    table = np.ones(2)
    assert doubled(torch.tensor(x), table)[1] is not table  # a NumPy array's own copy


KEPT_SOURCE = """\
from mxnet import nd

def masks(x, w):
    pos = x > 0
    neg = x < 0
    flag = len(w) > 1
    return pos - 1, (pos * w).sum(), (x != 0).mean(), pos + pos, 1 - neg, flag

def layer(channels, in_channels):
    return dict(downsample=channels != in_channels)
"""


def test_comparisons_computed_with_as_arrays_in_code_naming_no_operator_give_mxnets_dtype():
    """Note [comparisons of untyped values]: a function that names no MXNet operator, `pos = x > 0` then
    `pos - 1` (torch's bool raised) or `pos + pos` (torch's logical or, MXNet's 2): a comparison computed
    with as an array goes to `_mx_compare`; one only passed on (`channels != in_channels`) stays."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, masks = _run(KEPT_SOURCE, "masks")
    assert [d.line for d in result.diagnostics if d.code == "MX542"] == [4, 5, 7], result.output
    assert "downsample=channels != in_channels" in result.output and "flag = len(w) > 1" in result.output
    original: dict = {}
    exec(KEPT_SOURCE, original)
    x = np.array([[0.5, 0.0, -1.0], [2.0, -0.5, 0.0]], dtype="float32")
    w = np.arange(6, dtype="float32").reshape(2, 3)
    want = original["masks"](mx.nd.array(x), mx.nd.array(w))
    got = masks(torch.tensor(x), torch.tensor(w))
    for w_value, g_value in zip(want[:-1], got[:-1]):
        assert g_value.dtype == torch.float32 and tuple(g_value.shape) == w_value.shape
        np.testing.assert_array_equal(g_value.numpy(), w_value.asnumpy())
    assert got[-1] is want[-1] is True
    for w_value, g_value in zip(original["masks"](x, w)[:-1], masks(x, w)[:-1]):  # NumPy's own bool arithmetic
        np.testing.assert_array_equal(g_value, w_value)


ELEMENT_SOURCE = """\
from mxnet import nd

def corner(x, table):
    y = nd.relu(x)
    return x[-1, 0], y[1, 2] * 2, table[0, 1], x[0]
"""


def test_an_element_of_an_untyped_value_read_by_integers_is_1d_as_in_mxnet():
    """Note [elements of untyped values]: `x[-1, 0]` of a parameter was 0-d where MXNet 1.x gives (1,);
    a NumPy array's element and a dict's value come back as they are; `x[0]` is left."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, corner = _run(ELEMENT_SOURCE, "corner")
    assert "return _mx_nd_scalar(x[-1, 0]), _mx_nd_scalar(y[1, 2]) * 2, _mx_nd_scalar(table[0, 1]), x[0]" \
        in result.output, result.output
    original: dict = {}
    exec(ELEMENT_SOURCE, original)
    x = np.arange(12, dtype="float32").reshape(4, 3) - 5
    want = original["corner"](mx.nd.array(x), {(0, 1): 7})
    got = corner(torch.tensor(x), {(0, 1): 7})
    for w, g in zip(want[:2], got[:2]):
        assert tuple(g.shape) == w.shape == (1,)
        np.testing.assert_array_equal(g.numpy(), w.asnumpy())
    assert got[2] == want[2] == 7
    from xlate.runtime import load
    assert load()._mx_nd_scalar(x[-1, 0]) is x[-1, 0] or load()._mx_nd_scalar(x[-1, 0]) == x[-1, 0]  # NumPy's own


PARAM_DATA_SOURCE = """\
import mxnet as mx
from mxnet import nd

def first_values(store, name):
    return [store[name][0].data().asnumpy(), store[name][1].data()]
"""


def test_data_of_an_untyped_value_in_a_file_importing_only_mxnet_is_decided_at_run_time():
    """xfer's tests read `params[k][0].data()` in a file that imports `mxnet` and `nd`, not gluon: it was
    manual; a Parameter (converted: a torch Parameter) gives its values, any other value its own data()."""
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    result, first_values = _run(PARAM_DATA_SOURCE, "first_values")
    assert result.output.count("_mx_param_data(store[name]") == 2, result.output
    assert not [d for d in result.diagnostics if d.status == "manual"]
    original: dict = {}
    exec(PARAM_DATA_SOURCE, original)
    value = np.arange(6, dtype="float32").reshape(2, 3)

    class Table:
        def data(self):
            return "own"

    p = mx.gluon.Parameter("w", shape=(2, 3), init=mx.init.Constant(mx.nd.array(value)))
    p.initialize()
    want = original["first_values"]({"w": [p, Table()]}, "w")
    got = first_values({"w": [torch.nn.Parameter(torch.tensor(value)), Table()]}, "w")
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1] == "own"


def test_a_parameter_reached_through_zip_or_enumerate_is_evident():
    """xfer: `for l_param, param in zip(samples, net.collect_params().values()): param._data[i] = l_param` raised
    AttributeError converted, with nothing said (MX178 needed the loop to be over the values themselves)."""
    from xlate.convert.engine import convert_source
    source = ("from mxnet import gluon\ndef swap(samples, net):\n"
              "    for l_param, param in zip(samples, net.collect_params().values()):\n"
              "        param._data[0] = l_param\n"
              "    for i, (x, p) in enumerate(zip(samples, reversed(list(net.collect_params().values())))):\n"
              "        print(i, p.data(), x._data)\n")
    result = convert_source(source)
    manual = [(d.line, d.code) for d in result.diagnostics if d.status == "manual"]
    assert manual == [(4, "MX178")], manual
    assert "print(i, p.data, x._data)" in result.output, result.output
