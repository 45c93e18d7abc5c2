"""The initialisation rules (MX510-MX521, rules/5xx_init.toml) and the helpers of
xlate/runtime/init.py against live MXNet.

Each initializer expression is converted with every rule on and the converted file executed,
so the test runs what the rule writes. Random initializers are compared statistically on
large tensors: MXNet's sample and the translation's sample against the analytic law (std,
bound of a uniform, kurtosis telling uniform from normal) and against each other.
Tolerances, for n >= 18432 elements: the standard error of a sample std is
sigma * sqrt((kurtosis - 1) / (4n)), at most 0.52% (normal) and 0.33% (uniform); a 4%
relative tolerance is more than 7 standard errors yet 3.5x smaller than the smallest wrong
translation it must catch (xavier_uniform_ without the magnitude gain: 14%; kaiming fan_in
for MSRAPrelu's fan_avg: 15%). The kurtosis (uniform 1.8, normal 3) has a standard error
below 0.04: 0.4 separates them. A uniform's largest |value| lies within 1% of its bound
with probability 1 - 0.99^n. Deterministic initializers must match exactly.
"""
from __future__ import annotations

import math

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
from mxnet import gluon  # noqa: E402
from mxnet.gluon import nn as mnn  # noqa: E402
from mxnet.gluon import rnn as mrnn  # noqa: E402

from xlate.runtime import load  # noqa: E402

torch_init = norms = load()  # every helper, as converted programs get them
from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet

DENSE = (256, 512)  # Gluon Dense(256, in_units=512) weight = torch Linear(512, 256)
CONV = (64, 32, 3, 3)  # Conv2D(64, 3, in_channels=32) weight, fans count the 3x3 field
STD_TOL = 0.04


def fans(shape):
    field = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * field, shape[0] * field


def translate(expr: str, **names):
    """The init function the converter writes for the MXNet expression `expr`."""
    out = convert_source(f"import mxnet as mx\ninit = {expr}\n").output
    assert "mx." not in out, out
    space = dict(names)
    exec(compile(out, "<converted>", "exec"), space)
    return space["init"]


def mx_draw(expr: str, shape, **names):
    init = eval(expr, {"mx": mx, **names})
    arr = mx.nd.zeros(shape)
    init(mx.init.InitDesc("layer0_weight"), arr)  # a weight: what a global initializer draws
    return arr.asnumpy().astype(np.float64)


def torch_draw(expr: str, shape, **names):
    torch.manual_seed(0)
    w = torch.empty(shape)
    translate(expr, **names)(w)
    return w.numpy().astype(np.float64)


def stats(x):
    c = x - x.mean()
    std = c.std()
    return {"mean": x.mean(), "std": std, "max": np.abs(x).max(), "kurt": (c ** 4).mean() / std ** 4}


def check_law(x, law: str, scale: float):
    """x follows uniform(-scale, scale) or normal(0, scale)."""
    s = stats(x)
    std = scale / math.sqrt(3) if law == "uniform" else scale
    assert abs(s["std"] / std - 1) < STD_TOL, (s, std)
    assert abs(s["mean"]) < 6 * std / math.sqrt(x.size)
    if law == "uniform":
        assert scale * 0.99 <= s["max"] <= scale * (1 + 1e-6), (s, scale)
        assert abs(s["kurt"] - 1.8) < 0.4
    else:
        assert abs(s["kurt"] - 3.0) < 0.4


def _avg(shape):
    fi, fo = fans(shape)
    return (fi + fo) / 2


