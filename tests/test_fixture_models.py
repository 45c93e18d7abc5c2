"""The Gluon model fixtures against their conversions, numerically, with live MXNet.

tests/test_fixtures.py checks that converting `fixtures/<f>/model_mx.py` gives the checked-in
`model_pt.py` text; this file checks that the text computes what MXNet computes. Each row of
CASES names a fixture, the factory both files define and its arguments, and the inputs. The
factory is called on each side; `check_models` draws random asymmetric MXNet weights, copies
them into the PyTorch model and compares the inference outputs (PyTorch in `.eval()`), the
training outputs, the gradients of every float input and every parameter under one random
head gradient, and the BatchNorm running statistics after that training step, within
torch.testing's float32 tolerances. A passing comparison must also have covered everything:
`coverage_gaps` lists what it left out.

A fixture whose model_pt.py is missing fails: regenerate it with
`XLATE_REGEN=1 pytest tests/test_fixtures.py` and review the diff. Without mxnet or torch
the comparisons skip.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pytest

pytestmark = pytest.mark.mxnet

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@dataclass(frozen=True)
class Case:
    folder: str  # fixtures/<folder>/model_mx.py and model_pt.py
    factory: str  # a function or class defined by both files
    inputs: tuple[str, ...]  # xlate.check input specs, in the order the model takes them
    kwargs: dict = field(default_factory=dict)  # passed to the factory on both sides
    batchnorm: bool = False  # running statistics must be among the compared values
    label: str = ""  # test id, when a folder has more than one row

    @property
    def id(self) -> str:
        return self.label or self.folder


# Float inputs are drawn in +-[0.1, 1). The fixtures keep float32 noise far below the
# tolerance (12 seeds with the hand translations: at most 0.3 of it). Two things the models
# avoid, because they push both frameworks' noise past atol=1e-5 with no translation error: a
# bias right before a normalisation that cancels it (its exact gradient is 0; what remains is
# rounding, up to 3e-5), and a ReLU right before a normalisation (a channel with few non-zero
# values has a tiny variance that amplifies rounding, up to 2e-3). Every BatchNorm channel and
# normalised LayerNorm axis sees at least 4 values.
CASES = (
    # plain Block, nd ops in forward, Dense with in_units, flatten of a 3-D input
    Case("legacy_block", "build", ("x:float32[4,12]",), {"in_units": 6, "hidden": 16, "classes": 5}),
    # hybridized ResNet: Conv2D/BatchNorm/Activation, downsample branch, GlobalAvgPool2D, Flatten
    Case("model_zoo_hybrid", "resnet10_v1", ("x:float32[4,3,8,8]",), {"classes": 10}, batchnorm=True),
    # HybridSequential built in loops: Dense without bias, BatchNorm on (N, C), Activation, Dropout
    Case("sequential_loops", "build", ("x:float32[8,20]",), {"hidden": (32, 16), "classes": 10},
         batchnorm=True),
    # `net[:3]` of the variant without BatchNorm: Dense(activation='relu'), Dropout, Dense; it
    # pairs only if every Gluon layer stays one torch module (indices do not shift)
    Case("sequential_loops", "feature_extractor", ("x:float32[8,20]",), {"depth": 3, "use_bn": False},
         label="sequential_loops-slice"),
    # ASTGCN: submodules in a Python list + register_child, three inputs, nd.add_n, LayerNorm(axis=1)
    Case("register_child_list", "build",
         ("x_week:float32[2,5,3,4]", "x_day:float32[2,5,3,4]", "x_hour:float32[2,5,3,8]"),
         {"num_for_prediction": 3, "num_of_vertices": 5}),
    # params.get weights passed to hybrid_forward, Embedding, LayerNorm; a square projection, so
    # a dropped transpose_b fails on values, not shapes
    Case("custom_params", "build", ("tokens:int64[4,7]<20",),
         {"vocab_size": 20, "max_length": 7, "embed_size": 8, "hidden_size": 8, "num_tags": 4}),
    # the numpy dialect: npx.set_np() in the file, so the blocks take and return mx.np arrays;
    # np/npx in forward, F.np/F.npx in hybrid_forward, d2l's masked softmax (npx.sequence_mask
    # with integer lengths, some 0) and additive attention, npx.pick of an argmax
    Case("numpy_gluon", "build", ("queries:float32[2,3,5]", "keys:float32[2,4,5]", "values:float32[2,4,6]",
                                  "valid_lens:int64[2]<5"), {"num_hiddens": 8, "num_classes": 3}),
    # sequence models (issue 10): a 2-layer bidirectional LSTM on NTC input called without states
    Case("lstm_tagger", "build", ("tokens:int64[3,7]<20",)),
    # a TNC GRU language model: begin_state, states returned, detached and carried into a second call
    Case("gru_language_model", "build", ("first:int64[5,3]<30", "second:int64[4,3]<30")),
    # stacked, residual and bidirectional cells unrolled with valid_length (NTC, Gluon's default)
    Case("cell_unroll", "build", ("x:float32[4,5,3]", "padding:int32[4]<5")),
    # gluonnlp's TransformerEncoder with valid_length (padded keys masked, padded outputs zeroed);
    # 9 steps: past its 6-row position table, which gluonnlp clips
    Case("nlp_encoder_classifier", "Batch", ("tokens:int64[3,9]<30", "padding:int32[3]<9")),
    # get_model('bert_12_768_12', pretrained=False) made small: pooled classifier, tied MLM decoder
    Case("small_bert", "build", ("tokens:int64[2,6]<16", "token_types:int64[2,6]<2", "padding:int32[2]<6",
                                 "masked_positions:int64[2,2]<6")),
    # get_model('awd_lstm_lm_1150', pretrained=False) made small: one LSTM per layer, tied decoder,
    # states detached and carried into a second batch (its dropout and weight-drop rates compared)
    Case("awd_language_model", "build", ("first:int64[5,3]<16", "second:int64[4,3]<16")),
)


def pt_file(case: Case) -> Path:
    return FIXTURES / case.folder / "model_pt.py"


def compare_fixture(case: Case, pt_path: Optional[Path] = None):
    """Build both models from their files and compare them; returns (Result, MXNet net,
    PyTorch model). `pt_path` replaces the fixture's model_pt.py (a hand translation)."""
    from xlate.check.inputs import parse
    from xlate.check.pair import check_models
    from xlate.check.sides import load

    from mxsupport import seed_for

    mx_ref = f"{FIXTURES / case.folder / 'model_mx.py'}:{case.factory}"
    pt_ref = f"{pt_path or pt_file(case)}:{case.factory}"
    with numpy_mode_kept():  # a numpy-dialect model file turns MXNet's numpy mode on for the process
        mx_net, pt_model = load(mx_ref, dict(case.kwargs)), load(pt_ref, dict(case.kwargs))
        result = check_models(mx_net, pt_model, [parse(s) for s in case.inputs], mx_ref=mx_ref, pt_ref=pt_ref,
                              seed=seed_for(case.id))
    return result, mx_net, pt_model


