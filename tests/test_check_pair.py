"""The pair checker: equal translations pass, wrong ones fail naming the cause."""
import json
import textwrap
import types
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from xlate.check.compare import Tolerance, compare, tolerance_for
from xlate.check.inputs import SpecError, parse

pytestmark = pytest.mark.mxnet
pytest.importorskip("torch")
pytest.importorskip("mxnet")

from xlate.check.mapping import MappingError  # noqa: E402
from xlate.check.pair import LoadError, check_pair  # noqa: E402
from xlate.cli import main  # noqa: E402

MX = '''
from mxnet import gluon, nd


class Net(gluon.Block):
    def __init__(self, units=4, extra=False, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.weight = self.params.get('weight', shape=(3, units))
            if extra:
                self.other = self.params.get('other', shape=(units,))

    def forward(self, x):
        return nd.softmax(nd.dot(x, self.weight.data()), axis=-1)
'''

PT = '''
import torch


class Net(torch.nn.Module):
    def __init__(self, units=4, axis=-1, scale=1.0, nan=False, eval_only=False):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.zeros(3, units))
        self.axis, self.scale, self.nan, self.eval_only = axis, scale, nan, eval_only

    def forward(self, x):
        scale = 1.0 if self.eval_only and self.training else self.scale
        y = torch.softmax(scale * (x @ self.weight), dim=self.axis)
        return y * float("nan") if self.nan else y
'''


@pytest.fixture
def models(tmp_path):
    (tmp_path / "m_mx.py").write_text(textwrap.dedent(MX))
    (tmp_path / "m_pt.py").write_text(textwrap.dedent(PT))
    return f"{tmp_path}/m_mx.py:Net", f"{tmp_path}/m_pt.py:Net"


X = [parse("x:float32[5,3]")]


def test_a_correct_translation_passes_every_check(models):
    result = check_pair(*models, X)
    assert result.ok
    whats = [c.what for c in result.checks]
    assert whats == ["inference: output", "training: output", "training: gradient of x",
                     "training: gradient of weight"]


@pytest.mark.parametrize("pt_kwargs,cause", [
    ({"axis": 0}, "inference: output"),           # softmax over the wrong axis
    ({"scale": 1.001}, "inference: output"),      # a tiny numerical change is still caught
    ({"units": 5}, "PyTorch expects (3, 5)"),     # wrong size
])
def test_wrong_translations_fail_naming_the_cause(models, pt_kwargs, cause):
    try:
        result = check_pair(*models, X, pt_kwargs=pt_kwargs)
    except MappingError as e:
        assert cause in str(e)
        return
    assert not result.ok
    failed = [c for c in result.checks if not c.ok]
    assert failed[0].what == cause
    assert "elements differ" in failed[0].mismatch.format()
    assert result.divergence and "Net" in result.divergence


def test_a_failed_inference_check_leaves_every_training_quantity_compared(models):
    # wrong in .eval() only: the training output and both gradients are still compared, and pass
    result = check_pair(*models, X, pt_kwargs={"scale": 1.001, "eval_only": True})
    assert [(c.what, c.ok) for c in result.checks] == [
        ("inference: output", False), ("training: output", True), ("training: gradient of x", True),
        ("training: gradient of weight", True)]
    wrong = check_pair(*models, X, pt_kwargs={"axis": 0})  # wrong everywhere: every check says so
    assert len(wrong.checks) == 4 and not any(c.ok for c in wrong.checks)


def test_nan_never_passes(models):
    result = check_pair(*models, X, pt_kwargs={"nan": True}, tolerance=Tolerance(1e9, 1e9))
    assert not result.ok
    assert "NaN or Inf" in result.checks[0].mismatch.format()


def test_unmapped_parameters_are_named_with_shapes(models):
    with pytest.raises(MappingError) as e:
        check_pair(*models, X, mx_kwargs={"extra": True})
    assert "other" in str(e.value) and "(4,)" in str(e.value)


