"""What `--mx`/`--pt`/`--mx-step` may name, and what the checker says when it cannot use it:
model instances and zero-argument factories as well as classes, `make_step(model)` with the
model passed positionally, `keep_weights`, and advice when a file trains when imported."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.mxnet
np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
pytest.importorskip("mxnet")

import mxnet as mx  # noqa: E402

from xlate.check import loading  # noqa: E402
from xlate.check.inputs import parse  # noqa: E402
from xlate.check.loading import LoadError, load, load_step, trains_on_import  # noqa: E402
from xlate.check.pair import Steps, check_models, check_pair  # noqa: E402
from xlate.cli import main  # noqa: E402

MX = '''
import mxnet as mx
from mxnet.gluon import nn


def build(act="relu"):
    net = nn.HybridSequential()
    net.add(nn.Dense(4, in_units=3, activation=act), nn.Dense(2, in_units=4))
    return net


class Net(nn.HybridSequential):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.add(nn.Dense(units, in_units=3, activation="relu"), nn.Dense(2, in_units=units))


net = build()
zeroed = build()
zeroed.initialize(mx.init.Zero())  # a model file that fills its own weights: the check must not keep them
count = 3
'''

PT = '''
import torch
from torch import nn


def build(act="relu"):
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU() if act == "relu" else nn.Tanh(), nn.Linear(4, 2))


class Net(nn.Sequential):
    def __init__(self, units):
        super().__init__(nn.Linear(3, units), nn.ReLU(), nn.Linear(units, 2))


net = build()
wrong = build("tanh")  # tanh(0) == relu(0): only non-zero weights tell them apart
zeroed = build("tanh")
for p in zeroed.parameters():
    torch.nn.init.zeros_(p)
'''

STEPS_MX = '''
from mxnet import autograd, gluon


def make_step(net):  # any name for the model: it is passed positionally
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    loss_fn = gluon.loss.L2Loss()

    def step(x, y):
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(x.shape[0])
        return loss
    return step


def keyword_only(*, model):
    return lambda x, y: 0.0


def not_a_function(net):
    return 3
'''

STEPS_PT = '''
import torch


def make_step(net, lr=0.1):
    opt = torch.optim.SGD(net.parameters(), lr=lr)

    def step(x, y):
        opt.zero_grad()
        loss = (0.5 * ((net(x) - y) ** 2)).mean(dim=1)
        loss.mean().backward()
        opt.step()
        return loss
    return step
'''

X = "x:float32[5,3]"


@pytest.fixture
def files(tmp_path) -> Path:
    for name, text in (("m_mx.py", MX), ("m_pt.py", PT), ("s_mx.py", STEPS_MX), ("s_pt.py", STEPS_PT)):
        (tmp_path / name).write_text(textwrap.dedent(text))
    return tmp_path


def check(capsys, *argv) -> tuple[int, str]:
    rc = main(["check", *map(str, argv)])
    captured = capsys.readouterr()
    return rc, captured.out + captured.err


# -- what --mx and --pt may name ----------------------------------------------------------------------
def test_module_level_instances_are_accepted(files, capsys):
    rc, report = check(capsys, "--mx", f"{files}/m_mx.py:net", "--pt", f"{files}/m_pt.py:net", "--input", X)
    assert rc == 0, report
    assert "forward() missing" not in report
    assert "ok    training: gradient of 2.weight" in report


def test_a_wrong_instance_still_fails(files, capsys):
    rc, report = check(capsys, "--mx", f"{files}/m_mx.py:net", "--pt", f"{files}/m_pt.py:wrong", "--input", X)
    assert rc == 1, report
    assert "FAIL  inference: output" in report


def test_an_instance_with_its_own_weights_gets_random_ones(files, capsys):
    """Both files fill their instance with zeros, where relu and tanh agree: the check passes
    only if it kept them. It must draw its own, on both sides, and catch the wrong activation."""
    rc, report = check(capsys, "--mx", f"{files}/m_mx.py:zeroed", "--pt", f"{files}/m_pt.py:zeroed", "--input", X)
    assert rc == 1, report
    assert "FAIL  inference: output" in report
    # with --keep-weights the zeros are what is compared: it passes, and says why that is weak
    rc, report = check(capsys, "--mx", f"{files}/m_mx.py:zeroed", "--pt", f"{files}/m_pt.py:zeroed", "--input", X,
                       "--keep-weights")
    assert rc == 0, report
    assert "ok    kept weights: 0.weight" in report
    assert "advice: kept tensors that hold one value throughout: 0.weight, 0.bias, 2.weight, 2.bias" in report


@pytest.mark.parametrize("mx_name,pt_name,args", [
    ("build", "build", []),                                                   # zero-argument factories
    ("build", "build", ["--mx-args", '{"act": "relu"}', "--pt-args", '{"act": "relu"}']),
    ("Net", "Net", ["--mx-args", '{"units": 6}', "--pt-args", '{"units": 6}']),  # classes
    ("net", "Net", ["--pt-args", '{"units": 4}']),                               # an instance against a class
])
def test_classes_factories_and_instances_mix(files, capsys, mx_name, pt_name, args):
    rc, report = check(capsys, "--mx", f"{files}/m_mx.py:{mx_name}", "--pt", f"{files}/m_pt.py:{pt_name}",
                       "--input", X, *args)
    assert rc == 0, report


@pytest.mark.parametrize("ref,args,message", [
    ("m_mx.py:net", {"units": 3}, "is a model instance (HybridSequential), built when the file is imported; it "
                                  "takes no constructor arguments (units): name its class, or a function that builds it"),
    ("m_mx.py:count", {}, "is a int; expected a Gluon Block class, a function that returns one, or a model instance"),
    ("m_mx.py:Net", {}, "the class Net(units, **kwargs) cannot be called with the arguments given (none): "
                        "missing a required argument: 'units'; pass them as JSON with --mx-args/--pt-args"),
    ("m_mx.py:build", {"units": 3}, "the function build(act='relu') cannot be called with the arguments given (units)"),
    ("m_pt.py:net", {}, "net is a Sequential, not a Gluon Block"),  # the PyTorch model given as --mx
])
def test_what_cannot_be_used_is_said_exactly(files, ref, args, message):
    with pytest.raises(LoadError) as e:
        load(f"{files}/{ref}", args, framework="mxnet")
    assert message in str(e.value)


def test_an_instance_is_fresh_per_load_and_a_shared_one_is_refused(files):
    """Each load imports the file again, so an instance defined in it is a new object; one the
    file imports from a module Python has already imported would be the object a previous check
    changed (dropout rates set to 0, weights drawn), and is refused."""
    first, second = load(f"{files}/m_pt.py:net", {}), load(f"{files}/m_pt.py:net", {})
    assert first is not second
    (files / "shared_models.py").write_text("from torch import nn\nnet = nn.Linear(3, 2)\n")
    (files / "uses_shared.py").write_text("from shared_models import net\n")
    try:
        load(f"{files}/uses_shared.py:net", {})
        with pytest.raises(LoadError, match="same Linear object a previous load in this process got"):
            load(f"{files}/uses_shared.py:net", {})
    finally:
        import sys
        sys.modules.pop("shared_models", None)


def test_convert_weights_accepts_instances(files, capsys, tmp_path):
    net = load(f"{files}/m_mx.py:build", {})
    net.initialize(mx.init.Uniform(0.5))
    net.save_parameters(str(tmp_path / "w.params"))
    rc = main(["convert-weights", str(tmp_path / "w.params"), "--mx", f"{files}/m_mx.py:net",
               "--pt", f"{files}/m_pt.py:net", "-o", str(tmp_path / "w.pt"), "--check", "--input", X])
    out = capsys.readouterr().out
    assert rc == 0, out
    state = torch.load(tmp_path / "w.pt", weights_only=True)
    assert np.array_equal(state["0.weight"].numpy(), net[0].weight.data().asnumpy())


# -- make_step ------------------------------------------------------------------------------------
def steps(files, mx_step="make_step", **kw) -> Steps:
    return Steps(f"{files}/s_mx.py:{mx_step}", f"{files}/s_pt.py:make_step", 2, labels=(parse("y:float32[5,2]"),), **kw)


def test_make_step_gets_the_model_positionally(files):
    result = check_pair(f"{files}/m_mx.py:build", f"{files}/m_pt.py:build", [parse(X)], steps=steps(files))
    assert result.ok, [c.mismatch.format() for c in result.checks if not c.ok]
    assert any(c.what == "step 2: 2.weight" for c in result.checks)


def test_make_step_arguments_after_the_model(files):
    result = check_pair(f"{files}/m_mx.py:build", f"{files}/m_pt.py:build", [parse(X)],
                        steps=steps(files, pt_args={"lr": 0.2}))
    assert not result.ok  # a different learning rate: the first step's weights differ
    assert next(c for c in result.checks if not c.ok).what.startswith("step 1: ")


@pytest.mark.parametrize("name,message", [
    ("keyword_only", "the checker calls keyword_only(model, **step_args) returning step(*inputs, *labels) -> loss, "
                     "the model as the first positional argument; keyword_only(*, model) does not take that"),
    ("not_a_function", "not_a_function(model) returned a int; expected a function step(*inputs, *labels) -> loss"),
])
def test_a_make_step_that_does_not_fit_is_explained(files, name, message):
    with pytest.raises(LoadError) as e:
        load_step(f"{files}/s_mx.py:{name}", object(), {})
    assert message in str(e.value)


# -- keep_weights -----------------------------------------------------------------------------------
def loaded_pair(files, *, same: bool = True):
    """Both models with weights of their own: MXNet's drawn, PyTorch's copied from them (or not)."""
    mx_net, pt_model = load(f"{files}/m_mx.py:build", {}), load(f"{files}/m_pt.py:build", {})
    mx_net.initialize(mx.init.Uniform(0.5))
    if same:
        with torch.no_grad():
            for i in (0, 1):
                mx_layer, pt_layer = mx_net[i], pt_model[2 * i]
                pt_layer.weight.copy_(torch.as_tensor(mx_layer.weight.data().asnumpy()))
                pt_layer.bias.copy_(torch.as_tensor(mx_layer.bias.data().asnumpy()))
    return mx_net, pt_model


def test_keep_weights_compares_the_weights_the_models_hold(files):
    mx_net, pt_model = loaded_pair(files)
    before = mx_net[0].weight.data().asnumpy().copy()
    result = check_models(mx_net, pt_model, [parse(X)], keep_weights=True)
    assert result.ok
    assert [c.what for c in result.checks][:4] == ["kept weights: 0.weight", "kept weights: 0.bias",
                                                    "kept weights: 2.weight", "kept weights: 2.bias"]
    assert np.array_equal(mx_net[0].weight.data().asnumpy(), before)  # nothing was drawn
    assert np.array_equal(pt_model[0].weight.detach().numpy(), before)
    # Dense biases start at zero whatever `initialize` is given: said, since a translation
    # that dropped them would pass on these weights
    assert result.advice == ["advice: kept tensors that hold one value throughout: 0.bias, 2.bias; a translation "
                             "that ignored or permuted them would pass on these weights (`xlate check` without "
                             "--keep-weights compares on random ones)"]


def test_keep_weights_fails_when_the_weights_differ(files):
    mx_net, pt_model = loaded_pair(files, same=False)  # PyTorch keeps its constructor's weights
    result = check_models(mx_net, pt_model, [parse(X)], keep_weights=True)
    assert not result.ok
    assert result.checks[0].what == "kept weights: 0.weight" and not result.checks[0].ok
    # without keep_weights the checker draws its own and copies them: the same models pass
    mx_net, pt_model = loaded_pair(files, same=False)
    assert check_models(mx_net, pt_model, [parse(X)]).ok


def test_keep_weights_needs_weights_to_keep(files):
    mx_net, pt_model = load(f"{files}/m_mx.py:build", {}), load(f"{files}/m_pt.py:build", {})
    with pytest.raises(LoadError, match="keep_weights: MXNet parameters without values to keep"):
        check_models(mx_net, pt_model, [parse(X)], keep_weights=True)


def test_convert_weights_check_runs_on_the_converted_weights(files, capsys, tmp_path, monkeypatch):
    """Every comparison of --check sees the state_dict that is written, never weights drawn for it."""
    import xlate.check.pair as pair

    net = load(f"{files}/m_mx.py:build", {})
    net.initialize(mx.init.Uniform(0.5))
    net.save_parameters(str(tmp_path / "w.params"))
    seen = []
    real = pair._pt_observe

    def observe(pt_model, *args, **kwargs):
        seen.append({k: v.detach().clone() for k, v in pt_model.state_dict().items()})
        return real(pt_model, *args, **kwargs)

    monkeypatch.setattr(pair, "_pt_observe", observe)
    rc = main(["convert-weights", str(tmp_path / "w.params"), "--mx", f"{files}/m_mx.py:build",
               "--pt", f"{files}/m_pt.py:build", "-o", str(tmp_path / "w.pt"), "--check", "--input", X])
    out = capsys.readouterr().out
    assert rc == 0, out
    written = torch.load(tmp_path / "w.pt", weights_only=True)
    assert seen and all(torch.equal(state[k], written[k]) for state in seen for k in written)
    assert "ok    kept weights: 2.weight" in out and "ok    training: gradient of 2.weight" in out


# -- files that train when imported -------------------------------------------------------------------
TUTORIAL_MX = '''
import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn

net = nn.HybridSequential()
net.add(nn.Dense(4, in_units=3, activation="relu"), nn.Dense(2, in_units=4))
net.initialize()
trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
loss_fn = gluon.loss.L2Loss()
for epoch in range(2):
    x, y = nd.ones((5, 3)), nd.zeros((5, 2))
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    trainer.step(5)
'''

GUARDED_MX = '''
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn


def build():
    net = nn.HybridSequential()
    net.add(nn.Dense(4, in_units=3, activation="relu"), nn.Dense(2, in_units=4))
    return net


def train(net, epochs):
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    for epoch in range(epochs):
        with autograd.record():
            loss = (net(nd.ones((5, 3))) ** 2).sum()
        loss.backward()
        trainer.step(5)


if __name__ == "__main__":
    net = build()
    net.initialize()
    train(net, 10)
'''


def test_a_file_that_trains_on_import_gets_advice_in_the_report(files, capsys):
    (files / "tutorial_mx.py").write_text(textwrap.dedent(TUTORIAL_MX))
    rc, report = check(capsys, "--mx", f"{files}/tutorial_mx.py:net", "--pt", f"{files}/m_pt.py:net", "--input", X)
    assert rc == 0, report  # the check itself is fine: the training's weights are overwritten
    advice = next(line for line in report.splitlines() if line.startswith("advice: "))
    assert "tutorial_mx.py trains when imported (line 13: `autograd.record()`, line 15: `loss.backward()`, " \
           "line 16: `trainer.step(5)`)" in advice
    assert 'the training under `if __name__ == "__main__":`' in advice
    rc = main(["check", "--mx", f"{files}/tutorial_mx.py:net", "--pt", f"{files}/m_pt.py:net", "--input", X,
               "--format", "json"])
    assert rc == 0
    assert any("trains when imported" in a for a in json.loads(capsys.readouterr().out)["advice"])


def test_the_pattern_that_works_gets_no_advice(files, capsys):
    (files / "guarded_mx.py").write_text(textwrap.dedent(GUARDED_MX))
    rc, report = check(capsys, "--mx", f"{files}/guarded_mx.py:build", "--pt", f"{files}/m_pt.py:build", "--input", X)
    assert rc == 0, report
    assert "advice" not in report


def test_a_failing_import_of_a_training_file_carries_the_advice(files):
    (files / "downloads_mx.py").write_text(textwrap.dedent(TUTORIAL_MX).replace(
        "for epoch", "data = open('/nonexistent/mnist.rec')\nfor epoch"))
    with pytest.raises(LoadError) as e:
        load(f"{files}/downloads_mx.py:net", {})
    assert "importing it failed: FileNotFoundError" in str(e.value)
    assert "trains when imported" in str(e.value)


@pytest.mark.parametrize("source,found", [
    ("for b in data:\n    loss = f(b)\n    loss.backward()\n    opt.step()\n", ["backward", "step"]),
    ("with autograd.record():\n    y = net(x)\n", ["record"]),
    ("d2l.train_ch3(net, train_iter, test_iter, loss, 10, trainer)\n", ["train_ch3"]),
    ("model.fit(x, y)\n", ["fit"]),
    ("try:\n    train(net)\nexcept KeyboardInterrupt:\n    pass\n", ["train"]),
    ("if __name__ == '__main__':\n    train(net)\nelse:\n    fit(net)\n", ["fit"]),
    # a function of the file that trains, called at module level (directly or through another)
    ("def epoch(net):\n    loss.backward()\n\ndef main():\n    epoch(net)\n\nmain()\n", ["main()"]),
    # nothing runs at import
    ("def epoch(net):\n    loss.backward()\n\ndef main():\n    epoch(net)\n\nif __name__ == '__main__':\n    main()\n", []),
    ("def main():\n    loss.backward()\n    trainer.step(1)\n", []),
    ("class T:\n    def go(self):\n        train(self)\n", []),
    ("if __name__ == '__main__':\n    train(net, 10)\n", []),
    ("if '__main__' == __name__:\n    model.fit(x)\n", []),
    ("step = lambda: trainer.step(1)\n", []),
    ("x_tr, x_te = train_test_split(x)\ntrain_data = load_train_data()\ntrainer = gluon.Trainer(p, 'sgd')\n", []),
])
def test_training_at_import_is_found_statically(tmp_path, source, found):
    path = tmp_path / "t.py"
    path.write_text(source)
    advice = trains_on_import(path)
    if not found:
        assert advice == []
    else:
        (text,) = advice
        for name in found:
            assert name in text


def test_a_slow_import_is_said(tmp_path, monkeypatch):
    (tmp_path / "slow.py").write_text("import time\nfrom torch import nn\ntime.sleep(0.3)\nnet = nn.Linear(2, 2)\n")
    monkeypatch.setattr(loading, "SLOW_IMPORT_S", 0.2)
    advice: list[str] = []
    load(f"{tmp_path}/slow.py:net", {}, advice=advice)
    assert len(advice) == 1 and "importing" in advice[0] and "took 0 s" in advice[0]
    assert "if it trains or loads data at module level" in advice[0]


def test_convert_weights_gives_the_advice_too(files, capsys, tmp_path):
    (files / "tutorial_mx.py").write_text(textwrap.dedent(TUTORIAL_MX))
    net = load(f"{files}/m_mx.py:build", {})
    net.initialize(mx.init.Uniform(0.5))
    net.save_parameters(str(tmp_path / "w.params"))
    rc = main(["convert-weights", str(tmp_path / "w.params"), "--mx", f"{files}/tutorial_mx.py:net",
               "--pt", f"{files}/m_pt.py:net", "-o", str(tmp_path / "w.pt")])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert out.count("trains when imported") == 1 and "line 16: `trainer.step(5)`" in out


def test_keep_weights_is_refused_with_a_recording(tmp_path, capsys):
    assert main(["check", "--against", str(tmp_path), "--keep-weights"]) == 2
    assert "it takes no --mx, --record, --input or --keep-weights" in capsys.readouterr().err


# -- models in packages (Note [models in packages]) ----------------------------------------------
ZOO = Path(__file__).resolve().parent.parent / "fixtures" / "zoo_package"
ZOO_INPUT = "x:float32[4,3,8,8]"


def test_a_model_in_a_package_loads_by_file_and_by_module_name(tmp_path, monkeypatch, capsys):
    mx_file, pt_file = ZOO / "src" / "zoo" / "resnet.py", ZOO / "expected" / "zoo" / "resnet.py"
    assert "from .common import" in mx_file.read_text() and "from .common import" in pt_file.read_text()
    # by file: both packages are called zoo, each imports its own relatives
    assert main(["check", "--mx", f"{mx_file}:resnet10", "--pt", f"{pt_file}:resnet10", "--input", ZOO_INPUT]) == 0
    assert "Equal" in capsys.readouterr().out
    # by module name, from the current directory; recorded, then replayed from elsewhere
    monkeypatch.chdir(ZOO / "expected")
    golden = tmp_path / "golden"
    assert main(["check", "--mx", f"{mx_file}:resnet10", "--pt", "zoo.resnet:resnet10", "--input", ZOO_INPUT,
                 "--record", str(golden)]) == 0
    assert "vs zoo.resnet:resnet10" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--against", str(golden)]) == 0
    assert "Equal" in capsys.readouterr().out


def test_each_load_of_a_package_module_runs_the_package_anew(monkeypatch):
    monkeypatch.chdir(ZOO / "expected")
    first, second = (load("zoo.resnet:resnet10", {}, framework="pytorch") for _ in range(2))
    assert type(first) is not type(second)
    assert type(first).__module__.endswith(".zoo.resnet")
    assert loading.package_root(ZOO / "expected" / "zoo" / "resnet.py") == ZOO / "expected" / "zoo"
    assert loading.package_root(Path(__file__)) is None


@pytest.mark.parametrize("ref,message", [
    ("nozoo.resnet:resnet10", "nozoo.resnet: no such file, nor a module of that name"),
    ("zoo.nothing:resnet10", "zoo.nothing: no such file, nor a module of that name"),
    ("zoo.resnet:nothing", "has no nothing"),
])
def test_a_module_name_that_names_nothing_is_said(monkeypatch, ref, message):
    monkeypatch.chdir(ZOO / "expected")
    with pytest.raises(LoadError) as e:
        load(ref, {}, framework="pytorch")
    assert message in str(e.value)


def test_a_project_pair_may_name_a_module_of_its_own_folder(tmp_path, monkeypatch, capsys):
    import shutil

    shutil.copytree(ZOO / "expected" / "zoo", tmp_path / "zoo")
    (tmp_path / "pyproject.toml").write_text(
        "[[tool.xlate.check.pair]]\n"
        f"mx = {str(ZOO / 'src' / 'zoo' / 'resnet.py') + ':resnet10'!r}\n"
        "pt = 'zoo.resnet:resnet10'\n"
        f"inputs = [{ZOO_INPUT!r}]\n")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # the module is found beside pyproject.toml, not here
    assert main(["check"]) == 0
    assert "Equal" in capsys.readouterr().out
