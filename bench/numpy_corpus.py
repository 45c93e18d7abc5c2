"""Real numpy-dialect code (issue 11): convert it as a user would and count what happens.

    .venv/bin/python bench/numpy_corpus.py                   # CORPUS = /work/corpus, or XLATE_NP_CORPUS
    .venv/bin/python bench/numpy_corpus.py CORPUS --json np.json --keep /tmp/np_out

CORPUS holds (each part optional; without any, or without mxnet and torch, the script says why
and exits 0: the test suite never needs it):
  np-dialect/d2l-0.17.6/, np-dialect/d2l-1.0.3/
                          the textbook's MXNet edition at two book versions, one script per
                          notebook, and its helper library d2l/mxnet.py (`from d2l import mxnet
                          as d2l`), written by bench/d2l_notebooks.py extract
  np-dialect/mxnet/       MXNet 1.9's numpy tests and its numpy-era tutorials, as scripts
  gluon-nlp-master/src/gluonnlp/   MXNet 2.0 numpy-dialect code (a package)

Per part:
1. Converts the folder as a user would (`xlate convert DIR -o OUT --format json -j 1`).
2. Dialect references before and after: every name in the original that resolves to
   mxnet.numpy / mxnet.numpy_extension / use_np (by xlate.check.leftovers, the same finder
   that looks for MXNet left in the output), and those still in the output; what is left is
   grouped by cause (the code of the manual item at its line, MX900's name for "no rule").
3. Converted files that parse, and (gluonnlp, the d2l library) modules that import in a
   process where `import mxnet` fails.
4. Snippets that run and match MXNet: d2l sections' own functions and Gluon blocks (SNIPPETS),
   taken from the converted section files with their module-level statements left out (they
   train models and plot), the d2l library given as the converted library, as the MX790 advice
   says. Functions are compared value by value (xlate.check.rule_cases.compare_outputs),
   blocks by xlate.check.pair.check_models (outputs, input and parameter gradients).
   Harness plumbing, not xlate's output: the library's plotting and download imports
   (pandas, requests, IPython, matplotlib) are stubbed on both sides.

Always exits 0 unless the harness itself breaks: it measures, it does not gate.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import types
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

PARTS = {"d2l-0.17.6": "np-dialect/d2l-0.17.6", "d2l-1.0.3": "np-dialect/d2l-1.0.3", "mxnet": "np-dialect/mxnet", "gluonnlp": "gluon-nlp-master/src/gluonnlp"}
DIALECT = ("mxnet.numpy", "mxnet.numpy_extension", "mxnet.util.use_np", "mxnet.util.set_np", "mxnet.util.reset_np")
D2L_LIB = "d2l/mxnet.py"
STUBBED = ("pandas", "requests", "IPython", "IPython.display", "matplotlib", "matplotlib.pyplot",
           "matplotlib_inline", "matplotlib_inline.backend_inline")

# (section file stem, name, kind, constructor kwargs, input specs): d2l's own functions and
# blocks. Specs are xlate.check input specs; "const:" gives a fixed array (valid lengths).
SNIPPETS = [
    ("chapter_linear_classification__softmax_regression_scratch", "softmax", "fn", {}, ["X:float32[2,5]"]),
    ("chapter_linear_classification__softmax_regression_scratch", "cross_entropy", "fn", {},
     ["y_hat:float32[3,4]>0", "y:int64[3]<4"]),
    ("chapter_linear_regression__linear_regression", "normal", "fn", {"mu": 0.5, "sigma": 2.0}, ["x:float32[7]"]),
    ("chapter_attention_mechanisms_and_transformers__attention_scoring_functions", "masked_softmax", "fn", {},
     ["X:float32[2,2,4]", "valid_lens:const[2.0,3.0]"]),
    ("chapter_attention_mechanisms_and_transformers__attention_scoring_functions", "DotProductAttention", "block",
     {"dropout": 0.5}, ["queries:float32[2,1,2]", "keys:float32[2,10,2]", "values:float32[2,10,4]",
                        "valid_lens:const[2.0,6.0]"]),
    ("chapter_attention_mechanisms_and_transformers__attention_scoring_functions", "AdditiveAttention", "block",
     {"num_hiddens": 8, "dropout": 0.1}, ["queries:float32[2,1,20]", "keys:float32[2,10,2]",
                                          "values:float32[2,10,4]", "valid_lens:const[2.0,6.0]"]),
    ("chapter_attention_mechanisms_and_transformers__self_attention_and_positional_encoding", "PositionalEncoding",
     "block", {"num_hiddens": 32, "dropout": 0.0}, ["X:float32[1,20,32]"]),
    ("chapter_attention_mechanisms_and_transformers__transformer", "PositionWiseFFN", "block",
     {"ffn_num_hiddens": 4, "ffn_num_outputs": 8}, ["X:float32[2,3,4]"]),
    ("chapter_attention_mechanisms_and_transformers__transformer", "AddNorm", "block", {"dropout": 0.5},
     ["X:float32[2,3,4]", "Y:float32[2,3,4]"]),
    ("chapter_attention_mechanisms_and_transformers__transformer", "TransformerEncoderBlock", "block",
     {"num_hiddens": 24, "ffn_num_hiddens": 48, "num_heads": 8, "dropout": 0.5},
     ["X:float32[2,10,24]", "valid_lens:const[3.0,2.0]"]),
    ("chapter_attention_mechanisms_and_transformers__multihead_attention", "MultiHeadAttention", "block",
     {"num_hiddens": 20, "num_heads": 5, "dropout": 0.5},
     ["queries:float32[2,4,20]", "keys:float32[2,6,20]", "values:float32[2,6,20]", "valid_lens:const[3.0,2.0]"]),
    ("chapter_builders_guide__custom_layer", "CenteredLayer", "block", {}, ["X:float32[4,8]"]),
    ("chapter_builders_guide__custom_layer", "MyDense", "block", {"units": 3, "in_units": 5}, ["x:float32[2,5]"]),
    ("chapter_builders_guide__model_construction", "MLP", "block", {}, ["X:float32[2,20]"]),
    ("chapter_builders_guide__model_construction", "FixedHiddenMLP", "block", {}, ["X:float32[2,20]"]),
    ("chapter_builders_guide__model_construction", "NestMLP", "block", {}, ["X:float32[2,20]"]),
    ("chapter_convolutional_neural_networks__conv_layer", "corr2d", "fn", {}, ["X:float32[4,5]", "K:float32[2,3]"]),
    ("chapter_convolutional_neural_networks__pooling", "pool2d", "fn", {"pool_size": (2, 2)}, ["X:float32[4,5]"]),
    ("chapter_convolutional_neural_networks__channels", "corr2d_multi_in_out", "fn", {},
     ["X:float32[2,4,5]", "K:float32[3,2,2,2]"]),
    ("chapter_convolutional_modern__resnet", "Residual", "block", {"num_channels": 3},
     ["X:float32[2,3,6,6]"]),
]


# -- converting -----------------------------------------------------------------------------------

def convert(src: Path, out: Path) -> dict:
    from xlate.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stderr(buf), contextlib.redirect_stdout(io.StringIO()):
        main(["convert", str(src), "-o", str(out), "--format", "json", "-j", "1", "--keep-going"])
    return json.loads(buf.getvalue())


def texts(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8", errors="replace")
            for p in sorted(root.rglob("*.py"))}


def dialect(name: str) -> bool:
    return name.startswith(DIALECT)


def count_references(src: Path, out: Path, report: dict, keep=None) -> dict:
    """Dialect references before and after, and what is left by cause; `keep` chooses other
    references by name (bench/dope_notebooks.py counts all of MXNet's)."""
    keep = keep or dialect
    from xlate.check.leftovers import find, leftovers

    originals, converted = texts(src), texts(out)
    prefix = str(src) + "/"
    diagnostics = {f["path"][len(prefix):] if f["path"].startswith(prefix) else Path(f["path"]).name:
                   f["diagnostics"] for f in report["files"]}
    before = Counter()
    for rel, text in originals.items():
        before[rel] = sum(1 for lo in leftovers(text, rel, text) if lo.kind != "import" and keep(lo.name))
    left = [lo for lo in find(originals, converted, diagnostics) if lo.kind != "import" and keep(lo.name)]
    causes = Counter()
    silent = 0
    for lo in left:
        ds = [d for d in diagnostics.get(lo.path, []) if d["line"] == lo.in_line and d["status"] != "fixed"]
        if not lo.reported:
            silent += 1
        if not ds:
            causes["not reported at its line" if not lo.reported else "reported on a nearby line"] += 1
            continue
        d = ds[0]
        causes[f"{d['code']} {lo.name}" if d["code"] == "MX900" else f"{d['code']} {d['message'][:70]}"] += 1
    # what the report leaves for a human in the dialect's family (methods on arrays whose kind
    # is unknown are counted here: they are no names of mxnet.numpy)
    items = Counter(f"{d['code']} {d['status']}" for ds in diagnostics.values() for d in ds
                    if d["status"] != "fixed" and (d["code"].startswith("MX7") or (
                        d["code"] == "MX900" and "mxnet.numpy" in d["message"])))
    total = sum(before.values())
    return {"open_items": items.most_common(), "files": len(originals),
            "dialect_files": sum(1 for v in before.values() if v),
            "references": total, "left": len(left), "converted": total - len(left),
            "share_converted": round(100 * (total - len(left)) / total, 1) if total else None,
            "silent": silent, "causes": causes.most_common()}


def imports_mxnet(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.Import) and any(a.name.split(".")[0] == "mxnet" for a in n.names)
               or isinstance(n, ast.ImportFrom) and n.level == 0 and (n.module or "").split(".")[0] == "mxnet"
               for n in ast.walk(tree))


