"""Real sequence-model code: convert gluon-nlp v0.10.x (its library and its scripts) as a user
would, and measure what comes out.

    .venv/bin/python bench/sequence_corpus.py /work/corpus/gluon-nlp-v0.10.x     # or XLATE_NLP_CORPUS=...
    .venv/bin/python bench/sequence_corpus.py CORPUS --json /tmp/seq.json --no-import

CORPUS holds `src/gluonnlp` and `scripts/` of dmlc/gluon-nlp branch v0.10.x (fetched by hand,
never committed; see bench/README.md). Without it, or without mxnet, torch and gluonnlp, the
script says why and exits 0: the test suite never needs it.

1. Converts each tree (`src/gluonnlp`, then each `scripts/<task>`) with the CLI's own code in
   this process (`xlate convert TREE -o OUT --format json -j 1`) and counts, from the report,
   the MXNet references found and converted: all of them, the sequence/gluonnlp ones and the
   issue's models-and-data scope (Note [sequence references]), with what is left by cause.
2. Imports every converted file that only defines things (no top-level code beyond imports,
   definitions, assignments and a `__main__` guard: a training script's argparse and loops
   are not run), one subprocess per tree with a time limit: the library tree as the
   package `gluonnlp` itself (what a user of the converted library imports), a script tree
   as the package of its task (`bert.model.qa`), with the task's folder also on sys.path (its
   scripts import their siblings by plain name) and the installed gluonnlp behind it. Says
   which import and which fail, and which of those that import are MXNet-free: no import of
   mxnet left (for a script, nor of gluonnlp, which runs on MXNet).
3. Models: gluonnlp's model classes, built small with random asymmetric weights, against
   what a converted script builds in their place (the helpers the converter emits for
   `get_model(..., pretrained=False)` and the classes), compared by the checker (inference
   and training outputs, states, every gradient; dropout zeroed after comparing the rates).

Always exits 0 unless the harness itself breaks: it measures, it does not gate.

Note [sequence references]
A report item counts as a sequence/gluonnlp reference when its rule is in the recurrent
(2xx) or gluonnlp (3xx) family, or it is a sequence operator (SequenceMask/Last/Reverse,
foreach, gluonnlp's interleaved attention kernels), or an item left unconverted (MX900) names
a `gluon.rnn`, `gluon.contrib.rnn` or `gluonnlp` object. The narrower "models+data" column
keeps, of those, the issue's own scope: the rule families, the sequence operators and left
items naming `gluon.rnn`, `gluonnlp.model`, batchify, Vocab, the samplers and tokenizers
(gluonnlp's datasets, embeddings, metrics, losses and utilities are other families' work).
Imports (MX001/MX002) never count, as in the report's own rate.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

SCRIPT_TREES = ("language_model", "sentiment_analysis", "text_classification", "machine_translation", "bert",
                "ner", "parsing", "text_generation", "natural_language_inference", "intent_cls_slot_labeling",
                "question_answering", "word_embeddings")
SEQUENCE_NAMES = re.compile(r"`(mxnet\.gluon\.(contrib\.)?rnn\.|gluonnlp\.|mxnet\.(ndarray|symbol)\.(Sequence|contrib\."
                            r"(foreach|interleaved|div_sqrt_dim)))")
SEQUENCE_OPS = ("MX043",)  # SequenceMask (SequenceLast/Reverse are MX205, in the 2xx family)


# the issue's own scope: models, layers, attention and the data utilities next to them
SCOPE_NAMES = re.compile(r"`(mxnet\.gluon\.(contrib\.)?rnn\.|gluonnlp\.model\.|gluonnlp\.data\.batchify\.|gluonnlp\."
                         r"(vocab\.|Vocab)|gluonnlp\.data\.(\w*Sampler|\w*Tokenizer|count_tokens|Counter)\b|mxnet\."
                         r"(ndarray|symbol)\.(Sequence|contrib\.(foreach|interleaved|div_sqrt_dim)))")


def in_scope(d: dict) -> bool:
    code = int(d["code"][2:])
    return 200 <= code < 400 or d["code"] in SEQUENCE_OPS or (d["code"] == "MX900" and bool(
        SCOPE_NAMES.match(d["message"])))


def is_sequence(d: dict) -> bool:
    code = int(d["code"][2:])
    return 200 <= code < 400 or d["code"] in SEQUENCE_OPS or (d["code"] == "MX900" and bool(
        SEQUENCE_NAMES.match(d["message"])))


def cause(d: dict) -> str:
    """What a left item is about: the code and the name it reports (or its message's start)."""
    named = re.match(r"`([^`]+)`", d["message"])
    text = named.group(1) if named else d["message"]
    return f"{d['code']} {re.sub(r'[0-9]+', 'N', text)[:70]}"


# -- 1. conversion ---------------------------------------------------------------------------
def convert(tree: Path, out: Path) -> tuple[dict, float]:
    from xlate.cli import main as xlate

    err = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        xlate(["convert", str(tree), "-o", str(out), "--format", "json", "-j", "1"])
    return json.loads(err.getvalue()), time.perf_counter() - start


def tally(report: dict) -> dict:
    counts = Counter()
    left, left_seq, left_scope = Counter(), Counter(), Counter()
    for f in report["files"]:
        for d in f["diagnostics"]:
            if not d.get("counts", True):
                continue
            seq, scope = is_sequence(d), in_scope(d)
            counts["found"] += 1
            counts["seq_found"] += seq
            counts["scope_found"] += scope
            if d["status"] == "manual":
                left[cause(d)] += 1
                if seq:
                    left_seq[cause(d)] += 1
                if scope:
                    left_scope[cause(d)] += 1
            else:
                counts["converted"] += 1
                counts["seq_converted"] += seq
                counts["scope_converted"] += scope
    return {"files": len(report["files"]), **counts, "left": left, "left_seq": left_seq, "left_scope": left_scope}


# -- 2. imports ------------------------------------------------------------------------------
def defines_only(source: str) -> bool:
    """Top level of imports, definitions, assignments and a __main__ guard: safe to import."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                             ast.Assign, ast.AnnAssign, ast.Try)):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and "parse_args" in ast.unparse(node):
                return False
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test):
            continue
        return False
    return True


_IMPORTER = r'''
import importlib, importlib.util, json, sys, traceback, warnings
warnings.simplefilter("ignore")
results = {}
for name in sys.argv[2:]:
    # a script (`!name`: it has a __main__ guard) runs with its own folder first on sys.path, its
    # sibling imports by plain name; each script folder has its own helper module
    script, name = name.startswith("!"), name.lstrip("!")
    spec = importlib.util.find_spec(name.rsplit(".", 1)[0]) if script and "." in name else None
    folders = list(spec.submodule_search_locations or []) if spec else []
    sys.path[:0] = folders
    sys.modules.pop("_mx_compat", None)
    try:
        importlib.import_module(name)
        results[name] = {"ok": True}
    except BaseException as e:  # SystemExit too: a script that exits at import fails here
        frames = [f for f in traceback.extract_tb(e.__traceback__) if sys.argv[1] in f.filename]
        where = f"{frames[-1].filename[len(sys.argv[1]) + 1:]}:{frames[-1].lineno}" if frames else ""
        results[name] = {"ok": False, "error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:160],
                         "where": where}
    finally:
        del sys.path[:len(folders)]
print("RESULTS" + json.dumps(results))
'''


def built_extensions(out: Path) -> None:
    """Harness plumbing, not xlate's output: gluonnlp's Cython modules (`.pyx`, built when it is
    installed) are not Python and stay out of the conversion; the installed build is copied in,
    as a user would build them from the sources beside the converted tree."""
    import gluonnlp

    installed = Path(gluonnlp.__file__).parent
    for ext in installed.rglob("*.so"):
        target = out / ext.relative_to(installed)
        if target.parent.is_dir() and not target.exists():
            target.write_bytes(ext.read_bytes())


def environment_gap(error: str, tree_modules: set) -> bool:
    """An import that fails for a third-party package this machine lacks (six, nltk, seqeval...)."""
    import importlib.util

    missing = re.match(r"ModuleNotFoundError: No module named '([\w.]+)'", error)
    if missing:
        root = missing.group(1).split(".")[0]
        return root not in tree_modules and root not in ("gluonnlp", "scripts") and importlib.util.find_spec(root) is None
    return bool(re.match(r"ImportError: \w+ is required", error))


def import_tree(root: Path, modules: list[str], path: list[Path], timeout: float) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(p) for p in path), MXNET_HOME=tempfile.mkdtemp())
    try:
        done = subprocess.run([sys.executable, "-c", _IMPORTER, str(root), *modules], capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=str(path[0]))
    except subprocess.TimeoutExpired:
        return {m.lstrip("!"): {"ok": False, "error": f"timeout after {timeout:.0f} s (whole tree)"} for m in modules}
    found = [line for line in done.stdout.splitlines() if line.startswith("RESULTS")]
    if not found:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {m.lstrip("!"): {"ok": False, "error": f"importer crashed: {tail[:160]}"} for m in modules}
    return json.loads(found[-1][len("RESULTS"):])


def mxnet_imports(source: str, frameworks: tuple) -> bool:
    """Does a converted file still import MXNet (or, for user scripts, MXNet's gluonnlp)?"""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in frameworks for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in frameworks:
            return True
    return False


def importable(out: Path, package: str) -> tuple[list[str], int, set]:
    """Dotted names of the converted files that only define things, how many files run code,
    and the names whose file still imports MXNet (for a script tree: or gluonnlp, built on it)."""
    frameworks = ("mxnet",) if package == "gluonnlp" else ("mxnet", "gluonnlp")
    names, scripts, still = [], 0, set()
    for f in sorted(out.rglob("*.py")):
        if f.name.startswith("_mx_compat"):
            continue
        if not defines_only(f.read_text(encoding="utf-8", errors="replace")):
            scripts += 1
            continue
        parts = list(f.relative_to(out).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        text = f.read_text(encoding="utf-8", errors="replace")
        names.append(("!" if "__main__" in text else "") + ".".join([package, *parts]))
        if mxnet_imports(text, frameworks):
            still.add(names[-1].lstrip("!"))
    return names, scripts, still


# -- 3. models against gluonnlp ----------------------------------------------------------------
def _lengths(v):
    """Valid lengths 1..T as float32 on either side (gluonnlp takes float lengths)."""
    return v.astype("float32") + 1 if hasattr(v, "asnumpy") else v.float() + 1


def models() -> list[tuple[str, int, list[str]]]:
    import mxnet as mx
    import gluonnlp as nlp
    from gluonnlp.model import transformer

    from xlate import runtime
    from xlate.check.inputs import InputSpec
    from xlate.check.noise import NoiseFloor
    from xlate.check.pair import check_models
    from xlate.check.samples import gluon_call, torch_call

    rt = runtime.load()
    words = "the cat sat on the mat the dog ate the cat food a bird sang on the mat".split()
    mx_vocab, vocab = nlp.Vocab(nlp.data.count_tokens(words)), rt._mx_Vocab(rt._mx_count_tokens(words))
    lm = dict(hparam_allow_override=True, embed_size=6, hidden_size=8, num_layers=3)
    std = dict(hparam_allow_override=True, embed_size=8, hidden_size=8, num_layers=2)
    bert = dict(pretrained=False, use_decoder=False, use_classifier=True, hparam_allow_override=True, num_layers=2,
                units=8, hidden_size=16, num_heads=2, max_length=16, embed_size=8, dropout=0.1)
    encoder = dict(num_layers=2, units=8, hidden_size=16, num_heads=2, max_length=6, dropout=0.1)
    n = len(mx_vocab)
    cases = [
        ("get_model('awd_lstm_lm_1150') small", lambda: nlp.model.get_model("awd_lstm_lm_1150", vocab=mx_vocab, **lm)[0],
         lambda: rt._mx_get_language_model("awd_lstm_lm_1150", vocab=vocab, **lm)[0],
         lambda m, x: m(x), [InputSpec("x", "int32", (5, 3), n)]),
        ("get_model('standard_lstm_lm_200') small",
         lambda: nlp.model.get_model("standard_lstm_lm_200", vocab=mx_vocab, **std)[0],
         lambda: rt._mx_get_language_model("standard_lstm_lm_200", vocab=vocab, **std)[0],
         lambda m, x: m(x), [InputSpec("x", "int32", (5, 3), n)]),
        ("StandardRNN('gru', 3 layers, untied)", lambda: nlp.model.StandardRNN("gru", n, 5, 7, 3, 0.3, False),
         lambda: rt._mx_StandardRNN("gru", n, 5, 7, 3, 0.3, False), lambda m, x: m(x),
         [InputSpec("x", "int32", (4, 2), n)]),
        ("get_model('bert_12_768_12', pretrained=False) small",
         lambda: nlp.model.get_model("bert_12_768_12", vocab=mx_vocab, **bert)[0],
         lambda: rt._mx_get_model("bert_12_768_12", vocab=vocab, **bert)[0],
         lambda m, t, s, v: m(t, s, _lengths(v)),
         [InputSpec("t", "int32", (2, 6), n), InputSpec("s", "int32", (2, 6), 2), InputSpec("v", "int32", (2,), 6)]),
        ("TransformerEncoder (valid_length, past max_length)",
         lambda: transformer.TransformerEncoder(**encoder), lambda: rt._mx_TransformerEncoder(**encoder),
         lambda m, x, v: m(x, None, _lengths(v))[0],
         [InputSpec("x", "float32", (3, 8, 8)), InputSpec("v", "int32", (3,), 8)]),
    ]
    results = []
    for name, mx_build, pt_build, call, specs in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                mx_model = mx_build()
                mx_model.initialize(mx.init.Xavier())
                result = check_models(gluon_call(mx_model, call), torch_call(pt_build(), call), specs, seed=3,
                                      noise_floor=NoiseFloor())
            except Exception as e:  # a harness or translation failure: reported, not raised
                results.append((name, 0, [f"{type(e).__name__}: {e}"[:200]]))
                continue
        results.append((name, len(result.checks), [c.mismatch.format()[:200] for c in result.checks if not c.ok]))
    return results


# -- report ---------------------------------------------------------------------------------------
def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}% ({a}/{b})" if b else "n/a"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="?", default=os.environ.get("XLATE_NLP_CORPUS", "/work/corpus/gluon-nlp-v0.10.x"))
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "xlate-sequence-corpus"))
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--no-import", action="store_true", help="skip step 2")
    ap.add_argument("--no-models", action="store_true", help="skip step 3")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per tree's imports")
    args = ap.parse_args(argv)
    corpus = Path(args.corpus)
    if not (corpus / "src" / "gluonnlp" / "model").is_dir():
        print(f"bench/sequence_corpus.py: no gluon-nlp v0.10.x checkout at {corpus}; skipped")
        return 0
    try:
        import gluonnlp  # noqa: F401
        import mxnet  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(f"bench/sequence_corpus.py: {e}; skipped")
        return 0
    work = Path(args.work)
    trees = [("src/gluonnlp", corpus / "src" / "gluonnlp", "gluonnlp")]
    trees += [(f"scripts/{t}", corpus / "scripts" / t, t) for t in SCRIPT_TREES if (corpus / "scripts" / t).is_dir()]
    figures, total_left, total_left_seq, total_left_scope, totals = {}, Counter(), Counter(), Counter(), Counter()
    print(f"{'tree':34} {'files':>5} {'converted':>18} {'sequence/gluonnlp':>18} {'models+data':>16} "
          f"{'imports':>9} {'mxnet-free':>10} {'time':>6}")
    for label, tree, package in trees:
        out = work / "converted" / label  # .../src/gluonnlp, .../scripts/<task>
        report, seconds = convert(tree, out)
        if label.startswith("src/"):
            built_extensions(out)
        t = tally(report)
        row = {k: v for k, v in t.items() if not k.startswith("left")}
        total_left.update(t["left"])
        total_left_seq.update(t["left_seq"])
        total_left_scope.update(t["left_scope"])
        totals.update({k: v for k, v in row.items() if isinstance(v, int)})
        imports = ""
        mx_free = ""
        if not args.no_import:
            names, scripts, still = importable(out, package)
            # the library as `gluonnlp` itself; a script folder as its package (its modules'
            # relative imports) and as the folder its scripts run from (their sibling imports)
            # (and `scripts.<task>` for the scripts that import themselves that way)
            if not label.startswith("src/"):
                (out.parent / "__init__.py").touch()
            path = [out.parent] if label.startswith("src/") else [out, out.parent, out.parent.parent]
            found = import_tree(out.parent, names, path, args.timeout) if names else {}
            ok = [n for n, r in found.items() if r["ok"]]
            names = [n.lstrip("!") for n in names]
            local = {p.stem for p in out.rglob("*.py")} | {p.name for p in out.rglob("*") if p.is_dir()}
            for r in found.values():
                r["environment"] = not r["ok"] and environment_gap(r["error"], local)
            row.update(modules=len(names), scripts=scripts, imported=len(ok),
                       environment=sum(r["environment"] for r in found.values()),
                       mxnet_free=sum(n not in still for n in ok),
                       failures={n: r for n, r in found.items() if not r["ok"]})
            totals.update(modules=len(names), scripts=scripts, imported=len(ok), mxnet_free=row["mxnet_free"],
                          environment=row["environment"])
            imports, mx_free = f"{len(ok)}/{len(names)}", f"{row['mxnet_free']}/{len(ok)}"
        figures[label] = row
        print(f"{label:34} {t['files']:>5} {pct(t.get('converted', 0), t.get('found', 0)):>18} "
              f"{pct(t.get('seq_converted', 0), t.get('seq_found', 0)):>18} "
              f"{pct(t.get('scope_converted', 0), t.get('scope_found', 0)):>16} {imports:>9} {mx_free:>10} "
              f"{seconds:>5.1f}s")
    print(f"{'all':34} {totals['files']:>5} {pct(totals['converted'], totals['found']):>18} "
          f"{pct(totals['seq_converted'], totals['seq_found']):>18} "
          f"{pct(totals['scope_converted'], totals['scope_found']):>16}"
          + ("" if args.no_import else f" {totals['imported']:>4}/{totals['modules']:<4} "
                                       f"{totals['mxnet_free']:>5}/{totals['imported']:<4}"))
    if not args.no_import:
        print(f"\n(imports: the {totals['modules']} converted files that only define things; "
              f"{totals['scripts']} files run code at import and are not imported; "
              f"{totals['environment']} failures are third-party packages this machine lacks)")
        failures = Counter()
        for label, row in figures.items():
            for name, r in row.get("failures", {}).items():
                kind = "environment" if r["environment"] else "conversion"
                failures[f"[{kind}] {r['error'][:90]}  ({r.get('where', '')})"] += 1
        print("\nImport failures by error (where: the converted file and line that raised):")
        for err, k in failures.most_common(15):
            print(f"  {k:4}  {err}")
    print("\nModels+data references left, by cause:")
    for c, k in total_left_scope.most_common(25):
        print(f"  {k:4}  {c}")
    print("\nOther sequence/gluonnlp references left, by cause (top 12):")
    for c, k in (total_left_seq - total_left_scope).most_common(12):
        print(f"  {k:4}  {c}")
    print("\nAll references left, by cause (top 20):")
    for c, k in total_left.most_common(20):
        print(f"  {k:4}  {c}")
    matched = []
    if not args.no_models:
        print("\nModels against gluonnlp (random weights; outputs, states, every gradient):")
        for name, checks, failed in models():
            status = "equal" if checks and not failed else "DIFFERS" if checks else "FAILED"
            print(f"  {status:8} {name}: {checks - len(failed)} of {checks} checks")
            for f in failed[:3]:
                print(f"           {f}")
            matched.append({"model": name, "checks": checks, "failed": failed})
    if args.json:
        Path(args.json).write_text(json.dumps({"trees": figures, "totals": dict(totals),
                                               "left": dict(total_left), "left_sequence": dict(total_left_seq),
                                               "left_scope": dict(total_left_scope),
                                               "models": matched}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