# (MXNet expression, law, scale as a function of the weight shape, names the expression uses)
RANDOM = [
    ("mx.init.Uniform()", "uniform", lambda s: 0.07, {}),
    ("mx.init.Uniform(0.3)", "uniform", lambda s: 0.3, {}),
    ("mx.init.Uniform(scale=k)", "uniform", lambda s: 0.02, {"k": 0.02}),
    ("mx.init.Normal()", "normal", lambda s: 0.01, {}),
    ("mx.init.Normal(sigma=0.5)", "normal", lambda s: 0.5, {}),
    ("mx.init.Xavier()", "uniform", lambda s: math.sqrt(3 / _avg(s)), {}),
    ("mx.init.Xavier(magnitude=2.24)", "uniform", lambda s: math.sqrt(2.24 / _avg(s)), {}),
    ("mx.init.Xavier(rnd_type='gaussian')", "normal", lambda s: math.sqrt(3 / _avg(s)), {}),
    ("mx.init.Xavier('gaussian', 'in', 2)", "normal", lambda s: math.sqrt(2 / fans(s)[0]), {}),
    ("mx.init.Xavier('uniform', 'out', 1.5)", "uniform", lambda s: math.sqrt(1.5 / fans(s)[1]), {}),
    ("mx.init.Xavier(rnd_type=r, magnitude=m)", "normal", lambda s: math.sqrt(6 / _avg(s)),
     {"r": "gaussian", "m": 6}),
    ("mx.init.MSRAPrelu()", "normal", lambda s: math.sqrt(2 / 1.0625 / _avg(s)), {}),
    ("mx.init.MSRAPrelu('in', 0.1)", "normal", lambda s: math.sqrt(2 / 1.01 / fans(s)[0]), {}),
    ("mx.init.MSRAPrelu(factor_type='out', slope=0)", "normal", lambda s: math.sqrt(2 / fans(s)[1]), {}),
    ("mx.init.MSRAPrelu(factor_type=f, slope=a)", "normal", lambda s: math.sqrt(2 / 1.09 / fans(s)[0]),
     {"f": "in", "a": 0.3}),
]


@pytest.mark.parametrize("shape", [DENSE, CONV], ids=["dense", "conv"])
@pytest.mark.parametrize("expr,law,scale,names", RANDOM, ids=[c[0] for c in RANDOM])
def test_random_initializer_matches_mxnet(expr, law, scale, names, shape):
    mine, theirs = torch_draw(expr, shape, **names), mx_draw(expr, shape, **names)
    check_law(theirs, law, scale(shape))  # the law written down is MXNet's
    check_law(mine, law, scale(shape))  # and the translation draws from it
    assert abs(stats(mine)["std"] / stats(theirs)["std"] - 1) < 2 * STD_TOL


@pytest.mark.parametrize("naive,expr", [
    ("lambda w: torch.nn.init.xavier_uniform_(w)", "mx.init.Xavier(magnitude=2.24)"),
    ("lambda w: torch.nn.init.kaiming_normal_(w, a=0.25)", "mx.init.MSRAPrelu()"),
    ("lambda w: torch.nn.init.normal_(w)", "mx.init.Normal()"),
    ("lambda w: torch.nn.init.xavier_normal_(w)", "mx.init.Xavier('gaussian', 'in', 2)"),
])
def test_naive_translations_are_told_apart(naive, expr):
    # the tolerance is tight enough to reject the rename a translator would write first
    for shape in (DENSE, CONV):
        w = torch.empty(shape)
        eval(naive, {"torch": torch})(w)
        theirs = mx_draw(expr, shape)
        assert abs(stats(w.numpy().astype(np.float64))["std"] / stats(theirs)["std"] - 1) > 3 * STD_TOL


def test_deterministic_initializers_are_exact():
    rng = np.random.default_rng(5)
    table = rng.standard_normal((6, 5)).astype(np.float32)
    cases = [("mx.init.Zero()", (7, 3)), ("mx.init.One()", (7, 3)), ("mx.init.Constant(-0.37)", (7, 3)),
             ("mx.init.Constant(table)", (6, 5)), ("mx.init.Constant(row)", (6, 5)),
             ("mx.init.Bilinear()", (3, 2, 4, 4)), ("mx.init.Bilinear()", (2, 1, 3, 5)),
             ("mx.init.Bilinear()", (1, 2, 6, 7)), ("mx.init.LSTMBias(forget_bias=2.5)", (40,)),
             ("mx.init.LSTMBias()", (4 * 7,))]
    names = {"table": table, "row": table[0]}
    for expr, shape in cases:
        mx_names = {k: mx.nd.array(v) for k, v in names.items()} if "Constant(" in expr else {}
        theirs = mx_draw(expr, shape, **mx_names)
        w = torch.full(shape, 9.0)
        translate(expr, **names)(w)
        np.testing.assert_array_equal(w.numpy(), theirs.astype(np.float32), err_msg=expr)