def parse_counts(src: Path, out: Path) -> dict:
    """Output files that parse, and files that import MXNet before and after."""
    ok, bad, before, after = 0, [], 0, 0
    for text in texts(src).values():
        try:
            before += imports_mxnet(ast.parse(text))
        except SyntaxError:
            pass
    for rel, text in texts(out).items():
        try:
            tree = ast.parse(text)
            ok += 1
            after += imports_mxnet(tree)
        except SyntaxError as e:
            bad.append(f"{rel}:{e.lineno}: {e.msg}")
    return {"converted_files": ok + len(bad), "parse": ok, "parse_failures": bad,
            "import_mxnet_before": before, "import_mxnet_after": after}


BLOCK_MXNET = ("import sys, importlib.abc\n"
               "class _NoMX(importlib.abc.MetaPathFinder):\n"
               "    def find_spec(self, name, path, target=None):\n"
               "        if name == 'mxnet' or name.startswith('mxnet.'):\n"
               "            raise ImportError('mxnet is not installed here')\n"
               "sys.meta_path.insert(0, _NoMX())\n")


# Harness plumbing: a third-party module that is not installed here (gluon-nlp's yacs,
# sentencepiece, ...) is given as an empty stub, found only after every real finder failed, so
# that an import failure is the converted code's (or MXNet's), not this machine's.
STUB_MISSING = ("import importlib.abc, importlib.machinery, types\n"
                "class _Missing(importlib.abc.MetaPathFinder, importlib.abc.Loader):\n"
                "    def find_spec(self, name, path, target=None):\n"
                "        if name.split('.')[0] not in {missing!r}:\n"
                "            return None\n"
                "        return importlib.machinery.ModuleSpec(name, self, is_package=True)\n"
                "    def create_module(self, spec):\n"
                "        m = types.ModuleType(spec.name)\n"
                "        m.__path__ = []\n"
                "        def attribute(attr):\n"
                "            if attr.startswith('__'):\n"
                "                raise AttributeError(attr)\n"
                "            return type(attr, (), {{}})\n"
                "        m.__getattr__ = attribute\n"
                "        return m\n"
                "    def exec_module(self, module):\n"
                "        pass\n"
                "sys.meta_path.append(_Missing())\n")


