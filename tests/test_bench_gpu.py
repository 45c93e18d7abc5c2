"""bench/gpu_bench.py's judgements and bench/hand_ports.py's sequence ports: the parts that decide
a GPU run's verdict, checked here because no GPU run can check them."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
torch = pytest.importorskip("torch")

import gpu_bench  # noqa: E402
import hand_ports  # noqa: E402

PINNED = {"cudnn.fp32_precision": "ieee", "cuda.matmul.fp32_precision": "ieee", "threads": 1}
ROW = {"rc": 0, "equal": 5, "total": 5, "device": "cuda:0", "tf32_off": True, "restored": True}


@pytest.mark.parametrize("expect, row, verdict", [
    ("equal", {}, ""),
    ("equal", {"rc": 1, "equal": 3, "failed": ["training: output"]}, "DIVERGES: 3/5 equal"),
    ("equal", {"device": "cpu"}, "ran on cpu, not cuda"),
    ("equal", {"tf32_off": False}, "TF32 was pinned off"),
    ("equal", {"restored": False}, "differ after the check"),
    ("equal", {"rc": 2, "error": "no readable golden reference"}, "could not run (exit 2)"),
    ("caught", {"rc": 1, "equal": 1}, ""),
    ("caught", {}, "the mutant passed"),
    ("caught", {"rc": 2, "error": "importing it failed"}, "could not run"),  # a load error is no catch
])
def test_a_check_passes_only_as_expected(expect, row, verdict):
    got = gpu_bench.judge_check({"expect": expect}, {**ROW, **row}, "cuda")
    assert (got == "") if not verdict else (verdict in got), got


@pytest.mark.parametrize("settings, off", [
    (PINNED, True),
    ({**PINNED, "cudnn.conv.fp32_precision": "tf32"}, False),
    ({"cuda.matmul.allow_tf32": False, "cudnn.allow_tf32": False, "float32_matmul_precision": "highest"}, True),
    ({"cuda.matmul.allow_tf32": False, "cudnn.allow_tf32": True, "float32_matmul_precision": "highest"}, False),
    ({"cuda.matmul.allow_tf32": False, "cudnn.allow_tf32": False, "float32_matmul_precision": "high"}, False),
    ({"cuda.matmul.fp32_precision": "ieee"}, False),  # nothing says what cuDNN did
])
def test_tf32_counts_as_pinned_only_when_the_report_says_so(settings, off):
    assert gpu_bench.tf32_pinned_off(settings) is off


def test_refused_imports_fail_as_on_the_device():
    name = "xlate_gpu_bench_absent_package"
    try:
        gpu_bench.refuse_imports((name,))
        with pytest.raises(ImportError):
            __import__(name)
    finally:
        sys.modules.pop(name, None)
    with pytest.raises(gpu_bench.Missing, match="already imported"):
        gpu_bench.refuse_imports(("pytest",))


def test_the_bert_and_lstm_hand_ports_compute_the_converted_models():
    from xlate.runtime import load

    rt = load()
    hp = {"num_layers": 2, "units": 16, "embed_size": 16, "hidden_size": 24, "num_heads": 2, "max_length": 12}
    conv = rt._mx_get_model("bert_12_768_12", dataset_name=None, vocab=rt._mx_Vocab(rt._mx_count_tokens(
        [str(i) for i in range(46)])), pretrained=False, use_pooler=True, use_decoder=False, use_classifier=False,
        hparam_allow_override=True, **hp)[0]
    ids = torch.randint(0, 50, (3, 7), generator=torch.Generator().manual_seed(0))
    types = torch.randint(0, 2, (3, 7), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        conv.eval()(ids[:1, :2], types[:1, :2])
    gpu_bench.randomise_bert(conv, 3)
    hand = hand_ports.Bert(vocab_size=50, **{k: v for k, v in hp.items() if k != "embed_size"})
    hand.load_converted(conv)
    hand.eval()
    with torch.no_grad():
        for a, b in zip(conv(ids, types), hand(ids, types)):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)
    assert gpu_bench.agreement(conv, hand, (ids, types)) < 1e-5
    # a wrong port is seen: the key and value weights swapped
    with torch.no_grad():
        hand.layers[0].key.weight, hand.layers[0].value.weight = hand.layers[0].value.weight, hand.layers[0].key.weight
    assert gpu_bench.agreement(conv, hand, (ids, types)) > 1e-3

    lstm = rt._mx_LSTM(8, num_layers=2, layout="NTC", input_size=8)
    port = hand_ports.lstm(8)
    port.load_state_dict(lstm.state_dict())
    x = torch.randn(2, 5, 8)
    assert gpu_bench.agreement(lstm, port, (x,)) < 1e-6