@pytest.mark.parametrize("shape,rand_type", [((16, 72), "uniform"), ((48, 6), "normal"), ((8, 2, 3, 3), "uniform")])
def test_orthogonal_runs_mxnets_algorithm(monkeypatch, shape, rand_type):
    """The same random matrix in, the same weight out (MXNet's numpy SVD vs torch.linalg.svd;
    singular vectors are unique up to sign, so columns/rows are compared up to sign)."""
    nout, nin = shape[0], int(np.prod(shape[1:]))
    tmp = np.random.default_rng(3).uniform(-1, 1, (nout, nin)).astype(np.float32)
    if rand_type == "normal":
        tmp = np.random.default_rng(3).standard_normal((nout, nin)).astype(np.float32)
    monkeypatch.setattr(mx.initializer.random, "uniform", lambda *a, **k: mx.nd.array(tmp))
    monkeypatch.setattr(mx.initializer.random, "normal", lambda *a, **k: mx.nd.array(tmp))
    expr = f"mx.init.Orthogonal(scale=1.3, rand_type='{rand_type}')"
    theirs = mx_draw(expr, shape).reshape(nout, nin)
    init = translate(expr)
    monkeypatch.setattr(torch, "rand", lambda *a, **k: torch.from_numpy((tmp + 1) / 2))
    monkeypatch.setattr(torch, "randn", lambda *a, **k: torch.from_numpy(tmp))
    w = torch.empty(shape)
    init(w)
    mine = w.numpy().reshape(nout, nin).astype(np.float64)
    along = 0 if nout >= nin else 1  # which of u (columns) / vh (rows) the weight is
    signs = np.sign((mine * theirs).sum(axis=along, keepdims=True))
    np.testing.assert_allclose(mine * signs, theirs, atol=2e-5)
    gram = mine.T @ mine if nout >= nin else mine @ mine.T
    np.testing.assert_allclose(gram, 1.3 ** 2 * np.eye(gram.shape[0]), atol=1e-4)


# -- net.initialize() on a model ------------------------------------------------------------


class _Gluon(gluon.Block):
    def __init__(self, vector=True):
        super().__init__()
        with self.name_scope():
            self.dense = mnn.Dense(200, in_units=300)
            self.conv = mnn.Conv2D(64, 3, in_channels=32)
            self.bn = mnn.BatchNorm(in_channels=64)
            self.emb = mnn.Embedding(500, 64)
            self.prelu = mnn.PReLU()
            self.prelu2 = mnn.PReLU(alpha_initializer=mx.init.Constant(0.1))
            self.ln = mnn.LayerNorm(in_channels=64)
            self.up = mnn.Conv2DTranspose(16, 4, in_channels=64)
            self.lstm = mrnn.LSTM(96, input_size=64)
            self.tagged = mnn.Dense(1000, in_units=200, weight_initializer=mx.init.Normal(0.5),
                                    bias_initializer=mx.init.Uniform(0.3))
            self.custom = self.params.get("custom", shape=(300, 40))  # no init: the global one
            if vector:
                self.custom_bias = self.params.get("bias", shape=(3000,))  # drawn like a weight too


def _torch_model(vector=True):
    m = torch.nn.Module()
    m.dense = torch.nn.Linear(300, 200)
    m.conv = torch.nn.Conv2d(32, 64, 3)
    m.bn = norms._mx_BatchNorm(in_channels=64)
    m.emb = torch.nn.Embedding(500, 64)
    m.prelu = torch.nn.PReLU()
    m.prelu2 = torch.nn.PReLU(init=0.1)
    m.ln = torch.nn.LayerNorm(64)
    m.up = torch.nn.ConvTranspose2d(64, 16, 4)
    m.lstm = torch.nn.LSTM(64, 96)
    m.tagged = torch_init._mx_init_params(torch.nn.Linear(200, 1000),
                                          weight=lambda w: torch.nn.init.normal_(w, 0.0, 0.5),
                                          bias=lambda w: torch.nn.init.uniform_(w, -0.3, 0.3))
    m.custom = torch_init._mx_parameter((300, 40))
    if vector:
        m.custom_bias = torch_init._mx_parameter((3000,))
    with torch.no_grad():  # running statistics and scales away from their initial values
        for t in (m.bn.running_mean, m.bn.running_var, m.bn.weight, m.ln.weight, m.prelu.weight):
            t.uniform_(2.0, 3.0)
        m.bn.num_batches_tracked.fill_(7)
    return m