@contextmanager
def numpy_mode_kept():
    """MXNet's numpy mode (npx.set_np()) as it was before, whatever the block did to it."""
    import mxnet as mx

    before = mx.util.is_np_shape(), mx.util.is_np_array()
    try:
        yield
    finally:
        if (mx.util.is_np_shape(), mx.util.is_np_array()) != before:
            mx.npx.reset_np()
            if any(before):
                mx.util.set_np(shape=before[0], array=before[1])


def failures(result) -> str:
    lines = [c.mismatch.format() for c in result.checks if not c.ok]
    if result.divergence:
        lines.append(f"first layer whose outputs differ: {result.divergence}")
    return "\n".join(lines)


def coverage_gaps(case: Case, result, mx_net, pt_model) -> list[str]:
    """What a passing comparison should have compared and did not."""
    from xlate.check.inputs import parse
    from xlate.check.pair import MX_LAYOUT

    whats = {c.what for c in result.checks}
    gaps = []
    if not result.checks:
        return ["no check was made"]
    for phase in ("inference", "training"):
        if not any(w.startswith(f"{phase}: output") for w in whats):
            gaps.append(f"no {phase} output was compared")
    for spec in map(parse, case.inputs):
        if spec.dtype.startswith("float") and f"training: gradient of {spec.name}" not in whats:
            gaps.append(f"the gradient of input {spec.name} was not compared")
    learned = [name for name, p in pt_model.named_parameters() if p.requires_grad]
    for name in learned:
        if not {f"training: gradient of {name}", f"training: gradient of {name}{MX_LAYOUT}"} & whats:
            gaps.append(f"the gradient of {name} was not compared")
    mx_learned = [n for n, p in mx_net.collect_params().items() if p.grad_req != "null"]
    if len(mx_learned) != len(learned):
        gaps.append(f"MXNet learns {len(mx_learned)} parameters, PyTorch {len(learned)}")
    stats = [name for name, _ in pt_model.named_buffers() if name.rsplit(".", 1)[-1] in ("running_mean", "running_var")]
    if case.batchnorm and not stats:
        gaps.append("the PyTorch model keeps no running statistics")
    for name in stats:
        if f"training: {name} after the step" not in whats:
            gaps.append(f"{name} after the training step was not compared")
    gaps.extend(f"left unchecked: {key}" for key in result.unchecked)
    return gaps


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_conversion_computes_what_mxnet_computes(case: Case):
    path = pt_file(case)
    if not path.is_file():  # a missing conversion is a failure, never a skip
        pytest.fail(f"{path.relative_to(ROOT)} is missing: run `XLATE_REGEN=1 pytest tests/test_fixtures.py` "
                    f"and review the converted file")
    pytest.importorskip("numpy")
    from mxsupport import import_mxnet, import_torch

    import_mxnet()
    import_torch()
    result, mx_net, pt_model = compare_fixture(case)
    if not result.ok:
        pytest.fail(f"{case.id}: {sum(not c.ok for c in result.checks)} of {len(result.checks)} checks fail\n"
                    + failures(result), pytrace=False)
    gaps = coverage_gaps(case, result, mx_net, pt_model)
    if gaps:
        pytest.fail(f"{case.id}: the comparison passed but did not cover:\n" + "\n".join(gaps), pytrace=False)


