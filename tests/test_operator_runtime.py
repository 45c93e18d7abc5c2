"""Operator calls whose arguments are not all literal: starred arrays bound statically where they
land in MXNet's own varargs (Note [starred arguments] in xlate/convert/rulectx.py), `**kwargs`
and run-time values handed to the operator's helper, which takes MXNet's own signature (Note
[operator helpers] in xlate/runtime/operators.py). The numbers are compared with MXNet in
xlate.check.rule_cases (the `*-starred`, `kwargs-*` and `runtime-*` cases)."""
import ast
import inspect
import re
import textwrap

import pytest

from xlate.convert import catalogue
from xlate.convert.engine import convert_source
from xlate.runtime import sources


def convert(src: str, **kw):
    result = convert_source(textwrap.dedent(src).lstrip("\n"), **kw)
    ast.parse(result.output)
    assert convert_source(result.output).output == result.output  # idempotent
    return result


def manual(result) -> list:
    return [(d.code, d.message) for d in result.diagnostics if d.status == "manual" and d.code != "MX002"]


def line(result, start: str) -> str:
    return next(x.strip() for x in result.output.splitlines() if x.strip().startswith(start))


# -- starred arrays -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call,expected", [
    # a sequence's items may be array elements, (1,) in MXNet 1.x and 0-d in torch: the helper
    # joins them as (1,) (MX028); displayed items are seen
    ("nd.concat(*outs, dim=1)", "_mx_concat(*outs, dim=1)"),
    ("nd.concat(x, *outs)", "_mx_concat(x, *outs, dim=1)"),  # MXNet's default dim still written
    ("nd.concat(*a, *b, dim=0)", "_mx_concat(*a, *b, dim=0)"),
    ("nd.concat(*[f(p) for p in ps], dim=2)", "torch.cat([f(p) for p in ps], dim=2)"),  # [*[...]] is [...]
    # two integers read an array's element: made (1,) where it is read (Note [elements of untyped values])
    ("nd.concat(*[t[i, 0] for i in ps], dim=0)", "torch.cat([_mx_nd_scalar(t[i, 0]) for i in ps], dim=0)"),
    ("nd.stack(*[a, b])", "torch.stack([a, b])"),
    ("nd.stack(*rows, axis=0)", "_mx_stack(*rows, axis=0)"),
    ("nd.add_n(*terms)", "torch.stack([*terms]).sum(dim=0)"),
    ("nd.UpSampling(*maps, scale=2, sample_type='nearest')",
     "_mx_upsampling(*maps, scale=2, sample_type='nearest')"),  # the count decides: at run time
])
def test_starred_arrays_in_a_varargs_slot(call, expected):
    r = convert(f"from mxnet import nd\ny = {call}\n")
    assert line(r, "y =") == f"y = {expected}"
    assert not manual(r) and "mxnet" not in r.output


def test_sequential_add_of_starred_blocks_extends():
    # Sequential.add(*blocks) takes any number: never `append` of the list itself
    r = convert("""
        from mxnet.gluon import nn
        net = nn.HybridSequential()
        net.add(*[nn.Dense(4), nn.Dense(2)])
        net.add(nn.Dense(3), *more)
    """)
    assert "net.extend([_mx_Dense(4), _mx_Dense(2)])" in r.output
    assert "net.extend([_mx_Dense(3), *more])" in r.output and not manual(r)


def test_starred_method_varargs_keep_their_star():
    r = convert("""
        from mxnet import nd
        a = nd.ones((2, 3, 4))
        y = a.reshape(*dims)
        z = a.reshape(0, *rest)
        t = a.transpose(*axes)
    """)
    # NDArray.reshape(*shape) unwraps one tuple, as _mx_reshape does; a starred shape may hold codes
    assert "y = _mx_reshape(a, (*dims,))" in r.output and "z = _mx_reshape(a, (0, *rest))" in r.output
    assert "t = a.permute(*axes)" in r.output
    assert not manual(r)


def test_starred_argument_in_a_named_slot_goes_to_the_helper():
    # nd.reshape(x, *s) fills shape, reverse, ... in MXNet: the helper binds it the same way
    r = convert("from mxnet import nd\ny = nd.reshape(x, *spec)\nz = nd.transpose(x, *axes)\n")
    assert "y = _mx_reshape(x, *spec)" in r.output and "z = _mx_permute_axes(x, *axes)" in r.output
    assert not manual(r)


def test_starred_layer_arguments_still_go_to_the_gluon_helper():
    r = convert("from mxnet.gluon import nn\np = nn.MaxPool2D(2, *rest)\n")
    assert "p = _mx_MaxPool2D(2, *rest)" in r.output


# -- **kwargs: the call as written, with the operator's helper ------------------------------------------

