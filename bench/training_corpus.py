"""Real MXNet training scripts through xlate, as a user would convert them (issue 9).

    .venv/bin/python bench/training_corpus.py [--corpus /work/corpus] [--json OUT] [--timeout 60]

The corpus is fetched, never committed: GluonCV v0.10.0's classification training scripts,
GluonNLP v0.10.x's language-model, sentiment and text-classification scripts, and MXNet's
own crash-course tutorials (the mx.np dialect). Missing folders are skipped; with none
present the script says so and exits 0.

For each script it reports:
- the MXNet references found and converted (the report's convert rate), and those of the
  training loop alone (rule families 4xx and 5xx, attach_grad, array comparisons, and
  MX900 items naming autograd / loss / Trainer / optimizer / lr_scheduler / metric /
  gluon.data / gluon.utils / kvstore);
- whether the output parses, and whether it imports: the converted file and the original
  each run with `runpy` under a run name other than __main__ (so `if __name__ ==
  "__main__":` bodies do not start training) and sys.argv = [script], in a subprocess with
  a time limit; an import that fails for the original too (a missing package, a download)
  is no failure of the translation and is counted apart;
- the items left (manual), by rule code, with the first words of their message.
Running real scripts for a few steps needs their datasets and command lines: where that
is not done, the script says why; the whole-script numbers are in
tests/test_training_scripts.py (fixtures converted and run against MXNet step by step).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from xlate.convert.engine import convert_source  # noqa: E402

SCRIPTS = [
    "gluoncv-v0.10.0/scripts/classification/cifar/train_cifar10.py",
    "gluoncv-v0.10.0/scripts/classification/cifar/train_mixup_cifar10.py",
    "gluoncv-v0.10.0/scripts/classification/imagenet/train_imagenet.py",
    "gluoncv-v0.10.0/scripts/classification/imagenet/train_imagenet_nasnet.py",
    "gluon-nlp-v0.10.x/scripts/language_model/word_language_model.py",
    "gluon-nlp-v0.10.x/scripts/language_model/cache_language_model.py",
    "gluon-nlp-v0.10.x/scripts/language_model/large_word_language_model.py",
    "gluon-nlp-v0.10.x/scripts/sentiment_analysis/finetune_lm.py",
    "gluon-nlp-v0.10.x/scripts/sentiment_analysis/sentiment_analysis_cnn.py",
    "gluon-nlp-v0.10.x/scripts/text_classification/fasttext_word_ngram.py",
    "np-dialect/mxnet/HEAD__docs__python_docs__python__tutorials__getting_started__crash_course__3_autograd.py",
    "np-dialect/mxnet/HEAD__docs__python_docs__python__tutorials__getting_started__crash_course__6_train_nn.py",
    "np-dialect/mxnet/HEAD__docs__python_docs__python__tutorials__getting_started__crash_course__7_use_gpus.py",
]
TRAINING = ("mxnet.autograd", "mxnet.gluon.loss", "mxnet.gluon.Trainer", "mxnet.gluon.trainer", "mxnet.optimizer",
            "mxnet.lr_scheduler", "mxnet.metric", "mxnet.gluon.metric", "mxnet.gluon.data", "mxnet.gluon.utils",
            "mxnet.kvstore")
TRAINING_CODES = {"MX056", "MX540"}
IMPORT_CHECK = """
import runpy, sys
sys.argv = [sys.argv[1]]
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0] if '/' in sys.argv[0] else '.')
runpy.run_path(sys.argv[0], run_name='__xlate_import__')
"""


def is_training(d) -> bool:
    if d.code == "MX900":
        named = re.search(r"`([\w.]+)`", d.message)
        return bool(named) and named.group(1).startswith(TRAINING)
    return d.code in TRAINING_CODES or d.code[2] in "45"


def import_status(path: Path, timeout: int) -> str:
    """'ok', or the exception's last line (or 'timeout')."""
    env = dict(os.environ, PYTHONPATH=str(path.parent), MPLBACKEND="Agg")
    try:
        done = subprocess.run([sys.executable, "-c", IMPORT_CHECK.replace("sys.argv[0]", repr(str(path))),
                               str(path)], capture_output=True, text=True, timeout=timeout, env=env,
                              cwd=path.parent)
    except subprocess.TimeoutExpired:
        return "timeout"
    if done.returncode == 0:
        return "ok"
    lines = [ln for ln in done.stderr.strip().splitlines() if ln and not ln.startswith(" ")]
    return lines[-1][:160] if lines else f"exit {done.returncode}"


