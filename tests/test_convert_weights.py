"""`xlate convert-weights`: real MXNet parameter files into hand-written PyTorch translations.

Each model gets random asymmetric weights (running statistics included), is saved by MXNet
itself, converted through `xlate.cli.main`, loaded into a fresh PyTorch model with
strict=True, and both models must then compute the same output on a non-zero input. The
error cases check the exit code, that the message names both sides' parameters and shapes,
and that nothing was written (an existing output stays as it was).
"""
from __future__ import annotations

import re
import textwrap
import warnings
from pathlib import Path

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()

from xlate.check.compare import compare, tolerance_for  # noqa: E402
from xlate.check.inputs import asymmetric_like, draw, parse  # noqa: E402
from xlate.check.mapping import is_constant  # noqa: E402
from xlate.check.sides import flatten, load  # noqa: E402
from xlate.cli import main  # noqa: E402

pytestmark = pytest.mark.mxnet

MX = '''
import numpy as np
from mxnet import gluon
from mxnet.gluon import nn, rnn


def Stack(units=3, extra=False):
    """A Sequential of Conv/BatchNorm/Dense; every input size is deferred."""
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3), nn.BatchNorm(), nn.Activation("relu"), nn.Flatten(), nn.Dense(units))
        if extra:
            net.add(nn.Dense(2))
    return net


def Single():
    return nn.Dense(3, in_units=4)


def Biased():
    """A convolution's bias right before a BatchNorm: its true gradient is zero."""
    net = nn.HybridSequential()
    net.add(nn.Conv2D(16, 3), nn.BatchNorm(), nn.Activation("relu"), nn.GlobalAvgPool2D(), nn.Flatten(),
            nn.Dense(16))
    return net


class Named(gluon.HybridBlock):
    """Nested named children and a parameter of its own."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.encoder = nn.HybridSequential()
            self.encoder.add(nn.Dense(6, activation="tanh"), nn.Dense(5, use_bias=False))
            self.head = nn.Dense(2, in_units=5)
            self.scale = self.params.get("scale", shape=(2,))

    def hybrid_forward(self, F, x, scale):
        return F.broadcast_mul(self.head(self.encoder(x)), scale.reshape((1, 2)))


class Listed(gluon.Block):
    """Children registered by hand from a list: saved as `1.weight`, `2.weight`."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.embed = nn.Embedding(10, 4)
            self.blocks = []
            for units in (5, 3):
                block = nn.Dense(units, flatten=False)
                self.register_child(block)
                self.blocks.append(block)

    def forward(self, ids):
        h = self.embed(ids)
        for block in self.blocks:
            h = block(h).relu()
        return h


class Recurrent(gluon.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.lstm = rnn.LSTM(4, num_layers=2, bidirectional=True, layout="NTC")
            self.gru = rnn.GRU(3, layout="NTC")

    def forward(self, x):
        return self.gru(self.lstm(x))


class Grouped(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.conv = nn.Conv2D(6, 3, in_channels=2)
            self.norm = nn.GroupNorm(3)

    def hybrid_forward(self, F, x):
        return self.norm(self.conv(x))


class Table(gluon.HybridBlock):
    """A fixed table (a Constant): compared with the translation's own, never copied."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.table = self.params.get_constant("table", np.arange(1, 7, dtype="float32").reshape(2, 3) / 7)
            self.fc = nn.Dense(3, in_units=3)

    def hybrid_forward(self, F, x, table):
        return F.dot(self.fc(x), table, transpose_b=True)
'''

