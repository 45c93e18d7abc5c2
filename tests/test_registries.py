"""MXNet's registries of named classes, converted (MX841-MX843): a program that registers its own
classes and builds them by name runs in MXNet and converted, and says the same things (the names
registered, what `create` builds from a name in any case, a dict, JSON or an instance, the
assertion messages and the warning of a name registered twice); a custom initializer registered
with `@mx.init.register` and named by a string draws the same weights; the model store's table
and `get_model_file` of a file already there agree with MXNet's."""
import hashlib
import textwrap
import warnings

import pytest

from tests.mxsupport import import_mxnet, import_torch
from xlate.convert.engine import convert_source

pytestmark = pytest.mark.mxnet

REGISTRY_PROGRAM = '''
from mxnet import registry
class Dataset:
    def __init__(self, size=1, **kw):
        self.args = (size, sorted(kw.items()))
register = registry.get_register_func(Dataset, 'dataset')
alias = registry.get_alias_func(Dataset, 'dataset')
create = registry.get_create_func(Dataset, 'dataset')
names = lambda: sorted(registry.get_registry(Dataset))
@register
class Squad(Dataset):
    pass
@alias('wiki', 'WikiText2')
class Wiki(Dataset):
    pass
class NotOne:
    pass
'''

# (what a line of the program computes) -- run after REGISTRY_PROGRAM on both sides
CASES = [
    "names()",
    "type(create('SQUAD')).__name__",
    "create('squad', 3, a=1).args",
    "create(dataset='wikitext2', size=4).args",
    "create({'dataset': 'wiki', 'size': 5}).args",
    "create('[\"squad\", {\"size\": 6}]').args",
    "create('{\"dataset\": \"wiki\", \"size\": 7}').args",
    "create(Squad(8)).args",
    "create('nope')",
    "create(Squad(1), 2)",
    "create(3)",
    "register(NotOne)",
    "register(Wiki, 'Squad') is Wiki and type(create('squad')).__name__",
]


def run(program: str, expr: str):
    scope: dict = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(program, scope)
        try:
            value = repr(eval(expr, scope))
        except AssertionError as e:
            value = f"AssertionError: {e}"
    return value, [str(w.message).replace("__main__", "?").replace("builtins", "?") for w in caught]


@pytest.mark.parametrize("expr", CASES)
def test_registry_program_says_what_mxnet_says(expr):
    import_mxnet()
    import_torch()
    src = textwrap.dedent(REGISTRY_PROGRAM)
    result = convert_source(src)
    assert "import mxnet" not in result.output and not [d for d in result.diagnostics if d.status == "manual"]
    assert run(result.output, expr) == run(src, expr)


def test_an_initializer_registered_by_name_draws_as_in_mxnet():
    mx = import_mxnet()
    torch = import_torch()
    src = textwrap.dedent('''
        import mxnet as mx
        from mxnet.gluon import nn
        @mx.init.register
        class Ramp(mx.init.Initializer):
            def __init__(self, step=0.25):
                super(Ramp, self).__init__(step=step)
                self.step = step
            def _init_weight(self, name, arr):
                n = arr.size
                arr[:] = (mx.nd.arange(n) * self.step - 1.0).reshape(arr.shape)
        @mx.init.alias('down_ramp')
        class DownRamp(Ramp):
            def _init_weight(self, name, arr):
                n = arr.size
                arr[:] = (1.0 - mx.nd.arange(n) * self.step).reshape(arr.shape)
        def build():
            net = nn.Dense(3, in_units=4, weight_initializer=Ramp(), bias_initializer=DownRamp(0.5))
            net.initialize()
            return net
        ''')
    result = convert_source(src)
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    mine, theirs = {}, {}
    exec(src, theirs)
    exec(result.output, mine)
    gluon, converted = theirs["build"](), mine["build"]()
    assert isinstance(converted, torch.nn.Module)
    torch.testing.assert_close(converted.weight.detach(), torch.from_numpy(gluon.weight.data().asnumpy()))
    torch.testing.assert_close(converted.bias.detach(), torch.from_numpy(gluon.bias.data().asnumpy()))
    assert mx.nd.abs(gluon.weight.data()).sum().asscalar() > 0
    registered = {k: v.__name__ for k, v in mx.registry.get_registry(mx.init.Initializer).items()
                  if k in ("ramp", "down_ramp")}
    assert registered == {"ramp": "Ramp", "down_ramp": "DownRamp"}
    table = next(v for k, v in mine["_mx_registry"].table.items() if getattr(k, "registry_of_initializers", False))
    assert {k: v.__name__ for k, v in table.items()} == registered
    assert type(mine["_mx_initializer"]("Down_Ramp")).__name__ == "DownRamp"  # a name, as a layer may be given