def cause(d) -> str:
    """The group an item left counts under: the name for an item that names one (MX900, MX562),
    else the code and the first words of its message."""
    named = re.match(r"`([\w.]+)`", d.message)
    if d.code in ("MX900", "MX562") and named:
        return f"{d.code} {named.group(1)}"
    words = re.sub(r"`[^`]*`", "`…`", d.message)
    return f"{d.code} {' '.join(words.split()[:9])}"


def measure(corpus: Path, rel: str, timeout: int, work: Path) -> dict:
    path = corpus / rel
    source = path.read_text(encoding="utf-8")
    result = convert_source(source, path=rel)
    counted = [d for d in result.diagnostics if d.counts]
    training = [d for d in counted if is_training(d)]
    row = {
        "script": rel,
        "references": len(counted),
        "converted": sum(d.status != "manual" for d in counted),
        "training_references": len(training),
        "training_converted": sum(d.status != "manual" for d in training),
        "review": sum(d.status == "review" for d in result.diagnostics),
        "left": [cause(d) for d in result.diagnostics if d.status == "manual"],
        "left_lines": [f"{d.line}: {d.code} {d.message[:140]}" for d in result.diagnostics if d.status == "manual"],
    }
    try:
        ast.parse(result.output)
        row["parses"] = True
    except SyntaxError as e:
        row["parses"] = False
        row["parse_error"] = str(e)
    folder = work / rel.replace("/", "__")
    folder.mkdir(parents=True, exist_ok=True)
    converted = folder / path.name
    converted.write_text(result.output, encoding="utf-8")
    original = folder / "original" / path.name
    original.parent.mkdir(exist_ok=True)
    original.write_text(source, encoding="utf-8")
    row["imports"] = import_status(converted, timeout) if row["parses"] else "does not parse"
    row["original_imports"] = import_status(original, timeout)
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("XLATE_CORPUS", "/work/corpus")))
    parser.add_argument("--json", type=Path, help="write every row here")
    parser.add_argument("--timeout", type=int, default=60, help="seconds for each import check")
    parser.add_argument("--keep", type=Path, help="keep the converted scripts in this folder")
    args = parser.parse_args(argv)
    present = [rel for rel in SCRIPTS if (args.corpus / rel).is_file()]
    if not present:
        print(f"no training scripts under {args.corpus}: fetch the corpus (see bench/README.md); nothing measured")
        return 0
    work = args.keep or Path(tempfile.mkdtemp(prefix="xlate-training-"))
    rows = [measure(args.corpus, rel, args.timeout, work) for rel in present]
    print(f"{'script':<62} {'refs':>9} {'training':>9} parse import (original)")
    for r in rows:
        name = r["script"] if len(r["script"]) <= 62 else "…" + r["script"][-61:]
        print(f"{name:<62} {r['converted']:>4}/{r['references']:<4} {r['training_converted']:>4}/"
              f"{r['training_references']:<4} {'yes' if r['parses'] else 'NO':<5} "
              f"{'yes' if r['imports'] == 'ok' else 'no'} ({'yes' if r['original_imports'] == 'ok' else 'no'})")
    total = lambda key: sum(r[key] for r in rows)  # noqa: E731
    print()
    print(f"{len(rows)} scripts: {total('converted')}/{total('references')} MXNet references converted "
          f"({100 * total('converted') / max(total('references'), 1):.1f}%), training loop "
          f"{total('training_converted')}/{total('training_references')} "
          f"({100 * total('training_converted') / max(total('training_references'), 1):.1f}%); "
          f"{sum(r['parses'] for r in rows)} parse; {sum(r['imports'] == 'ok' for r in rows)} import "
          f"(originals: {sum(r['original_imports'] == 'ok' for r in rows)}).")
    print("\nImport failures (converted script; the original's status in brackets):")
    for r in rows:
        if r["imports"] != "ok":
            print(f"  {r['script']}: {r['imports']}  [original: {r['original_imports']}]")
    causes = Counter(c for r in rows for c in r["left"])
    print(f"\nItems left for a human: {sum(causes.values())}, by cause:")
    for text, n in causes.most_common():
        print(f"  {n:4d}  {text}")
    print("\nRunning steps: not attempted on these scripts; each needs its dataset (CIFAR-10, ImageNet "
          "records, WikiText, IMDB: downloads this machine cannot make) and its command line. The step-by-step "
          "comparison with MXNet is done on whole-script fixtures (tests/test_training_scripts.py).")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
