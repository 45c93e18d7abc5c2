"""mx.np's shape functions return copies where torch's return views (Note [the dialect's shape
copies] in xlate/convert/transforms/np_copies.py): a table of spellings (methods and functions of
reshape, flatten, ravel, squeeze, expand_dims, swapaxes, transpose, broadcast_to) times the in-place
writes a program makes afterwards (into the result or into the source, by subscript or `+=`), run in
MXNet 1.9.1 and converted: both arrays equal MXNet's after the write. Without a write in the file, or
where the result goes straight into an operator that makes a new array, the translation keeps torch's
view (nothing can tell it from a copy)."""
from __future__ import annotations

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from test_fixture_models import numpy_mode_kept

np = import_numpy()
mx = import_mxnet()
torch = import_torch()

from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet

# (the source's value, the shape call on `src`)
CALLS = [
    ("np.arange(24).reshape(2, 3, 4) * 1.5", "src.reshape(4, 6)"),
    ("np.arange(24).reshape(2, 3, 4) - 3", "src.reshape((6, -1))"),
    ("np.arange(24).reshape(2, 3, 4) + 0.5", "np.reshape(src, (3, 8))"),
    ("np.arange(12).reshape(3, 4) * 2", "src.flatten()"),
    ("np.arange(12).reshape(3, 4) + 1", "np.ravel(src)"),
    ("np.arange(12).reshape(1, 3, 4) - 5", "np.squeeze(src)"),
    ("np.arange(12).reshape(1, 3, 4) * 3", "src.squeeze(0)"),
    ("np.arange(12).reshape(3, 4) + 2", "np.expand_dims(src, 1)"),
    ("np.arange(24).reshape(2, 3, 4) * 0.5", "np.swapaxes(src, 0, 2)"),
    ("np.arange(24).reshape(2, 3, 4) + 7", "np.transpose(src)"),
    ("np.arange(4) * 1.25", "np.broadcast_to(src, (3, 4))"),
]
# the write after it: into the result or into the source
WRITES = ["out[(0,) * out.ndim] = -7", "out += 100", "src[0] = -9", "src += 1"]


def _source() -> str:
    lines = ["from mxnet import np, npx", "npx.set_np()", ""]
    for i, (value, call) in enumerate(CALLS):
        for j, write in enumerate(WRITES):
            if "broadcast_to" in call and write.startswith("out"):
                continue  # MXNet's copy is writable, torch's broadcast view is not: a write there fails loudly
            s, o = f"src{i}_{j}", f"out{i}_{j}"
            lines += [f"def case_{i}_{j}():", f"    {s} = {value}",
                      f"    {o} = {call.replace('src', s)}",
                      f"    {write.replace('out', o).replace('src', s)}", f"    return {s}, {o}", ""]
    lines += ["def case_into_an_operator():", "    into = np.arange(4) * 1.0", "    into[0] = 5",
              "    joined = np.concatenate((np.expand_dims(into, 1), np.expand_dims(into, 1)), axis=1)",
              "    into[1] = -1", "    return into, joined", ""]
    lines += ["def unwritten():", "    kept = np.arange(6) * 2.0", "    shaped = kept.reshape(2, 3)",
              "    return shaped", ""]
    return "\n".join(lines)


def test_shape_calls_copy_where_the_program_writes_in_place():
    source = _source()
    result = convert_source(source)
    mx_space: dict = {}
    with numpy_mode_kept():
        exec(compile(source, "<mxnet>", "exec"), mx_space)
        expected = {name: [a.asnumpy() for a in f()] for name, f in mx_space.items() if name.startswith("case_")}
    assert "np." not in result.output.replace("numpy", "")
    pt_space: dict = {}
    exec(compile(result.output, "<converted>", "exec"), pt_space)
    assert len(expected) == 4 * len(CALLS) - 2 + 1
    for name, (src, out) in expected.items():
        got_src, got_out = pt_space[name]()
        np.testing.assert_array_equal(got_src.numpy(), src, err_msg=f"{name}: the source")
        np.testing.assert_array_equal(got_out.numpy(), out, err_msg=f"{name}: the result")
    assert "shaped = kept.reshape(2, 3)\n" in result.output  # no write in sight: torch's view stays
    assert "torch.cat((torch.unsqueeze(into, 1), torch.unsqueeze(into, 1))" in result.output  # cat copies
