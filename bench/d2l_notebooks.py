"""The d2l notebooks of both MXNet book versions as scripts, run in MXNet and converted (issue 25).

    .venv/bin/python bench/d2l_notebooks.py extract               # MIRROR -> CORPUS/np-dialect/d2l-<version>/
    .venv/bin/python bench/d2l_notebooks.py run --keep /tmp/nb     # convert, run both sides, compare
    .venv/bin/python bench/d2l_notebooks.py run --versions 1.0.3 --only ndarray,autograd --timeout 60

`extract` reads d2l-en's git mirror (XLATE_D2L_MIRROR, default /work/.mirror/d2l-ai+d2l-en/repo) at the
tags VERSIONS and writes, per version, one MXNet script per notebook (chapter_x/y-z.md ->
chapter_x__y_z.py) and the book's library as d2l/mxnet.py beside them (CORPUS, default /work/corpus
or XLATE_NP_CORPUS; never committed). The MXNet notebook is the one d2lbook builds for the `mxnet`
tab (Note [the mxnet tab]); a user exporting it as a script sees its code cells in order with the
IPython magics (`%matplotlib inline`, `!ls`) dropped.

`run` converts each version's folder as a user would (`xlate convert DIR -o OUT`), then runs every
script, sequentially, in a fresh process with a timeout: the original with MXNet, the converted one
in a process where `import mxnet` fails, importing the converted library (MX790's advice). Harness
plumbing, the same on both sides: modules this machine lacks for plotting and display (matplotlib,
IPython, pandas, ...) are stubs that accept anything; the network is closed, so a notebook that
downloads its data fails fast. It counts scripts that run in MXNet, run converted, and agree
(Note [what is compared]). Without the corpus, or without mxnet and torch, it says why and exits 0.
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
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))  # numpy_corpus

MIRROR = Path(os.environ.get("XLATE_D2L_MIRROR", "/work/.mirror/d2l-ai+d2l-en/repo"))
CORPUS = Path(os.environ.get("XLATE_NP_CORPUS", "/work/corpus"))
# tag -> the tab d2lbook gives cells without a tab mark (config.ini's first tab at that tag)
VERSIONS = {"0.17.6": "mxnet", "1.0.3": "pytorch"}
STUBBED = ("matplotlib", "matplotlib_inline", "mpl_toolkits", "IPython", "pandas", "ipywidgets", "tqdm")

# -- extraction ------------------------------------------------------------------------------------

# Note [the mxnet tab]
# d2lbook (d2lbook/notebook.py, get_tab_notebook) builds one notebook per framework tab from the
# markdown: a code cell is a ```{.python .input} block; its tabs are the first `#@tab a, b` or
# `%%tab a, b` in it, or the book's default tab when it has none (mxnet at v0.17, pytorch at v1.0,
# whose notebooks mark every MXNet cell); a cell belongs to the mxnet notebook when its tabs are
# `all` or include mxnet, and the cell holding `%load_ext d2lbook.tab` is dropped. The tab line is
# removed and `if tab.selected(...)` branches are resolved (_clean_if_branches): a branch naming
# 'mxnet' is kept, dedented by four, any other dropped. A notebook without mxnet cells has no
# MXNet version.
CELL = re.compile(r"^```\{\.python \.input[^}]*\}[ \t]*\n(.*?)^```", re.S | re.M)
TAB = (re.compile(r"# *@tab +([\w\,\ ]+)"), re.compile(r"%%tab +([\w\,\ ]+)"))


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(MIRROR), *args], capture_output=True, text=True, check=True).stdout


def cell_tabs(source: str, default: str) -> list[str]:
    for pattern in TAB:
        m = pattern.search(source)
        if m:
            return [t.strip() for t in m[1].split(",")]
    return [default]


def clean_if_branches(lines: list[str], tab: str) -> list[str]:
    """d2lbook's _clean_if_branches for one tab: `if tab.selected(...)` (v1.0) or `if d2l.USE_X`."""
    mark = "tab.selected" if any("tab.selected" in ln for ln in lines) else "d2l.USE_"
    if not any(mark in ln for ln in lines):
        return lines
    mode, indent, out = 0, 0, []
    for ln in lines:
        lead = len(ln) - len(ln.lstrip())
        if "if" in ln and mark in ln:
            matched = (f'"{tab}"' in ln or f"'{tab}'" in ln) if mark == "tab.selected" \
                else mark + tab.upper() in ln
            mode, indent = (1 if matched else 2), lead
            continue
        if mode and ln.strip() and lead <= indent:
            mode = 0
        if mode == 0:
            out.append(ln)
        elif mode == 1:
            out.append(ln[4:])
    return out