PAIRS = [  # Gluon attribute path, torch attribute path
    ("dense.weight", "dense.weight"), ("dense.bias", "dense.bias"),
    ("conv.weight", "conv.weight"), ("conv.bias", "conv.bias"),
    ("bn.gamma", "bn.weight"), ("bn.beta", "bn.bias"),
    ("bn.running_mean", "bn.running_mean"), ("bn.running_var", "bn.running_var"),
    ("emb.weight", "emb.weight"), ("prelu.alpha", "prelu.weight"), ("prelu2.alpha", "prelu2.weight"),
    ("ln.gamma", "ln.weight"), ("ln.beta", "ln.bias"),
    ("up.weight", "up.weight"), ("up.bias", "up.bias"),
    ("lstm.l0_i2h_weight", "lstm.weight_ih_l0"), ("lstm.l0_h2h_weight", "lstm.weight_hh_l0"),
    ("lstm.l0_i2h_bias", "lstm.bias_ih_l0"), ("lstm.l0_h2h_bias", "lstm.bias_hh_l0"),
    ("tagged.weight", "tagged.weight"), ("tagged.bias", "tagged.bias"),
    ("custom", "custom"), ("custom_bias", "custom_bias"),
]


def _get(obj, path):
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _compare_model(g, t):
    for gpath, tpath in PAIRS:
        if not hasattr(t, tpath.split(".")[0]):
            continue
        theirs = _get(g, gpath).data().asnumpy().astype(np.float64)
        mine = _get(t, tpath).detach().numpy().astype(np.float64)
        assert mine.shape == theirs.shape, gpath
        if np.ptp(theirs) == 0:  # a constant: zeros, ones, 0.25, 0.1
            np.testing.assert_array_equal(mine, theirs, err_msg=gpath)
            continue
        s_mine, s_theirs = stats(mine), stats(theirs)
        # two samples' stds differ by 1/sqrt(n) standard errors at most (see the module notes)
        tol = max(STD_TOL, 6 / math.sqrt(mine.size))
        assert abs(s_mine["std"] / s_theirs["std"] - 1) < tol, (gpath, s_mine, s_theirs)
        assert abs(s_mine["kurt"] - s_theirs["kurt"]) < 0.5, (gpath, s_mine, s_theirs)
        if s_theirs["kurt"] < 2.4:  # uniform: the bound is sharp
            assert abs(s_mine["max"] / s_theirs["max"] - 1) < 0.02, (gpath, s_mine, s_theirs)
    assert int(t.bn.num_batches_tracked) == 0


def _converted_initialize(call: str):
    out = convert_source(f"import mxnet as mx\n{call}\n").output
    assert "\n_mx_initialize(net" in out and "mx." not in out, out
    return compile(out, "<converted>", "exec")


@pytest.mark.parametrize("expr", [None, "mx.init.Xavier(magnitude=2.24)", "mx.init.Normal(0.2)"])
def test_initialize_matches_gluon(expr):
    vector = expr is None or "Xavier" not in expr  # Xavier refuses a 1-D parameter (next test)
    g, t = _Gluon(vector), _torch_model(vector)
    exec(_converted_initialize(f"net.initialize({expr or ''})"), {"net": t})
    g.initialize(eval(expr, {"mx": mx}) if expr else mx.init.Uniform())
    _compare_model(g, t)


def test_xavier_refuses_a_vector_parameter_in_both():
    with pytest.raises(ValueError):
        _Gluon().initialize(mx.init.Xavier())
    with pytest.raises(ValueError):
        exec(_converted_initialize("net.initialize(mx.init.Xavier())"), {"net": _torch_model()})


def test_initialize_with_a_context_moves_the_model():
    out = convert_source("import mxnet as mx\nnet.initialize(mx.init.Xavier(), ctx=mx.cpu())\n").output
    assert out.rstrip().endswith('net.to(torch.device("cpu"))'), out
    t = _torch_model(vector=False)
    exec(compile(out, "<converted>", "exec"), {"net": t})
    w = t.dense.weight.detach().numpy().astype(np.float64)
    check_law(w, "uniform", math.sqrt(6 / 500))


