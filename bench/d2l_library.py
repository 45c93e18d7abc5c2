"""d2l's MXNet library converted as one module, each definition run against the original (issue 25).

    .venv/bin/python bench/d2l_library.py                  # CORPUS = /work/corpus/d2l-lib, or XLATE_D2L_LIB
    .venv/bin/python bench/d2l_library.py CORPUS --json d2l.json --keep /tmp/d2l_out [--allow-mxnet]

CORPUS holds one folder per book version with its library, `<version>/mxnet.py`
(`git show v0.17.6:d2l/mxnet.py`, `git show v1.0.3:d2l/mxnet.py`). Without it, or without mxnet
and torch, the script says why and exits 0: the test suite never needs it.

Per version, in its own process:
1. The library and the cases (bench/d2l_cases.py: notebook-style MXNet code calling the library)
   are converted as a user would (`xlate convert DIR -o OUT --format json`).
2. The original library and the cases run with MXNet; the converted ones run torch only: there
   `mxnet` is a stand-in that imports (an import xlate kept for a construct it left) and raises
   MXNetLeft when used, so a definition crashes only where it runs MXNet code (`--allow-mxnet`
   gives the converted side the real MXNet, as issue 25's first measure did). Harness
   plumbing on both sides: pandas, requests, IPython and matplotlib are stubbed (plots draw
   nothing), and `arr`, `sync` and `R` are given to the cases (d2l_cases.py says what they do;
   `sync` copies MXNet's weights into the converted model with xlate.check.mapping.transfer).
3. Each case's results are compared value by value (xlate.check.rule_cases.compare_outputs).

A definition counts once: a name whose code (docstrings aside) is the same in both versions is run
in the first. Definitions without a case are listed with the reason they cannot run here
(EXCLUDED) or as "no case". Per chapter: matched / differ / crash; what is left, by cause.
Always exits 0 unless the harness itself breaks: it measures, it does not gate.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.abc
import importlib.machinery
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
import types
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "d2l_cases.py"
MIRROR = Path("/work/.mirror/d2l-ai+d2l-en/repo")
STUBBED = ("pandas", "requests", "IPython", "matplotlib", "matplotlib.pyplot", "matplotlib_inline")

# Definitions that cannot run here even with MXNet, with the reason (not counted).
_DISPLAY = "plots or displays only (matplotlib / IPython)"
_DOWNLOAD = "downloads or reads a data set from the network"
EXCLUDED = {
    **dict.fromkeys(["use_svg_display", "set_figsize", "set_axes", "plot", "show_images", "Animator",
                     "show_list_len_pair_hist", "show_heatmaps", "annotate", "show_trace_2d",
                     "bbox_to_rect", "show_bboxes", "ProgressBoard"], _DISPLAY),
    **dict.fromkeys(["download", "download_extract", "download_all", "extract", "load_data_fashion_mnist",
                     "read_time_machine", "load_corpus_time_machine", "load_data_time_machine",
                     "SeqDataLoader", "read_data_nmt", "load_data_nmt", "get_data_ch11", "read_data_bananas",
                     "BananasDataset", "load_data_bananas", "read_voc_images", "VOCSegDataset",
                     "load_data_voc", "read_ptb", "load_data_ptb", "TokenEmbedding", "_read_wiki",
                     "load_data_wiki", "read_imdb", "load_data_imdb", "read_snli", "SNLIDataset",
                     "load_data_snli", "read_data_ml100k", "split_data_ml100k", "load_data_ml100k",
                     "split_and_load_ml100k", "CTRDataset", "FashionMNIST", "TimeMachine", "MTFraEng"],
                    _DOWNLOAD),
    **dict.fromkeys(["Timer", "Benchmark", "get_dataloader_workers"], "wall-clock timers / CPU count: no "
                    "value to compare"),
    "Encoder": "abstract base (forward raises NotImplementedError): run through Seq2SeqEncoder's case",
    "Decoder": "abstract base: run through EncoderDecoder's case (the notebook's decoder subclasses it)",
    "AttentionDecoder": "abstract base (attention_weights raises NotImplementedError)",
    "Module": "base of the v1.0.3 models: run through LinearRegression, SoftmaxRegression, LeNet cases",
    "gpu": "needs a GPU context", "voc_rand_crop": "random crop drawn by MXNet's image.random_crop "
    "(another random stream)", "subsample": "random draws (random.uniform over the PTB counter) from "
    "read_ptb's corpus only", "_replace_mlm_tokens": "random draws: run through _get_mlm_data_from_tokens",
    "train_ch3": "wraps train_epoch_ch3 and plots; asserts on the loss of the full data set",
    "predict_ch3": "plots images", "train_ch8": "re-initialises the model at random (init.Normal) and prints",
    "train_ch6": "re-initialises the model at random (init.Xavier): no common weights",
    "train_seq2seq": "re-initialises the model at random (init.Xavier): no common weights",
    "train_concise_ch11": "initialises at random (init.Normal) and returns nothing",
    "_get_batch_loss_bert": "needs load_data_wiki's batches (download)",
    "evaluate_ranking": "needs ml100k's candidate sets (download)",
    "train_ranking": "needs ml100k's iterators (download)", "train_recsys_rating": "needs ml100k (download)",
    "predict_snli": "needs the decomposable-attention model of its notebook (not in the library)",
}


# -- harness plumbing ------------------------------------------------------------------------

def _stub_modules() -> None:
    from unittest import mock
    for name in STUBBED:
        sys.modules[name] = mock.MagicMock(name=name)
    # Animator unpacks `fig, axes = plt.subplots(...)`
    sys.modules["matplotlib"].pyplot.subplots.return_value = (mock.MagicMock(), mock.MagicMock())
    sys.modules["matplotlib.pyplot"] = sys.modules["matplotlib"].pyplot


class MXNetLeft(RuntimeError):
    """The converted code used MXNet (a construct xlate left), where only torch may run."""


class _Left(types.ModuleType):
    """`mxnet` and whatever is reached through it on the converted side: importing it succeeds (an
    import xlate kept for a construct it left), using it raises MXNetLeft, so each definition
    crashes only where it runs MXNet code."""

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Left(f"{self.__name__}.{attr}")

    def __call__(self, *args, **kwargs):
        raise MXNetLeft(f"{self.__name__}(...) left in the converted code")

    def __mro_entries__(self, bases):
        raise MXNetLeft(f"class based on {self.__name__}, left in the converted code")


class _NoMX(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name == "mxnet" or name.startswith("mxnet."):
            return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        module = _Left(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


@contextlib.contextmanager
def _without_mxnet(block: bool):
    """Inside (the converted side's imports) `mxnet` is a _Left; MXNet comes back after."""
    if not block:
        yield
        return
    saved = {k: sys.modules.pop(k) for k in list(sys.modules) if k == "mxnet" or k.startswith("mxnet.")}
    finder = _NoMX()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for k in [k for k in sys.modules if k == "mxnet" or k.startswith("mxnet.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def _module(name: str, path: Path, **given) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = str(path)
    module.__dict__.update(given)
    sys.modules[name] = module  # `d2l = sys.modules[__name__]`
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return module


# -- definitions and chapters ----------------------------------------------------------------

def _strip_docs(node: ast.AST) -> str:
    node = ast.parse(ast.unparse(node)).body[0]
    for n in [node] + [m for m in node.body if isinstance(m, ast.FunctionDef)]:
        if n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant):
            n.body = n.body[1:] or [ast.Pass()]
    return ast.unparse(node)


def definitions(source: str) -> dict[str, tuple[str, str]]:
    """name -> (code without docstrings, section label of its `Defined in :numref:`)."""
    out = {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            m = re.search(r":numref:`([^`]+)`", ast.get_source_segment(source, node) or "")
            out[node.name] = (_strip_docs(node), m.group(1) if m else "?")
    return out


def chapters(version: str) -> dict[str, str]:
    """Section label -> chapter folder, from the book's own `:label:` lines at that tag."""
    try:
        run = subprocess.run(["git", "-C", str(MIRROR), "grep", "-o", "-E", ":label:`[^`]+`", version, "--",
                              "chapter_*/*.md"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    out = {}
    for line in run.stdout.splitlines():  # v1.0.3:chapter_x/y.md::label:`sec_z`
        m = re.match(r"[^:]+:(chapter_[^/]+)/[^:]+::label:`([^`]+)`", line)
        if m:
            out.setdefault(m.group(2), m.group(1))
    return out


# -- one version, in its own process -----------------------------------------------------------

def _side(lib, cases_path: Path, name: str, *, mx_side: bool, nets: list, block: bool):
    import numpy as onp

    if mx_side:
        from mxnet import np as mnp

        def arr(a):
            return mnp.array(a, dtype=a.dtype)

        def sync(net, *inputs):
            net(*inputs)
            # the values now: the case goes on to train this model before the torch side runs
            nets.append((net, {id(p): p.data().asnumpy().copy() for p in net.collect_params().values()}))
            return net
    else:
        import torch
        from xlate.check.mapping import transfer

        def arr(a):
            return torch.as_tensor(onp.ascontiguousarray(a))

        def sync(net, *inputs):
            net(*inputs)  # fixes lazy shapes before the copy
            mx_net, values = nets.pop(0)
            transfer(mx_net, net, known=values)
            return net
    with _without_mxnet(block):
        return _module(name, cases_path, d2l=lib, arr=arr, sync=sync)


def _run(cases, case: str, seed: int):
    import numpy as onp
    random.seed(seed)
    onp.random.seed(seed)
    cases.R = onp.random.RandomState(seed)
    with contextlib.redirect_stdout(io.StringIO()):
        return getattr(cases, "case_" + case)()


def _normal(value):
    """Results compare_outputs has no rule for: strings, dicts, sets, shapes."""
    if isinstance(value, dict):
        return sorted(((repr(k), _normal(v)) for k, v in value.items()), key=lambda kv: kv[0])
    if isinstance(value, (list, tuple)):
        return type(value)(_normal(v) for v in value) if type(value) in (list, tuple) else list(map(_normal, value))
    return value


def _compare(actual, expected, what="out") -> list[str]:
    from xlate.check.rule_cases import compare_outputs
    if isinstance(expected, str):
        return [] if actual == expected else [f"{what}: {actual!r} where MXNet gives {expected!r}"]
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)) and len(actual) == len(expected):
        return [p for i, (a, e) in enumerate(zip(actual, expected)) for p in _compare(a, e, f"{what}[{i}]")]
    if type(expected) is float and isinstance(actual, float):
        # a Python float in these cases is a sum or exp of float32 values (train_epoch_ch8's perplexity
        # is math.exp of float32 losses summed): float32's tolerance, not float64's
        import numpy as onp
        expected, actual = onp.float32(expected), onp.float32(actual)
    try:
        rows = compare_outputs(actual, expected, what=what)
    except TypeError as e:
        return [str(e)]
    return [m.message if hasattr(m, "message") else str(m) for _, m, _ in rows if m is not None]


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:160] if text else ''}"


def worker(version: str, lib_path: Path, work: Path, *, allow_mxnet: bool) -> dict:
    from xlate.cli import main as xlate_main

    src, out = work / "src", work / "out"
    shutil.rmtree(work, ignore_errors=True)
    src.mkdir(parents=True)
    shutil.copy(lib_path, src / "d2l_lib.py")
    shutil.copy(CASES, src / "d2l_cases.py")
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf), contextlib.redirect_stdout(io.StringIO()):
        xlate_main(["convert", str(src), "-o", str(out), "--format", "json", "-j", "1", "--keep-going"])
    report = json.loads(buf.getvalue())
    manual = Counter(d["code"] for f in report["files"] if f["path"].endswith("d2l_lib.py")
                     for d in f["diagnostics"] if d["status"] == "manual")
    _stub_modules()
    import mxnet  # noqa: F401  (before the converted side blocks it)
    cases_src = ast.parse(CASES.read_text())
    names = [n.name[5:] for n in cases_src.body if isinstance(n, ast.FunctionDef) and n.name.startswith("case_")]
    mx_nets: list = []
    results: dict[str, dict] = {}
    mx_lib = _module("d2l_mx", src / "d2l_lib.py")
    mx_cases = _side(mx_lib, src / "d2l_cases.py", "d2l_cases_mx", mx_side=True, nets=mx_nets, block=False)
    expected, nets_of = {}, {}
    for i, case in enumerate(names):
        if not hasattr(mx_lib, case):
            continue
        before = len(mx_nets)
        try:
            expected[case] = _run(mx_cases, case, i)
            mxnet.nd.waitall()  # MXNet computes asynchronously: each case's results are final before the next
        except Exception as e:  # noqa: BLE001  (a broken case is the harness's, reported as such)
            results[case] = {"status": "harness", "cause": _first_line(e)}
        nets_of[case] = mx_nets[before:]
    sys.path.insert(0, str(out))
    try:
        with _without_mxnet(not allow_mxnet):
            pt_lib = _module("d2l_pt", out / "d2l_lib.py")
        pt_nets: list = []
        pt_cases = _side(pt_lib, out / "d2l_cases.py", "d2l_cases_pt", mx_side=False, nets=pt_nets,
                         block=not allow_mxnet)
    except Exception as e:  # noqa: BLE001
        cause = "import: " + _first_line(e)
        for case in expected:
            results[case] = {"status": "crash", "cause": cause}
        return {"results": results, "manual": manual}
    for i, case in enumerate(names):
        if case not in expected:
            continue
        pt_nets[:] = nets_of[case]
        try:
            actual = _run(pt_cases, case, i)
        except Exception as e:  # noqa: BLE001
            tb = traceback.extract_tb(e.__traceback__)
            where = next((f"{Path(f.filename).name}:{f.lineno}" for f in reversed(tb)
                          if f.filename.endswith(("d2l_lib.py", "d2l_cases.py", "_mx_compat.py"))), "")
            results[case] = {"status": "crash", "cause": _first_line(e), "where": where}
            continue
        problems = _compare(_normal(actual), _normal(expected[case]))
        results[case] = {"status": "differ", "cause": problems[0][:200]} if problems else {"status": "match"}
    return {"results": results, "manual": manual}