def mxnet_cells(markdown: str, default: str) -> list[str]:
    cells = []
    for m in CELL.finditer(markdown):
        source = m[1]
        tabs = cell_tabs(source, default)
        if "%load_ext d2lbook.tab" in source or not (tabs == ["all"] or "mxnet" in tabs):
            continue
        lines = [ln for ln in source.splitlines() if not any(p.search(ln) for p in TAB)]
        lines = clean_if_branches(lines, "mxnet")
        # IPython magics and shell escapes: an exported script has no use for them
        lines = [ln for ln in lines if not ln.lstrip().startswith(("%", "!"))]
        cells.append("\n".join(lines).strip("\n"))
    return [c for c in cells if c.strip()]


def script_name(md_path: str) -> str:
    chapter, _, name = md_path.removesuffix(".md").partition("/")
    return f"{chapter}__{name}".replace("-", "_") + ".py"


def extract(version: str, dest: Path) -> dict:
    tag, default = f"v{version}", VERSIONS[version]
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "d2l").mkdir(parents=True)
    for name in ("__init__.py", "mxnet.py"):  # a package, as installed: d2l.mxnet, not a module `mxnet`
        (dest / "d2l" / name).write_text(_git("show", f"{tag}:d2l/{name}"), encoding="utf-8")
    paths = [p for p in _git("ls-tree", "-r", "--name-only", tag).split()
             if re.fullmatch(r"chapter_[^/]+/[^/]+\.md", p)]
    written, no_mxnet = 0, 0
    for path in paths:
        cells = mxnet_cells(_git("show", f"{tag}:{path}"), default)
        if not cells:
            no_mxnet += 1
            continue
        header = f"# {path} (d2l-en {tag}), its MXNet code cells in order\n"
        (dest / script_name(path)).write_text(header + "\n\n".join(cells) + "\n", encoding="utf-8")
        written += 1
    return {"notebooks": len(paths), "scripts": written, "without_mxnet": no_mxnet}


# -- running ---------------------------------------------------------------------------------------