def missing_modules(root: Path) -> list[str]:
    """Top-level modules the tree imports that are neither installed here, nor the standard
    library's, nor MXNet, nor the tree's own."""
    import importlib.util

    own = {p.name for p in root.iterdir() if p.is_dir()} | {p.stem for p in root.glob("*.py")} | {root.name}
    names = set()
    for text in texts(root).values():
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    def absent(name):
        try:
            return importlib.util.find_spec(name) is None
        except ValueError:  # a stub of ours in sys.modules (STUBBED): not installed here
            return True
    return sorted(n for n in names - own - set(sys.stdlib_module_names) - {"mxnet", "d2l"} if absent(n))


def import_counts(root: Path, modules: list[str], *, missing: list[str] = (), timeout: int = 120) -> dict:
    """Each module imported in a fresh process where `import mxnet` fails (`missing`: third-party
    modules not installed here, stubbed: STUB_MISSING)."""
    ok, failures = 0, Counter()
    examples: dict[str, str] = {}
    stub = STUB_MISSING.format(missing=tuple(missing))
    for module in modules:
        code = BLOCK_MXNET + stub + f"sys.path.insert(0, {str(root)!r})\nimport importlib\n" \
            f"importlib.import_module({module!r})\n"
        try:
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
            lines = run.stderr.strip().splitlines()
            where = [ln.strip() for ln in lines if ln.strip().startswith("File ") and str(root) in ln]
            err = (lines[-1] + (f" ({where[-1][5:].replace(str(root) + '/', '')})" if where else "")) \
                if run.returncode else ""
        except subprocess.TimeoutExpired:
            err = "timeout"
        if not err:
            ok += 1
        else:
            failures[err.split(":")[0]] += 1
            examples.setdefault(err[:160], module)
    return {"modules": len(modules), "import": ok, "import_failures": failures.most_common(),
            "examples": sorted(examples.items())[:12]}


