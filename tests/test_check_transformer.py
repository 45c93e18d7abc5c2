"""gluonnlp 0.10's TransformerEncoder against its PyTorch translation (tests/mutants/transformer.py),
through `xlate check`, plus the mapping facts xlate/check/transformer.py relies on.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
pytest.importorskip("gluonnlp")

from xlate.check import mapping, transformer  # noqa: E402
from xlate.cli import main  # noqa: E402

pytestmark = pytest.mark.mxnet

HERE = Path(__file__).parent / "mutants"
MX, PT = f"{HERE}/transformer_mx.py:Encoder", f"{HERE}/transformer.py:Encoder"
CONFIG = {"num_layers": 2, "units": 8, "hidden_size": 16, "num_heads": 2, "max_length": 10}
INPUT = "x:float32[3,6,8]"  # N=3 != T=6; T < max_length


def _check(capsys, mutant=None, input_spec=INPUT, config=CONFIG):
    rc = main(["check", "--mx", MX, "--pt", PT, "--input", input_spec,
               "--mx-args", json.dumps(config), "--pt-args", json.dumps({**config, "mutant": mutant})])
    captured = capsys.readouterr()
    return rc, captured.out + captured.err


# -- the correct translation --------------------------------------------------------------------
@pytest.mark.parametrize("num_layers,input_spec", [(2, INPUT), (1, "x:float32[2,12,8]")],
                         ids=["2 layers", "1 layer, T > max_length (clipped positions)"])
def test_correct_translation_passes(capsys, num_layers, input_spec):
    rc, report = _check(capsys, input_spec=input_spec, config={**CONFIG, "num_layers": num_layers})
    assert rc == 0, report
    last = num_layers - 1
    for what in ("inference: output", "training: output", "training: gradient of x",
                 "training: position_weight after the step",
                 f"training: gradient of transformer_cells.{last}.attention_cell.proj_value.weight",
                 f"training: gradient of transformer_cells.{last}.layer_norm.bias"):
        assert f"ok    {what}\n" in report, report


# -- mutants ------------------------------------------------------------------------------------
# the scale and the table act before the input LayerNorm: the first layer whose output differs
DIVERGES_AT_ENCODER = "first layer whose outputs differ: encoder.layer_norm (LayerNorm) <-> layer_norm (LayerNorm)"
MUTANTS = [
    ("without the sqrt(units) scale", "no_scale", ["FAIL  inference: output: ", DIVERGES_AT_ENCODER]),
    ("without the input LayerNorm", "no_input_norm",
     ["FAIL  inference: output: ", "paired layers PyTorch never called: layer_norm,"]),
    ("standard sinusoid table computed at call time", "vaswani_table",
     ["FAIL  inference: output: ", DIVERGES_AT_ENCODER]),
    # only differs in training mode: F.dropout with a stored rate is outside the checker's reach
    # (it zeroes nn.Dropout modules), so the training pass runs with 0.1 against gluonnlp's 0
    ("torch's default dropout 0.1 (F.dropout)", "dropout_0.1",
     ["ok    inference: output\n", "FAIL  training: output: ",
      "FAIL  training: gradient of transformer_cells.0.attention_cell.proj_query.weight: "]),
    # a fixed table is compared with the translation's own, never overwritten with random values
    ("standard sinusoid table stored at construction", "vaswani_buffer", ["FAIL  constant position_weight: "]),
    # dropout runs at 0 during the comparison, so the rates themselves are compared first
    ("torch's default dropout 0.1 (nn.Dropout)", "dropout_module_0.1", ["FAIL  dropout rates: "]),
]


@pytest.mark.parametrize("case", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_mutant_is_caught_and_named(capsys, case):
    _, mutant, causes = case
    rc, report = _check(capsys, mutant)
    assert rc == 1, report
    for cause in causes:
        assert cause in report, report


# -- mapping facts ------------------------------------------------------------------------------
def _encoder(num_layers=1):
    from gluonnlp.model.transformer import TransformerEncoder

    enc = TransformerEncoder(**{**CONFIG, "num_layers": num_layers})
    enc.initialize()
    enc(mx.nd.ones((1, 3, CONFIG["units"])))
    return enc


def test_gluonnlp_leaves_and_position_table():
    enc = _encoder()
    leaves = [(path, type(b).__name__, sorted(b._reg_params)) for path, b in mapping.mx_leaves(enc)]
    cell = "transformer_cells.0."
    assert leaves == [
        ("TransformerEncoder", "TransformerEncoder", ["position_weight"]),
        ("layer_norm", "LayerNorm", ["beta", "gamma"]),
        (cell + "attention_cell.proj_query", "Dense", ["weight"]),  # no q/k/v biases
        (cell + "attention_cell.proj_key", "Dense", ["weight"]),
        (cell + "attention_cell.proj_value", "Dense", ["weight"]),
        (cell + "proj", "Dense", ["weight"]),  # no output-projection bias
        (cell + "ffn.ffn_1", "Dense", ["bias", "weight"]),
        (cell + "ffn.ffn_2", "Dense", ["bias", "weight"]),
        (cell + "ffn.layer_norm", "LayerNorm", ["beta", "gamma"]),  # before the cell's own LN
        (cell + "layer_norm", "LayerNorm", ["beta", "gamma"]),
    ]
    assert enc.position_weight.grad_req == "null"
    table = enc.position_weight.data().asnumpy()
    np.testing.assert_allclose(table, transformer.gluonnlp_position_table(CONFIG["max_length"], CONFIG["units"]),
                               atol=1e-6)
    from mutants.transformer import vaswani_table

    assert np.abs(table - vaswani_table(CONFIG["max_length"], CONFIG["units"]).numpy()).max() > 0.5


def test_qkv_packing_matches_gluonnlp_attention():
    """gluonnlp MultiHeadAttentionCell(use_bias=False) == nn.MultiheadAttention(bias=False) with
    in_proj_weight = pack_qkv(q, k, v) and out_proj = identity; gradients split back by split_qkv."""
    from gluonnlp.model.attention_cell import DotProductAttentionCell, MultiHeadAttentionCell

    E, heads, rng = 8, 2, np.random.default_rng(3)
    cell = MultiHeadAttentionCell(DotProductAttentionCell(scaled=True), E, E, E, heads, use_bias=False)
    cell.initialize()
    x = rng.uniform(-1, 1, (3, 5, E)).astype(np.float32)
    xm = mx.nd.array(x)
    cell(xm, xm, xm)
    ws = {}
    for name in ("proj_query", "proj_key", "proj_value"):
        w = rng.uniform(-0.5, 0.5, (E, E)).astype(np.float32)
        getattr(cell, name).weight.set_data(mx.nd.array(w))
        ws[name] = w
    head = rng.uniform(-1, 1, (3, 5, E)).astype(np.float32)
    for p in cell.collect_params().values():
        p.zero_grad()
    with mx.autograd.record():
        out_mx = cell(xm, xm, xm)[0]
    out_mx.backward(mx.nd.array(head))

    mha = torch.nn.MultiheadAttention(E, heads, bias=False, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.as_tensor(transformer.pack_qkv(*ws.values())))
        mha.out_proj.weight.copy_(torch.eye(E))
    xt = torch.as_tensor(x)
    out_pt = mha(xt, xt, xt, need_weights=False)[0]
    out_pt.backward(torch.as_tensor(head))
    np.testing.assert_allclose(out_pt.detach().numpy(), out_mx.asnumpy(), atol=1e-5)
    for name, grad in zip(ws, transformer.split_qkv(mha.in_proj_weight.grad.numpy())):
        np.testing.assert_allclose(grad, getattr(cell, name).weight.grad().asnumpy(), atol=1e-5)


def test_position_table_must_be_a_buffer():
    enc = _encoder()

    class Frozen(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.position_weight = torch.nn.Parameter(torch.zeros(10, 8), requires_grad=False)

    with pytest.raises(mapping.MappingError, match="must hold it as a buffer"):
        transformer.ENCODER.maps(enc, Frozen())


# -- the family's sample ------------------------------------------------------------------------
def test_rules_self_check_of_the_encoder_family(capsys):
    """`xlate check --rules` draws encoders for `gluonnlp_encoder` and checks the package's
    reference translation (xlate.check.transformer.torch_encoder) against gluonnlp."""
    rc = main(["check", "--rules", "--family", "gluonnlp_encoder", "--examples", "3"])
    captured = capsys.readouterr()
    report = captured.out + captured.err
    assert rc == 0, report
    assert "no samples" not in report, report
    assert "all equal" in report, report