PT = '''
import torch
from torch import nn

from xlate.check.layers import mx_batchnorm


def Stack(lazy=False, act="relu", plain_bn=False, drop_fc=False, extra=None, units=3):
    """extra: None, "linear" (a layer MXNet lacks), "lazy" (the same, lazy)."""
    if lazy:
        layers = [nn.LazyConv2d(4, 3), nn.LazyBatchNorm2d(momentum=0.1)]
    else:
        norm = nn.BatchNorm2d(4) if plain_bn else mx_batchnorm(4, 4, momentum=0.9, eps=1e-5)
        layers = [nn.Conv2d(2, 4, 3), norm]
    layers += [nn.ReLU() if act == "relu" else nn.Tanh(), nn.Flatten()]
    if not drop_fc:
        layers.append(nn.LazyLinear(units) if lazy else nn.Linear(36, units))
    if extra:
        layers.append(nn.LazyLinear(2) if extra == "lazy" else nn.Linear(units, 2))
    return nn.Sequential(*layers)


def Single():
    return nn.Linear(4, 3)


class Biased(nn.Module):
    """mutant: "" (the translation), "transposed" (the head's weight read transposed), "flipped"
    (the convolution's kernel read flipped): wrong mappings that keep every shape."""

    def __init__(self, mutant=""):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3)
        self.norm = mx_batchnorm(16, 16, momentum=0.9, eps=1e-5)
        self.head = nn.Linear(16, 16)
        self.mutant = mutant

    def forward(self, x):
        if self.mutant == "flipped":
            h = nn.functional.conv2d(x, self.conv.weight.flip(2, 3), self.conv.bias)
        else:
            h = self.conv(x)
        h = self.norm(h).relu().mean((2, 3))
        if self.mutant == "transposed":
            return nn.functional.linear(h, self.head.weight.T, self.head.bias)
        return self.head(h)


class Named(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 5, bias=False))
        self.head = nn.Linear(5, 2)
        self.scale = nn.Parameter(torch.empty(2))

    def forward(self, x):
        return self.head(self.encoder(x)) * self.scale


class Listed(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.blocks = nn.ModuleList([nn.Linear(4, 5), nn.Linear(5, 3)])

    def forward(self, ids):
        h = self.embed(ids)
        for block in self.blocks:
            h = block(h).relu()
        return h


class Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 4, 2, bidirectional=True, batch_first=True)
        self.gru = nn.GRU(8, 3, batch_first=True)

    def forward(self, x):
        return self.gru(self.lstm(x)[0])[0]


class Grouped(nn.Module):
    def __init__(self, groups=3):
        super().__init__()
        self.conv = nn.Conv2d(2, 6, 3)
        self.norm = nn.GroupNorm(groups, 6)

    def forward(self, x):
        return self.norm(self.conv(x))


class Table(nn.Module):
    def __init__(self, off=False):
        super().__init__()
        self.register_buffer("table", torch.arange(1, 7, dtype=torch.float32).reshape(2, 3) / (8 if off else 7))
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        return self.fc(x) @ self.table.T


class NotAModule:
    pass
'''

INPUTS = {
    "Stack": "x:float32[2,2,5,5]", "Single": "x:float32[3,4]", "Named": "x:float32[3,4]",
    "Listed": "ids:int64[3,5]<10", "Recurrent": "x:float32[2,5,3]", "Grouped": "x:float32[2,2,5,5]",
    "Table": "x:float32[4,3]", "Biased": "x:float32[4,3,10,10]",
}


@pytest.fixture
def files(tmp_path):
    (tmp_path / "m_mx.py").write_text(textwrap.dedent(MX))
    (tmp_path / "m_pt.py").write_text(textwrap.dedent(PT))
    return tmp_path


def arrays(name: str, seed: int = 1) -> list:
    return [draw(parse(INPUTS[name]), np.random.default_rng(seed))]


def saved(tmp_path: Path, name: str, how: str = "save_parameters", scale: dict = {}, **kwargs):
    """The MXNet model `name` with random asymmetric weights (times scale[pattern] for the
    parameters whose names the pattern finds: Gluon's counters make `conv0_` or `conv7_`), saved by
    MXNet as `how`."""
    net = load(f"{tmp_path}/m_mx.py:{name}", kwargs)
    net.initialize(mx.init.Uniform(0.1))
    xs = [mx.nd.array(a, dtype=a.dtype) for a in arrays(name)]
    net(*xs)  # deferred shapes
    rng = np.random.default_rng(7)
    for pname, p in net.collect_params().items():
        if not is_constant(p):
            factor = next((f for pattern, f in scale.items() if re.search(pattern, pname)), 1.0)
            p.set_data(mx.nd.array(asymmetric_like(p.shape, pname, rng) * factor, dtype=p.dtype))
    path = tmp_path / f"{name}.params"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # save_params is deprecated
        if how == "export":
            net.hybridize()
            net(*xs)
            net.export(str(tmp_path / name))
            return net, tmp_path / f"{name}-0000.params"
        getattr(net, how)(str(path))
    return net, path


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def convert(capsys, tmp_path, params, name, *extra, pt=None, mx_name=None) -> tuple[int, str, str, Path]:
    out = tmp_path / "out" / f"{name}.pt"
    rc, stdout, err = run(capsys, "convert-weights", params, "--mx", f"{tmp_path}/m_mx.py:{mx_name or name}",
                          "--pt", f"{tmp_path}/m_pt.py:{pt or name}", "-o", out, *extra)
    return rc, stdout, err, out


