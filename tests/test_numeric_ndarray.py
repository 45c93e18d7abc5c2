"""Each NDArray/device rule's translation, run against live MXNet.

The case table and its runner live in `xlate.check.rule_cases` (`xlate check --rules` runs
them too, on drawn shapes); here every case runs on its fixed example. A case is an MXNet snippet that defines `f`, the shapes of its inputs, and the rule codes the
conversion must report. The test converts the snippet with every rule enabled, runs both
versions on the same seeded inputs (float32, asymmetric, non-zero, free of ties unless the
case is about ties) and compares values, shapes and dtypes; with `grad`, it also compares
the gradients of the listed inputs under the same random head gradient.

Method forms need a receiver xlate knows to be an NDArray; `a = x.as_in_context(mx.cpu())`
makes one (it returns `x` itself in MXNet, as `x.to(device)` does in torch, so gradients
still flow to `x`).
"""
from __future__ import annotations


import pytest

from mxsupport import import_mxnet, import_numpy, import_torch, seed_for

from xlate.check import rule_cases
from xlate.check.rule_cases import (CASES, NUMERIC_RULES, RANDOM_CASES, RANDOM_DEFAULT_SHAPES, RANDOM_LEGACY_CASES,
                                    RANDOM_LIKE_CASES, RANDOM_OUT_CASES,
                                    SPECIAL_CHECKS, Case)

pytestmark = pytest.mark.mxnet

_IDS = [c.id for c in CASES]


@pytest.fixture(scope="module")
def frameworks():
    return import_mxnet(), import_torch(), import_numpy()


def _assert_equal(rows) -> None:
    bad = rule_cases.problems(rows or [])
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_translation_matches_mxnet(case: Case, frameworks):
    _assert_equal(rule_cases.run_example(case, case.args, case.options, seed_for(case.id)))


DRAWN = [c for c in CASES if c.draw is not None]


@pytest.mark.parametrize("case", DRAWN, ids=[c.id for c in DRAWN])
def test_drawn_shapes_match_mxnet(case: Case, frameworks):
    from xlate.check.selfcheck import draw_examples

    for i, (specs, options) in enumerate(draw_examples(case.inputs(), examples=2, seed=1)):
        rows = rule_cases.run_example(case, specs, options, seed_for(case.id) + i)
        bad = rule_cases.problems(rows)
        assert not bad, rule_cases.describe(specs, options) + "\n" + "\n".join(bad)


# -- every rule with numerical meaning is covered ----------------------------------------------

def test_every_numeric_rule_has_a_case():
    from xlate.convert import catalogue

    covered = {code.partition(":")[0] for c in CASES for code in c.codes} | {s.rule for s in SPECIAL_CHECKS}
    known = {r.code for r in catalogue.read()}
    assert set(NUMERIC_RULES) <= known
    assert set(NUMERIC_RULES) <= covered, sorted(set(NUMERIC_RULES) - covered)
    # a rule added to the NDArray/device files later should get a numeric case too (manual
    # rules rewrite nothing, so there is nothing to compare); initialisers are drawn from
    # distributions and are compared statistically in test_numeric_init.py
    numeric_kinds = {r.code for r in catalogue.read()
                     if r.kind in ("call", "reference") and r.applicability != "manual"
                     and r.family_file in ("0xx_ndarray.toml", "5xx_context_seed.toml", "5xx_autograd.toml")}
    assert numeric_kinds <= set(NUMERIC_RULES), sorted(numeric_kinds - set(NUMERIC_RULES))


# -- MX015 random: same distributions, different streams ---------------------------------------

@pytest.mark.parametrize("id,expr,moments,dtype", RANDOM_CASES, ids=[c[0] for c in RANDOM_CASES])
def test_random_statistics(id, expr, moments, dtype, frameworks):
    rule_cases.check_random_statistics(id, expr, moments, dtype)


@pytest.mark.parametrize("expr", RANDOM_DEFAULT_SHAPES)
def test_random_default_shape(expr, frameworks):
    rule_cases.check_random_default_shape(expr)


@pytest.mark.parametrize("id,expr,moments,dtype", RANDOM_LEGACY_CASES, ids=[c[0] for c in RANDOM_LEGACY_CASES])
def test_random_legacy_names(id, expr, moments, dtype, frameworks):
    rule_cases.check_random_statistics(id, expr, moments, dtype, code="MX016:review")


