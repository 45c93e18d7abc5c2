"""`xlate convert-weights` on the sequence fixtures: MXNet's own save_parameters files (fused RNN
layers save their legacy `_unfused.<layer>.[l_cell.|r_cell.]i2h_weight` names; cells, gluonnlp
blocks and BERT's tied decoder their structural names) into the converted models, with and
without an input to size the deferred layers first, then `--check` compares both models on
the loaded weights (outputs, states, every gradient)."""
from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
pytest.importorskip("gluonnlp")

from xlate.check.inputs import draw, parse  # noqa: E402
from xlate.cli import main  # noqa: E402

pytestmark = pytest.mark.mxnet
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

CASES = {  # fixture -> (factory, inputs)
    "lstm_tagger": ("build", ["tokens:int64[3,7]<20"]),
    "gru_language_model": ("build", ["first:int64[5,3]<30", "second:int64[4,3]<30"]),
    "cell_unroll": ("build", ["x:float32[4,5,3]", "padding:int32[4]<5"]),
    "nlp_encoder_classifier": ("Batch", ["tokens:int64[3,9]<30", "padding:int32[3]<9"]),
    "small_bert": ("build", ["tokens:int64[2,6]<16", "token_types:int64[2,6]<2", "padding:int32[2]<6",
                             "masked_positions:int64[2,2]<6"]),
    "awd_language_model": ("build", ["first:int64[5,3]<16", "second:int64[4,3]<16"]),
}


def _saved(folder: str, factory: str, inputs: list, path: Path) -> list:
    """The MXNet model's parameters, random and asymmetric, written by save_parameters."""
    spec = importlib.util.spec_from_file_location(f"fx_{folder}", FIXTURES / folder / "model_mx.py")
    module = importlib.util.module_from_spec(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        spec.loader.exec_module(module)
        net = getattr(module, factory)()
        rng = np.random.default_rng(7)
        arrays = [draw(parse(s), rng) for s in inputs]
        net(*[mx.nd.array(a, dtype=a.dtype) for a in arrays])
        for p in net.collect_params().values():
            if p.grad_req != "null":
                p.set_data(mx.nd.array(rng.uniform(-0.5, 0.5, p.shape)))
        net.save_parameters(str(path))
    return list(mx.nd.load(str(path)))


@pytest.mark.parametrize("sized", [True, False], ids=["with-input", "from-the-file"])
@pytest.mark.parametrize("folder", sorted(CASES))
def test_mxnet_files_load_into_the_converted_sequence_models(folder, sized, tmp_path, capsys):
    factory, inputs = CASES[folder]
    names = _saved(folder, factory, inputs, tmp_path / "model.params")
    if folder in ("lstm_tagger", "gru_language_model"):
        assert any("_unfused." in n for n in names), names  # the fused layers' legacy names
    base = ["convert-weights", str(tmp_path / "model.params"),
            "--mx", f"{FIXTURES / folder / 'model_mx.py'}:{factory}",
            "--pt", f"{FIXTURES / folder / 'model_pt.py'}:{factory}"]
    sizes = [a for spec in inputs for a in ("--input", spec)]
    code = main(base + ["-o", str(tmp_path / "model.pt")] + (sizes if sized else []))
    out = capsys.readouterr()
    assert code == 0, out.out + out.err
    state = torch.load(tmp_path / "model.pt")
    assert len(state) >= len(names) - (1 if folder == "small_bert" else 0)  # BERT's tied decoder weight
    # the written file against MXNet on the file's own values: every output, state and gradient
    assert main(base + ["-o", str(tmp_path / "checked.pt"), "--check"] + sizes) == 0, capsys.readouterr().out