# -- snippets -------------------------------------------------------------------------------------

class _Anything(types.ModuleType):
    """A stubbed plotting/download module: any attribute is another stub (never called here)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything(f"{self.__name__}.{name}")


def _stub_modules() -> None:
    for name in STUBBED:
        sys.modules.setdefault(name, _Anything(name))


def definitions(source: str) -> str:
    """The imports, definitions and `npx.set_np()` of a section file, without the statements
    that run (training, plotting)."""
    tree = ast.parse(source)
    keep = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)):
            keep.append(node)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and "set_np" in ast.unparse(node.value.func):
            keep.append(node)
    lines = source.splitlines()

    def text(node):  # with its decorators (`@d2l.add_to_class(...)`)
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        return "\n".join(lines[start - 1:node.end_lineno])
    return "\n".join(text(n) for n in keep) + "\n"


def _module(name: str, source: str, filename: str) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module
    exec(compile(source, filename, "exec"), module.__dict__)
    return module


def _library(side: str, root: Path) -> types.ModuleType:
    """The library as the package module it is (its conversion imports `._mx_compat`), under a
    package name of its own per side."""
    import importlib

    for name in [m for m in sys.modules if m == f"d2l_{side}" or m.startswith(f"d2l_{side}.")]:
        del sys.modules[name]  # another part's (book version's) library
    package = types.ModuleType(f"d2l_{side}")
    package.__path__ = [str(root / Path(D2L_LIB).parent)]
    sys.modules[package.__name__] = package
    return importlib.import_module(f"d2l_{side}.{Path(D2L_LIB).stem}")


def _d2l_package(lib: types.ModuleType) -> None:
    """`from d2l import mxnet as d2l` gives `lib`."""
    package = types.ModuleType("d2l")
    package.__path__ = []
    package.mxnet = lib
    sys.modules["d2l"], sys.modules["d2l.mxnet"] = package, lib


def _inputs(specs: list[str], seed: int):
    import numpy as np

    from xlate.check.inputs import draw, parse

    rng = np.random.default_rng(seed)
    arrays, parsed = [], []
    for s in specs:
        name, _, spec = s.partition(":")
        if spec.startswith("const["):
            arrays.append(np.array([float(v) for v in spec[6:-1].split(",")], dtype=np.float32))
            parsed.append(None)
            continue
        positive = spec.endswith(">0")
        p = parse(f"{name}:{spec[:-2] if positive else spec}")
        a = draw(p, rng)
        arrays.append(np.abs(a) + 0.05 if positive else a)
        parsed.append(p)
    return arrays, parsed


def run_snippets(src: Path, out: Path) -> dict:
    """SNIPPETS, each on both sides: 'match', 'differs', or the stage that failed."""
    import mxnet as mx
    import numpy as np
    import torch

    from xlate.check import rule_cases
    from xlate.check.inputs import InputSpec
    from xlate.check.pair import check_models

    _stub_modules()
    sys.path.insert(0, str(out))  # the converted tree's _mx_compat.py
    results = []
    sides = {}
    for side, root in (("mx", src), ("pt", out)):
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                sides[side] = _library(side, root)
        except Exception as e:  # the library itself does not load: every snippet that needs it fails
            sides[side] = e
    for i, (stem, name, kind, kwargs, specs) in enumerate(SNIPPETS):
        if not (src / f"{stem}.py").is_file():  # the other book version names its sections apart
            continue
        row = {"snippet": f"{stem.split('__')[-1]}.{name}", "kind": kind}
        try:
            objs = {}
            for side, root in (("mx", src), ("pt", out)):
                stage = f"{side}: the d2l library"
                if isinstance(sides[side], Exception):
                    raise RuntimeError(f"{stage}: {type(sides[side]).__name__}: {sides[side]}")
                _d2l_package(sides[side])
                stage = f"{side}: load"
                path = root / f"{stem}.py"
                try:
                    module = _module(f"snippet_{side}_{i}", definitions(path.read_text(encoding="utf-8")), str(path))
                    objs[side] = getattr(module, name)
                except Exception as e:
                    raise RuntimeError(f"{stage}: {type(e).__name__}: {e}") from e
            arrays, parsed = _inputs(specs, seed=i)
            mx.npx.set_np()
            if kind == "fn":
                expected = objs["mx"](*[mx.np.array(a, dtype=a.dtype) for a in arrays], **kwargs)
                actual = objs["pt"](*[torch.from_numpy(a.copy()) for a in arrays], **kwargs)
                bad = rule_cases.problems(rule_cases.compare_outputs(actual, expected))
                row["result"] = "match" if not bad else "differs: " + bad[0][:200]
            else:
                mx_net, pt_model = objs["mx"](**kwargs), objs["pt"](**kwargs)
                specs_in = [p if p is not None else InputSpec(s.partition(":")[0], "const", (len(a),))
                            for p, s, a in zip(parsed, specs, arrays)]
                consts = {j: a for j, (p, a) in enumerate(zip(parsed, arrays)) if p is None}
                result = check_models(mx_net, pt_model, specs_in, seed=i) if not consts else \
                    _check_with_constants(check_models, mx_net, pt_model, specs_in, consts, i)
                bad = [c.mismatch.format() for c in result.checks if not c.ok]
                row["result"] = "match" if result.ok else "differs: " + (bad[0][:200] if bad else "?")
                row["checks"] = len(result.checks)
        except Exception as e:
            row["result"] = f"fails: {str(e)[:240]}" if isinstance(e, RuntimeError) else \
                f"fails: {type(e).__name__}: {str(e)[:200]}"
        finally:
            mx.npx.reset_np()
        results.append(row)
        print(f"  {row['snippet']:<45} {row['result'][:110]}", flush=True)
    counts = Counter(r["result"].split(":")[0] for r in results)
    return {"snippets": len(results), "by_result": dict(counts), "rows": results}


def _check_with_constants(check_models, mx_net, pt_model, specs, consts, seed):
    """check_models draws every input; valid lengths must be given: both models are wrapped to
    take the drawn inputs only and add the fixed ones."""
    import mxnet as mx
    import torch

    from xlate.check.inputs import InputSpec

    order = list(range(len(specs)))
    drawn = [j for j in order if j not in consts]

    class MxWrap(mx.gluon.Block):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, *xs):
            it = iter(xs)
            args = [mx.np.array(consts[j]) if j in consts else next(it) for j in order]
            return self.inner(*args)

    class PtWrap(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, *xs):
            it = iter(xs)
            args = [torch.from_numpy(consts[j].copy()) if j in consts else next(it) for j in order]
            return self.inner(*args)

    return check_models(MxWrap(mx_net), PtWrap(pt_model), [specs[j] for j in drawn if isinstance(specs[j], InputSpec)
                                                           and specs[j].dtype != "const"], seed=seed)


# -- the run --------------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", nargs="?", default=os.environ.get("XLATE_NP_CORPUS", "/work/corpus"))
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--keep", type=Path, help="keep the converted trees here")
    ap.add_argument("--parts", default=",".join(PARTS), help="comma-separated: " + ", ".join(PARTS))
    ap.add_argument("--no-run", action="store_true", help="skip imports and snippets")
    args = ap.parse_args(argv)
    corpus = Path(args.corpus)
    parts = {k: corpus / PARTS[k] for k in args.parts.split(",") if k in PARTS and (corpus / PARTS[k]).is_dir()}
    if not parts:
        print(f"numpy_corpus: no part of the corpus under {corpus} ({', '.join(PARTS.values())}); nothing to do")
        return 0
    try:
        import mxnet  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(f"numpy_corpus: needs mxnet and torch ({e}); nothing to do")
        return 0
    work = args.keep or Path(tempfile.mkdtemp(prefix="xlate_np_"))
    figures = {}
    for part, src in parts.items():
        out = work / part / src.name
        if out.exists():
            shutil.rmtree(out)
        start = time.monotonic()
        report = convert(src, out)
        row = {"convert_s": round(time.monotonic() - start, 1), "summary": report.get("summary")}
        row.update(count_references(src, out, report))
        row.update(parse_counts(src, out))
        if not args.no_run:
            if part == "gluonnlp":
                modules = sorted("gluonnlp." + p.relative_to(out).with_suffix("").as_posix().replace("/", ".")
                                 .removesuffix(".__init__") for p in out.rglob("*.py"))
                modules = [m.removesuffix(".__init__") if m != "gluonnlp.__init__" else "gluonnlp" for m in modules]
                row["stubbed"] = missing_modules(src)
                row.update(import_counts(out.parent, modules, missing=row["stubbed"]))
            if part.startswith("d2l") and (out / D2L_LIB).is_file():
                row["library_import"] = import_counts(out, ["d2l.mxnet"], missing=missing_modules(src))
                row.update(run_snippets(src, out))
        figures[part] = row
        print(f"\n== {part}: {row['files']} files ({row['dialect_files']} use the dialect), converted in "
              f"{row['convert_s']} s")
        print(f"   dialect references: {row['references']}, converted {row['converted']} "
              f"({row['share_converted']}%), left {row['left']} (silent {row['silent']})")
        print(f"   parse after conversion: {row['parse']}/{row['converted_files']} (with _mx_compat.py); files "
              f"importing mxnet: {row['import_mxnet_before']} before, {row['import_mxnet_after']} after")
        if "modules" in row:
            print(f"   import without mxnet: {row['import']}/{row['modules']}  {row['import_failures'][:6]}")
        if "library_import" in row:
            print(f"   d2l library imports without mxnet: {row['library_import']['import']}/1 "
                  f"{row['library_import']['examples'][:1]}")
        if "snippets" in row:
            print(f"   snippets: {row['by_result']}")
        print(f"   manual/review items of the dialect in the report: {row['open_items'][:10]}")
        print("   left by cause:")
        for cause, n in row["causes"][:15]:
            print(f"     {n:5d}  {cause}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, default=str), encoding="utf-8")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