@pytest.mark.parametrize("id,expr,moments,dtype", RANDOM_OUT_CASES, ids=[c[0] for c in RANDOM_OUT_CASES])
def test_random_out_writes_and_returns_the_array(id, expr, moments, dtype, frameworks):
    rule_cases.check_random_out(id, expr, moments, dtype)


def test_random_shuffle_permutes_rows(frameworks):
    rule_cases.check_random_shuffle()


@pytest.mark.parametrize("id,expr,moments,dtype", RANDOM_LIKE_CASES, ids=[c[0] for c in RANDOM_LIKE_CASES])
def test_random_like_statistics(id, expr, moments, dtype, frameworks):
    rule_cases.check_random_statistics(id, expr, moments, dtype, code="MX069:review")


# -- MX530 autograd.is_training() in a block's forward ----------------------------------------------

def test_is_training_follows_the_module_mode(frameworks):
    _assert_equal(rule_cases.check_is_training())


# -- MX507 seed ------------------------------------------------------------------------------------

def test_seed_makes_torch_draws_repeatable(frameworks):
    rule_cases.check_seed()


# -- MX503 counting GPUs -----------------------------------------------------------------------------

def test_gpu_count(frameworks):
    _assert_equal(rule_cases.check_gpu_count())


def test_gpu_memory(frameworks):
    _assert_equal(rule_cases.check_gpu_memory())


# -- MX020 asnumpy on a tensor that requires grad ------------------------------------------------

def test_asnumpy_of_a_tensor_in_the_graph(frameworks):
    _assert_equal(rule_cases.check_asnumpy_in_graph())


# -- MX008 `x.detach()` as a statement: a live graph, then one a backward freed ------------------------

def test_detach_statement_as_mxnets_backward_leaves_it(frameworks):
    _assert_equal(rule_cases.check_detach_statement())


# -- MX088 / MX089 test_utils, MX508 Context ------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1])
def test_test_utils_give_mxnets_verdicts(seed, frameworks):
    _assert_equal(rule_cases.check_test_utils(seed))


def test_context_constructor_names_mxnets_device(frameworks):
    _assert_equal(rule_cases.check_context())


# -- the runner reports what differs ---------------------------------------------------------------

def test_a_wrong_dtype_or_value_is_reported(frameworks):
    mx, torch, np = frameworks
    x = np.ones((2, 3), dtype=np.float32)
    [(what, m, _)] = rule_cases.compare_outputs(torch.ones(2, 3, dtype=torch.float64), mx.nd.array(x))
    assert what == "out" and "dtype float64 where MXNet gives float32" in m.format()
    [(_, m, err)] = rule_cases.compare_outputs(torch.full((2, 3), 1.5), mx.nd.array(x))
    assert "6 of 6 elements differ" in m.format() and err == 0.5
    [(_, m, _)] = rule_cases.compare_outputs([torch.ones(3)], (mx.nd.array(x), mx.nd.array(x)))
    assert "1 items where MXNet gives 2" in m.format()


UNTYPED_REPEAT = '''
from mxnet import nd


def upsample(x, stride=2):
    return x.repeat(axis=-1, repeats=stride).repeat(axis=-2, repeats=stride)


def flat(x):
    return x.repeat(3)


def rows(x, n):
    return x.repeat(n, 0)
'''


