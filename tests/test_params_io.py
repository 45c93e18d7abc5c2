"""The parameter API (MX160-MX170, rules/1xx_params.toml) and parameter files (MX610-MX615,
rules/6xx_io.toml), executed: one MXNet source of small functions over a model runs on a Gluon
network, its conversion (every rule on) runs on the matching torch network holding the same
random asymmetric weights, and the results are compared. Where the translation differs by
design (Gluon counts BatchNorm's running statistics as parameters, torch keeps them as
buffers) the test checks the difference is exactly that and that the converter reports it.
"""
from __future__ import annotations

import re

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
from mxnet import autograd  # noqa: E402
from mxnet.gluon import nn as mnn  # noqa: E402

from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet

SOURCE = '''
import mxnet as mx
import numpy as np
from mxnet import autograd


def count(net):
    return sum(int(np.prod(p.shape)) for p in net.collect_params().values())


def names(net):
    return [name for name, _ in net.collect_params().items()]


def freeze_first(net):
    for p in net[0].collect_params().values():
        p.grad_req = 'null'


def grad_reqs(net):
    return [p.grad_req for p in net.collect_params().values()]


def unfreeze(net):
    net.collect_params().setattr('grad_req', 'write')


def set_first(net, value):
    net[0].weight.set_data(value)
    return net[0].weight.data().asnumpy()


def scale_param(tensor_param: mx.gluon.parameter.Parameter, factor: float) -> None:
    # the annotation is the only evidence that tensor_param is a Parameter
    tensor_param.set_data(tensor_param.data() * factor)


def scale_each(store: "mx.gluon.ParameterDict", factor):
    for key in list(store.keys()):
        store[key].set_data(store[key].data() * factor)


def halve(net):
    for p in net.collect_params().values():
        p.data()[:] = 0.5 * p.data()


def grads(net):
    return [p.grad().asnumpy() for p in net.collect_params().values() if p.grad_req != 'null']


def grads_listed(net):
    # the parameters listed first, then looped over (autogluon's GP regression)
    params = net.collect_params().values()
    found = []
    for param in params:
        if param.grad_req != 'null':
            found.append((param.data(ctx=mx.cpu()).asnumpy(), param.grad(ctx=mx.cpu()).asnumpy()))
    return found


def penalty_grad(net):
    with autograd.record():
        reg = (net[0].weight.data() ** 2).sum()
    reg.backward()
    return net[0].weight.grad().asnumpy()


def clear(net):
    net.collect_params().zero_grad()


def clear_each(nets):
    # a name holding collect_params() of a block xlate cannot type (autogluon's all_model_params)
    for net in nets:
        held = net.collect_params()
        held.zero_grad()


def save(net, f):
    net.save_parameters(f)


def export(net, path):
    net.export(path, epoch=2)


def load(net, f):
    net.load_parameters(f, ctx=mx.cpu())


def load_lenient(net, f):
    net.load_parameters(f, allow_missing=True)
'''

RUNNING = ("running_mean", "running_var")


@pytest.fixture(scope="module")
def converted():
    result = convert_source(SOURCE.lstrip("\n"))
    space: dict = {}
    exec(compile(result.output, "<converted>", "exec"), space)
    original: dict = {}
    exec(compile(SOURCE, "<mxnet>", "exec"), original)
    return result, space, original


def _pair(seed=0):
    """A Gluon net and the torch net holding the same random values (running statistics too)."""
    rng = np.random.default_rng(seed)
    g = mnn.Sequential()
    g.add(mnn.Dense(8, in_units=5), mnn.BatchNorm(in_channels=8), mnn.Dense(3, in_units=8))
    g.initialize()
    t = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.BatchNorm1d(8), torch.nn.Linear(8, 3))
    torch_params = list(t.parameters()) + [t[1].running_mean, t[1].running_var]
    gluon_params = [p for n, p in g.collect_params().items() if not n.endswith(RUNNING)]
    gluon_params += [g[1].running_mean, g[1].running_var]
    for gp, tp in zip(gluon_params, torch_params):
        value = rng.uniform(0.2, 1.5, gp.shape) * rng.choice([-1, 1], gp.shape)
        if gp.name.endswith("running_var"):
            value = np.abs(value)
        gp.set_data(mx.nd.array(value))
        with torch.no_grad():
            tp.copy_(torch.as_tensor(value))
    t.eval()
    return g, t


