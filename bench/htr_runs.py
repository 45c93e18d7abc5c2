"""The OCR package's own inference functions, run in MXNet and converted on synthetic pages (issue 21).

    .venv/bin/python bench/htr_runs.py [--json OUT]

Converts CORPUS/htr (bench/htr_extract.py) with the xlate tree given by --xlate (default: this one), imports the original `ocr`
and the converted one (as `ocr_pt`, bench/package_corpus.py's make_importable) in one process, builds
each network on both sides (bench/package_models.py's HTR_SETUP: a random resnet34 in place of the
pretrained one), copies MXNet's weights across (xlate.check's pairing), and runs the package's
pipelines on the same synthetic page (a seeded noise image with dark strokes):
  - words: `predict_bounding_boxes` (resize_short, the SSD, its training_targets, SoftmaxActivation,
    MultiBoxDetection, box_nms) -> the kept boxes;
  - lines: `handwriting_recognition_transform` (resize, normalise) -> Network -> argmax -> `decode`;
  - paragraph: `paragraph_segmentation_transform` -> SegmentationNetwork -> the box.
Each is compared value for value (the boxes as arrays at float32 tolerances, the decoded strings
equal). Without the corpus, mxnet or torch it says so and exits 0.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = Path("/work/corpus/htr")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", type=Path, default=CORPUS)
    p.add_argument("--json", type=Path)
    p.add_argument("--xlate", type=Path, default=REPO, help="the xlate tree whose converter runs (default: this one)")
    opts = p.parse_args(argv)
    if not opts.corpus.is_dir():
        print(f"no corpus at {opts.corpus}: run bench/htr_extract.py first")
        return 0
    try:
        import mxnet as mx  # noqa: F401
        import numpy as np
        import torch
    except ImportError as e:
        print(f"needs mxnet and torch: {e}")
        return 0
    sys.path[:0] = [str(HERE), str(REPO)]
    import package_corpus as pc
    import package_models as pm
    from xlate.check.mapping import transfer
    from xlate.check.sides import mx_prepare

    work = Path(tempfile.mkdtemp(prefix="htr-runs-"))
    subprocess.run([sys.executable, "-m", "xlate", "convert", str(opts.corpus), "-o", str(work / "out"),
                    "--exit-zero", "-j", "1"], check=True, capture_output=True, cwd=str(work),
                   env=dict(os.environ, PYTHONPATH=str(opts.xlate)))
    root = pc.make_importable(work / "out", "ocr", work / "importable", None)
    sys.path[:0] = [str(opts.corpus), str(root)]
    scope = {}
    exec(pm.HTR_SETUP, scope)
    mods = {}
    for side, top in ((False, "ocr"), (True, "ocr_pt")):
        imp = (lambda top: lambda rel: importlib.import_module(f"{top}.{rel}"))(top)
        mods[side] = (imp, scope["setup"](imp, side))
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    page = np.full((300, 260), 235.0) + rng.normal(0.0, 8.0, size=(300, 260))
    for row in range(40, 280, 30):  # dark strokes: lines of "words"
        for col in range(20, 240, 55):
            page[row:row + 8, col:col + int(rng.integers(20, 45))] = rng.uniform(10, 60)
    page = page.clip(0, 255).astype(np.uint8)

    def pair(build, x_mx, x_pt):
        (imp_mx, names_mx), (imp_pt, names_pt) = mods[False], mods[True]
        net, pt = build(imp_mx, names_mx), build(imp_pt, names_pt)
        net(x_mx), pt(x_pt)  # deferred shapes
        transfer(net, pt, mx_prepare(net, [x_mx.asnumpy()], np.random.default_rng(1)))
        pt.eval()
        return net, pt

    rows = {}
    (imp_mx, names_mx), (imp_pt, names_pt) = mods[False], mods[True]

    def words():  # the SSD's whole inference path
        seg_mx, seg_pt = imp_mx("word_and_line_segmentation"), imp_pt("word_and_line_segmentation")
        image = mx.nd.array(page).expand_dims(axis=2)
        image = mx.image.resize_short(image, 350).transpose([2, 0, 1]).expand_dims(0) / 255.0
        net, pt = pair(lambda imp, n: imp("word_and_line_segmentation").SSD(num_classes=1, ctx=n["ctx"]),
                       image, torch.tensor(image.asnumpy()))
        a = seg_mx.predict_bounding_boxes(net, page, 0.01, 0.1, 150, ctx=names_mx["ctx"])
        with torch.no_grad():
            b = seg_pt.predict_bounding_boxes(pt, page, 0.01, 0.1, 150, ctx=names_pt["ctx"])
        b = b.numpy() if hasattr(b, "numpy") else np.asarray(b)
        return {"boxes": [len(a), len(b)],
                "equal": bool(a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-5))}

    def lines():  # transform -> CNN-biLSTM -> argmax -> decode
        hw_mx, hw_pt = imp_mx("handwriting_line_recognition"), imp_pt("handwriting_line_recognition")
        line = page[40:100, :]
        x_mx = hw_mx.handwriting_recognition_transform(line, (32, 128))
        x_pt = hw_pt.handwriting_recognition_transform(line, (32, 128))
        same_input = bool(np.allclose(x_mx.asnumpy(), x_pt.numpy(), rtol=1e-6, atol=1e-6))
        net, pt = pair(lambda imp, n: imp("handwriting_line_recognition").Network(
            num_downsamples=2, resnet_layer_id=4, rnn_hidden_states=6, rnn_layers=1, max_seq_len=16, ctx=n["ctx"]),
            x_mx, x_pt)
        with torch.no_grad():
            words_mx = hw_mx.decode(net(x_mx).topk(axis=2, k=1).asnumpy().squeeze(2))
            words_pt = hw_pt.decode(pt(x_pt).argmax(dim=2).numpy())
        return {"input_equal": same_input, "equal": words_mx == words_pt, "text": words_mx}

    def paragraph():  # transform -> SegmentationNetwork
        par_mx, par_pt = imp_mx("paragraph_segmentation_dcnn"), imp_pt("paragraph_segmentation_dcnn")
        x_mx = par_mx.paragraph_segmentation_transform(page, (280, 240))
        x_pt = par_pt.paragraph_segmentation_transform(page, (280, 240))
        same_input = bool(x_mx.shape == tuple(x_pt.shape) and np.allclose(x_mx.asnumpy(), x_pt.numpy(), atol=1e-5))
        net, pt = pair(lambda imp, n: imp("paragraph_segmentation_dcnn").SegmentationNetwork(ctx=n["ctx"]),
                       x_mx, x_pt)
        with torch.no_grad():
            box_mx, box_pt = net(x_mx).asnumpy(), pt(x_pt).numpy()
        return {"input_equal": same_input, "equal": bool(np.allclose(box_mx, box_pt, rtol=1e-4, atol=1e-5))}

    for name, fn in (("words (predict_bounding_boxes)", words), ("lines (transform, Network, decode)", lines),
                     ("paragraph (transform, SegmentationNetwork)", paragraph)):
        try:
            rows[name] = fn()
        except Exception as e:  # a pipeline failing converted is a figure, not the harness's end
            rows[name] = {"equal": False, "error": f"{type(e).__name__}: {str(e)[:200]}"}
    for name, row in rows.items():
        print(f"{name}: {json.dumps(row)}")
    print(f"{sum(r['equal'] for r in rows.values())} of {len(rows)} pipelines equal")
    if opts.json:
        opts.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