def test_second_initialize_keeps_values_unless_forced():
    g, t = _Gluon(), _torch_model()
    g.initialize()
    torch_init._mx_initialize(t)
    before_g, before_t = g.dense.weight.data().asnumpy().copy(), t.dense.weight.detach().clone()
    with pytest.warns(UserWarning):
        g.initialize(mx.init.Normal(1.0))  # Gluon: "already initialized, ignoring"
    torch_init._mx_initialize(t, lambda w: torch.nn.init.normal_(w, 0.0, 1.0))
    np.testing.assert_array_equal(g.dense.weight.data().asnumpy(), before_g)
    assert torch.equal(t.dense.weight, before_t)
    g.initialize(mx.init.Normal(1.0), force_reinit=True)
    torch_init._mx_initialize(t, lambda w: torch.nn.init.normal_(w, 0.0, 1.0), force_reinit=True)
    _compare_model(g, t)


# a ParameterDict whose block xlate cannot name (a selection; a name bound to several blocks' dicts in turn, as
# a tutorial re-initialising its net writes): Gluon's ParameterDict.initialize, its parameters only, each as its
# block draws it (a layer's own initializer first), decided at run time by the dict's block
@pytest.mark.parametrize("select", ["", "'.*(dense|batchnorm)'"])
def test_parameter_dict_initialize_matches_gluon(select):
    out = convert_source(f"import mxnet as mx\nnet = net0\nparams = net.collect_params({select})\nnet = net1\n"
                         "params.initialize(init=mx.init.Normal(1.0), force_reinit=True)\n").output
    assert "\n_mx_initialize_method(params, " in out and "import mxnet" not in out, out
    g, t = _Gluon(), _torch_model()
    g.initialize()
    torch_init._mx_initialize(t)
    params = g.collect_params(*([eval(select)] if select else []))
    params.initialize(init=mx.init.Normal(1.0), force_reinit=True)
    exec(compile(out, "<converted>", "exec"), {"net0": t, "net1": None})
    _compare_model(g, t)


# a ParameterDict the program makes (MX188): Gluon's names, `get` making and then returning, grad_req, each
# parameter's own initializer before the dict's initialize(init), the same laws as MXNet's draws
def test_a_parameter_dict_of_its_own_matches_gluon():
    src = ("import mxnet as mx\nfrom mxnet import gluon\npd = gluon.ParameterDict(prefix='block1_')\n"
           "w = pd.get('w', shape=(300, 40), init=mx.init.Normal(0.5))\nb = pd.get('b', shape=(3000,), grad_req='null')\n"
           "c = pd.get('c', shape=(200, 30))\nsame = pd.get('w') is w\npd.initialize(init=mx.init.Uniform(2.0))\n"
           "names = list(pd.keys())\n")
    out = convert_source(src).output
    assert "import mxnet" not in out, out
    theirs, mine = {}, {}
    exec(src, theirs)
    exec(compile(out, "<converted>", "exec"), mine)
    assert mine["names"] == theirs["names"] == ["block1_w", "block1_b", "block1_c"]
    assert mine["same"] and theirs["same"]
    assert [mine[k].requires_grad for k in "wbc"] == [theirs[k].grad_req != "null" for k in "wbc"]
    for key, law, scale in (("w", "normal", 0.5), ("b", "uniform", 2.0), ("c", "uniform", 2.0)):
        for side in (theirs[key].data().asnumpy(), mine[key].detach().numpy()):
            check_law(side.astype(np.float64), law, scale)


def test_custom_parameter_without_init_is_filled_like_initialize():
    p = torch_init._mx_parameter((200, 100))  # before initialize(): Uniform(0.07), the default
    check_law(p.detach().numpy().astype(np.float64), "uniform", 0.07)
    q = torch_init._mx_parameter(50, init=torch.nn.init.ones_, requires_grad=False)
    assert q.shape == (50,) and not q.requires_grad and bool((q == 1).all())