def _x(seed=1):
    return np.random.default_rng(seed).uniform(-1, 2, (6, 5)).astype(np.float32)


def _outputs(g, t, x):
    return g(mx.nd.array(x)).asnumpy(), t(torch.as_tensor(x)).detach().numpy()


def _backward(g, t, x):
    with autograd.record():
        g(mx.nd.array(x)).sum().backward()
    t.train()
    t(torch.as_tensor(x)).sum().backward()
    t.eval()


def test_count_is_torchs_plus_the_running_statistics_and_reported(converted):
    result, space, original = converted
    g, t = _pair()
    mine, theirs = space["count"](t), original["count"](g)
    assert theirs == 5 * 8 + 8 + 4 * 8 + 8 * 3 + 3
    assert mine + t[1].running_mean.numel() + t[1].running_var.numel() == theirs
    line = SOURCE.lstrip("\n").splitlines().index("def count(net):") + 2
    told = [d for d in result.diagnostics if d.line == line and d.code == "MX161"]
    assert told and told[0].status == "review" and "running statistics" in told[0].message


def test_names_are_gluons_with_running_statistics(converted):
    """`collect_params().items()` gives Gluon's names (tests/test_gluon_names.py compares whole
    names); this Gluon net's layers were built outside its name scope, so only the parameters'
    own names are compared here."""
    _, space, original = converted
    g, t = _pair()
    own = re.compile(r"^.*\d_")
    theirs = [own.sub("", n) for n in original["names"](g)]
    mine = space["names"](t)
    assert [own.sub("", n) for n in mine] == theirs
    assert theirs == ["weight", "bias", "gamma", "beta", "running_mean", "running_var", "weight", "bias"]


