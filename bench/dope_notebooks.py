""""Deep Learning - The Straight Dope" (zackchase/mxnet-the-straight-dope), a Gluon tutorial book nobody
tuned xlate to, as scripts: converted, run against MXNet on synthetic data, its models checked (issue 21).

    .venv/bin/python bench/dope_notebooks.py extract                     # MIRROR -> CORPUS/dope-scripts/
    .venv/bin/python bench/dope_notebooks.py run -j 2 --json /tmp/dope.json --mx-cache /tmp/dope-mx.json
    .venv/bin/python bench/dope_notebooks.py models -j 2 --json /tmp/dope-models.json

`extract` reads the book's git mirror (XLATE_DOPE_MIRROR, newest master) and writes one script per
notebook with code cells (chapterNN_x/y-z.ipynb -> chapterNN_x__y_z.py), its code cells in order,
IPython magics and shell escapes dropped, and epochs cut (Note [epochs cut]); the book's data/ folder
beside them (the notebooks read ../data/...; ptb.train.txt, absent from the mirror, is ptb.valid.txt).

`run` converts the scripts as a user would (`xlate convert DIR -o OUT`), counts MXNet references
before and after (xlate.check.leftovers, as bench/numpy_corpus.py counts the dialect's), and runs each
script with bench/d2l_notebooks.py's machinery: in MXNet (twice, seeds 1 and 2), converted where
`import mxnet` fails, and compares what both print (Note [what is compared] there). PRELUDE, run before
each script on both sides, is harness plumbing: MNIST, FashionMNIST and CIFAR-10 are synthetic files
where Gluon (or the converted `_mx_compat`) looks for them, their download and SHA-1 check stubbed.

`models` runs each script that runs in MXNet once more, both sides in one process (Note [the book's
models]), and checks every model it built with xlate.check.pair.check_models (outputs, input and
parameter gradients). Without the mirror or the extracted corpus, or without mxnet and torch, each
command says why and exits 0.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import d2l_notebooks as nb  # noqa: E402  the runner, the comparison, the causes

MIRROR = Path(os.environ.get("XLATE_DOPE_MIRROR", "/work/.mirror/zackchase+mxnet-the-straight-dope/repo"))
CORPUS = Path(os.environ.get("XLATE_NP_CORPUS", "/work/corpus")) / "dope-scripts"

# Note [epochs cut]
# The book trains for up to 2000 epochs. Harness plumbing, the same text on both sides: an assignment
# or keyword whose name holds "epoch" and ends in "s" (`epochs = 10`, `num_epochs=3`) given an
# integer literal above 1 gets 1, and so does `range(N)` for N >= 100 in a `for` header (the
# scratch notebooks' iteration loops), and the text corpora under data/nlp keep their first 60,000
# characters (whole lines). `mx.gpu(i)` is `mx.cpu(i)`: the book's GPU notebooks run on
# this machine's CPU (both sides see the same CPU context). Nothing else of a notebook changes.
EPOCHS = re.compile(r"\b(\w*epochs\w*\s*=\s*)(\d+)\b")
MAGIC = re.compile(r"\s*(%%?|!)[A-Za-z]")  # `%matplotlib inline`, `!ls`; not a line going on with `% (x, y)`
SEEDS = re.compile(r"\b(?:mx|mxnet|nd|ndarray)\.random\.seed\(")
TEXT_CHARS = 60_000  # data/nlp/*.txt keep their first lines up to this many characters
GPU = re.compile(r"\bmx\.gpu\(")
LONG_RANGE = re.compile(r"^(\s*for\s+\w+\s+in\s+range\()(\d{3,})\)")


def cut(line: str) -> str:
    line = EPOCHS.sub(lambda m: m[1] + ("1" if int(m[2]) > 1 else m[2]), line)
    return GPU.sub("mx.cpu(", LONG_RANGE.sub(lambda m: m[1] + "10)", line))


def code_cells(notebook: dict) -> list[str]:
    cells = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        lines = [cut(ln) for ln in src.splitlines() if not MAGIC.match(ln) and not ln.rstrip().endswith("?")]
        text = "\n".join(lines).strip("\n")
        if text.strip():
            cells.append(text)
    return cells


def script_name(path: str) -> str:
    chapter, _, name = path.removesuffix(".ipynb").rpartition("/")
    return f"{chapter}__{name}".replace("-", "_").replace("/", "__") + ".py"


def as_script(header: str, cells: list[str]) -> str:
    """The cells as one script under a header comment. A notebook compiles each cell apart, so
    `from __future__` may open any cell; a script has them first."""
    future = [ln for c in cells for ln in c.splitlines() if ln.startswith("from __future__ import")]
    cells = ["\n".join(ln for ln in c.splitlines() if ln not in future) for c in cells]
    return header + "\n" + "".join(ln + "\n" for ln in dict.fromkeys(future)) + "\n\n".join(
        c for c in cells if c.strip()) + "\n"


def _git(*args: str, text: bool = True):
    return subprocess.run(["git", "-C", str(MIRROR), *args], capture_output=True, text=text, check=True).stdout


def extract(dest: Path) -> dict:
    import ast

    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    names = _git("ls-tree", "-r", "--name-only", "master").split("\n")
    for path in (p for p in names if p.startswith("data/")):
        try:
            blob = _git("show", f"master:{path}", text=False)
        except subprocess.CalledProcessError:
            continue  # an object the mirror lacks (ptb.train.txt): below
        (dest / path).parent.mkdir(parents=True, exist_ok=True)
        (dest / path).write_bytes(blob)
    ptb = dest / "data" / "nlp"
    if (ptb / "ptb.valid.txt").is_file() and not (ptb / "ptb.train.txt").is_file():
        shutil.copy(ptb / "ptb.valid.txt", ptb / "ptb.train.txt")
    for text in ptb.glob("*.txt"):  # the language models' corpora, cut to what one short epoch reads
        kept = text.read_text(encoding="utf-8", errors="replace")[:TEXT_CHARS]
        text.write_text(kept[:kept.rfind("\n") + 1], encoding="utf-8")
    notebooks = [p for p in names if p.endswith(".ipynb")]
    written, cells, unparsable = 0, 0, []
    for path in notebooks:
        code = code_cells(json.loads(_git("show", f"master:{path}")))
        if not code:
            continue
        text = as_script(f"# {path} (mxnet-the-straight-dope master), its code cells in order", code)
        try:
            ast.parse(text)
        except SyntaxError:  # Python 2 cells (`print x`): MXNet 1.9.1 runs on Python 3 only
            unparsable.append(path)
        (dest / script_name(path)).write_text(text, encoding="utf-8")
        written, cells = written + 1, cells + len(code)
    return {"notebooks": len(notebooks), "scripts": written, "code_cells": cells, "python2_only": unparsable}


# -- synthetic data --------------------------------------------------------------------------------

PRELUDE = r'''
import gzip, os, struct, sys
import numpy as _np
_rng = _np.random.default_rng(0)
home = os.environ["MXNET_HOME"]
def _idx_file(fname, n):
    kind = "images" if "images" in fname else "labels"
    with gzip.open(fname, "wb") as f:
        if kind == "images":
            f.write(struct.pack(">IIII", 2051, n, 28, 28) + _rng.integers(0, 256, (n, 784), dtype=_np.uint8).tobytes())
        else:
            f.write(struct.pack(">II", 2049, n) + _rng.integers(0, 10, n, dtype=_np.uint8).tobytes())
def _idx(folder):
    os.makedirs(folder, exist_ok=True)
    for prefix, n in (("train", 256), ("t10k", 64)):
        for kind in ("images-idx3", "labels-idx1"):
            _idx_file(os.path.join(folder, f"{prefix}-{kind}-ubyte.gz"), n)
def _cifar_bins(folder, n=64):
    os.makedirs(folder, exist_ok=True)
    for name in [f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]:
        rows = _np.concatenate([_rng.integers(0, 10, (n, 1), dtype=_np.uint8),
                                _rng.integers(0, 256, (n, 3072), dtype=_np.uint8)], axis=1)
        open(os.path.join(folder, name), "wb").write(rows.tobytes())
def _synthetic(fname):  # a download asked for where none was put: made on the spot
    import tarfile, tempfile
    base = os.path.basename(fname)
    if base.endswith("-ubyte.gz"):
        _idx_file(fname, 256 if base.startswith("train") else 64)
    elif base == "cifar-10-binary.tar.gz":
        tmp = tempfile.mkdtemp()  # Gluon's archive holds the batches at its top
        _cifar_bins(tmp)
        with tarfile.open(fname, "w:gz") as tar:
            for name in os.listdir(tmp):
                tar.add(os.path.join(tmp, name), name)
for name in ("mnist", "fashion-mnist"):
    _idx(os.path.join(home, "datasets", name))
_cifar_bins(os.path.join(home, "datasets", "cifar10"))
_idx(".")  # mx.test_utils.get_mnist() downloads into the working folder
data = os.path.join(os.environ["XLATE_DOPE_DATA"])
if not os.path.lexists("../data"):  # a link to a folder absent (a corpus without data) is there too
    os.symlink(data, "../data")
def there(url, path=None, **kwargs):  # the synthetic file is where the download would put it
    fname = os.path.join(path, url.split("/")[-1]) if path and os.path.isdir(path) else (path or url.split("/")[-1])
    if not os.path.exists(fname):
        os.makedirs(os.path.dirname(os.path.abspath(fname)), exist_ok=True)
        _synthetic(fname)
    return fname
if not blocked:
    import mxnet.gluon.data.vision.datasets as d
    d.download, d.check_sha1 = there, (lambda *a: True)
else:
    try:
        import _mx_compat as c
        c._mx_download, c._mx_check_sha1 = there, (lambda *a: True)
    except ImportError:
        pass
'''


def prelude_file(work: Path, corpus: Path) -> Path:
    path = work / "dope_prelude.py"
    path.write_text(PRELUDE, encoding="utf-8")
    os.environ["XLATE_DOPE_DATA"] = str(corpus / "data")
    return path


def mxnet_name(name: str) -> bool:
    return name.split(".")[0] in ("mxnet", "gluonnlp")


# -- the book's models -----------------------------------------------------------------------------

# Note [the book's models]
# A model of the book is every Gluon Block whose class the notebook defines and every Sequential or
# HybridSequential it builds, as the notebook calls it: one process runs the MXNet script with
# Block.__call__ watched, then the converted script (mxnet importable, the converted tree first on
# the path) with nn.Module.__call__ watched. A watched call is a call at depth 0 (not inside another
# block's call); the first call of each instance records the instance and its arguments. The k-th
# instance of a class name on one side is paired with the k-th of the same name on the other (a
# Sequential pairs with whatever the converted side made of it: nn.Sequential or _mx_Sequential).
# Each pair goes to check_models: arrays among the recorded arguments are drawn inputs of the
# recorded shape (integer arrays below the recorded maximum + 1), anything else (a list of hidden
# states, a number) is passed as recorded, converted to tensors on the torch side.
MODELS = r'''
import sys, os, json, types, importlib, traceback, contextlib, io
mx_script, pt_script, out_path, prelude = sys.argv[1:5]
import numpy as np
import mxnet as mx
import torch
sys.path.insert(0, os.path.dirname(pt_script))
stubbed = ("matplotlib", "mpl_toolkits", "IPython", "pandas", "tqdm", "seaborn", "sklearn")
class _Any(types.ModuleType):
    __path__ = []
    def __getattr__(self, n):
        if n.startswith("__"): raise AttributeError(n)
        return _AnyObj()
class _AnyObj:
    def __getattr__(self, n): return _AnyObj()
    def __call__(self, *a, **k): return _AnyObj()
    def __iter__(self): return iter([_AnyObj(), _AnyObj()])
    def __getitem__(self, k): return _AnyObj()
for n in stubbed:
    for m in (n, n + ".pyplot", n + ".cm"):
        sys.modules.setdefault(m, _Any(m))
seen = {"mx": [], "pt": []}
depth, watching = [0], [True]
def watch(cls, side, user):
    orig = cls.__call__
    def call(self, *args, **kwargs):
        if watching[0] and depth[0] == 0 and user(self) and not any(s is self for s, _, _ in seen[side]):
            seen[side].append((self, args, kwargs))
        depth[0] += 1
        try:
            return orig(self, *args, **kwargs)
        finally:
            depth[0] -= 1
    cls.__call__ = call
def mine(obj):
    t = type(obj)
    return t.__module__ == "__main__" or t.__name__ in ("Sequential", "HybridSequential", "_mx_Sequential")
watch(mx.gluon.Block, "mx", mine)
watch(torch.nn.Module, "pt", mine)
def run(script, blocked):
    g = {"__name__": "__main__", "__file__": script}
    try:
        exec(open(prelude).read(), {"blocked": blocked, "__name__": "prelude"})
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(open(script, encoding="utf-8").read(), script, "exec"), g)
        return ""
    except BaseException as e:
        return f"{type(e).__name__}: {str(e)[:200]}"
mx.random.seed(1); np.random.seed(1)
mx_error = run(mx_script, False)
pt_error = run(pt_script, True)
watching[0] = False  # the checks below call the models too
def kind(obj):
    n = type(obj).__name__
    return "Sequential" if n in ("Sequential", "HybridSequential", "_mx_Sequential") else n
from xlate.check.pair import check_models
from xlate.check.inputs import InputSpec
from xlate.check.noise import NoiseFloor
def arrays_of(v):
    return isinstance(v, mx.nd.NDArray)
rows = []
pts = {}
for obj, args, kwargs in seen["pt"]:
    pts.setdefault(kind(obj), []).append(obj)
count = {}
for obj, args, kwargs in seen["mx"]:
    k = kind(obj)
    i = count.get(k, 0); count[k] = i + 1
    row = {"model": f"{k}#{i}", "mx_error": mx_error[:120], "pt_error": pt_error[:120]}
    pt = pts.get(k, [])[i] if i < len(pts.get(k, [])) else None
    if pt is None:
        row["result"] = "not built converted"
        rows.append(row); continue
    specs, consts, order = [], {}, []
    for j, a in enumerate(args):
        if arrays_of(a):
            v = a.asnumpy()
            if v.dtype.kind == "f":
                specs.append(InputSpec(f"x{j}", str(v.dtype), tuple(v.shape) or (1,)))
            else:
                specs.append(InputSpec(f"x{j}", "int64", tuple(v.shape), int(max(v.max(), 0)) + 1))
            order.append(("drawn", v.dtype))
        else:
            consts[j] = a
            order.append(("const", None))
    if kwargs:
        row["result"] = "skipped: keyword arguments"
        rows.append(row); continue
    def to_pt(v):
        if isinstance(v, mx.nd.NDArray): return torch.from_numpy(v.asnumpy().copy())
        if isinstance(v, (list, tuple)): return type(v)(to_pt(x) for x in v)
        return v
    def copy_mx(v):
        if isinstance(v, mx.nd.NDArray): return v.copy()
        if isinstance(v, (list, tuple)): return type(v)(copy_mx(x) for x in v)
        return v
    class MxWrap(mx.gluon.Block):
        def __init__(self, inner):
            super().__init__(); self.inner = inner
        def forward(self, *xs):
            it = iter(xs)
            a = [copy_mx(consts[j]) if how == "const" else (lambda x: x.astype(dt) if x.dtype != dt else x)(next(it))
                 for j, (how, dt) in enumerate(order)]
            return self.inner(*a)
    class PtWrap(torch.nn.Module):
        def __init__(self, inner):
            super().__init__(); self.inner = inner
        def forward(self, *xs):
            it = iter(xs)
            a = [to_pt(consts[j]) if how == "const" else next(it) for j, (how, dt) in enumerate(order)]
            return self.inner(*a)
    try:
        pt.zero_grad(set_to_none=True)  # what the notebook's last step left (torch adds to .grad)
        result = check_models(MxWrap(obj), PtWrap(pt), specs, seed=i)
        noise = None
        if not result.ok:  # judged again against a float64 copy (xlate check's noise mode)
            pt.zero_grad(set_to_none=True)
            noise = check_models(MxWrap(obj), PtWrap(pt), specs, seed=i, noise_floor=NoiseFloor())
        bad = [c.mismatch.format() for c in result.checks if not c.ok]
        row["result"] = "match" if result.ok else "match (noise mode)" if noise.ok else \
            "differs: " + (bad[0][:200] if bad else "?")
        row["checks"] = len(result.checks)
        if noise is not None and not noise.ok:
            row["noise_mode"] = ([c.mismatch.format()[:300] for c in noise.checks if not c.ok] or ["?"])[0]
    except Exception as e:
        row["result"] = f"fails: {type(e).__name__}: {str(e)[:200]}"
    rows.append(row)
json.dump({"mx_error": mx_error, "pt_error": pt_error, "rows": rows}, open(out_path, "w"))
'''


def run_models(src: Path, out: Path, scripts: list[str], args, prelude: Path) -> dict:
    from concurrent.futures import ThreadPoolExecutor

    work = Path(tempfile.mkdtemp(prefix="xlate_dope_models_"))
    runner = work / "models.py"
    runner.write_text(MODELS, encoding="utf-8")

    def one(name: str) -> dict:
        scratch = work / Path(name).stem
        (scratch / "cwd").mkdir(parents=True)
        result = scratch / "result.json"
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", MXNET_HOME=str(scratch / "mxhome"),
                   PYTHONPATH=str(HERE.parent), PYTHONHASHSEED="0")
        try:
            proc = subprocess.run([sys.executable, str(runner), str(src / name), str(out / name), str(result),
                                   str(prelude)], cwd=scratch / "cwd", env=env, capture_output=True, text=True,
                                  timeout=args.timeout * 3)
            got = json.loads(result.read_text()) if result.is_file() else \
                {"rows": [], "harness": (proc.stderr.strip().splitlines() or ["?"])[-1][:200]}
        except subprocess.TimeoutExpired:
            got = {"rows": [], "harness": "timeout"}
        for r in got["rows"]:
            print(f"  {name[:50]:<50} {r['model']:<28} {r['result'][:100]}", flush=True)
        return {"script": name, **got}

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        per_script = list(pool.map(one, scripts))
    shutil.rmtree(work, ignore_errors=True)
    rows = [r for s in per_script for r in s["rows"]]
    return {"models": len(rows), "by_result": Counter(r["result"].split(":")[0] for r in rows).most_common(),
            "scripts": per_script}


# -- the command ----------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("extract", "run", "models"))
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--only", type=lambda s: s.split(","), help="scripts whose name holds one of these")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per script and side")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="scripts run at once")
    ap.add_argument("--keep", type=Path, help="keep the converted scripts here")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--mx-cache", type=Path, help="keep the MXNet runs here and reuse them")
    ap.add_argument("--mx-only", action="store_true", help="only the MXNet runs (to fill --mx-cache)")
    ap.add_argument("--converted", type=Path, help="a converted tree to use (with --report: its JSON report)")
    ap.add_argument("--report", type=Path, help="the --format json report of --converted")
    ap.add_argument("--poison", action="store_true", help="as bench/d2l_notebooks.py --poison")
    args = ap.parse_args(argv)
    if args.what == "extract":
        if not (MIRROR / "HEAD").exists():
            print(f"dope_notebooks: no mirror at {MIRROR}; nothing to do")
            return 0
        print(extract(args.corpus))
        return 0
    scripts = sorted(p.name for p in args.corpus.glob("[a-z]*.py")) if args.corpus.is_dir() else []
    if not scripts:
        print(f"dope_notebooks: no extracted scripts under {args.corpus} (run `extract`); nothing to do")
        return 0
    try:
        import mxnet  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(f"dope_notebooks: needs mxnet and torch ({e}); nothing to do")
        return 0
    from numpy_corpus import convert, count_references

    work = Path(tempfile.mkdtemp(prefix="xlate_dope_"))
    out = args.keep or work / "converted"
    if args.converted:  # a tree converted before (another xlate's), with its --format json report
        out, report = args.converted, json.loads(args.report.read_text())
    else:
        if out.exists():
            shutil.rmtree(out)
        report = convert(args.corpus, out)
    prelude = prelude_file(work, args.corpus)
    figures = {"references": count_references(args.corpus, out, report, keep=mxnet_name)}
    refs = figures["references"]
    print(f"== scripts {len(scripts)}: MXNet references {refs['references']}, converted {refs['converted']} "
          f"({refs['share_converted']}%), left {refs['left']} (silent {refs['silent']})")
    for c, n in refs["causes"][:25]:
        print(f"   {n:4} {c}")
    if args.what == "run":
        row = nb.run_version("dope", args.corpus, out, args, pattern="[a-z]*.py", prelude=prelude)
        figures["notebooks"] = row
        # Note [self-seeded notebooks]: a notebook that seeds MXNet's generator itself repeats its draws
        # in both MXNet runs, so its random events pass for deterministic ones; torch's generator
        # draws other numbers from the same seed. Those notebooks are counted apart.
        seeded = {r["script"] for r in row["rows"]
                  if SEEDS.search((args.corpus / r["script"]).read_text(encoding="utf-8"))}
        ran = [r for r in row["rows"] if r.get("converted", {}).get("status") == "ok" and r["compared"]]
        row["agree_not_self_seeded"] = (sum(1 for r in ran if r["script"] not in seeded and r["equal"] == r["compared"]),
                                        sum(1 for r in ran if r["script"] not in seeded))
        row["agree_self_seeded"] = (sum(1 for r in ran if r["script"] in seeded and r["equal"] == r["compared"]),
                                    sum(1 for r in ran if r["script"] in seeded))
        print(f"   scripts {row['scripts']}: run in MXNet {row['mxnet_ok']}, of them run converted "
              f"{row['converted_ok']}, with no mxnet import left {row['converted_ok_no_mxnet_import']}; agree "
              f"{row['agree']} (no deterministic numbers: {row['no_deterministic_numbers']})")
        print(f"   agree, of those with deterministic numbers: {row['agree_not_self_seeded']} (notebooks that seed "
              f"MXNet's generator themselves: {row['agree_self_seeded']}, Note [self-seeded notebooks])")
        print(f"   not in MXNet: {row['mxnet_not']}")
        print(f"   not converted: {row['converted_not']}")
    else:
        chosen = [s for s in scripts if not args.only or any(o in s for o in args.only)]
        if args.mx_cache and args.mx_cache.with_name(f"{args.mx_cache.stem}-dope.json").is_file():
            cache = json.loads(args.mx_cache.with_name(f"{args.mx_cache.stem}-dope.json").read_text())
            chosen = [s for s in chosen if cache.get(s, {}).get("mx", {}).get("status") == "ok"]
        figures["models"] = run_models(args.corpus, out, chosen, args, prelude)
        print(f"   models {figures['models']['models']}: {figures['models']['by_result']}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, default=str), encoding="utf-8")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