@pytest.mark.parametrize("call,helper", [
    ("F.concat(*outs, **kw)", "_mx_concat"),
    ("F.stack(a, b, **kw)", "_mx_stack"),
    ("F.contrib.BilinearResize2D(x, **self._up_kwargs)", "_mx_bilinear_resize"),
    ("F.Convolution(x, weight, bias, name='fwd', **self._kwargs)", "_mx_convolution"),
    ("F.Deconvolution(x, weight, **self._kwargs)", "_mx_deconvolution"),
    ("F.Pooling(x, name='fwd', **self._kwargs)", "_mx_pooling"),
    ("F.pad(x, **kw)", "_mx_pad"),
    ("F.LRN(x, **kw)", "_mx_lrn"),
    ("F.UpSampling(x, **kw)", "_mx_upsampling"),
    ("F.clip(x, **kw)", "_mx_clip"),
    ("F.Activation(x, **kw)", "_mx_activation"),
    ("F.LeakyReLU(x, **kw)", "_mx_leaky_relu"),
    ("F.softmax(x, **kw)", "_mx_softmax"),
    ("F.log_softmax(x, **kw)", "_mx_log_softmax"),
    ("F.reshape(x, **kw)", "_mx_reshape"),
    ("F.transpose(x, **kw)", "_mx_permute_axes"),
    ("F.slice_axis(x, **kw)", "_mx_slice_axis"),
    ("F.split(x, **kw)", "_mx_split"),
    ("F.SliceChannel(x, **kw)", "_mx_split"),
    ("F.slice(x, **kw)", "_mx_slice"),
    ("F.contrib.box_nms(x, **kw)", "_mx_box_nms"),
])
def test_kwargs_keep_the_call_with_the_operators_helper(call, helper):
    r = convert(f"""
        from mxnet.gluon import nn
        class Block(nn.HybridBlock):
            def hybrid_forward(self, F, x, *outs):
                y = {call}
                return y
    """)
    name = call.split("(", 1)[0].rsplit(".", 1)[1]
    args = call.split("(", 1)[1]
    assert line(r, "y =") == f"y = {helper}({args}"
    assert not manual(r) and "mxnet" not in r.output
    assert f"def {helper}(" in r.output  # pasted


@pytest.mark.parametrize("call,expected", [
    ("nd.slice_axis(x, axis=ax, begin=1, end=None)", "_mx_slice_axis(x, axis=ax, begin=1, end=None)"),
    ("x.slice_axis(axis=self_axis, begin=1, end=None)", "_mx_slice_axis(x, axis=self_axis, begin=1, end=None)"),
    ("nd.split(x, axis=-1, num_outputs=n, squeeze_axis=sq)", "_mx_split(x, axis=-1, num_outputs=n, squeeze_axis=sq)"),
    ("nd.Activation(x, act_type=act)", "_mx_activation(x, act_type=act)"),
    ("nd.LeakyReLU(x, act_type=act, slope=0.1)", "_mx_leaky_relu(x, act_type=act, slope=0.1)"),
    ("nd.softmax(x, axis=1, temperature=t)", "_mx_softmax(x, axis=1, temperature=t)"),
    ("nd.softmax(x, dtype='float64')", "_mx_softmax(x, dtype='float64')"),
    ("nd.transpose(x + 1)", "_mx_permute_axes(x + 1)"),
    ("nd.pad(x, mode=m, pad_width=(0, 0, 0, 0, 1, 1, 1, 1))", "_mx_pad(x, mode=m, pad_width=(0, 0, 0, 0, 1, 1, 1, 1))"),
    ("nd.Convolution(x, w, kernel=(3, 3), num_filter=4, layout=lay)",
     "_mx_convolution(x, w, kernel=(3, 3), num_filter=4, layout=lay)"),
    ("nd.contrib.BilinearResize2D(x, height=4, width=4, mode=m)",
     "_mx_bilinear_resize(x, height=4, width=4, mode=m)"),
])
def test_values_known_at_run_time_go_to_the_helper(call, expected):
    r = convert(f"from mxnet import nd\nx = nd.ones((2, 3, 4, 5))\ny = {call}\n")
    assert line(r, "y =") == f"y = {expected}"
    assert not manual(r)


@pytest.mark.parametrize("call,why", [
    # a method's *args do not follow the operator's signature the helper takes
    ("a.reshape(2, 3, **kw)", "positional arguments and ** together on a method call"),
    ("a.softmax(**kw)", "cannot be mapped statically"),
    ("a.transpose(**kw)", "cannot be mapped statically"),
])
def test_method_calls_with_kwargs_stay_manual(call, why):
    r = convert(f"from mxnet import nd\na = nd.ones((2, 3))\ny = {call}\n")
    found = manual(r)
    assert len(found) == 1 and why in found[0][1], found
    assert f"y = {call}" in r.output


