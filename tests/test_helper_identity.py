"""Helpers as values (Note [functions compared as values], Note [one copy of each helper]):
xfer serialises the device function a repurposer keeps (`if context_function == mx.cpu:`) in
its package and compares what comes back in its tests, another top-level package of the tree.
"""
from __future__ import annotations

import ast
import sys

import pytest

from xlate.convert.engine import convert_source

_UTILS = '''
import mxnet as mx


def serialise(fn):
    if fn == mx.cpu:
        return "cpu"
    elif fn == mx.gpu:
        return "gpu"
    raise ValueError(fn)


def deserialise(name):
    return mx.cpu if name == "cpu" else mx.gpu
'''

_TEST = '''
import mxnet as mx
from helperid_lib import utils
from helperid_lib.utils import deserialise


def check():
    return [utils.serialise(mx.cpu), utils.serialise(mx.gpu), deserialise("cpu") == mx.cpu,
            deserialise("gpu") == mx.gpu, deserialise("gpu") == mx.cpu, str(deserialise("cpu")(0))[:3]]
'''


def test_device_functions_compared_across_two_packages_are_mxnets(tmp_path, monkeypatch):
    """Each top-level package gets its own helper module: `_mx_cpu` must still be one function."""
    pytest.importorskip("torch")
    import importlib

    from xlate.cli import main

    tree = tmp_path / "tree"
    for package, files in (("helperid_lib", {"utils.py": _UTILS}), ("helperid_tests", {"test_utils.py": _TEST})):
        (tree / package).mkdir(parents=True)
        (tree / package / "__init__.py").write_text("")
        for name, text in files.items():
            (tree / package / name).write_text(text.lstrip("\n"))
    out = tmp_path / "out"
    assert main(["convert", str(tree), "-o", str(out), "--exit-zero"]) == 0
    assert (out / "helperid_lib" / "_mx_compat.py").is_file() and (out / "helperid_tests" / "_mx_compat.py").is_file()
    assert "mxnet" not in (out / "helperid_tests" / "test_utils.py").read_text()
    monkeypatch.syspath_prepend(str(out))
    try:
        checked = importlib.import_module("helperid_tests.test_utils").check()
    finally:
        for name in [n for n in sys.modules if n.startswith("helperid_")]:
            del sys.modules[name]
    # MXNet's: its cpu and gpu are one function each, and cpu(0) prints 'cpu(0)'
    assert checked == ["cpu", "gpu", True, True, False, "cpu"]


def test_a_function_value_that_is_a_lambda_stays_an_operand_and_is_reviewed_when_compared():
    source = ("from mxnet import nd\nsame = nd.flatten == g\npick = nd.flatten if c else nd.relu\n"
              "def f(act=nd.flatten):\n    return {'a': nd.flatten}\n")
    result = convert_source(source)
    ast.parse(result.output)  # `g == lambda data: ...` does not parse
    lines = result.output.splitlines()
    assert lines[1] == "same = (lambda data: data.flatten(1)) == g"
    assert lines[2] == "pick = (lambda data: data.flatten(1)) if c else torch.relu"
    assert lines[3:] == ["def f(act=lambda data: data.flatten(1)):", "    return {'a': lambda data: data.flatten(1)}"]
    compared = [d for d in result.diagnostics if d.line == 2 and d.status == "review"]
    assert compared and "compared as a value" in compared[0].message
    assert not [d for d in result.diagnostics if d.line in (3, 4, 5) and d.status != "fixed"]


def test_helper_modules_of_one_runtime_share_their_objects(tmp_path):
    """Two helper modules written for two packages, loaded in one process: one object per helper,
    the shared ones included (a class another package's isinstance test meets)."""
    pytest.importorskip("torch")
    import importlib.util

    from xlate.runtime import module_text

    loaded = []
    wanted = ["_mx_cpu", "_mx_Context", "_mx_type", "_mx_Dense"]
    edited = ('return torch.device("cuda", device_id) if device_type == "gpu" else torch.device("cpu")',
              'return torch.device("cuda", device_id) if device_type == "gpu" else torch.device("meta")')
    for name, text in (("first", module_text(wanted)), ("second", module_text(wanted + ["_mx_gpu"])),
                       ("edited", module_text(wanted).replace(*edited))):
        assert text.count(edited[0]) <= 1
        path = tmp_path / f"{name}_compat.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(f"helper_identity_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        loaded.append(module)
    first, second, edited = loaded
    assert first._mx_cpu is second._mx_cpu and first._mx_Context is second._mx_Context
    assert first._mx_Dense is second._mx_Dense and second._mx_type(first._mx_Dense(2)) is second._mx_Dense
    assert second._mx_gpu(1) == second._mx_Context("gpu", 1)
    # a helper fixed by hand in one package's module keeps its own code, and so does what reaches it
    assert edited._mx_Context is not first._mx_Context and edited._mx_Context("cpu").type == "meta"
    assert edited._mx_cpu is first._mx_cpu  # reaches nothing edited


_GRAD_REQ = '''
import mxnet as mx
from mxnet import gluon
def make(reqs):
    out = []
    for i, req in enumerate(reqs):
        p = gluon.Parameter("w%d" % i, shape=(2,), init=mx.init.One(), grad_req=req)
        p.initialize()
        out.append(p)
    return out
'''


@pytest.mark.mxnet
def test_a_grad_req_known_at_run_time_is_decided_then():
    from mxsupport import import_mxnet, import_torch

    mx, torch = import_mxnet(), import_torch()
    result = convert_source(_GRAD_REQ)
    assert "_mx_requires_grad(req)" in result.output
    assert not [d for d in result.diagnostics if d.status == "manual" and d.code == "MX117"]
    space = {}
    exec(compile(result.output, "<grad_req>", "exec"), space)
    theirs = {}
    exec(compile(_GRAD_REQ, "<mxnet>", "exec"), theirs)
    reqs = ["write", "null", "write"]
    assert [p.requires_grad for p in space["make"](reqs)] == [p.grad_req == "write" for p in theirs["make"](reqs)]
    with pytest.raises(NotImplementedError, match="'add'"):
        space["make"](["add"])
    assert mx is not None and torch is not None