# Note [what is compared]
# The runner executes a script with its top-level expression statements displayed, as a notebook
# shows a cell's value: each display and each print() is recorded as an event holding the numbers
# it shows (an MXNet array's .asnumpy(), a tensor's .numpy(), Python numbers, shapes, nested in
# lists and tuples; text is no event). The two sides share no random generator, so the original is
# run twice with different seeds: an event is deterministic where both MXNet runs give the same
# numbers. A script agrees when every deterministic event it shows before either side stops has the
# converted side's numbers at the same position in the event sequence (same count, allclose at
# rtol 1e-4, atol 1e-5). A script that crashes may still agree on its prefix; "agree" is counted
# only among scripts that run on both sides.
# Note [mxnet imported, not used]
# The converted side runs where `import mxnet` fails, as a user without MXNet would. A converted
# library that keeps one `from mxnet import ...` line for code left with a report then stops every
# notebook at its first line, which says nothing about the notebook's own code. With --poison, an
# `import mxnet` there succeeds but gives objects that raise at any use (a call, an operator,
# iteration, a base class, isinstance): a script that finishes has run without MXNet's code, and
# counts as running converted in the strict sense too when neither it nor the library it imports
# keeps an mxnet import (read statically: "runs converted (no mxnet import)").
RUNNER = r'''
import builtins, importlib.abc, importlib.machinery, io, json, sys, types, ast, os, random
events_path, script, seed, block, poison = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] != "0", sys.argv[4] == "2"
prelude = sys.argv[5] if len(sys.argv) > 5 else ""
class _Any:
    def __init__(self, *a, **k): pass
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return _Any()
    def __call__(self, *a, **k): return _Any()
    def __iter__(self): return iter([_Any(), _Any()])
    def __getitem__(self, k): return _Any()
    def __setitem__(self, k, v): pass
    def __len__(self): return 2
    def __enter__(self): return self
    def __exit__(self, *a): return False
    def __mro_entries__(self, bases): return (object,)
for op in ("add", "sub", "mul", "truediv", "radd", "rsub", "rmul", "rtruediv"):
    setattr(_Any, f"__{op}__", lambda self, *a: _Any())
class _MXNetUsed(Exception):
    pass
class _Poison:
    def __init__(self, name): self._name = name
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return _Poison(self._name + "." + name)
    def _used(self, *a, **k): raise _MXNetUsed(f"MXNet used at run time: {self._name}")
    __call__ = __iter__ = __getitem__ = __mro_entries__ = __instancecheck__ = __bool__ = _used
    __add__ = __radd__ = __mul__ = __rmul__ = __sub__ = __truediv__ = __len__ = _used
class _Stubs(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if block and (name == "mxnet" or name.startswith("mxnet.")):
            if not poison:
                raise ImportError("mxnet is not installed here")
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        if name.split(".")[0] in STUBBED:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
    def create_module(self, spec):
        m = types.ModuleType(spec.name); m.__path__ = []
        if spec.name.split(".")[0] == "mxnet":
            m.__getattr__ = lambda attr: (_ for _ in ()).throw(AttributeError(attr)) if attr.startswith("__") \
                else _Poison(spec.name + "." + attr)
            return m
        m.__getattr__ = lambda attr: (_ for _ in ()).throw(AttributeError(attr)) if attr.startswith("__") else _Any()
        return m
    def exec_module(self, module): pass
sys.meta_path.insert(0, _Stubs())
random.seed(seed)
import numpy
numpy.random.seed(seed)
if not block:
    import mxnet
    mxnet.random.seed(seed)
out = open(events_path, "w")
def numbers(v, depth=0):
    if depth > 3: return None
    if isinstance(v, bool): return [float(v)]
    if isinstance(v, (int, float)): return [float(v)]
    if isinstance(v, (list, tuple)):
        parts = [numbers(x, depth + 1) for x in v]
        return None if any(p is None for p in parts) or not parts else [x for p in parts for x in p]
    for conv in ("asnumpy", "numpy"):
        f = getattr(v, conv, None)
        if f is not None and type(v).__module__.split(".")[0] in ("mxnet", "torch", "numpy"):
            try:
                a = (v.detach() if hasattr(v, "detach") else v)
                a = getattr(a, conv)()
                return [float(x) for x in numpy.asarray(a, dtype="float64").ravel()[:4096]]
            except Exception:
                return None
    if isinstance(v, numpy.ndarray) or isinstance(v, numpy.generic):
        try: return [float(x) for x in numpy.asarray(v, dtype="float64").ravel()[:4096]]
        except Exception: return None
    return None
def record(kind, values):
    ns = [numbers(v) for v in values]
    ns = [x for n in ns if n for x in n]
    if ns:
        out.write(json.dumps([kind, ns]) + "\n"); out.flush()
_print = builtins.print
def _rec_print(*a, **k):
    if k.get("file") in (None, sys.stdout): record("print", a)
    return _print(*a, **k)
builtins.print = _rec_print
def __display__(v):
    if v is not None:
        record("display", [v])
tree = ast.parse(open(script, encoding="utf-8").read(), script)
for i, node in enumerate(tree.body):
    if isinstance(node, ast.Expr) and not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
        call = ast.Call(ast.Name("__display__", ast.Load()), [node.value], [])
        tree.body[i] = ast.copy_location(ast.Expr(ast.copy_location(call, node.value)), node)
ast.fix_missing_locations(tree)
g = {"__name__": "__main__", "__file__": script, "__display__": __display__}
sys.path.insert(0, os.path.dirname(script)); sys.argv = [script]
if prelude:  # a corpus's own plumbing (synthetic datasets in place of downloads), the same on both sides
    exec(open(prelude, encoding="utf-8").read(), {"blocked": block, "__name__": "prelude"})
exec(compile(tree, script, "exec"), g)
'''.replace("STUBBED", repr(STUBBED))