def test_lazy_modules_are_initialised_after_the_first_forward():
    t = torch.nn.Sequential(torch.nn.LazyLinear(400), norms._mx_BatchNorm(), torch.nn.LazyConv1d(8, 3),
                            torch_init._mx_init_params(torch.nn.LazyLinear(50), weight=torch.nn.init.ones_))
    torch_init._mx_initialize(t, translate("mx.init.Xavier(magnitude=2.24)"))  # nothing to draw yet
    x = torch.randn(4, 300) + 0.5
    with torch.no_grad():
        t[0](x)
        t[1].eval()
        h = t[1](t[0](x))
        t[2](h[:, None, :])
        t[3](torch.randn(2, 30) + 0.5)
    g = mnn.Dense(400)
    g.initialize(mx.init.Xavier(magnitude=2.24))
    g(mx.nd.array(x.numpy()))  # Gluon's deferred initialisation
    theirs, mine = g.weight.data().asnumpy().astype(np.float64), t[0].weight.detach().numpy().astype(np.float64)
    check_law(mine, "uniform", math.sqrt(2.24 / 350))
    assert abs(stats(mine)["std"] / stats(theirs)["std"] - 1) < 2 * STD_TOL
    assert bool((t[0].bias == 0).all()) and bool((t[2].bias == 0).all())
    assert bool((t[1].weight == 1).all()) and bool((t[1].bias == 0).all())
    assert bool((t[1].running_var == 1).all()) and bool((t[1].running_mean == 0).all())
    conv = t[2].weight.detach().numpy().astype(np.float64)  # fans 1 * 3 in, 8 * 3 out
    assert math.sqrt(2.24 / 13.5) * 0.95 <= np.abs(conv).max() <= math.sqrt(2.24 / 13.5) * (1 + 1e-6)
    assert bool((t[3].weight == 1).all()), "the tag wins over the global initializer"
    assert t[0].weight._mx_ready and t[3].weight._mx_ready


def test_initializer_strings():
    t = torch.nn.Sequential(torch.nn.Linear(300, 200))
    exec(_converted_initialize("net.initialize('xavier')"), {"net": t})
    check_law(t[0].weight.detach().numpy().astype(np.float64), "uniform", math.sqrt(6 / 500))
    exec(_converted_initialize("net.initialize(init='Zeros', force_reinit=True)"), {"net": t})
    assert bool((t[0].weight == 0).all())


def test_a_state_dict_loaded_before_the_first_forward_is_kept():
    """Gluon keeps what load_parameters loaded after initialize(); a lazy translation whose
    initialisation waits for the first forward must not overwrite loaded values then."""
    linear = {"weight": torch.rand(4, 3), "bias": torch.rand(4)}
    norm = {"weight": torch.rand(3), "bias": torch.rand(3), "running_mean": torch.rand(3),
            "running_var": torch.rand(3) + 0.5, "num_batches_tracked": torch.tensor(2)}
    for layer, loaded in [(torch_init._mx_Dense(4), linear),
                          (torch_init._mx_init_params(torch.nn.LazyLinear(4), weight=torch.nn.init.ones_), linear),
                          (norms._mx_BatchNorm(), norm)]:
        torch_init._mx_initialize(layer, lambda t: torch.nn.init.normal_(t, 5.0, 1.0))
        layer.load_state_dict(loaded)
        layer.eval()(torch.randn(2, 3))
        for k, v in layer.state_dict().items():
            assert torch.equal(v, loaded[k]), (type(layer).__name__, k)


# -- custom Initializer subclasses (MX522, MX523, Note [custom initializers]) -------------------