def test_untyped_method_with_stars_is_not_taken_for_mxnet():
    # `str.split(*args)` must not become the operator's helper
    r = convert("from mxnet import nd\nparts = text.split(*seps)\ny = nd.ones(3)\n")
    assert "parts = text.split(*seps)" in r.output and "_mx_split" not in r.output


def test_operator_as_a_value_is_its_helper():
    r = convert("from mxnet import nd\njoin = nd.concat\ny = join(a, b, dim=0)\n")
    assert "join = _mx_concat" in r.output and "def _mx_concat(" in r.output


# -- the new operator rules (MX070-MX084): what is left for a human ------------------------------------

@pytest.mark.parametrize("call,code,why", [
    ("nd.slice(x, begin=(0, 1), end=(None,))", "MX070", "one entry per axis"),
    ("nd.linspace(0, 1, n, endpoint=flag)", "MX075", "endpoint"),
    ("nd.norm(x, ord=3)", "MX076", "1 and 2"),
    ("nd.broadcast_like(x, y, lhs_axes=1)", "MX042", "both lhs_axes and rhs_axes"),
])
def test_new_operators_left_for_a_human(call, code, why):
    r = convert(f"from mxnet import nd\ny = {call}\n")
    assert [c for c, _ in manual(r)] == [code] and why in manual(r)[0][1], manual(r)


@pytest.mark.parametrize("call,helper", [
    ("nd.BatchNorm(x, g, b, m, v)", "_mx_batch_norm(x, g, b, m, v, training=_mx_is_training())"),
    ("nd.Dropout(x, 0.5)", "F.dropout(x, 0.5, training=_mx_is_training())"),
])
def test_operators_outside_a_forward_read_mxnets_training_flag(call, helper):
    """Outside a block's forward the training flag is MXNet's global one, read at run time."""
    r = convert(f"from mxnet import nd\ny = {call}\n")
    assert f"y = {helper}" in r.output and not manual(r), r.output


def test_dropout_always_needs_no_training_flag():
    r = convert("from mxnet import nd\ny = nd.Dropout(x, p=0.2, mode='always')\n")
    assert "y = F.dropout(x, 0.2, training=True)" in r.output and not manual(r)


def test_batch_norm_op_without_its_arrays_is_the_symbol_api():
    r = convert("""
        from mxnet.gluon import nn
        class Block(nn.HybridBlock):
            def hybrid_forward(self, F, x):
                return F.BatchNorm(x, name='bn')
    """)
    found = dict(manual(r))
    assert sorted(found) == ["MX082"] and "symbol API" in found["MX082"]
    # the method is forward all the same; the left call reads the stand-in (Note [F left])
    assert "return _mx_F.BatchNorm(x, name='bn')" in r.output


# -- helpers: MXNet's own signatures, and names that do not clash ---------------------------------------

def _operator_helpers():
    """(MXNet function name, helper name) for every operator rule with a helper."""
    found = []
    # file functions, randn (the shape as separate arguments, `randn(*shape, **kwargs)`) and Custom (its
    # keyword arguments are the registered operator's own, MX838): no operator signature of their own
    files = ("mxnet.ndarray.save", "mxnet.ndarray.load", "mxnet.ndarray.random.randn", "mxnet.ndarray.Custom")
    for rule in catalogue.load():
        for name in rule.matches:
            if rule.runtime and name.startswith("mxnet.ndarray.") and name not in files:
                found.append((name, rule.runtime_for(name)))
    return found


def test_every_operator_rule_names_a_helper_that_exists():
    helpers = _operator_helpers()
    assert len(helpers) >= 25
    missing = sorted({h for _, h in helpers if h not in sources()})
    assert not missing, missing


def test_helper_names_never_appear_as_attributes_in_other_helpers():
    # the helper closure is found by name: a method or attribute `_mx_norm` would pull in a helper
    names = set(sources())
    for name, text in sources().items():
        used = set(re.findall(r"\.([A-Za-z_]\w*)", text)) | set(re.findall(r"def ([A-Za-z_]\w*)\(self", text))
        assert not used & names, (name, sorted(used & names))


def _documented_defaults(doc: str) -> dict:
    """MXNet's parameter list from an operator's docstring: name -> default text (None: required)."""
    params = {}
    if "Parameters\n----------\n" not in doc:  # a Python-level function's indented docstring (contrib.isnan)
        return params
    section = doc.split("Parameters\n----------\n", 1)[1].split("\nReturns", 1)[0]
    for m in re.finditer(r"^(\w+) : (.*)$", section, re.M):
        default = re.search(r"default=(.*)$", m.group(2))
        params[m.group(1)] = default.group(1).strip() if default else None
    return params