def assert_same_outputs(mx_net, tmp_path, name, out: Path, pt_kwargs=None):
    """A fresh PyTorch model with the written file (strict=True) computes what MXNet computes."""
    model = load(f"{tmp_path}/m_pt.py:{name}", pt_kwargs or {})
    model.load_state_dict(torch.load(out, weights_only=True), strict=True)
    model.eval()
    xs = arrays(name, seed=2)  # not the arrays the shapes were fixed with
    with torch.no_grad():
        got = [t.numpy() for t in flatten(model(*[torch.as_tensor(a) for a in xs]))]
    want = [o.asnumpy() for o in flatten(mx_net(*[mx.nd.array(a, dtype=a.dtype) for a in xs]))]
    assert len(got) == len(want)
    for w, g in zip(want, got):
        assert np.abs(w).max() > 1e-3  # a real output, not a vanishing one
        mismatch = compare("output", w, g, tolerance_for("float32"))
        assert mismatch is None, mismatch.format()


def nothing_written(tmp_path: Path) -> bool:
    out = tmp_path / "out"
    return not out.exists() or not any(out.iterdir())


# -- conversions ------------------------------------------------------------------------------
@pytest.mark.parametrize("name, keys", [
    ("Stack", {"0.weight", "1.gamma", "1.running_var", "4.weight"}),
    ("Named", {"scale", "encoder.0.weight", "encoder.1.weight", "head.bias"}),
    ("Listed", {"embed.weight", "1.weight", "2.bias"}),
    ("Recurrent", {"lstm._unfused.0.l_cell.i2h_weight", "lstm._unfused.1.r_cell.h2h_bias",
                   "gru._unfused.0.i2h_weight"}),
])
def test_saved_parameters_convert_and_compute_the_same(files, capsys, name, keys):
    mx_net, params = saved(files, name)
    assert keys <= set(mx.nd.load(str(params)))  # the names save_parameters writes
    rc, out, err, written = convert(capsys, files, params, name)
    assert rc == 0, err
    assert f"in {written}" in out and "with strict=True" in out
    assert_same_outputs(mx_net, files, name, written)


def test_summary_counts_tensors_and_families(files, capsys):
    mx_net, params = saved(files, "Stack")
    rc, out, err, written = convert(capsys, files, params, "Stack")
    assert rc == 0, err
    state = torch.load(written, weights_only=True)
    assert len(state) == 9  # 8 from MXNet and torch's batch counter
    assert "9 tensors" in out and "8 from the MXNet file" in out and "save_parameters" in out
    assert "batchnorm 1, conv 1, dense 1" in out
    assert "1.num_batches_tracked" in out  # said, not silent
    assert np.array_equal(state["1.weight"].numpy(), mx_net[1].gamma.data().asnumpy())


def test_rnn_weights_land_in_torch_names(files, capsys):
    mx_net, params = saved(files, "Recurrent")
    rc, _, err, written = convert(capsys, files, params, "Recurrent")
    assert rc == 0, err
    state = torch.load(written, weights_only=True)
    for mx_name, pt_name in [("l1_i2h_weight", "weight_ih_l1"), ("r0_h2h_bias", "bias_hh_l0_reverse"),
                             ("r1_i2h_weight", "weight_ih_l1_reverse")]:
        value = mx_net.lstm._reg_params[mx_name].data().asnumpy()
        assert np.array_equal(state[f"lstm.{pt_name}"].numpy(), value)


def test_groupnorm_per_group_values_repeat_per_channel(files, capsys):
    mx_net, params = saved(files, "Grouped")
    rc, out, err, written = convert(capsys, files, params, "Grouped")
    assert rc == 0, err
    state = torch.load(written, weights_only=True)
    gamma = mx_net.norm.gamma.data().asnumpy()
    assert gamma.shape == (3,) and len(set(gamma.tolist())) == 3
    assert np.array_equal(state["norm.weight"].numpy(), np.repeat(gamma, 2))
    assert_same_outputs(mx_net, files, "Grouped", written)