@pytest.mark.parametrize("ref,message", [
    ("missing.py:Net", "no such file"),
    ("{mx}:Nope", "has no Nope"),
    ("{mx}", "expected FILE.py:NAME"),
])
def test_load_errors_name_the_file(models, ref, message):
    with pytest.raises(LoadError) as e:
        check_pair(ref.format(mx=models[0].rsplit(":", 1)[0]), models[1], X)
    assert message in str(e.value)


def test_constructor_failure_is_a_load_error(models):
    with pytest.raises(LoadError) as e:
        check_pair(*models, X, mx_kwargs={"bogus": 1})
    assert "building it failed" in str(e.value)


def test_cli_exit_codes_and_reports(models, tmp_path, capsys):
    mx, pt = models
    assert main(["check", "--mx", mx, "--pt", pt, "--input", "x:float32[5,3]"]) == 0
    assert "Equal: 4 of 4 checks passed." in capsys.readouterr().out
    junit = tmp_path / "report.xml"
    rc = main(["check", "--mx", mx, "--pt", pt, "--input", "x:float32[5,3]", "--pt-args", '{"axis": 0}',
               "--format", "json", "--junit", str(junit)])
    assert rc == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is False and payload["checks"][0]["mismatch"]["mismatched"] > 0
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("failures") == "4"  # inference, training output, both gradients
    assert main(["check", "--mx", mx + "x", "--pt", pt, "--input", "x:float32[5,3]"]) == 2
    assert main(["check", "--mx", mx, "--pt", pt, "--input", "x:float32[5,-3]"]) == 2


@pytest.mark.parametrize("text", ["x", "x:float32", "x:float32[]x", "x:complex64[2]", "ids:int64[3]",
                                  "x:float32[2]<5", "x:float32[0,2]"])
def test_bad_input_specs(text):
    with pytest.raises(SpecError):
        parse(text)


def test_input_spec_round_trip():
    assert str(parse("ids:int64[4,7]<10")) == "ids:int64[4,7]<10"
    assert parse("x:float32[4, 7,3]").shape == (4, 7, 3)


def test_compare_reports_count_greatest_difference_and_where():
    e = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    a = e.copy()
    a[1, 0] += 0.5
    m = compare("y", e, a, tolerance_for("float32"))
    assert (m.mismatched, m.total, m.first_index) == (1, 4, (1, 0))
    assert m.max_abs == pytest.approx(0.5) and m.max_rel == pytest.approx(0.5 / 3)
    assert compare("y", e, e + 1e-7, tolerance_for("float32")) is None
    assert "shape (4,)" in compare("y", e, e.reshape(4), tolerance_for("float32")).format()
    inf = e.copy()
    inf[0, 0] = np.inf
    assert compare("y", inf, inf, Tolerance(1.0, 1.0)).reason.startswith("NaN or Inf")


def test_record_then_check_against_without_mxnet(models, tmp_path, capsys):
    mx, pt = models
    ref = tmp_path / "golden"
    assert main(["check", "--mx", mx, "--pt", pt, "--input", "x:float32[5,3]", "--record", str(ref)]) == 0
    assert (ref / "reference.npz").exists() and (ref / "reference.json").exists()
    capsys.readouterr()
    # replay in a process where importing mxnet fails: the PyTorch side alone is checked
    import subprocess
    import sys
    code = ("import sys; sys.modules['mxnet'] = None\n"
            "from xlate.cli import main\n"
            f"raise SystemExit(main(['check', '--against', {str(ref)!r}]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Equal" in done.stdout and "gradient of weight" in done.stdout
    # a wrong PyTorch side fails against the same reference
    wrong = tmp_path / "wrong_pt.py"
    wrong.write_text(textwrap.dedent(PT).replace("dim=self.axis", "dim=0"))
    assert main(["check", "--against", str(ref), "--pt", f"{wrong}:Net"]) == 1
    assert "elements differ" in capsys.readouterr().out


def test_against_a_missing_reference_is_a_load_error(tmp_path):
    assert main(["check", "--against", str(tmp_path / "nothing")]) == 2


def test_project_config_runs_every_pair(models, tmp_path, monkeypatch, capsys):
    mx, pt = models
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent('''
        [tool.xlate.check]
        seed = 3

        [[tool.xlate.check.pair]]
        mx = "m_mx.py:Net"
        pt = "m_pt.py:Net"
        inputs = ["x:float32[5,3]"]

        [[tool.xlate.check.pair]]
        mx = "m_mx.py:Net"
        pt = "m_pt.py:Net"
        inputs = ["x:float32[2,3]"]
        pt_args = { axis = 0 }
    '''))
    sub = tmp_path / "sub"
    sub.mkdir()
    monkeypatch.chdir(sub)  # found from a subfolder, paths relative to pyproject.toml
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert out.count("xlate check") == 2 and "Equal" in out and "DIVERGES" in out
    assert main(["check", "--noise-floor", "7"]) == 1  # options given on the command line reach every pair
    assert capsys.readouterr().out.count("K=7 times PyTorch float32's own deviation") == 2
    (tmp_path / "pyproject.toml").write_text("[tool.xlate.check]\n")
    assert main(["check"]) == 2