def test_the_model_store_table_and_a_file_already_there(tmp_path):
    import_mxnet()
    from mxnet.gluon.model_zoo import model_store

    body = b"not really parameters"
    sha1 = hashlib.sha1(body).hexdigest()
    name = "xlate_test_tiny_lm"
    (tmp_path / f"{name}-{sha1[:8]}.params").write_bytes(body)
    src = textwrap.dedent(f'''
        from mxnet.gluon.model_zoo import model_store
        model_store._model_sha1.update({{'{name}': '{sha1}'}})
        def fetch(root):
            return model_store.short_hash('{name}'), model_store.get_model_file('{name}', root=root)
        ''')
    result = convert_source(src)
    assert "import mxnet" not in result.output
    mine, theirs = {}, {}
    try:
        exec(src, theirs)
        exec(result.output, mine)
        assert mine["fetch"](str(tmp_path)) == theirs["fetch"](str(tmp_path))
        with pytest.raises(ValueError, match="Pretrained model for nope is not available"):
            mine["_mx_model_store"].short_hash("nope")
    finally:
        model_store._model_sha1.pop(name, None)


def test_an_initializer_name_known_only_at_run_time():
    """`Dense(..., bias_initializer=b)` with `b` a parameter whose value is a Gluon name ('zeros', or a
    class registered with `@mx.init.register`): the layer draws as Gluon's does."""
    import_mxnet()
    torch = import_torch()
    src = textwrap.dedent('''
        import mxnet as mx
        from mxnet.gluon import nn
        @mx.init.register
        class Ramp(mx.init.Initializer):
            def _init_weight(self, name, arr):
                arr[:] = (mx.nd.arange(arr.size) * 0.25 - 1.0).reshape(arr.shape)
        def build(weight_initializer, bias_initializer):
            net = nn.Dense(3, in_units=4, weight_initializer=weight_initializer, bias_initializer=bias_initializer)
            net.initialize()
            return net
        ''')
    mine, theirs = {}, {}
    exec(src, theirs)
    exec(convert_source(src).output, mine)
    for w, b in [("ramp", "zeros"), ("RAMP", "ones"), (None, "Ramp")]:
        if w is None:
            w = mine["Ramp"]()
            gluon = theirs["build"](theirs["Ramp"](), b)
        else:
            gluon = theirs["build"](w, b)
        converted = mine["build"](w, b)
        torch.testing.assert_close(converted.weight.detach(), torch.from_numpy(gluon.weight.data().asnumpy()))
        torch.testing.assert_close(converted.bias.detach(), torch.from_numpy(gluon.bias.data().asnumpy()))


def test_amp_initialized_is_whether_autocast_is_on():
    """MX844: False where MXNet's AMP was never initialised (MXNet's answer), and True inside
    torch.autocast, the translation's reduced precision."""
    import_mxnet()
    torch = import_torch()
    src = textwrap.dedent('''
        from mxnet.contrib.amp import amp
        def fill():
            return -1e4 if amp._amp_initialized else -1e18
        ''')
    mine, theirs = {}, {}
    exec(src, theirs)
    exec(convert_source(src).output, mine)
    assert mine["fill"]() == theirs["fill"]() == -1e18
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert mine["fill"]() == -1e4