def test_repeat_on_an_untyped_value_repeats_elements_as_mxnet_and_numpy_do(frameworks):
    """YOLOv3's `_upsample(x)`: `x.repeat(axis=-1, repeats=stride)` on a parameter xlate cannot
    type. torch's Tensor.repeat tiles; MXNet's and NumPy's repeat each element. `_mx_np_method`
    decides at run time: a tensor gets MXNet's result, a NumPy array NumPy's own."""
    from xlate.convert.engine import convert_source
    from xlate.runtime import load

    mx, torch, onp = frameworks
    result = convert_source(UNTYPED_REPEAT)
    assert not [d for d in result.diagnostics if d.status != "fixed"], result.diagnostics
    code = result.output.split("\ndef _mx_")[0]  # the helpers pasted after it
    assert code.count("_mx_np_method(") == 4 and ".repeat(" not in code
    namespace = dict(vars(load()))
    exec(compile(result.output, "<converted>", "exec"), namespace)
    reference: dict = {}
    exec(UNTYPED_REPEAT, reference)
    data = onp.arange(24, dtype="float32").reshape(2, 3, 4)
    for call in (lambda ns, x: ns["upsample"](x), lambda ns, x: ns["upsample"](x, 3), lambda ns, x: ns["flat"](x),
                 lambda ns, x: ns["rows"](x, 2)):
        expected = call(reference, mx.nd.array(data)).asnumpy()
        got = call(namespace, torch.tensor(data)).numpy()
        assert got.shape == expected.shape
        onp.testing.assert_array_equal(got, expected)
        onp.testing.assert_array_equal(call(namespace, data), call(reference, data))  # NumPy's own


TOPK_BOTH = '''
from mxnet import nd


def both(x):
    scores, indices = x.reshape((0, -1)).topk(k=3, ret_typ='both')
    return scores, indices


def mask(x):
    return nd.topk(x, axis=1, k=2, ret_typ='mask')


def chosen(x, ret):
    return nd.topk(x, k=2, ret_typ=ret, is_ascend=True)
'''


def test_topk_both_and_mask_give_what_mxnet_gives(frameworks):
    """CenterNet's decoder: `x.reshape((0, -1)).topk(k=..., ret_typ='both')` was left manual.
    `_mx_npx_topk` returns MXNet's [values, float32 indices], its 0/1 mask, and decides a ret_typ
    known only at run time."""
    from xlate.convert.engine import convert_source
    from xlate.runtime import load

    mx, torch, onp = frameworks
    result = convert_source(TOPK_BOTH)
    assert [d.status for d in result.diagnostics if d.code == "MX036"] == ["fixed"] * 3
    namespace = dict(vars(load()))
    exec(compile(result.output, "<converted>", "exec"), namespace)
    reference: dict = {}
    exec(TOPK_BOTH, reference)
    data = onp.random.default_rng(5).permutation(40).astype("float32").reshape(2, 4, 5)  # no ties
    for call in (lambda ns, x: ns["both"](x), lambda ns, x: [ns["mask"](x)],
                 lambda ns, x: [ns["chosen"](x, "value")], lambda ns, x: ns["chosen"](x, "both")):
        expected = call(reference, mx.nd.array(data))
        got = call(namespace, torch.tensor(data))
        assert len(got) == len(expected)
        for e, g in zip(expected, got):
            assert str(g.dtype).split(".")[-1] == onp.dtype(e.dtype).name
            onp.testing.assert_array_equal(g.numpy(), e.asnumpy())


def test_zeros_like_with_a_dtype_keeps_the_inputs_dtype_as_mxnet_does(frameworks):
    """MXNet 1.9.1 ignores `dtype=` in zeros_like/ones_like (CenterNet's decoder passes one):
    MX014 drops it, so the result keeps the input's dtype in both."""
    from xlate.convert.engine import convert_source

    mx, torch, onp = frameworks
    source = "from mxnet import nd\n\ndef f(x):\n    return nd.zeros_like(x, dtype='int64'), nd.ones_like(x, dtype='int8')\n"
    result = convert_source(source)
    assert "dtype" not in result.output and not [d for d in result.diagnostics if d.status != "fixed"]
    namespace: dict = {}
    exec(compile(result.output, "<converted>", "exec"), namespace)
    reference: dict = {}
    exec(source, reference)
    for dtype in ("float32", "int32"):
        data = onp.arange(6).reshape(2, 3).astype(dtype)
        for e, g in zip(reference["f"](mx.nd.array(data, dtype=dtype)), namespace["f"](torch.tensor(data))):
            assert onp.dtype(e.dtype).name == str(g.dtype).split(".")[-1] == dtype
            onp.testing.assert_array_equal(g.numpy(), e.asnumpy())


