"""Every way hybrid_forward's `F` reaches a helper of the same file (Note [namespace by flow] in
xlate/convert/namespace_flow.py), drawn by hypothesis: the helper's parameter named anything,
filled by position or keyword, a module function or a method of the block, `F` passed directly,
through a local name, through an attribute of the block, or as a lambda's `F`. The converted
block runs with torch and gives MXNet's numbers, and no call through the helper's parameter is
left in the output."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet

PROFILE = dict(derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

# operator calls written with `{F}` for the namespace and `{x}` for the input
OPS = [
    "{F}.broadcast_mul({F}.sigmoid({x}), {F}.sum({x}, axis=1, keepdims=True))",
    "{F}.softmax({x}, axis=-1) + {F}.relu({x})",
    "{F}.reshape({F}.transpose({x}, axes=(1, 0)), shape=(-1,))",
    "{F}.log_softmax({x}) * {F}.ones_like({x})",
]


@st.composite
def programs(draw):
    name = draw(st.sampled_from(["F", "ops", "backend", "G", "nd_"]))
    op = draw(st.sampled_from(OPS)).format(F=name, x="x")
    where = draw(st.sampled_from(["function", "method", "lambda"]))
    if where == "lambda":
        name = "F"
        op = draw(st.sampled_from(OPS)).format(F="F", x="x")
    source = draw(st.sampled_from(["direct", "local", "attribute"]))
    keyword = draw(st.booleans()) and where != "lambda"
    first = draw(st.booleans()) and where != "lambda"  # the namespace before or after the input
    params = f"{name}, x" if first else f"x, {name}"
    handed = {"direct": "F", "local": "B", "attribute": "self.backend"}[source]
    if source == "attribute":
        handed = "G"
    passed = f"{name}={handed}, x=y" if keyword else (f"{handed}, y" if first else f"y, {handed}")
    lines = ["import mxnet as mx", "from mxnet.gluon import HybridBlock", ""]
    if where == "function":
        lines += [f"def helper({params}):", f"    return {op}", "", ""]
        call = f"helper({passed})"
    elif where == "method":
        call = f"self.helper({passed})"
    else:
        call = "self.act(F, y)"
    lines += ["class Net(HybridBlock):", "    def __init__(self, **kwargs):", "        super().__init__(**kwargs)"]
    if where == "lambda":
        lines += [f"        self.act = lambda F, x: {op}"]
    lines += ["", "    def hybrid_forward(self, F, x):", "        y = x * 2.0 - 1.0"]
    if source == "local":
        lines += ["        B = F"]
    elif source == "attribute":
        lines += ["        self.backend = F", "        G = self.backend"]
    lines += [f"        return {call}"]
    if where == "method":
        lines += ["", f"    def helper(self, {params}):", f"        return {op}"]
    return "\n".join(lines) + "\n", name


def _run(source: str, x, *, torch_side: bool):
    scope = {"__name__": "__probe__"}
    exec(compile(source, "<probe>", "exec"), scope)
    return scope["Net"]()(x)


@settings(max_examples=30, **PROFILE)
@given(programs())
def test_the_namespace_reaches_helpers_under_any_spelling(drawn):
    source, name = drawn
    result = convert_source(source)
    out = result.output
    assert not re.search(rf"\b{re.escape(name)}\.(broadcast_mul|softmax|reshape|log_softmax|sum|relu)\(", out), out
    assert not [d for d in result.diagnostics if d.status == "manual"], out
    np, mx, torch = import_numpy(), import_mxnet(), import_torch()
    x = np.random.default_rng(len(source)).uniform(-1.0, 1.0, (3, 4)).astype("float32")
    expected = _run(source, mx.nd.array(x), torch_side=False).asnumpy()
    got = _run(out, torch.tensor(x), torch_side=True).detach().numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