# -- all versions ------------------------------------------------------------------------------

def measure(corpus: Path, keep: Path, *, allow_mxnet: bool) -> dict:
    versions = sorted(p.name for p in corpus.iterdir() if (p / "mxnet.py").is_file())
    seen: dict[str, str] = {}
    table = []
    for version in versions:
        source = (corpus / version / "mxnet.py").read_text()
        defs = definitions(source)
        chap = chapters(version)
        cmd = [sys.executable, __file__, "--worker", version, str(corpus / version / "mxnet.py"),
               str(keep / version)] + (["--allow-mxnet"] if allow_mxnet else [])
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
        try:
            got = json.loads(run.stdout.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError):
            print(run.stderr[-3000:], file=sys.stderr)
            raise SystemExit(f"the {version} worker failed (rc {run.returncode})")
        for name, (code, label) in defs.items():
            if seen.get(name) == code:
                continue  # the same definition, already counted
            key = name if name not in seen else f"{name}@{version}"
            seen[name] = code
            row = {"definition": key, "version": version, "chapter": chap.get(label, label)}
            if name in got["results"]:
                row.update(got["results"][name])
            else:
                row.update(status="excluded", cause=EXCLUDED.get(name, "no case written"))
            table.append(row)
        table.append({"definition": f"(manual items in {version})", "version": version, "chapter": "-",
                      "status": "report", "cause": dict(got["manual"])})
    return {"rows": table}