def test_broadcast_div_of_integer_arrays_truncates_as_mxnet_does(frameworks):
    """CenterNet's decoder: `F.broadcast_div(indices, h * w)` on int64 indices is an integer
    division in MXNet (toward zero, the result int64); torch's `/` gave float classes. MX041's
    `_mx_broadcast_div` keeps both kinds exact."""
    from xlate.convert.engine import convert_source
    from xlate.runtime import load

    mx, torch, onp = frameworks
    source = ("from mxnet import nd\n\ndef f(a, b):\n"
              "    return nd.broadcast_div(a, b), nd.elemwise_div(a, b), nd.divide(a, b), nd.divide(a, 2.5), "
              "nd.divide(7.9, b)\n")
    result = convert_source(source)
    assert result.output.count("_mx_broadcast_div(a, b)") == 3 and result.output.count("_mx_broadcast_div(") >= 5
    namespace = dict(vars(load()))
    exec(compile(result.output, "<converted>", "exec"), namespace)
    reference: dict = {}
    exec(source, reference)
    a = onp.array([[7, -7, 9], [-9, 0, 5]])
    b = onp.array([[2, 2, 4], [4, 3, -2]])  # a Python number beside an integer array is cast to it first
    for dtype in ("int64", "int32", "float32"):
        got = namespace["f"](torch.tensor(a.astype(dtype)), torch.tensor(b.astype(dtype)))
        expected = reference["f"](mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype))
        for e, g in zip(expected, got):
            assert str(g.dtype).split(".")[-1] == onp.dtype(e.dtype).name == dtype
            onp.testing.assert_array_equal(g.numpy(), e.asnumpy())


RUN_TIME_DTYPES = '''
import numpy as np
from mxnet import nd


def made(dtype, like):
    a = nd.zeros((2, 3), dtype=dtype)
    b = nd.ones((2,), dtype=like.dtype)
    c = nd.arange(4, dtype=dtype)
    d = like.astype(dtype)
    return a, b, c, d


def drawn(dtype):
    return nd.random.uniform(0, 1, shape=(2, 2), dtype=dtype)
'''


def test_a_dtype_known_only_at_run_time_is_mapped_then(frameworks):
    """GluonCV's DropBlock (`dtype=self.dtype`), gluon-nlp's `dtype=dtype`: a dtype that is not a
    literal was left manual outside the numpy dialect. `_mx_dtype` maps it at run time, from
    MXNet's spellings (a name, a NumPy type or dtype) or a converted array's torch dtype."""
    from xlate.convert.engine import convert_source
    from xlate.runtime import load

    mx, torch, onp = frameworks
    result = convert_source(RUN_TIME_DTYPES)
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    code = result.output.split("\ndef _mx_")[0]  # the helpers pasted after it
    assert code.count("_mx_dtype(dtype)") == 3 and "_mx_dtype(like.dtype)" in code, code
    namespace = dict(vars(load()))
    exec(compile(result.output, "<converted>", "exec"), namespace)
    reference: dict = {}
    exec(RUN_TIME_DTYPES, reference)
    for dtype in ("float64", onp.float16, onp.dtype("int32")):
        like = onp.arange(3, dtype="int64")
        expected = reference["made"](dtype, mx.nd.array(like, dtype="int64"))
        got = namespace["made"](dtype, torch.tensor(like))
        for e, g in zip(expected, got):
            assert tuple(g.shape) == e.shape and str(g.dtype).split(".")[-1] == onp.dtype(e.dtype).name
            onp.testing.assert_array_equal(g.numpy(), e.asnumpy())
    for dtype in ("float64", onp.float16):  # the draws differ (MX015): shape and dtype
        e, g = reference["drawn"](dtype), namespace["drawn"](dtype)
        assert tuple(g.shape) == e.shape and str(g.dtype).split(".")[-1] == onp.dtype(e.dtype).name


