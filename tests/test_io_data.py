"""MXNet's data and file helpers against live MXNet 1.9.1: `mx.io.NDArrayIter` batch by batch
(Note [NDArrayIter] in xlate/runtime/data.py), `nd.save` / `nd.load` of arrays, lists and dicts
in MXNet's own file format both ways (Note [NDArray files] in xlate/runtime/saving.py), and
`nd.array` of a PIL image, through converted code."""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from xlate import runtime  # noqa: E402
from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet
PROFILE = dict(derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
rt = runtime.load()


def same(ours, theirs):
    """A torch tensor equal to an NDArray, dtype included."""
    expected = theirs.asnumpy()
    assert isinstance(ours, torch.Tensor)
    assert str(ours.dtype).replace("torch.", "") == str(expected.dtype), (ours.dtype, expected.dtype)
    np.testing.assert_array_equal(ours.numpy(), expected)


def _sources(form, n, rng):
    """The same data for both sides: (MXNet's argument, ours), in one of the accepted forms."""
    a = rng.randint(-50, 50, (n, 3)).astype("float32")
    b = rng.randint(0, 9, n).astype("int32")
    if form == "numpy":  # nd.array makes float32
        return a.astype("int64"), a.astype("int64")
    if form == "ndarray":  # keeps int32 unless shuffled
        return mx.nd.array(b, dtype="int32"), torch.tensor(b)
    if form == "list":
        return [mx.nd.array(a), mx.nd.array(b, dtype="int32")], [torch.tensor(a), torch.tensor(b)]
    return ({"x": mx.nd.array(a), "a": mx.nd.array(b, dtype="int32")},  # sorted by name: a, x
            {"x": torch.tensor(a), "a": torch.tensor(b)})


def _epochs(it, epochs):
    """Each epoch's batches (reset() between: a shuffling iterator draws from numpy there), or
    the error the iterator raised."""
    out = []
    try:
        for epoch in range(epochs):
            if epoch:
                it.reset()
            out.append(list(it))
    except (mx.base.MXNetError, ValueError) as e:
        out.append(e)
    return out


def _compare(make_theirs, make_ours, seed=0, epochs=3):
    """Both iterators from the same numpy seed, each run through its epochs alone (they share
    numpy's generator); the same batches, pads and dtypes."""
    np.random.seed(seed)
    theirs = make_theirs()
    mx_epochs = _epochs(theirs, epochs)
    np.random.seed(seed)
    ours = make_ours()
    pt_epochs = _epochs(ours, epochs)
    for desc_t, desc_o in zip(theirs.provide_data + theirs.provide_label, ours.provide_data + ours.provide_label):
        assert desc_o.name == desc_t.name and tuple(desc_o.shape) == tuple(desc_t.shape)
        assert desc_o.layout == desc_t.layout
    assert len(pt_epochs) == len(mx_epochs)
    count = 0
    for mx_batches, pt_batches in zip(mx_epochs, pt_epochs):
        if isinstance(mx_batches, Exception):  # a roll-over batch longer than twice the data: refused
            assert isinstance(pt_batches, ValueError) and "Invalid end" in str(pt_batches), pt_batches
            continue
        assert len(pt_batches) == len(mx_batches)
        for m, p in zip(mx_batches, pt_batches):
            assert p.pad == m.pad and p.index == m.index
            assert len(p.data) == len(m.data) and len(p.label) == len(m.label)
            for o, t in zip(p.data + p.label, m.data + m.label):
                same(o, t)
            count += 1
    return theirs, ours, count


@settings(max_examples=30, **PROFILE)
@given(st.integers(1, 13), st.integers(1, 6), st.sampled_from(["pad", "discard", "roll_over"]), st.booleans(),
       st.sampled_from(["numpy", "ndarray", "list", "dict"]), st.booleans(), st.integers(0, 2 ** 31 - 1))
def test_ndarray_iter_gives_mxnets_batches(n, batch_size, last, shuffle, form, labelled, seed):
    rng = np.random.RandomState(seed)
    mx_data, pt_data = _sources(form, n, rng)
    mx_label, pt_label = (mx.nd.array(rng.randn(n)), None) if labelled else (None, None)
    if labelled:
        pt_label = torch.tensor(mx_label.asnumpy())
    _compare(lambda: mx.io.NDArrayIter(mx_data, mx_label, batch_size=batch_size, shuffle=shuffle,
                                       last_batch_handle=last),
             lambda: rt._mx_NDArrayIter(pt_data, pt_label, batch_size=batch_size, shuffle=shuffle,
                                        last_batch_handle=last), seed)


def test_ndarray_iter_pads_past_the_data_and_rolls_over():
    """The corners spelled out: a pad larger than the data (tiled), a roll-over batch and its pad,
    next() and hard_reset()."""
    x = np.arange(12, dtype="float32").reshape(3, 4)
    for last in ("pad", "roll_over", "discard"):
        _compare(lambda: mx.io.NDArrayIter(x, batch_size=8, last_batch_handle=last),
                 lambda: rt._mx_NDArrayIter(torch.tensor(x), batch_size=8, last_batch_handle=last))
    theirs, ours, count = _compare(
        lambda: mx.io.NDArrayIter(x, np.arange(3), batch_size=2, last_batch_handle="roll_over"),
        lambda: rt._mx_NDArrayIter(torch.tensor(x), torch.arange(3.0), batch_size=2, last_batch_handle="roll_over"),
        epochs=4)
    assert count == 6  # 1, 2 (the rolled sample opens it: pad 1), 1, 2 batches
    theirs.hard_reset()
    ours.hard_reset()
    m, p = theirs.next(), ours.next()
    assert p.pad == m.pad == 0
    same(p.data[0], m.data[0])
    with pytest.raises(StopIteration):
        ours.next()
        ours.next()
    assert str(ours.provide_data[0]).startswith("DataDesc[data,(2, 4),")


# -- nd.save / nd.load ------------------------------------------------------------------------
def _arrays(rng):
    return [rng.randn(2, 3).astype("float32"), rng.randint(-9, 9, (4,)).astype("int64"),
            rng.randn(3).astype("float16"), rng.randint(0, 255, (2, 2, 2)).astype("uint8"),
            rng.randn(1, 2).astype("float64"), rng.randint(-9, 9, (5,)).astype("int32"),
            rng.randint(0, 2, (3,)).astype("bool")]


@pytest.mark.parametrize("shape", ["array", "list", "dict"])
def test_nd_save_writes_mxnets_bytes_and_load_reads_them(tmp_path, shape):
    rng = np.random.RandomState(3)
    values = _arrays(rng)
    if shape == "array":
        mx_data, pt_data = mx.nd.array(values[0]), torch.tensor(values[0])
    elif shape == "list":
        mx_data = [mx.nd.array(v, dtype=v.dtype) for v in values]
        pt_data = [torch.tensor(v) for v in values]
    else:
        names = ["w", "b", "half", "bytes", "double", "ints", "mask"]
        mx_data = {k: mx.nd.array(v, dtype=v.dtype) for k, v in zip(names, values)}
        pt_data = {k: torch.tensor(v) for k, v in zip(names, values)}
    mx.nd.save(str(tmp_path / "mx.nd"), mx_data)
    rt._mx_nd_save(str(tmp_path / "pt.nd"), pt_data)
    assert (tmp_path / "pt.nd").read_bytes() == (tmp_path / "mx.nd").read_bytes()
    theirs, ours = mx.nd.load(str(tmp_path / "pt.nd")), rt._mx_nd_load(str(tmp_path / "mx.nd"))
    assert type(ours) is type(theirs) and len(ours) == len(theirs)
    for key in (theirs if isinstance(theirs, dict) else range(len(theirs))):
        same(ours[key], theirs[key])


def test_nd_load_refuses_what_is_not_an_ndarray_file(tmp_path):
    torch.save({"w": torch.ones(2)}, tmp_path / "torch.pt")
    with pytest.raises(ValueError, match="not a file MXNet's nd.save writes"):
        rt._mx_nd_load(str(tmp_path / "torch.pt"))
    with pytest.raises(TypeError, match="dict str->NDArray or list of NDArray"):
        rt._mx_nd_save(str(tmp_path / "x.nd"), [torch.ones(1), 3])


IO_SCRIPT = '''
import numpy as np
import mxnet as mx
from mxnet import nd

def roundtrip(path, seed):
    np.random.seed(seed)
    a = nd.array(np.random.randn(6, 2))
    nd.save(path + '.list', [a, a * 2])
    nd.save(path + '.dict', {'a': a, 'b': a + 1})
    listed, named = nd.load(path + '.list'), mx.nd.load(path + '.dict')
    it = mx.io.NDArrayIter(listed[0], named['b'], batch_size=4, shuffle=True, last_batch_handle='pad')
    out = []
    for batch in it:
        out.append((batch.data[0].asnumpy().tolist(), batch.label[0].asnumpy().tolist(), batch.pad))
    return [x.asnumpy().tolist() for x in listed], sorted(named), out
'''


def test_converted_script_saves_loads_and_iterates_as_mxnet(tmp_path):
    result = convert_source(IO_SCRIPT)
    assert "_mx_nd_save(" in result.output and "_mx_nd_load(" in result.output
    assert "_mx_NDArrayIter(" in result.output and "mxnet" not in result.output.split("# helpers")[0]
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    theirs, ours = {}, dict(vars(rt))
    exec(compile(IO_SCRIPT, "<mxnet>", "exec"), theirs)
    exec(compile(result.output, "<converted>", "exec"), ours)
    expected = theirs["roundtrip"](str(tmp_path / "mx"), 4)
    got = ours["roundtrip"](str(tmp_path / "pt"), 4)
    assert got[1] == expected[1] and got[2][-1][2] == expected[2][-1][2] == 2
    np.testing.assert_allclose(np.array(got[0]), np.array(expected[0]), rtol=1e-6)
    for (d1, l1, p1), (d2, l2, p2) in zip(got[2], expected[2]):
        np.testing.assert_allclose(d1, d2, rtol=1e-6)
        np.testing.assert_allclose(l1, l2, rtol=1e-6)
        assert p1 == p2
    # and each reads the other's files
    assert (tmp_path / "pt.dict").read_bytes() == (tmp_path / "mx.dict").read_bytes()


# -- nd.array of a PIL image -----------------------------------------------------------------
IMAGE_SCRIPT = '''
from PIL import Image
from mxnet import nd

def read(path, dtype=None):
    img = Image.open(path)
    return nd.array(img) if dtype is None else nd.array(img, dtype=dtype)

def read_direct(path):
    return nd.array(Image.open(path).convert('L'))
'''


@pytest.mark.parametrize("mode", ["RGB", "L", "RGBA"])
def test_nd_array_of_a_pil_image_is_mxnets(tmp_path, mode):
    Image = pytest.importorskip("PIL.Image")
    rng = np.random.RandomState(5)
    shape = (5, 7) if mode == "L" else (5, 7, len(mode))
    path = str(tmp_path / "img.png")
    Image.fromarray(rng.randint(0, 256, shape).astype("uint8"), mode).save(path)
    result = convert_source(IMAGE_SCRIPT)
    assert "_mx_image_array(" in result.output
    theirs, ours = {}, dict(vars(rt))
    exec(compile(IMAGE_SCRIPT, "<mxnet>", "exec"), theirs)
    exec(compile(result.output, "<converted>", "exec"), ours)
    same(ours["read"](path), theirs["read"](path))  # float32 (H, W, C), or (H, W) for 'L'
    same(ours["read"](path, "uint8"), theirs["read"](path, "uint8"))
    same(ours["read_direct"](path), theirs["read_direct"](path))