def test_every_model_fixture_has_a_case():
    """A new fixture folder with a Gluon model needs a row in CASES."""
    models = {p.parent.name for p in FIXTURES.glob("*/model_mx.py") if "gluon" in p.read_text(encoding="utf-8")}
    assert models and models <= {c.folder for c in CASES}, sorted(models - {c.folder for c in CASES})


def test_numpy_dialect_fixture_catches_a_wrong_axis(tmp_path):
    """The numpy-mode comparison compares: log_softmax over the steps instead of the classes
    (the same size here, so only the values differ) fails, and numpy mode is off afterwards."""
    from mxsupport import import_mxnet, import_torch

    mx = import_mxnet()
    import_torch()
    case = next(c for c in CASES if c.folder == "numpy_gluon")
    text = pt_file(case).read_text(encoding="utf-8")
    wrong = text.replace("torch.log_softmax(self.dense(torch.tanh(x)), dim=-1)",
                         "torch.log_softmax(self.dense(torch.tanh(x)), dim=1)")
    assert wrong != text
    (tmp_path / "model_pt.py").write_text(wrong, encoding="utf-8")
    result, _, _ = compare_fixture(case, tmp_path / "model_pt.py")
    assert not result.ok and any("output" in c.what for c in result.checks if not c.ok)
    assert not mx.util.is_np_array() and not mx.util.is_np_shape()