def test_groupnorm_with_other_group_count_does_not_pair(files, capsys):
    _, params = saved(files, "Grouped")
    rc, _, err, written = convert(capsys, files, params, "Grouped", "--pt-args", '{"groups": 2}')
    assert rc == 2 and "GroupNorm with 3 groups" in err and "GroupNorm(2, 6)" in err
    assert nothing_written(files)


@pytest.mark.parametrize("how", ["save_params", "export"])
def test_prefixed_and_exported_files(files, capsys, how):
    mx_net, params = saved(files, "Named", how)
    assert not any("." in k for k in mx.nd.load(str(params)))
    rc, out, err, written = convert(capsys, files, params, "Named")
    assert rc == 0, err
    assert f"names as {how} writes them" in out
    assert_same_outputs(mx_net, files, "Named", written)


def test_single_block_saves_bare_names(files, capsys):
    mx_net, params = saved(files, "Single")
    assert set(mx.nd.load(str(params))) == {"weight", "bias"}
    rc, _, err, written = convert(capsys, files, params, "Single")
    assert rc == 0, err
    assert_same_outputs(mx_net, files, "Single", written)


def test_half_precision_file_is_cast_and_said(files, capsys):
    mx_net, _ = saved(files, "Named")
    mx_net.cast("float16")
    params = files / "half.params"
    mx_net.save_parameters(str(params))
    rc, out, err, written = convert(capsys, files, params, "Named")
    assert rc == 0, err
    assert "head.weight float16 -> float32" in out
    state, stored = torch.load(written, weights_only=True), mx.nd.load(str(params))
    assert state["head.weight"].dtype == torch.float32
    assert np.array_equal(state["head.weight"].numpy(), stored["head.weight"].asnumpy().astype("float32"))
    assert np.array_equal(state["scale"].numpy(), stored["scale"].asnumpy().astype("float32"))


@pytest.mark.parametrize("with_input", [True, False])
def test_lazy_torch_modules(files, capsys, with_input):
    mx_net, params = saved(files, "Stack")
    extra = ["--input", INPUTS["Stack"]] if with_input else []
    rc, out, err, written = convert(capsys, files, params, "Stack", "--pt-args", '{"lazy": true}', *extra)
    assert rc == 0, err
    assert ("forward pass" if with_input else "shapes from the MXNet file") in out
    assert_same_outputs(mx_net, files, "Stack", written, {"lazy": True})


def test_constant_equal_to_the_translations_own(files, capsys):
    mx_net, params = saved(files, "Table")
    rc, out, err, written = convert(capsys, files, params, "Table")
    assert rc == 0, err
    assert "constants equal to the translation's own: table" in out
    assert_same_outputs(mx_net, files, "Table", written)


def test_check_passes_with_a_correct_translation(files, capsys):
    _, params = saved(files, "Stack")
    rc, out, err, written = convert(capsys, files, params, "Stack", "--check", "--input", INPUTS["Stack"])
    assert rc == 0, err
    assert "ok    kept weights: 0.weight" in out and "ok    inference: output" in out
    assert "training: gradient of 0.weight" in out
    assert written.is_file()


@pytest.mark.parametrize("pt_args, failing", [
    ('{"act": "tanh"}', "inference: output"),
    ('{"plain_bn": true}', "running_var after the step"),  # torch's momentum and unbiased variance
])
def test_check_failure_writes_nothing(files, capsys, pt_args, failing):
    _, params = saved(files, "Stack")
    rc, out, err, written = convert(capsys, files, params, "Stack", "--check", "--input", INPUTS["Stack"],
                                    "--pt-args", pt_args)
    assert rc == 1
    assert f"FAIL  training: 1.{failing}" in out if "running" in failing else f"FAIL  {failing}" in out
    assert "was not written" in err
    assert nothing_written(files)