def test_grad_req_freezes_the_same_parameters(converted):
    _, space, original = converted
    g, t = _pair()
    space["freeze_first"](t)
    original["freeze_first"](g)
    theirs = [r for (n, _), r in zip(g.collect_params().items(), original["grad_reqs"](g))
              if not n.endswith(RUNNING)]
    assert space["grad_reqs"](t) == theirs == ["null", "null", "write", "write", "write", "write"]
    x = _x()
    _backward(g, t, x)
    assert t[0].weight.grad is None and t[0].bias.grad is None
    mine, theirs = space["grads"](t), original["grads"](g)
    assert len(mine) == len(theirs) == 4
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    mine, theirs = space["grads_listed"](t), original["grads_listed"](g)
    assert len(mine) == len(theirs) == 4
    for a, b in zip([v for pair in mine for v in pair], [v for pair in theirs for v in pair]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    space["clear"](t)
    original["clear"](g)
    assert all(not a.any() for a in space["grads"](t)) and all(not b.any() for b in original["grads"](g))
    space["unfreeze"](t)
    original["unfreeze"](g)
    assert all(p.requires_grad for p in t.parameters())
    assert [r for r in original["grad_reqs"](g)].count("write") == 6  # running statistics stay 'null'
    _backward(g, t, x)
    assert all(p.grad.abs().sum() > 0 for p in t.parameters())
    space["clear_each"]([t])
    original["clear_each"]([g])
    assert all(p.grad is not None and not p.grad.any() for p in t.parameters())  # zeros, as Gluon's
    assert len(original["grads"](g)) == 6 and all(not b.any() for b in original["grads"](g))
    # under record() Gluon differentiates through p.data(): the translation must too
    np.testing.assert_allclose(space["penalty_grad"](t), original["penalty_grad"](g), rtol=1e-6)


def test_set_data_and_in_place_writes(converted):
    _, space, original = converted
    g, t = _pair()
    value = np.random.default_rng(7).uniform(-2, 2, (8, 5)).astype(np.float32)
    np.testing.assert_array_equal(space["set_first"](t, value), original["set_first"](g, value))
    x = _x()
    np.testing.assert_allclose(*_outputs(g, t, x), rtol=1e-5, atol=1e-5)
    space["halve"](t)
    original["halve"](g)
    for gp, tp in zip([p for n, p in g.collect_params().items() if not n.endswith(RUNNING)], t.parameters()):
        np.testing.assert_allclose(tp.detach().numpy(), gp.data().asnumpy(), rtol=1e-6)
    # Gluon halved its running statistics too; the torch loop saw parameters only (MX161's review)
    np.testing.assert_allclose(g[1].running_var.data().asnumpy(), 0.5 * t[1].running_var.numpy(), rtol=1e-6)


def test_save_then_load_round_trips(converted, tmp_path):
    _, space, _ = converted
    _, t = _pair(seed=0)
    _, fresh = _pair(seed=5)
    x = _x()
    before = t(torch.as_tensor(x)).detach()
    assert not torch.allclose(fresh(torch.as_tensor(x)), before)
    path = str(tmp_path / "net.params")
    space["save"](t, path)
    space["load"](fresh, path)
    assert torch.equal(fresh(torch.as_tensor(x)), before)
    for (k, a), b in zip(t.state_dict().items(), fresh.state_dict().values()):
        assert torch.equal(a, b), k


def test_export_writes_the_values_mxnet_exports_as_a_state_dict_and_says_so(converted, tmp_path):
    """MX614: MXNet's export writes `p-symbol.json` and `p-0002.params`; the translation writes the
    same values (arg: and aux: of the hybridized graph, in order) as a state_dict `p-0002.pt`, and
    warns which file it wrote; nothing under MXNet's names."""
    result, space, original = converted
    g, t = _pair(3)
    h = mnn.HybridSequential()
    h.add(mnn.Dense(8, in_units=5), mnn.BatchNorm(in_channels=8), mnn.Dense(3, in_units=8))
    h.initialize()
    for a, b in zip(g.collect_params().values(), h.collect_params().values()):
        b.set_data(a.data())
    h.hybridize()
    h(mx.nd.array(_x()))
    original["export"](h, str(tmp_path / "mx"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mx-0002.params", "mx-symbol.json"]
    saved = mx.nd.load(str(tmp_path / "mx-0002.params"))
    by_name = {k.split(":", 1)[1]: v.asnumpy() for k, v in saved.items()}
    expected = [by_name[name] for name in h.collect_params()]
    with pytest.warns(UserWarning, match=r"pt-0002\.pt, a PyTorch state_dict"):
        space["export"](t, str(tmp_path / "pt"))
    assert not list(tmp_path.glob("pt-symbol.json")) and not list(tmp_path.glob("pt-*.params"))
    state = torch.load(str(tmp_path / "pt-0002.pt"))
    got = [v.numpy() for k, v in state.items() if not k.endswith("num_batches_tracked")]
    assert len(got) == len(expected)
    for e, a in zip(expected, got):
        np.testing.assert_array_equal(a, e)
    fresh = _pair(4)[1]
    fresh.load_state_dict(state)
    np.testing.assert_array_equal(fresh(torch.as_tensor(_x())).detach().numpy(), _outputs(h, t, _x())[1])

    calls = []

    class Other:  # an object of the program's own with an `export` method: its own is called
        def export(self, path, epoch=0):
            calls.append((path, epoch))
    space["export"](Other(), "q")
    assert calls == [("q", 2)] and not list(tmp_path.glob("q*"))
    line = SOURCE.lstrip("\n").splitlines().index("def export(net, path):") + 2
    assert any(d.code == "MX614" and d.status == "review" and d.line == line for d in result.diagnostics)


def test_missing_parameters_fail_unless_allowed(converted, tmp_path):
    _, space, original = converted
    g, t = _pair()
    torch_file, gluon_file = str(tmp_path / "t.pt"), str(tmp_path / "g.params")
    state = t.state_dict()
    del state["2.bias"]
    torch.save(state, torch_file)
    params = {n: p.data() for n, p in g._collect_params_with_prefix().items() if n != "2.bias"}
    mx.nd.save(gluon_file, params)
    with pytest.raises(AssertionError, match=r"Parameter '2.bias' is missing"):  # Gluon's error, Gluon's words
        space["load"](t, torch_file)
    with pytest.raises(AssertionError, match=r"Parameter '2.bias' is missing"):
        original["load"](g, gluon_file)
    _, fresh = _pair(seed=9)
    kept = fresh[2].bias.detach().clone()
    space["load_lenient"](fresh, torch_file)
    original["load_lenient"](g, gluon_file)
    assert torch.equal(fresh[0].weight, t[0].weight) and torch.equal(fresh[2].bias, kept)


def test_the_conversion_says_what_it_left(converted):
    result, _, _ = converted
    by_code = {}
    for d in result.diagnostics:
        by_code.setdefault(d.code, set()).add(d.status)
    assert by_code["MX611"] == {"review"}  # the file must be a converted state_dict
    mine = {c for c in by_code if c[2] in "156" and c[2:4] in ("16", "17", "51", "52", "61")}
    assert mine and all("manual" not in by_code[c] for c in mine)
    assert "mx." not in result.output and "net.collect_params(" not in result.output


def test_saving_over_an_mxnet_checkpoint_keeps_it(converted, tmp_path, capsys):
    """A converted script run in the original's folder saves where MXNet saved: the MXNet file
    there is copied to `<path>.mxnet` first (with a warning), so convert-weights can still read
    it; a PyTorch file there is simply overwritten."""
    _, space, original = converted
    g, t = _pair(4)
    f = tmp_path / "model.params"
    original["save"](g, str(f))
    mxnet_bytes = f.read_bytes()
    with pytest.warns(UserWarning, match="held MXNet parameters"):  # a warning, on stderr: stdout is the script's
        space["save"](t, str(f))
    assert (tmp_path / "model.params.mxnet").read_bytes() == mxnet_bytes
    assert "held MXNet" not in capsys.readouterr().out
    loaded = mx.nd.load(str(tmp_path / "model.params.mxnet"))  # still MXNet's file
    assert len(loaded) == len(list(g.collect_params().keys()))
    state = torch.load(f)
    for name, value in t.state_dict().items():
        assert torch.equal(state[name], value)
    (tmp_path / "model.params.mxnet").unlink()
    space["save"](t, str(f))  # a PyTorch file there: overwritten, nothing copied
    assert not (tmp_path / "model.params.mxnet").exists()


RESET_ONE = '''
import mxnet as mx
from mxnet.gluon import nn


def build(ctx):
    net = nn.Dense(3)
    net.initialize()
    for v in net.collect_params().values():
        v.reset_ctx(ctx)
    return net


def build_many(ctx):
    net = nn.Dense(3, in_units=2)
    net.initialize()
    for v in net.collect_params().values():
        v.reset_ctx([ctx, ctx])
    return net
'''


def test_reset_ctx_of_one_parameter_moves_it_in_place():
    """CenterNet's `for v in net.collect_params().values(): v.reset_ctx(ctx)`: each parameter,
    a lazy one too, is moved where its module sees it (flagged review: torch's running statistics
    are buffers, not in the loop); a list of contexts is data parallelism, left manual."""
    import torch

    from xlate.runtime import load

    result = convert_source(RESET_ONE)
    lines = {d.line: d for d in result.diagnostics if d.code == "MX170"}
    assert lines[10].status == "review" and lines[18].status == "manual"
    assert "_mx_param_reset_ctx(v, ctx)" in result.output
    namespace = dict(vars(load()))
    exec(compile(result.output, "<converted>", "exec"), namespace)
    # a real move needs a second device: CUDA where there is one, else the CPU (the move is then
    # in place to the same device, and what is checked is that the module keeps its parameters)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = namespace["build"](device)
    assert {p.device.type for p in net.parameters()} == {device.type}
    assert net(torch.ones(4, 5, device=device)).shape == (4, 3)  # the lazy layer sized on the device
    eager = torch.nn.Linear(2, 3)
    weight, before = eager.weight, eager.weight.detach().clone()
    namespace["_mx_param_reset_ctx"](eager.weight, device)
    assert eager.weight is weight and eager.weight.device.type == device.type  # the module's own parameter
    assert torch.equal(eager.weight.detach().cpu(), before)
    with pytest.raises(NotImplementedError, match="data parallelism"):
        namespace["_mx_param_reset_ctx"](eager.bias, [torch.device("cpu")])


def test_parameters_known_by_their_annotations(converted):
    result, space, original = converted
    assert not [d for d in result.diagnostics if d.code == "MX164" and d.status == "manual"]
    g, t = _pair()
    original["scale_param"](g[0].weight, 3.0)
    space["scale_param"](t[0].weight, 3.0)
    np.testing.assert_allclose(t[0].weight.detach().numpy(), g[0].weight.data().asnumpy(), rtol=1e-6)
    original["scale_each"](g.collect_params(), 0.5)
    space["scale_each"](space["_mx_collect_params"](t), 0.5)
    for gp, tp in zip([p for n, p in g.collect_params().items() if not n.endswith(RUNNING)], t.parameters()):
        np.testing.assert_allclose(tp.detach().numpy(), gp.data().asnumpy(), rtol=1e-6)


ZERO_ONE = '''
import mxnet as mx
from mxnet import autograd, nd
from mxnet.gluon import nn


def grads_after(x, zero):
    net = nn.Dense(2, in_units=3)
    net.initialize(mx.init.Constant(0.5))
    for _ in range(2):
        with autograd.record():
            y = (net(x) * x[:, :2]).sum()
        y.backward()
        if zero:
            for p in net.collect_params().values():
                p.zero_grad()
    return [p.grad().asnumpy() for p in net.collect_params().values()]
'''


def test_zero_grad_of_one_parameter_zeroes_it_as_gluon_does():
    """MXNet-Detector's `for p in net.collect_params().values(): p.zero_grad()` after the step:
    each gradient zeroed in place, as in MXNet (MX169, was left for a human)."""
    import numpy as np

    from xlate.runtime import load

    result = convert_source(ZERO_ONE)
    assert [d.status for d in result.diagnostics if d.code == "MX169"] == ["fixed"]
    mx_space, pt_space = {}, dict(vars(load()))
    exec(compile(ZERO_ONE, "<mxnet>", "exec"), mx_space)
    exec(compile(result.output, "<converted>", "exec"), pt_space)
    data = np.arange(6, dtype="float32").reshape(2, 3) / 6
    torch = import_torch()
    for zero in (False, True):
        expected = mx_space["grads_after"](mx.nd.array(data), zero)
        actual = pt_space["grads_after"](torch.tensor(data), zero)
        assert [a.shape for a in actual] == [e.shape for e in expected]
        for a, e in zip(actual, expected):
            np.testing.assert_allclose(a, e, rtol=1e-6)


RESET_MANY = '''
import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn


def train(x, y, ctx):
    net = nn.HybridSequential()
    net.add(nn.Dense(4, in_units=3), nn.BatchNorm(in_channels=4), nn.Dense(1, in_units=4))
    net.initialize(mx.init.Constant(0.3))
    net.collect_params().reset_ctx(ctx)
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.5})
    for _ in range(2):
        xs = gluon.utils.split_and_load(x, ctx)
        ys = gluon.utils.split_and_load(y, ctx)
        with autograd.record():
            losses = [((net(a) - b) ** 2).sum() for a, b in zip(xs, ys)]
        for l in losses:
            l.backward()
        trainer.step(x.shape[0])
    return [p.data().asnumpy() for p in net.collect_params('.*').values()]  # the running statistics too
'''


def test_reset_ctx_to_a_list_of_contexts_trains_as_mxnet_does():
    """MX170: `collect_params().reset_ctx([ctx0, ctx1])` is translated as initialize(ctx=[...]) is
    (`_mx_to_ctx`, one process computing MXNet's numbers); two CPU contexts in MXNet, two slices
    of the batch, BatchNorm statistics per context."""
    import numpy as np

    from xlate.runtime import load

    result = convert_source(RESET_MANY)
    assert "_mx_to_ctx(net, ctx)" in result.output
    assert [d.status for d in result.diagnostics if d.code == "MX170"] == ["fixed"]
    mx_space, pt_space = {}, dict(vars(load()))
    exec(compile(RESET_MANY, "<mxnet>", "exec"), mx_space)
    exec(compile(result.output, "<converted>", "exec"), pt_space)
    rng = np.random.RandomState(3)
    x, y = rng.uniform(-1, 1, (6, 3)).astype("float32"), rng.uniform(-1, 1, (6, 1)).astype("float32")
    torch = import_torch()
    expected = mx_space["train"](mx.nd.array(x), mx.nd.array(y), [mx.cpu(0), mx.cpu(1)])
    actual = pt_space["train"](torch.tensor(x), torch.tensor(y), [torch.device("cpu")] * 2)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6)


LOADED_THEN_INITIALIZED = """
import mxnet as mx
from mxnet import gluon
from mxnet.gluon import nn

class Net(gluon.HybridBlock):
    def __init__(self):
        super().__init__()
        with self.name_scope():
            self.base = nn.Dense(3, in_units=2)
            self.head = nn.Dense(2, in_units=3)

    def hybrid_forward(self, F, x):
        return self.head(self.base(x))

def run(path):
    base = nn.Dense(3, in_units=2)
    base.initialize(mx.init.One())
    base.save_parameters(path)
    net = Net()
    net.base.load_parameters(path)
    ready = [p._data is not None for p in net.collect_params().values()]
    net.initialize(mx.init.Zero())  # Gluon keeps what was loaded: "already initialized, ignoring"
    again = [p._data is None for p in net.collect_params().values()]
    return ready, again, float(net.base.weight.data().sum().asscalar()), float(net.head.weight.data().sum().asscalar())
"""


def test_what_was_loaded_is_initialised_as_in_gluon(tmp_path):
    """`load_parameters` then `initialize()` (a pretrained base under a new head) drew over the loaded weights;
    `param._data is not None` (whether Gluon holds the parameter's arrays) was left manual (MX178)."""
    result = convert_source(LOADED_THEN_INITIALIZED)
    assert result.output.count("_mx_param_arrays(p)") == 2, result.output
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    ours, theirs = {}, {}
    exec(compile(result.output, "<converted>", "exec"), ours)
    exec(compile(LOADED_THEN_INITIALIZED, "<mxnet>", "exec"), theirs)
    want = theirs["run"](str(tmp_path / "mx.params"))
    assert want == ([True, True, False, False], [False] * 4, 6.0, 0.0)
    assert ours["run"](str(tmp_path / "pt.params")) == want


OWN_METHODS = """
import mxnet as mx
from mxnet import gluon
from mxnet.gluon import nn

class Net(gluon.HybridBlock):
    def __init__(self, log):
        super().__init__()
        self.log = log
        with self.name_scope():
            self.dense = nn.Dense(2, in_units=3)
        self.dtype = 'float32'

    def cast(self, dtype):
        super().cast(dtype)
        self.dtype = dtype

    def initialize(self, init=None, ctx=None, verbose=False, force_reinit=False):
        self.log.append("own initialize")
        super().initialize(init, ctx, verbose, force_reinit)

    def load_parameters(self, fname, ctx=None, allow_missing=False):
        self.log.append("own load")
        super().load_parameters(fname, ctx=ctx, allow_missing=allow_missing)

    def collect_params(self, select=None):
        self.log.append("own collect")
        return super().collect_params(select)

    def hybrid_forward(self, F, x):
        return self.dense(x)

def run(path):
    log = []
    net = Net(log)
    net.initialize(mx.init.One())
    net.cast('float64')
    net.save_parameters(path)
    del log[1:]  # Gluon's save_parameters calls collect_params itself; the translation saves the state_dict
    net.load_parameters(path)
    names = sorted(net.collect_params().keys())
    return log, net.dtype, len(names), float(net.dense.weight.data().sum().asscalar())
"""


def test_a_blocks_own_gluon_methods_run_as_in_mxnet(tmp_path):
    """Note [a block's own methods]: `net.cast(...)`, `net.initialize(...)`, `net.load_parameters(...)`,
    `net.collect_params()` on a block whose class defines them ran xlate's helper and skipped the class's code
    (its recorded dtype stayed float32); inside, `super().cast(dtype)` is Gluon's own method."""
    result = convert_source(OWN_METHODS)
    ours, theirs = {}, {}
    exec(compile(result.output, "<converted>", "exec"), ours)
    exec(compile(OWN_METHODS, "<mxnet>", "exec"), theirs)
    want = theirs["run"](str(tmp_path / "mx.params"))
    assert want == (["own initialize", "own load", "own collect"], "float64", 2, 6.0), want
    assert ours["run"](str(tmp_path / "pt.params")) == want