def summarise(data: dict) -> str:
    rows = [r for r in data["rows"] if r["status"] != "report"]
    counted = [r for r in rows if r["status"] in ("match", "differ", "crash")]
    lines = []
    per = defaultdict(Counter)
    for r in counted:
        per[r["chapter"]][r["status"]] += 1
    lines.append(f"{'chapter':40} match differ crash")
    for ch in sorted(per):
        c = per[ch]
        lines.append(f"{ch:40} {c['match']:5} {c['differ']:6} {c['crash']:5}")
    total = Counter(r["status"] for r in rows)
    lines.append(f"{'TOTAL':40} {total['match']:5} {total['differ']:6} {total['crash']:5}"
                 f"   ({total['match']} of {len(counted)} definitions give MXNet's results)")
    lines.append(f"harness errors (the case fails in MXNet too): {total['harness']}; "
                 f"excluded: {total['excluded']}")
    left = defaultdict(list)
    for r in rows:
        if r["status"] in ("differ", "crash", "harness"):
            left[(r["status"], re.sub(r"\d+", "N", r.get("cause", ""))[:110])].append(r["definition"])
    lines.append("\nleft, by cause:")
    for (status, cause), names in sorted(left.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"  {len(names):3} {status:7} {cause}\n        {', '.join(names)}")
    lines.append("\nexcluded:")
    ex = defaultdict(list)
    for r in rows:
        if r["status"] == "excluded":
            ex[r["cause"]].append(r["definition"])
    for cause, names in sorted(ex.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"  {len(names):3} {cause}: {', '.join(names)}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", default=os.environ.get("XLATE_D2L_LIB", "/work/corpus/d2l-lib"))
    ap.add_argument("--json")
    ap.add_argument("--keep", help="keep the converted trees here")
    ap.add_argument("--allow-mxnet", action="store_true",
                    help="let the converted library import mxnet (issue 25's first measure)")
    ap.add_argument("--worker", nargs=3, metavar=("VERSION", "LIB", "WORK"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        version, lib, work = args.worker
        got = worker(version, Path(lib), Path(work), allow_mxnet=args.allow_mxnet)
        print(json.dumps(got, default=str))
        return 0
    corpus = Path(args.corpus)
    if not corpus.is_dir() or not any(corpus.glob("*/mxnet.py")):
        print(f"no d2l library under {corpus} (see this script's docstring): nothing to measure")
        return 0
    import importlib.util
    if importlib.util.find_spec("mxnet") is None or importlib.util.find_spec("torch") is None:
        print("mxnet and torch are both needed to compare: nothing to measure")
        return 0
    keep = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="d2l_lib_"))
    data = measure(corpus, keep, allow_mxnet=args.allow_mxnet)
    print(summarise(data))
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