def test_check_takes_the_checkers_tolerances_and_noise_mode(files, capsys):
    """A convolution's bias before a BatchNorm has a true gradient of zero; in training mode both
    frameworks give float32 rounding noise there (small kernels: a small batch std, which
    BatchNorm's backward divides by), and the strict comparison fails a correct conversion. The
    checker's noise mode, or a looser tolerance, passes it."""
    _, params = saved(files, "Biased", scale={r"conv\d+_weight$": 0.1})
    check = ("--check", "--input", INPUTS["Biased"])
    rc, out, err, written = convert(capsys, files, params, "Biased", *check)
    assert rc == 1 and "FAIL  training: gradient of conv.bias" in out and "was not written" in err
    assert out.count("FAIL") == 1  # the zero gradient alone: the case the options are for
    for extra in (["--noise-floor"], ["--rtol", "1e-3", "--atol", "1e-4"]):
        rc, out, err, written = convert(capsys, files, params, "Biased", *check, *extra)
        assert rc == 0, out + err
        assert "gradient of conv.bias" in out and "FAIL" not in out and written.is_file()
        if extra == ["--noise-floor"]:
            assert "within float32 noise" in out
        written.unlink()


@pytest.mark.parametrize("mutant", ["transposed", "flipped"])
@pytest.mark.parametrize("extra", [["--noise-floor"], ["--rtol", "1e-3", "--atol", "1e-4"]])
def test_looser_checks_still_catch_a_wrong_mapping(files, capsys, mutant, extra):
    _, params = saved(files, "Biased", scale={r"conv\d+_weight$": 0.1})
    rc, out, err, written = convert(capsys, files, params, "Biased", "--check", "--input", INPUTS["Biased"],
                                    "--pt-args", f'{{"mutant": "{mutant}"}}', *extra)
    assert rc == 1 and "FAIL  inference: output" in out
    assert "was not written" in err and nothing_written(files)


# -- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize("pt_args, expected", [
    ('{"drop_fc": true}', ["MXNet has 3 blocks with parameters, PyTorch 2 modules",
                           "4 [Dense: weight (3, 36), bias (3,)]  <->  -"]),
    ('{"extra": "linear"}', ["MXNet has 3 blocks with parameters, PyTorch 4 modules",
                             "-  <->  5 [Linear: weight (2, 3), bias (2,)]"]),
    ('{"units": 4}', ["4.weight (3, 36) -> 4.weight: PyTorch expects (4, 36), the mapping gives (3, 36)"]),
    ('{"lazy": true, "extra": "lazy"}', ["MXNet has 3 blocks with parameters, PyTorch 4 modules",
                                         "5 [LazyLinear: weight (lazy), bias (lazy)]"]),
])
def test_models_that_do_not_pair(files, capsys, pt_args, expected):
    _, params = saved(files, "Stack")
    existing = files / "out" / "Stack.pt"
    existing.parent.mkdir()
    existing.write_bytes(b"an older conversion")
    rc, _, err, _ = convert(capsys, files, params, "Stack", "--pt-args", pt_args)
    assert rc == 2
    assert "do not pair" in err and "nothing was written" in err
    for text in expected:
        assert text in err
    assert existing.read_bytes() == b"an older conversion"
    assert [p.name for p in existing.parent.iterdir()] == ["Stack.pt"]  # no temporary left


@pytest.mark.parametrize("mx_args, expected", [
    ('{"units": 4}', "shapes differ: 4.weight: file (3, 36), model (4, ?)"),
    ('{"extra": true}', "in the model, not in the file: 5.bias (2,), 5.weight (2, ?)"),
])
def test_file_that_does_not_fit_the_mxnet_model(files, capsys, mx_args, expected):
    _, params = saved(files, "Stack")
    rc, _, err, _ = convert(capsys, files, params, "Stack", "--mx-args", mx_args)
    assert rc == 2 and "does not fit" in err and expected in err, err
    assert nothing_written(files)


def test_file_of_another_model(files, capsys):
    _, params = saved(files, "Grouped")
    rc, _, err, _ = convert(capsys, files, params, "Stack")
    assert rc == 2
    assert "in the file, not in the model: conv.weight (6, 2, 3, 3)" in err
    assert "in the model, not in the file: 0.bias (4,)" in err
    assert nothing_written(files)


def test_constant_the_translation_computes_differently(files, capsys):
    _, params = saved(files, "Table")
    rc, _, err, _ = convert(capsys, files, params, "Table", "--pt-args", '{"off": true}')
    assert rc == 2 and "constants the translation computes differently" in err and "table" in err
    assert nothing_written(files)