CUSTOM = '''
import math
import mxnet as mx
from mxnet import nd
from mxnet.gluon import nn


class Bilinear(mx.init.Initializer):  # GluonCV's CenterNet BilinearUpSample, without its noise
    def __init__(self):
        super(Bilinear, self).__init__()

    def _init_weight(self, _, arr):
        f = math.ceil(arr.shape[2] / 2)
        c = (2 * f - 1 - f % 2) / (2. * f)
        for i in range(arr.shape[2]):
            for j in range(arr.shape[3]):
                arr[0, 0, i, j] = (1 - math.fabs(i / f - c)) * (1 - math.fabs(j / f - c))
        for c in range(1, arr.shape[0]):  # the other slots stay as Gluon hands them over: zeros
            arr[c, 0, :, :] = arr[0, 0, :, :]


class Ramp(mx.init.Initializer):  # delegates to a built-in one, as ASTGCN's MyInit does
    const = mx.init.Constant(0.25)

    def __init__(self, step=0.5):
        super(Ramp, self).__init__(step=step)
        self.step = step

    def _init_weight(self, name, arr):
        if len(arr.shape) < 2:
            self.const._init_weight(name, arr)
        else:
            arr[:] = nd.arange(arr.size).reshape(arr.shape) * self.step


class Scaled(nn.HybridBlock):
    def __init__(self):
        super(Scaled, self).__init__()
        with self.name_scope():
            self.scale = self.params.get('scale', shape=(7,))

    def hybrid_forward(self, F, x, scale):
        return F.broadcast_mul(x, scale)


def build():
    net = nn.HybridSequential()
    net.add(nn.Conv2DTranspose(3, 4, strides=2, padding=1, in_channels=3, use_bias=False,
                               weight_initializer=Bilinear()))
    net.add(nn.Dense(5, in_units=48))
    net.add(nn.Dense(4, in_units=5, weight_initializer=Ramp(0.1)))
    net.add(Scaled())
    net.initialize(Ramp())
    return net
'''


def test_custom_initializer_subclass_matches_gluon():
    result = convert_source(CUSTOM)
    assert "import mxnet" not in result.output and "from mxnet" not in result.output, result.output
    assert {"MX522", "MX523"} <= {d.code for d in result.diagnostics}
    assert not [d.format() for d in result.diagnostics if d.status != "fixed"]
    theirs, mine = {}, {}
    exec(compile(CUSTOM, "<gluon>", "exec"), theirs)
    exec(compile(result.output, "<converted>", "exec"), mine)
    g, t = theirs["build"](), mine["build"]()
    pairs = [(g[0].weight, t[0].weight), (g[1].weight, t[1].weight), (g[1].bias, t[1].bias),
             (g[2].weight, t[2].weight), (g[2].bias, t[2].bias), (g[3].scale, t[3].scale)]
    for gp, tp in pairs:
        np.testing.assert_array_equal(tp.detach().numpy(), gp.data().asnumpy(), err_msg=gp.name)
    assert float(t[3].scale[0]) == 0.25 and float(t[2].weight[0, 1]) == np.float32(0.1)  # each init reached


def test_custom_initializer_base_methods_are_mxnets():
    class Half(torch_init._mx_Initializer):
        def _init_weight(self, name, arr):
            arr[:] = 0.5

    class Half_mx(mx.init.Initializer):
        def _init_weight(self, name, arr):
            arr[:] = 0.5

    for name in ("fc_weight", "fc_bias", "bn_gamma", "bn_beta", "bn_moving_mean", "bn_moving_var", "upsampling0"):
        arr = mx.nd.full((2, 1, 4, 4), 7.0)
        with pytest.warns(DeprecationWarning):
            Half_mx()(name, arr)
        w = torch.full((2, 1, 4, 4), 7.0)
        Half()(name, w)
        np.testing.assert_array_equal(w.numpy(), arr.asnumpy(), err_msg=name)
    with pytest.raises(ValueError, match="Unknown initialization pattern"):
        Half()("fc_scale", torch.zeros(3))
    with pytest.raises(NotImplementedError):
        torch_init._mx_Initializer()(torch.zeros(3))
    assert Half() == Half() and torch_init._mx_Initializer(a=1) != torch_init._mx_Initializer(a=2)


def test_init_weight_of_a_builtin_initializer_held_by_a_class():
    """`xavier = mx.init.Xavier()` in a class body is a torch function after translation: read
    through an instance it is a bound method, which the helper unwraps."""
    class Holder:
        xavier = torch.nn.init.xavier_uniform_
        ones = lambda w: torch.nn.init.ones_(w)  # noqa: E731

    w = torch.zeros(40, 30)
    torch_init._mx_init_weight(Holder().ones, "w", w)
    assert bool((w == 1).all())
    torch_init._mx_init_weight(Holder().xavier, "w", w)
    assert float(w.abs().max()) <= math.sqrt(6 / 70) and float(w.std()) > 0.1