GROUPNORM_MX = '''
from mxnet.gluon import nn


def Net():
    net = nn.HybridSequential()
    net.add(nn.GroupNorm(num_groups=2))  # shapes deferred to the first call
    return net
'''
GROUPNORM_PT = '''
import torch


def Net():
    return torch.nn.Sequential(torch.nn.GroupNorm(2, 4))
'''


def test_per_group_parameters_compare_gradients_in_mxnets_layout(tmp_path, capsys):
    (tmp_path / "g_mx.py").write_text(GROUPNORM_MX)
    (tmp_path / "g_pt.py").write_text(GROUPNORM_PT)
    args = ["check", "--mx", f"{tmp_path}/g_mx.py:Net", "--pt", f"{tmp_path}/g_pt.py:Net",
            "--input", "x:float32[3,4,5]"]
    assert main(args + ["--record", str(tmp_path / "ref")]) == 0
    out = capsys.readouterr().out
    assert "gradient of 0.weight (in MXNet's layout)" in out
    # replayed without the MXNet block, that gradient cannot be folded back: said, not skipped silently
    assert main(["check", "--against", str(tmp_path / "ref")]) == 0
    assert "not checked against a recording (needs MXNet): training: gradient of 0.weight" in capsys.readouterr().out


def test_transfer_knows_the_families_without_importing_them_first():
    """mapping.transfer() in a fresh interpreter that never imported xlate.check.families:
    a BatchNorm (gamma/beta -> weight/bias) pairs by its family, not by its parameter names."""
    import subprocess
    import sys

    code = textwrap.dedent('''
        import mxnet as mx, torch
        from xlate.check.mapping import transfer
        net = mx.gluon.nn.BatchNorm(in_channels=3)
        net.initialize()
        net.gamma.set_data(mx.nd.array([0.5, 1.5, 2.5]))
        bn = torch.nn.BatchNorm2d(3)
        pairs = transfer(net, bn)
        print([p.family.name for p in pairs], bn.weight.tolist())
    ''')
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "['batchnorm'] [0.5, 1.5, 2.5]", done.stdout


PARTLY_MX = '''
from mxnet import gluon
from mxnet.gluon import nn


class Net(gluon.Block):
    """Initialises its head itself, as GluonCV's segmentation models do (self.head.initialize())."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.body = nn.Dense(4, activation="tanh")  # in_units from the first input
            self.head = nn.Dense(2, in_units=4)
        self.head.initialize()

    def forward(self, x):
        return self.head(self.body(x))
'''

PARTLY_PT = '''
import torch


class Net(torch.nn.Module):
    def __init__(self, wrong=False):
        super().__init__()
        self.body, self.head = torch.nn.Linear(3, 4), torch.nn.Linear(4, 2)
        self.wrong = wrong

    def forward(self, x):
        h = self.body(x)
        return self.head(h if self.wrong else torch.tanh(h))
'''