def test_a_float_cast_of_an_integer_cast_keeps_mxnets_gradient(frameworks):
    """Note [gradients through integer casts]: MXNet passes the gradient back through a round trip
    through an integer type, cast to that type (2.5 arrives as 2); torch's integer tensors carry
    none. In one expression, typed or decided at run time, the translation has MXNet's values and
    gradients; a float cast of a name an integer cast was assigned to is reviewed at its line; an
    integer cast used as an index, and a float cast of a plain array, are neither."""
    from xlate.convert.engine import convert_source

    mx, torch, onp = frameworks
    source = ("from mxnet import nd\n\ndef q(x, i):\n"
              "    a = nd.cast(nd.cast(x * 3, 'int32'), 'float32') * 2.5\n"
              "    b = (x * 100).astype('int8').astype('float16')\n"
              "    c = x[i.astype('int32')].astype('float32')\n"
              "    d = nd.ones(3).astype('float32')\n"
              "    k = (x * 3).astype('int32')\n"
              "    e = k.astype('float32')\n"
              "    return a, b, c, d, e\n")
    result = convert_source(source)
    by_line = {(d.line, d.status) for d in result.diagnostics if d.code == "MX022"}
    assert {line for line, status in by_line if status == "review"} == {9}, by_line
    assert result.output.count("_mx_cast_round_trip(") == 3, result.output  # the helper's definition, 2 calls
    scope = {}
    exec(compile(source, "<mx>", "exec"), scope)
    ns = {}
    exec(compile(result.output, "<pt>", "exec"), ns)
    values = onp.array([0.7, 1.6, -2.2, 0.013], dtype="float32")
    x = mx.nd.array(values)
    x.attach_grad()
    with mx.autograd.record():
        a, b = scope["q"](x, mx.nd.array([1]))[:2]
        (a.sum() + b.astype("float32").sum() * 0.5).backward()
    t = torch.tensor(values, requires_grad=True)
    ta, tb = ns["q"](t, torch.tensor([1.0]))[:2]
    (ta.sum() + tb.float().sum() * 0.5).backward()
    onp.testing.assert_array_equal(ta.detach().numpy(), a.asnumpy())
    assert tb.dtype == torch.float16
    onp.testing.assert_array_equal(tb.detach().numpy(), b.asnumpy())
    onp.testing.assert_array_equal(t.grad.numpy(), x.grad.asnumpy())
    assert x.grad.asnumpy()[0] == 6.0  # the premise: 2.5 arrived as 2, times 3


# -- what MXNet 1.9.1 has (Note [MXNet's own names] in xlate/convert/mx_api.py) ----------------------

def test_the_converters_list_of_mxnets_names_is_the_installed_mxnets(frameworks):
    """xlate/convert/mxnet_api.txt, read by the converter to tell a fork's operator (MX917) from a name
    MXNet has, holds what the installed mxnet 1.9.1 has: regenerated here and compared line by line."""
    from pathlib import Path

    from xlate.check.api_inventory import inventory
    from xlate.convert import mx_api

    mx = frameworks[0]
    text = Path(mx_api.__file__).with_name("mxnet_api.txt").read_text(encoding="utf-8").splitlines()
    assert text[1:] == inventory(), "regenerate: python -m xlate.check.api_inventory > xlate/convert/mxnet_api.txt"
    assert mx_api.absent("mxnet.gluon.nn.QConv2D") and not hasattr(mx.gluon.nn, "QConv2D")
    assert not mx_api.absent("mxnet.gluon.nn.Conv2D") and not mx_api.array_method("det_sign")
    assert mx_api.fluent_op("clip") == "clip" and mx.nd.ones((2,)).clip(a_min=0, a_max=0.5).asnumpy().tolist() == [0.5] * 2


def test_a_device_probe_falls_back_to_the_cpu_where_mxnets_does(frameworks):
    """Note [device probes]: d2l's try_all_gpus, converted, crashed on a CPU-only torch (AssertionError
    where MXNet raised MXNetError); both now give the CPU when no GPU answers, and the GPUs when they do."""
    from xlate.convert.engine import convert_source

    mx, torch, _ = frameworks
    src = ("import mxnet as mx\nfrom mxnet import nd\ndef try_all_gpus():\n    ctxes = []\n    try:\n"
           "        for i in range(16):\n            ctx = mx.gpu(i)\n            _ = nd.array([0], ctx=ctx)\n"
           "            ctxes.append(ctx)\n    except mx.base.MXNetError:\n        pass\n"
           "    return ctxes or [mx.cpu()]\n")
    mx_scope, pt_scope = {}, {}
    exec(src, mx_scope)
    exec(convert_source(src).output, pt_scope)
    found, converted = mx_scope["try_all_gpus"](), pt_scope["try_all_gpus"]()
    assert [c.device_type for c in found] == [d.type.replace("cuda", "gpu") for d in converted]