def _value(text: str):
    text = text.strip("'")
    if text in ("None", "", "[]", "()"):
        return () if text in ("[]", "()") else None
    if text in ("True", "False"):
        return text == "True"
    if text.startswith("[") and text.endswith("]"):  # a tuple of numbers: default=[0,0,0,0]
        return tuple(_value(part) for part in text[1:-1].split(","))
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@pytest.mark.mxnet
@pytest.mark.parametrize("mx_name,helper", _operator_helpers(), ids=[f"{n}->{h}" for n, h in _operator_helpers()])
def test_helper_takes_the_operators_own_signature(mx_name, helper):
    mx = pytest.importorskip("mxnet")
    pytest.importorskip("torch")
    from xlate.runtime import load

    fn = mx
    for part in mx_name.split(".")[1:]:
        fn = getattr(fn, part)
    mx_params = list(inspect.signature(fn).parameters.values())
    ours = list(inspect.signature(getattr(load(), helper)).parameters.values())
    documented = _documented_defaults(fn.__doc__)
    if mx_params[0].kind is inspect.Parameter.VAR_POSITIONAL:  # (*data, **kwargs)
        assert ours[0].kind is inspect.Parameter.VAR_POSITIONAL
        expected = [n for n in documented if n not in ("data", "args", "out")] + ["out", "name"]
        # MXNet fills num_args (the count of arrays) itself and leaves it out of its docs
        assert "num_args" in [p.name for p in ours], helper
        ours = [p for p in ours[1:] if p.name != "num_args"]
    else:
        expected = [p.name for p in mx_params if p.kind is not inspect.Parameter.VAR_KEYWORD]
        if "name" not in expected:  # the Python-level functions (linspace) have none
            expected.append("name")
    assert [p.name for p in ours] == expected, f"{helper}: {[p.name for p in ours]} != MXNet's {expected}"
    for p in ours:
        text = documented.get(p.name)
        if text is None or p.default is inspect.Parameter.empty:
            continue  # required in MXNet (or not documented)
        want, got = _value(text), p.default
        got = tuple(got) if isinstance(got, list) else got
        if isinstance(want, float) or isinstance(got, float):  # MXNet's docs print float32 values
            assert got is not None and abs(float(got) - float(want)) <= 1e-7 * max(1e-30, abs(float(want))), \
                (helper, p.name, got, want)
        else:
            assert got == want, f"{helper}({p.name}=...): default {got!r}, MXNet's {want!r}"


def test_copyto_and_context_on_values_of_unknown_kind_give_mxnets_results():
    """`x.copyto(target)` / `x.context` where x comes from another module (issue 21, item 6): run
    both ways on the same values, into an array and to a context, and on values no array."""
    from mxsupport import import_mxnet, import_numpy, import_torch
    mx, np, torch = import_mxnet(), import_numpy(), import_torch()
    source = ("import mxnet as mx\n"
              "def into(x, y):\n    r = x.copyto(y)\n    return r, y\n"
              "def to_ctx(x, ctx):\n    c = x.copyto(ctx)\n    c[0] = -7.0\n    return x, c, x.context, c.ctx\n")
    result = convert_source(source)
    assert "_mx_copyto(x, y)" in result.output and "_mx_device_of(x, 'context')" in result.output
    assert not manual(result)
    ns: dict = {}
    exec(compile(result.output, "<converted>", "exec"), ns)
    mx_ns: dict = {}
    exec(compile(source, "<mx>", "exec"), mx_ns)
    data = np.array([[1.5, -2.0], [0.25, 3.0]], dtype="float32")
    r_mx, y_mx = mx_ns["into"](mx.nd.array(data), mx.nd.zeros((2, 2)))
    r_pt, y_pt = ns["into"](torch.tensor(data), torch.zeros(2, 2))
    np.testing.assert_array_equal(r_pt.numpy(), r_mx.asnumpy())
    np.testing.assert_array_equal(y_pt.numpy(), y_mx.asnumpy())
    assert r_pt is y_pt  # MXNet returns the target it wrote into
    x_mx, c_mx, ctx_mx, _ = mx_ns["to_ctx"](mx.nd.array(data), mx.cpu())
    x_pt, c_pt, dev, dev2 = ns["to_ctx"](torch.tensor(data), torch.device("cpu"))
    np.testing.assert_array_equal(x_pt.numpy(), x_mx.asnumpy())  # a copy even on the same device
    np.testing.assert_array_equal(c_pt.numpy(), c_mx.asnumpy())
    assert dev == dev2 == torch.device("cpu") and ctx_mx == mx.cpu()

    class Config:  # a value that is no array keeps its own attribute and method
        context = "cpu(0)"

        def copyto(self, other):
            return ("copied", other)
    assert ns["_mx_device_of"](Config(), "context") == "cpu(0)"
    assert ns["_mx_copyto"](Config(), 3) == ("copied", 3)