@pytest.mark.parametrize("wrong", [False, True])
def test_a_partly_initialised_model_gets_the_rest_initialised(tmp_path, wrong):
    from xlate.check.loading import load
    from xlate.check.pair import check_models

    (tmp_path / "p_mx.py").write_text(PARTLY_MX)
    (tmp_path / "p_pt.py").write_text(PARTLY_PT)
    net = load(f"{tmp_path}/p_mx.py:Net", {}, framework="mxnet")
    own = net.head.weight.data().asnumpy().copy()
    result = check_models(net, load(f"{tmp_path}/p_pt.py:Net", {"wrong": wrong}, framework="pytorch"), X)
    assert result.ok != wrong, [c.mismatch.format() for c in result.checks if not c.ok]
    assert not np.any(net.head.weight.data().asnumpy() == own)  # its own values were redrawn too


STEPS_BN_MX = '''
from mxnet.gluon import nn


def Net():
    net = nn.HybridSequential()
    net.add(nn.Dense(6, in_units=5), nn.BatchNorm(in_channels=6), nn.Dense(3, in_units=6))
    return net
'''


def test_steps_restart_both_sides_from_the_same_running_statistics(tmp_path):
    """The comparison's training pass moves BatchNorm's running statistics; the steps must start
    both sides again from the values both started with (PyTorch's copy once aliased its live
    buffers, so it restarted from the moved ones and step 1 differed in every statistic)."""
    from pathlib import Path

    from xlate.check.pair import Steps, check_models
    from xlate.convert.engine import convert_source

    mx_space, pt_space = {}, {}
    exec(STEPS_BN_MX, mx_space)
    exec(convert_source(STEPS_BN_MX).output, pt_space)
    here = Path(__file__).parent / "mutants"
    steps = Steps(f"{here}/steps_mx.py:make_step", f"{here}/steps.py:make_step", 2, labels=(parse("y:float32[8,3]"),))
    result = check_models(mx_space["Net"](), pt_space["Net"](), [parse("x:float32[8,5]")], steps=steps)
    assert result.ok, [c.mismatch.format() for c in result.checks if not c.ok]
    assert any(c.what == "step 2: 1.running_var" for c in result.checks)