def run_script(script: Path, *, seed: int, block_mxnet: bool, timeout: int, scratch: Path, poison: bool = False,
               prelude: Path | None = None) -> dict:
    """One script in a fresh process: status ok/error/timeout, its error line, its events. With
    `poison`, `import mxnet` succeeds where it is blocked, but any use of what it gives raises
    (Note [mxnet imported, not used]). `prelude` is a file run just before the script, in the
    script's working folder, with `blocked` telling which side it is on."""
    events = scratch / "events.jsonl"
    events.unlink(missing_ok=True)
    work = scratch / "cwd"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", MXNET_HOME=str(scratch / "mxhome"),
               MPLBACKEND="Agg", PYTHONPATH="", PYTHONHASHSEED="0")
    start = time.monotonic()
    try:
        run = subprocess.run([sys.executable, "-c", RUNNER, str(events), str(script), str(seed),
                              ("2" if poison else "1") if block_mxnet else "0"]
                             + ([str(prelude)] if prelude else []), cwd=work, env=env, capture_output=True,
                             text=True, timeout=timeout)
        status = "ok" if run.returncode == 0 else "error"
        err = _error_line(run.stderr, script) if run.returncode else ""
    except subprocess.TimeoutExpired:
        status, err = "timeout", f"timeout ({timeout} s)"
    ev = [json.loads(ln) for ln in events.read_text().splitlines()] if events.exists() else []
    return {"status": status, "error": err, "seconds": round(time.monotonic() - start, 1), "events": ev}


def keeps_mxnet_import(script: Path, root: Path) -> bool:
    """The converted script, or the converted library when it imports it, keeps an mxnet import."""
    import ast

    from numpy_corpus import imports_mxnet

    tree = ast.parse(script.read_text(encoding="utf-8"))
    uses_d2l = any(isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "d2l"
                   or isinstance(n, ast.Import) and any(a.name.split(".")[0] == "d2l" for a in n.names)
                   for n in ast.walk(tree))
    library = root / "d2l" / "mxnet.py"
    return imports_mxnet(tree) or uses_d2l and imports_mxnet(ast.parse(library.read_text(encoding="utf-8")))


def _error_line(stderr: str, script: Path) -> str:
    lines = stderr.strip().splitlines()
    where = [ln.strip() for ln in lines if ln.strip().startswith("File ") and script.parent.as_posix() in ln]
    last = lines[-1] if lines else "?"
    if where:
        m = re.search(r'File "([^"]+)", line (\d+)', where[-1])
        last += f" ({Path(m[1]).relative_to(script.parent).as_posix()}:{m[2]})" if m else ""
    return last[:300]


def same(a: list, b: list) -> bool:
    import numpy as np

    return len(a) == len(b) and bool(np.allclose(np.array(a), np.array(b), rtol=1e-4, atol=1e-5, equal_nan=True))


def agreement(mx1: list, mx2: list, pt: list, window: int = 2) -> tuple[int, int, str]:
    """(deterministic events compared, of them equal, the first difference). A converted call may
    show a value where MXNet's shows none (`x.requires_grad_()` returns x, `x.attach_grad()`
    None), or the reverse: each deterministic MXNet event is looked for among the next `window`
    converted events at or after the last match."""
    compared, equal, first, at = 0, 0, "", 0
    for i, (kind, numbers) in enumerate(mx1):
        if i >= len(mx2) or not same(numbers, mx2[i][1]):
            at += 1  # a random event: its converted counterpart is passed over too
            continue
        if at >= len(pt):
            break  # the converted side stopped here
        compared += 1
        found = next((j for j in range(at, min(at + window + 1, len(pt))) if same(numbers, pt[j][1])), None)
        if found is not None:
            equal, at = equal + 1, found + 1
        else:
            first = first or f"event {i} ({kind}): mxnet {numbers[:4]} converted {pt[at][1][:4]}"
            at += 1
    return compared, equal, first