# -- Parameter.initialize on one parameter, and Parameters of their own (MX521, MX117) -------------

OWN_PARAMETER = '''
import mxnet as mx
from mxnet import gluon, autograd
from mxnet.gluon import Parameter


def optimise(content, steps=3):  # MXNet's style-transfer example: the image is the Parameter
    output = Parameter('output', shape=content.shape)
    output.initialize(ctx=mx.cpu())
    output.set_data(content)
    trainer = gluon.Trainer([output], 'adam', {'learning_rate': 0.1})
    loss = gluon.loss.L2Loss()
    for _ in range(steps):
        with autograd.record():
            l = loss(output.data() * 2, content)
        l.backward()
        trainer.step(1)
    return output.data()


def layer_weights():
    net = gluon.nn.Dense(4, in_units=3)
    net.initialize()
    net.weight.initialize(init=mx.init.Constant(3.0), force_reinit=True)
    net.bias.initialize(init=mx.init.One())  # already initialised: Gluon ignores it
    scale = gluon.Parameter('scale', shape=(5,), init=mx.init.Constant(0.5))
    scale.initialize()
    return net.weight.data(), net.bias.data(), scale.data()
'''


def test_parameters_of_their_own_and_parameter_initialize_match_gluon():
    result = convert_source(OWN_PARAMETER)
    found = {(d.code, d.status) for d in result.diagnostics}
    assert ("MX117", "review") in found and ("MX521", "fixed") in found, result.output
    assert not [d.format() for d in result.diagnostics if d.status == "manual"]
    theirs, mine = {}, {}
    exec(compile(OWN_PARAMETER, "<gluon>", "exec"), theirs)
    exec(compile(result.output, "<converted>", "exec"), mine)
    content = np.random.default_rng(2).normal(size=(1, 3, 4, 4)).astype(np.float32)
    expected = theirs["optimise"](mx.nd.array(content)).asnumpy()
    got = mine["optimise"](torch.from_numpy(content)).detach().numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    assert np.abs(got - content).max() > 0.1  # the optimiser moved it
    for g, t in zip(theirs["layer_weights"](), mine["layer_weights"]()):
        np.testing.assert_array_equal(t.detach().numpy(), g.asnumpy())


def test_param_initialize_keeps_an_initialised_parameter_and_moves_it():
    p = torch_init._mx_parameter((2, 3), init=torch.nn.init.ones_)
    torch_init._mx_param_initialize(p, torch.nn.init.zeros_)
    assert float(p.sum()) == 0  # not yet initialised in Gluon's sense: drawn with `init`
    torch_init._mx_param_initialize(p, torch.nn.init.ones_)
    assert float(p.sum()) == 0  # initialised: kept, as Gluon ignores a second call
    torch_init._mx_param_initialize(p, "ones", ctx=[torch.device("cpu")], force_reinit=True)
    assert float(p.sum()) == 6 and p.device.type == "cpu"
    lazy = torch_init._mx_parameter((0, 3))
    torch_init._mx_param_initialize(lazy, torch.nn.init.ones_)
    torch_init._mx_set_shape(lazy, (2, 3))
    assert float(lazy.sum()) == 6


def test_initialize_of_an_untyped_value_that_is_no_block_calls_its_own():
    """Note [initialize on a value of no known type]: `x.initialize()` on a function's parameter is
    taken for a block's; where it is another class's (an environment), its own method runs, and
    with a Gluon initializer such a value fails with a message, never half-done."""
    out = convert_source("import mxnet as mx\nclass Env:\n    def initialize(self):\n        self.ready = 7\n"
                         "def setup(env):\n    env.initialize()\n    return env\n"
                         "def setup_xavier(env):\n    env.initialize(mx.init.Xavier())\n").output
    scope = {}
    exec(compile(out, "<converted>", "exec"), scope)
    assert scope["setup"](scope["Env"]()).ready == 7
    with pytest.raises(TypeError, match="no converted block"):
        scope["setup_xavier"](scope["Env"]())
    net = torch.nn.Linear(3, 2)
    assert scope["setup"](net) is net and net.weight.abs().max() <= 0.07  # Gluon's Uniform(0.07)