def test_a_block_shared_by_two_parents_pairs_once():
    """GoogLeNet keeps `self.output` as an attribute and inside `self.head`: Gluon reaches it
    twice, torch's named_modules() once."""
    mx = pytest.importorskip("mxnet")
    torch = pytest.importorskip("torch")
    from mxnet.gluon import nn as gnn

    from xlate.check.inputs import parse
    from xlate.check.pair import check_models

    class Gluon(gnn.HybridBlock):
        def __init__(self):
            super().__init__()
            self.head = gnn.HybridSequential()
            self.output = gnn.Dense(3, in_units=4)
            self.head.add(self.output)

        def hybrid_forward(self, F, x):
            return self.head(x)

    class Torch(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.head = torch.nn.Sequential()
            self.output = torch.nn.Linear(4, 3)
            self.head.append(self.output)

        def forward(self, x):
            return self.head(x)

    result = check_models(Gluon(), Torch(), [parse("x:float32[2,4]")], seed=0)
    assert result.ok and result.checks


def test_a_parameter_added_to_a_layer_after_it_was_built_pairs_by_its_name():
    """A quantizer registers `m.input_max = m.params.get(...)` on a built Dense or Conv2D; converted,
    the torch layer holds a parameter of that name. It pairs by the name, its value copied and its
    gradient compared (before: 'parameters that do not map')."""
    pytest.importorskip("mxnet")
    torch = pytest.importorskip("torch")
    from mxnet.gluon import nn as gnn

    from xlate.check.inputs import parse
    from xlate.check.pair import check_models

    class Gluon(gnn.Block):
        def __init__(self):
            super().__init__()
            self.fc = gnn.Dense(3, in_units=4)

        def forward(self, x):
            return self.fc(x)

    class Torch(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(4, 3)

        def forward(self, x):
            return self.fc(x) * self.fc.scale

    net, pt = Gluon(), Torch()
    net.fc.scale = net.fc.params.get('scale', shape=(3,), init='ones')
    net.fc.hybrid_forward = types.MethodType(  # Gluon passes the new parameter to hybrid_forward by its name
        lambda self, F, x, weight, bias, scale: F.FullyConnected(x, weight, bias, num_hidden=3) * scale, net.fc)
    pt.fc.scale = torch.nn.Parameter(torch.ones(3))
    result = check_models(net, pt, [parse("x:float32[2,4]")], seed=0)
    assert result.ok and any("scale" in c.what for c in result.checks)


OWN_GROUPNORM_MX = '''
from mxnet.gluon import nn


class GroupNorm(nn.HybridBlock):  # GluonCV's gluoncv.nn.GroupNorm: a block of its own, Gluon's name
    def __init__(self, channels=4, **kwargs):
        super(GroupNorm, self).__init__(**kwargs)
        self.gamma = self.params.get('gamma', shape=(channels,), init='ones')
        self.beta = self.params.get('beta', shape=(channels,), init='zeros')

    def hybrid_forward(self, F, x, gamma, beta):
        return F.broadcast_add(F.broadcast_mul(x, gamma.reshape((1, -1, 1))), beta.reshape((1, -1, 1)))


def Net():
    net = nn.HybridSequential()
    net.add(GroupNorm())
    return net
'''
OWN_GROUPNORM_PT = '''
import torch


class GroupNorm(torch.nn.Module):
    def __init__(self, channels=4):
        super().__init__()
        self.gamma = torch.nn.Parameter(torch.ones(channels))
        self.beta = torch.nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return x * self.gamma.reshape(1, -1, 1) + self.beta.reshape(1, -1, 1)


def Net():
    return torch.nn.Sequential(GroupNorm())
'''


def test_a_users_block_named_like_a_gluon_layer_pairs_by_its_attributes(tmp_path, capsys):
    """GluonCV defines its own `GroupNorm` HybridBlock: it is no mxnet GroupNorm, whose family
    reads `_kwargs['num_groups']` (a KeyError, the whole check lost); its gamma and beta pair
    by attribute, gradients included."""
    (tmp_path / "o_mx.py").write_text(OWN_GROUPNORM_MX)
    (tmp_path / "o_pt.py").write_text(OWN_GROUPNORM_PT)
    args = ["check", "--mx", f"{tmp_path}/o_mx.py:Net", "--pt", f"{tmp_path}/o_pt.py:Net",
            "--input", "x:float32[3,4,5]"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "gradient of 0.gamma" in out and "gradient of 0.beta" in out


UNUSED_MX = '''
from mxnet.gluon import nn


class Net(nn.HybridBlock):
    def __init__(self, **kwargs):
        super(Net, self).__init__(**kwargs)
        self.used = nn.Dense(3, in_units=4)
        self.unused = nn.Dense(2, in_units=3)  # defined, never called (MXNet's style-transfer Vgg16)

    def hybrid_forward(self, F, x):
        return self.used(x)
'''
UNUSED_PT = '''
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.used = torch.nn.Linear(4, 3)
        self.unused = torch.nn.Linear(3, 2)

    def forward(self, x):
        return self.used(x)
'''


def test_a_parameter_the_forward_never_uses_has_mxnets_zero_gradient(tmp_path, capsys):
    """MXNet writes a zero gradient for a parameter the forward does not use; torch leaves it
    None. That is the same gradient, not a failure; a gradient MXNet computes as non-zero where
    torch has none still fails."""
    (tmp_path / "u_mx.py").write_text(UNUSED_MX)
    (tmp_path / "u_pt.py").write_text(UNUSED_PT)
    args = ["check", "--mx", f"{tmp_path}/u_mx.py:Net", "--pt", f"{tmp_path}/u_pt.py:Net", "--input", "x:float32[2,4]"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "gradient of unused.weight" in out and "no such value" not in out
    used_mx = UNUSED_MX.replace("return self.used(x)", "y = self.used(x)\n        return y + 0.5 * self.unused(y).sum()")
    (tmp_path / "v_mx.py").write_text(used_mx)
    args[2] = f"{tmp_path}/v_mx.py:Net"
    assert main(args) == 1
    assert "FAIL" in capsys.readouterr().out


def test_an_output_of_another_shape_fails_its_check_instead_of_stopping_the_checker(tmp_path, capsys):
    """MXNet 1.x's `.sum()` is (1,), torch's 0-d: the training pass took MXNet's (1,) head
    gradient for torch's backward and the checker stopped with torch's shape error (MXNet's
    lstm_crf Viterbi score). Now the output's check fails and says why."""
    (tmp_path / "s_mx.py").write_text(UNUSED_MX.replace("return self.used(x)", "return self.used(x).sum()"))
    (tmp_path / "s_pt.py").write_text(UNUSED_PT.replace("return self.used(x)", "return self.used(x).sum()"))
    args = ["check", "--mx", f"{tmp_path}/s_mx.py:Net", "--pt", f"{tmp_path}/s_pt.py:Net", "--input", "x:float32[2,4]"]
    assert main(args) == 1
    assert "shape () where MXNet gives (1,)" in capsys.readouterr().out
    (tmp_path / "t_pt.py").write_text(UNUSED_PT.replace("return self.used(x)", "return self.used(x)[:, :2]"))
    args[4] = f"{tmp_path}/t_pt.py:Net"
    assert main(args) == 1
    assert "shape (2, 2) where MXNet gives (1,)" in capsys.readouterr().out


UNREACHED_MX = '''
from mxnet import gluon


class Net(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.w = self.params.get('w', shape=(4,))

    def hybrid_forward(self, F, x, scale, w):
        return F.broadcast_mul(x, w) * F.ones_like(scale).sum()
'''


@pytest.mark.parametrize("detached,ok", [(False, True), (True, False)])
def test_an_input_the_outputs_do_not_reach_has_a_zero_gradient(detached, ok):
    """MXNet writes zeros into the gradient of an input the outputs do not depend on, where torch
    leaves `.grad` None: the two agree. A translation that cuts the graph where MXNet's output
    does depend on an input still fails (its gradient is zero where MXNet's is not)."""
    from xlate.check.pair import check_models
    from xlate.convert.engine import convert_source

    source = UNREACHED_MX if not detached else UNREACHED_MX.replace(
        "F.ones_like(scale).sum()", "F.sum(scale)")
    mx_space, pt_space = {}, {}
    exec(source, mx_space)
    out = convert_source(source).output
    if detached:  # MXNet's output depends on scale; the "translation" cuts it from the graph
        assert "torch.sum(scale)" in out, out
        out = out.replace("torch.sum(scale)", "torch.sum(scale.detach())")
    exec(out, pt_space)
    result = check_models(mx_space["Net"](), pt_space["Net"](), [parse("x:float32[2,4]"), parse("scale:float32[3]")])
    assert result.ok == ok, [c.mismatch.format() for c in result.checks if not c.ok]
    assert [c.ok for c in result.checks if c.what == "training: gradient of scale"] == [ok]


CONSTANT_OUT_MX = '''
from mxnet import gluon


class Net(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.w = self.params.get('w', shape=(4,))
            self.bn = gluon.nn.BatchNorm(in_channels=4)

    def hybrid_forward(self, F, x, lengths, w):
        return F.broadcast_mul(self.bn(x), w), F.identity(lengths)
'''


def test_an_output_off_the_graph_is_compared_and_the_backward_runs_from_the_others():
    """sockeye's encoders return `F.identity(valid_length)` of integer lengths: MXNet records no
    node for it and refuses a backward from it; the others still give every gradient. MXNet updates
    BatchNorm's running statistics in the backward: finding the outputs a backward starts from must not
    update them once more (MXNet-Detector's anchors, constant outputs beside a Darknet's)."""
    from xlate.check.pair import check_models
    from xlate.convert.engine import convert_source

    mx_space, pt_space = {}, {}
    exec(CONSTANT_OUT_MX, mx_space)
    exec(convert_source(CONSTANT_OUT_MX).output, pt_space)
    result = check_models(mx_space["Net"](), pt_space["Net"](), [parse("x:float32[2,4]"), parse("lengths:int32[2]<5")])
    assert result.ok, [c.mismatch.format() for c in result.checks if not c.ok]
    assert {"training: gradient of x", "training: gradient of w", "training: bn.running_mean after the step",
            "training: bn.running_var after the step"} <= {c.what for c in result.checks}, [c.what for c in result.checks]


# a length used only to build a mask (no gradient path: MXNet's gradient is zero, torch leaves None) and
# an output handed back untouched (a decoder's states: torch's backward refuses it)
MASKED_MX = '''
from mxnet import gluon, nd
from mxnet.gluon import nn


class Net(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.proj = nn.Dense(3, in_units=4, flatten=False)

    def hybrid_forward(self, F, x, length):
        mask = F.broadcast_lesser(F.arange(5).reshape((1, 5)), length.reshape((-1, 1)))
        return F.broadcast_mul(self.proj(x), mask.expand_dims(-1)), F.ones_like(length) * 2
'''


@pytest.mark.parametrize("wrong", [False, True])
def test_inputs_and_outputs_without_a_gradient_path(wrong):
    from xlate.check.pair import check_models
    from xlate.convert.engine import convert_source

    mx_space, pt_space = {}, {}
    exec(MASKED_MX, mx_space)
    exec(convert_source(MASKED_MX.replace("* 2", "* 3") if wrong else MASKED_MX).output, pt_space)
    result = check_models(mx_space["Net"](), pt_space["Net"](),
                          [parse("x:float32[2,5,4]"), parse("length:float32[2]")])
    assert result.ok != wrong, [c.mismatch.format() for c in result.checks if not c.ok]
    assert any("length" in c.what for c in result.checks)


# a detector's training forward returns its raw predictions and anchors, its inference forward the decoded boxes:
# other outputs, of other shapes and number (CLRS and SSD-like heads; GluonOCR)
TRAIN_OUTPUTS_MX = '''
from mxnet import autograd, gluon


class Net(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.w = self.params.get('w', shape=(4,))

    def hybrid_forward(self, F, x, w):
        y = F.broadcast_mul(x, w)
        if autograd.is_training():
            return y, F.tanh(y) * 2
        return y.sum(axis=1)
'''


@pytest.mark.parametrize("wrong", [False, True])
def test_training_outputs_other_than_the_inference_outputs_each_get_a_head_gradient(wrong):
    """The head gradients were drawn from the inference outputs' shapes: a training forward that
    returns other outputs (a detector's raw predictions and anchors) stopped the checker, with MXNet's
    error (another number of outputs) or its shape error in the backward (GluonOCR's CLRS), and no
    gradient was compared (Note [heads of the training outputs])."""
    from xlate.check.pair import check_models
    from xlate.convert.engine import convert_source

    mx_space, pt_space = {}, {}
    exec(TRAIN_OUTPUTS_MX, mx_space)
    out = convert_source(TRAIN_OUTPUTS_MX).output
    if wrong:  # the second training output's gradient cut from the graph
        assert "torch.tanh(y) * 2" in out, out
        out = out.replace("torch.tanh(y) * 2", "torch.tanh(y.detach()) * 2")
    exec(out, pt_space)
    result = check_models(mx_space["Net"](), pt_space["Net"](), [parse("x:float32[2,4]")])
    assert result.ok != wrong, [c.mismatch.format() for c in result.checks if not c.ok]
    assert {"inference: output", "training: output 1", "training: gradient of x"} <= {c.what for c in result.checks}
