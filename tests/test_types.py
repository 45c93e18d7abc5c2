"""MXNet classes standing as types (Note [type positions] in xlate/convert/types.py): wherever a
class stands as a type, the translation is the torch class, which the converted module can use
at import (singledispatch, dataclass fields read with get_type_hints, except clauses)."""
import ast
import typing

import pytest

import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from torch import nn

from xlate.convert.engine import convert_source

PROFILE = dict(derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
HEADER = "import functools\nimport typing\nfrom dataclasses import dataclass\nfrom typing import List, Optional, Union\n"


def _run(source: str) -> tuple[dict, object]:
    result = convert_source(source)
    namespace: dict = {"__name__": "converted"}
    exec(compile(result.output, "<converted>", "exec"), namespace)
    return namespace, result


def test_singledispatch_and_dataclass_fields_take_the_torch_classes():
    namespace, result = _run(HEADER + '''import mxnet as mx
from mxnet import gluon, nd

@functools.singledispatch
def encode(value):
    return "other"

@encode.register(mx.Context)
def _(value):
    return "device"

@encode.register(nd.NDArray)
def _(value):
    return "array"

@dataclass
class Config:
    ctx: mx.Context
    data: Optional[mx.nd.NDArray] = None
    blocks: List[mx.gluon.Block] = None
    error: typing.Type[mx.base.MXNetError] = None

Tensor = Union[mx.nd.NDArray, mx.sym.Symbol]

def forward(data: "mx.sym.Symbol", ctx: mx.Context = None) -> mx.sym.Symbol:
    return data
''')
    assert "mxnet" not in result.output and "_mx_Context" not in result.output
    assert namespace["encode"](torch.device("cpu")) == "device"
    assert namespace["encode"](torch.ones(2)) == "array"
    hints = typing.get_type_hints(namespace["Config"])
    assert hints["ctx"] is torch.device
    assert hints["data"] == typing.Optional[torch.Tensor] and hints["blocks"] == typing.List[nn.Module]
    assert hints["error"] == typing.Type[RuntimeError]
    assert namespace["Tensor"] is torch.Tensor
    assert typing.get_type_hints(namespace["forward"]) == {"data": torch.Tensor, "ctx": torch.device,
                                                           "return": torch.Tensor}
    assert not [d for d in result.diagnostics if d.status == "manual"]


def test_symbol_tested_at_run_time_is_false():
    """Translated code has no symbol graph: `isinstance(x, mx.sym.Symbol)` is False for every value
    (as in MXNet for every NDArray), flagged for review; nothing of MXNet stays."""
    result = convert_source("import mxnet as mx\ndef f(x):\n    return isinstance(x, mx.sym.Symbol)\n")
    assert "isinstance(x, _mx_Symbol)" in result.output and "import mxnet" not in result.output
    assert any(d.status == "review" and d.line == 3 for d in result.diagnostics)
    scope: dict = {}
    exec(compile(result.output, "pt", "exec"), scope)
    assert [scope["f"](v) for v in (torch.ones(2), 1.0, None)] == [False, False, False]


def test_a_type_with_no_torch_class_is_reported_at_its_line():
    result = convert_source("import mxnet as mx\n\ndef batches(it: mx.io.MXDataIter):\n    return list(it)\n")
    assert ("MX906", 3) in [(d.code, d.line) for d in result.diagnostics if d.status == "manual"]


# (canonical dotted name, the torch class it stands for)
CLASSES = [
    ("mxnet.Context", torch.device), ("mxnet.context.Context", torch.device),
    ("mxnet.nd.NDArray", torch.Tensor), ("mxnet.ndarray.NDArray", torch.Tensor),
    ("mxnet.nd.ndarray.NDArray", torch.Tensor), ("mxnet.gluon.Block", nn.Module),
    ("mxnet.gluon.HybridBlock", nn.Module), ("mxnet.gluon.nn.HybridBlock", nn.Module),
    ("mxnet.gluon.Parameter", nn.Parameter), ("mxnet.gluon.parameter.Parameter", nn.Parameter),
    ("mxnet.gluon.ParameterDict", dict), ("mxnet.base.MXNetError", RuntimeError),
    ("mxnet.gluon.nn.Dense", nn.Linear), ("mxnet.gluon.nn.Conv2D", nn.Conv2d),
]
GRAPH = [("mxnet.sym.Symbol", torch.Tensor), ("mxnet.symbol.Symbol", torch.Tensor)]  # static positions only

# a position: its template (T stands for the class), and where its type expression is in the output
STATIC = {
    "parameter": ("def probe(x: T):\n    return x\n", lambda t: _first(t, ast.arg).annotation),
    "return": ("def probe() -> T:\n    pass\n", lambda t: _first(t, ast.FunctionDef).returns),
    "optional": ("def probe(x: Optional[T] = None):\n    return x\n", lambda t: _first(t, ast.arg).annotation.slice),
    "list": ("def probe(x: List[T]):\n    return x\n", lambda t: _first(t, ast.arg).annotation.slice),
    "field": ("@dataclass\nclass Probe:\n    x: T = None\n", lambda t: _first(t, ast.AnnAssign).annotation),
    "alias": ("Probe = Union[T, int]\n", lambda t: _first(t, ast.Assign).value.slice.elts[0]),
    "string": ('def probe(x: "T"):\n    return x\n',
               lambda t: ast.parse(_first(t, ast.arg).annotation.value, mode="eval").body),
    "cast": ("def probe(v):\n    return typing.cast(T, v)\n", lambda t: _call(t, "cast").args[0]),
}
TEST = {
    "isinstance": ("def probe(v):\n    return isinstance(v, T)\n", lambda t: _call(t, "isinstance").args[1]),
    "isinstance-tuple": ("def probe(v):\n    return isinstance(v, (T, str))\n",
                         lambda t: _call(t, "isinstance").args[1].elts[0]),
    "issubclass": ("def probe(c):\n    return issubclass(c, T)\n", lambda t: _call(t, "issubclass").args[1]),
    "register": ("@functools.singledispatch\ndef probe(v):\n    return 0\n\n@probe.register(T)\ndef _(v):\n    return 1\n",
                 lambda t: _call(t, "register").args[0]),
    "except": ("def probe(f):\n    try:\n        return f()\n    except (T, KeyError):\n        return None\n",
               lambda t: _first(t, ast.ExceptHandler).type.elts[0]),
    # the classes a test expects raised, or code suppresses (autogluon's tests: `pytest.raises(mx.base.MXNetError)`)
    "raises": ("def probe(f):\n    with pytest.raises(T):\n        f()\n", lambda t: _call(t, "raises").args[0]),
    "assertRaises": ("def probe(case, f):\n    case.assertRaises(T, f)\n", lambda t: _call(t, "assertRaises").args[0]),
    "suppress": ("def probe(f):\n    with contextlib.suppress(KeyError, T):\n        f()\n",
                 lambda t: _call(t, "suppress").args[1]),
}


def _first(tree, kind):
    return next(n for n in ast.walk(tree) if isinstance(n, kind))


def _call(tree, name):
    return next(n for n in ast.walk(tree) if isinstance(n, ast.Call)
                and getattr(n.func, "attr", getattr(n.func, "id", None)) == name)


@st.composite
def spelled(draw, dotted: str):
    """`import mxnet as A` and `A.x.y.C`, or `from mxnet.x import y` and `y.C`: any split of the path."""
    parts = dotted.split(".")
    cut = draw(st.integers(1, len(parts) - 1))
    if cut == 1:
        alias = draw(st.sampled_from(["mx", "mxnet", "mxn"]))
        imp = "import mxnet" if alias == "mxnet" else f"import mxnet as {alias}"
        return imp, ".".join([alias] + parts[1:])
    name = parts[cut - 1]
    alias = draw(st.sampled_from([name, "_" + name.lower()]))
    imp = f"from {'.'.join(parts[:cut - 1])} import {name}" + ("" if alias == name else f" as {alias}")
    return imp, ".".join([alias] + parts[cut:])


@st.composite
def cases(draw):
    graph = draw(st.booleans())
    dotted, expected = draw(st.sampled_from(GRAPH if graph else CLASSES))
    positions = STATIC if graph else {**STATIC, **TEST}
    where = draw(st.sampled_from(sorted(positions)))
    imp, name = draw(spelled(dotted))
    template, locate = positions[where]
    if dotted.endswith("ParameterDict") and where in TEST:  # tested at run time: what collect_params() gives
        expected = "_mx_ParameterDict"
    return HEADER + imp + "\n" + template.replace("T", name), locate, expected


@settings(max_examples=150, **PROFILE)
@given(cases())
def test_every_type_position_takes_the_torch_class(case):
    source, locate, expected = case
    namespace, result = _run(source)
    assert "mxnet" not in result.output, result.output
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    found = eval(compile(ast.Expression(locate(ast.parse(result.output))), "<type>", "eval"), namespace)
    assert (found.__name__ == expected and issubclass(found, dict)) if isinstance(expected, str) \
        else found is expected, result.output


@pytest.mark.parametrize("test,any_array", [
    ("isinstance(x, mx.nd.NDArray) or isinstance(x, mx.sym.Symbol)", True),
    ("isinstance(x, mx.sym.Symbol) or isinstance(x, (int, mx.nd.NDArray))", True),
    ("isinstance(x, float) or isinstance(x, mx.nd.NDArray) or isinstance(x, mx.sym.Symbol)", True),
    ("isinstance(y, mx.nd.NDArray) or isinstance(x, mx.sym.Symbol)", False),  # another value
    ("isinstance(x, mx.nd.NDArray) and isinstance(x, mx.sym.Symbol)", False),
    ("not isinstance(x, mx.sym.Symbol)", False),
])
def test_a_symbol_test_beside_an_array_test_of_the_same_value_is_any_array(test, any_array):
    """`isinstance(x, NDArray) or isinstance(x, Symbol)` (sockeye's penalties) asks what
    `isinstance(x, (NDArray, Symbol))` asks: is it an array (a tensor, fixed). A Symbol tested on
    its own is `_mx_Symbol`, which nothing is an instance of: False, as for every NDArray in MXNet,
    reviewed."""
    source = f"import mxnet as mx\ndef f(x, y=None):\n    return {test}\n"
    result = convert_source(source)
    assert "mxnet" not in result.output and not [d for d in result.diagnostics if d.status == "manual"]
    symbol_items = [d.status for d in result.diagnostics if d.code == "MX146"]
    assert symbol_items == (["fixed"] if any_array else ["review"]), (result.output, symbol_items)
    namespace: dict = {}
    exec(compile(result.output, "<converted>", "exec"), namespace)
    original: dict = {}
    exec(source, original)
    mx = pytest.importorskip("mxnet")
    for x, mx_x in ((torch.ones(2), mx.nd.ones(2)), ("s", "s")):
        assert namespace["f"](x, y=torch.ones(1)) == original["f"](mx_x, y=mx.nd.ones(1))


@pytest.mark.parametrize("test,written", [
    ("isinstance(x, mx.nd.NDArray) or isinstance(x, mx.sym.Symbol)", "isinstance(x, torch.Tensor)"),
    ("not (isinstance(x, mx.nd.NDArray) or isinstance(x, mx.sym.Symbol))", "not isinstance(x, torch.Tensor)"),
    ("isinstance(x, float) or isinstance(x, mx.nd.NDArray) or isinstance(x, mx.sym.Symbol)",
     "isinstance(x, float) or isinstance(x, torch.Tensor)"),
    ("isinstance(x, mx.nd.NDArray) or isinstance(x, mx.sym.Symbol) or isinstance(x, int)",
     "isinstance(x, torch.Tensor) or isinstance(x, int)"),
    ("isinstance(x, (mx.nd.NDArray, mx.sym.Symbol))", "isinstance(x, torch.Tensor)"),
    ("isinstance(x, (mx.nd.NDArray, mx.sym.Symbol, int))", "isinstance(x, (torch.Tensor, int))"),
    ("isinstance(x, int) or isinstance(x, int)", "isinstance(x, int) or isinstance(x, int)"),  # the user's own
    ("isinstance(x, (int, int, mx.nd.NDArray))", "isinstance(x, (int, int, torch.Tensor))"),
])
def test_tests_the_translation_made_equal_are_written_once(test, written):
    """Note [tests the translation made one]: the same answers as MXNet's, and no repetition a
    reviewer would take for a mistake; what the user repeated stays."""
    source = f"import mxnet as mx\ndef f(x):\n    return {test}\n"
    result = convert_source(source)
    assert f"return {written}\n" in result.output, result.output
    namespace: dict = {}
    exec(compile(result.output, "<converted>", "exec"), namespace)
    original: dict = {}
    exec(source, original)
    mx = pytest.importorskip("mxnet")
    for x, mx_x in ((torch.ones(2), mx.nd.ones(2)), ("s", "s"), (3, 3), (0.5, 0.5)):
        assert namespace["f"](x) == original["f"](mx_x)