def cause(err: str) -> str:
    """A failure's class for the counts: data a closed network cannot fetch, a module missing here,
    or the exception type."""
    if re.search(r"ConnectionError|NameResolution|URLError|Max retries|Name or service", err):
        return "downloads data (network closed)"
    if "../img/" in err:
        return "reads the book's images (../img, not extracted)"
    if re.search(r"GPU is not enabled|CUDA|try_all_gpus|gpus?\b", err):
        return "needs a GPU (or several)"
    m = re.match(r"(?:\w+\.)*(\w+(?:Error|Exception))\b", err)
    if m and m[1] == "ModuleNotFoundError":
        return "module not here: " + err.split("'")[1] if "'" in err else err
    return m[1] if m else err[:60]


def convert(src: Path, out: Path) -> dict:
    sys.path.insert(0, str(HERE))
    from numpy_corpus import convert as convert_tree

    if out.exists():
        shutil.rmtree(out)
    return convert_tree(src, out)


def run_version(version: str, src: Path, out: Path, args, *, pattern: str = "chapter_*.py",
                prelude: Path | None = None) -> dict:
    """The MXNet runs (twice, seeds 1 and 2, for the scripts that run) are the same before and after
    a change to xlate: --mx-cache keeps them, so a later run only runs the converted side. Scripts
    run `args.jobs` at a time (each in its own scratch folder)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    lock = threading.Lock()
    scripts = sorted(p for p in src.glob(pattern) if not args.only or any(s in p.stem for s in args.only))
    scratch_root = Path(tempfile.mkdtemp(prefix="xlate_nb_"))
    cache_path = args.mx_cache and args.mx_cache.with_name(f"{args.mx_cache.stem}-{version}.json")
    cache = json.loads(cache_path.read_text()) if cache_path and cache_path.is_file() else {}

    def one(script: Path) -> dict:
        scratch = scratch_root / script.stem
        scratch.mkdir()
        row = {"script": script.name}
        if script.name not in cache:
            mx = run_script(script, seed=1, block_mxnet=False, timeout=args.timeout, scratch=scratch, prelude=prelude)
            mx2 = run_script(script, seed=2, block_mxnet=False, timeout=args.timeout, scratch=scratch,
                             prelude=prelude) if mx["status"] == "ok" else {"events": []}
            with lock:  # written after each script, so an interrupted run keeps what it ran
                cache[script.name] = {"mx": mx, "mx2_events": mx2["events"]}
                if cache_path:
                    cache_path.write_text(json.dumps(cache), encoding="utf-8")
        mx, mx2_events = cache[script.name]["mx"], cache[script.name]["mx2_events"]
        row["mxnet"] = {k: mx[k] for k in ("status", "error", "seconds")}
        if mx["status"] == "ok" and not args.mx_only:
            converted = out / script.name
            pt = run_script(converted, seed=1, block_mxnet=True, timeout=args.timeout, scratch=scratch,
                            poison=args.poison, prelude=prelude)
            row["converted"] = {k: pt[k] for k in ("status", "error", "seconds")}
            row["keeps_mxnet_import"] = keeps_mxnet_import(converted, out)
            compared, equal, first = agreement(mx["events"], mx2_events, pt["events"])
            row.update(events=len(mx["events"]), compared=compared, equal=equal, first_difference=first,
                       converted_events=pt["events"])
        c = row.get("converted", {})
        print(f"  {script.stem[:60]:<60} mx {row['mxnet']['status']:<7} {row['mxnet']['seconds']:5.1f}s  "
              f"pt {c.get('status', '-'):<7} {row.get('equal', '-')}/{row.get('compared', '-')}  "
              f"{(c.get('error') or row['mxnet']['error'])[:90]}", flush=True)
        return row

    with ThreadPoolExecutor(max(1, getattr(args, "jobs", 1))) as pool:
        rows = list(pool.map(one, scripts))
    shutil.rmtree(scratch_root, ignore_errors=True)
    return summary(rows)


def summary(rows: list[dict]) -> dict:
    ran = [r for r in rows if r["mxnet"]["status"] == "ok" and "converted" in r]
    both = [r for r in ran if r["converted"]["status"] == "ok"]
    return {"scripts": len(rows), "mxnet_ok": sum(1 for r in rows if r["mxnet"]["status"] == "ok"),
            "mxnet_not": Counter(cause(r["mxnet"]["error"]) for r in rows if r["mxnet"]["status"] != "ok"
                                 ).most_common(),
            "converted_ok": len(both),
            "converted_ok_no_mxnet_import": sum(1 for r in both if not r["keeps_mxnet_import"]),
            "agree": sum(1 for r in both if r["compared"] and r["equal"] == r["compared"]),
            "no_deterministic_numbers": sum(1 for r in both if not r["compared"]),
            "converted_not": Counter(cause(r["converted"]["error"]) for r in ran if r["converted"]["status"] != "ok"
                                     ).most_common(),
            "rows": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("extract", "run"))
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--versions", default=",".join(VERSIONS))
    ap.add_argument("--only", type=lambda s: s.split(","), help="scripts whose name holds one of these")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per script and side")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="scripts run at once")
    ap.add_argument("--keep", type=Path, help="keep the converted trees here")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--poison", action="store_true",
                    help="converted side: `import mxnet` succeeds, any use raises (Note [mxnet imported, not used])")
    ap.add_argument("--mx-only", action="store_true", help="only the MXNet runs (to fill --mx-cache)")
    ap.add_argument("--mx-cache", type=Path, help="keep the MXNet runs here (FILE-<version>.json) and reuse them")
    ap.add_argument("--converted", type=Path,
                    help="reuse converted trees: numpy_corpus.py --keep's folder (KEEP/d2l-V/d2l-V)")
    args = ap.parse_args(argv)
    versions = [v for v in args.versions.split(",") if v in VERSIONS]
    if args.what == "extract":
        if not (MIRROR / "HEAD").exists():
            print(f"d2l_notebooks: no d2l-en mirror at {MIRROR}; nothing to do")
            return 0
        for v in versions:
            print(v, extract(v, args.corpus / "np-dialect" / f"d2l-{v}"))
        return 0
    present = {v: args.corpus / "np-dialect" / f"d2l-{v}" for v in versions}
    present = {v: p for v, p in present.items() if (p / "d2l" / "mxnet.py").is_file()}
    if not present:
        print(f"d2l_notebooks: no extracted notebooks under {args.corpus}/np-dialect (run `extract`); nothing to do")
        return 0
    try:
        import mxnet  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(f"d2l_notebooks: needs mxnet and torch ({e}); nothing to do")
        return 0
    work = args.keep or Path(tempfile.mkdtemp(prefix="xlate_nbconv_"))
    figures = {}
    for v, src in present.items():
        out = work / f"d2l-{v}"
        if args.mx_only:
            pass
        elif args.converted and (args.converted / f"d2l-{v}" / f"d2l-{v}").is_dir():
            out = args.converted / f"d2l-{v}" / f"d2l-{v}"
        else:
            convert(src, out)
        print(f"== d2l {v}")
        row = run_version(v, src, out, args)
        figures[v] = row
        print(f"   scripts {row['scripts']}: run in MXNet {row['mxnet_ok']}, of them run converted "
              f"{row['converted_ok']}{' (mxnet importable, unused)' if args.poison else ''}, with no mxnet "
              f"import left {row['converted_ok_no_mxnet_import']}; agree {row['agree']} (no deterministic "
              f"numbers: {row['no_deterministic_numbers']})")
        print(f"   not in MXNet: {row['mxnet_not']}")
        print(f"   not converted: {row['converted_not']}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