@pytest.mark.parametrize("writer", ["mxnet", "converted"])
def test_a_dict_saved_with_nd_save_converts(files, capsys, writer):
    """`nd.save(f, {name: array})`, by MXNet or by a converted program (`_mx_nd_save`, MXNet's
    format byte for byte), is what save_parameters writes: convert-weights reads it alike."""
    from xlate import runtime

    mx_net, params = saved(files, "Stack")
    arrays = {k: p.data() for k, p in mx_net._collect_params_with_prefix().items()}
    path = files / "dict.nd"
    if writer == "mxnet":
        mx.nd.save(str(path), arrays)
    else:
        runtime.load()._mx_nd_save(str(path), {k: torch.tensor(v.asnumpy()) for k, v in arrays.items()})
    rc, out, err, written = convert(capsys, files, path, "Stack")
    assert rc == 0, err
    assert_same_outputs(mx_net, files, "Stack", written)


def test_bad_parameter_files(files, capsys):
    corrupt = files / "corrupt.params"
    corrupt.write_bytes(b"\x12\x01\x00\x00\x00\x00\x00\x00 not really")
    rc, _, err, _ = convert(capsys, files, corrupt, "Stack")
    assert rc == 2 and "not an MXNet parameter file" in err
    rc, _, err, _ = convert(capsys, files, files / "missing.params", "Stack")
    assert rc == 2 and "missing.params: no such file" in err
    listed = files / "list.params"
    mx.nd.save(str(listed), [mx.nd.ones(3)])
    rc, _, err, _ = convert(capsys, files, listed, "Stack")
    assert rc == 2 and "without names" in err
    assert nothing_written(files)


def test_output_paths(files, capsys):
    _, params = saved(files, "Stack")
    rc, _, err = run(capsys, "convert-weights", params, "--mx", f"{files}/m_mx.py:Stack",
                     "--pt", f"{files}/m_pt.py:Stack", "-o", files)
    assert rc == 2 and "is a directory" in err
    before = params.read_bytes()
    rc, _, err = run(capsys, "convert-weights", params, "--mx", f"{files}/m_mx.py:Stack",
                     "--pt", f"{files}/m_pt.py:Stack", "-o", params)
    assert rc == 2 and "is the MXNet parameter file" in err
    assert params.read_bytes() == before


def test_forward_failure_on_the_inputs(files, capsys):
    _, params = saved(files, "Stack")
    rc, _, err, _ = convert(capsys, files, params, "Stack", "--pt-args", '{"lazy": true}', "--input", "x:float32[2,3]")
    assert rc == 2 and "forward pass on the --input arrays failed" in err
    assert nothing_written(files)


def test_pytorch_factory_that_is_not_a_module(files, capsys):
    _, params = saved(files, "Stack")
    rc, _, err, _ = convert(capsys, files, params, "Stack", pt="NotAModule")
    assert rc == 2 and "not a torch.nn.Module" in err


@pytest.mark.parametrize("args, message", [
    (["p.params", "--mx", "a.py:A", "--pt", "b.py:B"], "needs --mx FILE.py:NAME, --pt FILE.py:NAME and -o OUT"),
    (["p.params", "--mx", "a.py:A", "--pt", "b.py:B", "-o", "o.pt", "--check"], "--check needs at least one --input"),
    (["p.params", "--mx", "a.py:A", "--pt", "b.py:B", "-o", "o.pt", "--pt-args", "{"], "not JSON"),
    (["p.params", "--mx", "a.py:A", "--pt", "b.py:B", "-o", "o.pt", "--input", "x:float32"], "expected NAME:DTYPE"),
    (["p.params", "--mx", "a.py:A", "--pt", "b.py:B", "-o", "o.pt", "--noise-floor"], "give --check too"),
    (["p.params", "--mx", "a.py:A", "--pt", "b.py:B", "-o", "o.pt", "--check", "--input", "x:float32[2]",
      "--rtol", "1e-3"], "give both --rtol and --atol"),
    (["p.params", "--mx", "a.py:A", "--pt", "b.py:B", "-o", "o.pt", "--check", "--input", "x:float32[2]",
      "--noise-floor", "-3"], "--noise-floor K must be a positive number"),
])
def test_usage_errors(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    rc, _, err = run(capsys, "convert-weights", *args)
    assert rc == 2 and message in err
    assert list(tmp_path.iterdir()) == []
