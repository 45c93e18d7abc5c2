"""Real model code: convert GluonCV's whole package and compare its model zoo with Gluon.

    .venv/bin/python bench/model_zoo.py /work/corpus/gluoncv-v0.10.0          # or XLATE_ZOO_CORPUS=...
    .venv/bin/python bench/model_zoo.py CORPUS --json zoo.json --models 'resnet|mobilenet'
    .venv/bin/python bench/model_zoo.py CORPUS --reuse --models alexnet -v    # skip converting again

CORPUS is a folder holding GluonCV's `gluoncv/` package (v0.10.0 fits mxnet 1.9.1; see
bench/README.md for how to extract it). Without it, or without mxnet and torch, the script
says why and exits 0: the test suite never needs it.

1. Converts `CORPUS/gluoncv` as a user would (`xlate convert gluoncv -o OUT --format json`,
   run in this process with -j 1) and times it against the floor, `libcst.parse_module(src).code`
   over the same files in the same process.
2. Harness plumbing, not xlate's output: the converted tree is copied as `gluoncv_pt` and its
   absolute `gluoncv` imports are renamed (same lines), so that both packages import in one
   process.
3. Each model of MODELS runs in a worker process (bench/zoo_worker.py; one model's crash or
   hang costs only that model): Gluon model with random weights, converted model, the
   checker's weight pairing (xlate.check.mapping), inference outputs compared at float32
   tolerances, and for models marked `grad`, xlate.check.pair.check_models in noise mode
   (training outputs, every gradient, running statistics; what differs is judged against a
   float64 copy of the converted model: "within float32 noise (K=...)" or "differs").
4. Classifies each model by the first stage that fails, with the error's first line and the
   file:line in the converted code (and the original line, and what the report says there),
   then totals by cause and the most common root causes.
5. Counts silent misses: MXNet left in the output with no report at its line (xlate/check/leftovers.py).

Always exits 0 unless the harness itself breaks: it measures, it does not gate.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

# name, input shapes (one per model input), get_model keyword arguments, gradients checked.
# Inputs are the smallest that Gluon accepts, measured on v0.10.0 (the global pools of
# squeezenet/densenet/googlenet/residualattention need 224, inception 299); batch 2 where
# gradients are checked (training-mode BatchNorm over one value per channel says little).
# Gradients are checked in noise mode (Note [noise floor] in xlate/check/noise.py); at 2x32x32
# the last BatchNorms of the mobilenets and resnet50_v1d see 2 values a channel and float32
# cannot resolve their gradients at all (PyTorch's own float32 result is off by 10-100% of
# them), so they get 2x64x64 (8 values); much larger inputs put many ReLU inputs within float32
# noise of zero, and PyTorch's float32 result then crosses kinks of its own (Note [kinks]).
S32, S64, S224 = [1, 3, 32, 32], [1, 3, 64, 64], [1, 3, 224, 224]
G32, G64 = [2, 3, 32, 32], [2, 3, 64, 64]
SEG = {"pretrained_base": False, "crop_size": 64, "base_size": 72}
MODELS: list[tuple[str, list, dict, bool]] = [
    # classification: ResNet family
    ("resnet18_v1", [G32], {}, True),
    ("resnet34_v1", [S32], {}, False),
    ("resnet50_v1", [S32], {}, False),
    ("resnet18_v2", [G32], {}, True),
    ("resnet50_v2", [S32], {}, False),
    ("resnet18_v1b", [G32], {}, True),
    ("resnet50_v1b", [S32], {}, False),
    ("resnet50_v1c", [S32], {}, False),
    ("resnet50_v1d", [G64], {}, True),
    ("resnet50_v1e", [S32], {}, False),
    ("resnet50_v1s", [S32], {}, False),
    ("resnet50_v1b_gn", [S32], {}, False),
    ("resnet18_v1b_0.89", [S32], {}, False),
    ("resnet50_v1d_0.11", [S32], {}, False),
    ("resnext50_32x4d", [S32], {}, False),
    ("se_resnext50_32x4d", [S32], {}, False),
    ("se_resnet18_v1", [S32], {}, False),
    ("se_resnet18_v2", [S32], {}, False),
    ("senet_154", [S32], {}, False),
    ("resnest14", [S32], {}, False),
    ("resnest50", [S32], {}, False),
    # classification: mobile and classic nets
    ("mobilenet1.0", [S32], {}, False),
    ("mobilenet0.25", [G64], {}, True),
    ("mobilenetv2_1.0", [S32], {}, False),
    ("mobilenetv2_0.25", [G64], {}, True),
    ("mobilenetv3_small", [G64], {}, True),
    ("mobilenetv3_large", [S32], {}, False),
    ("squeezenet1.0", [S224], {}, False),
    ("squeezenet1.1", [[2, 3, 224, 224]], {}, True),
    ("densenet121", [S224], {}, False),
    ("vgg11", [S32], {}, False),
    ("vgg11_bn", [G32], {}, True),
    ("alexnet", [[2, 3, 64, 64]], {}, True),
    ("inceptionv3", [[1, 3, 299, 299]], {}, False),
    ("googlenet", [S224], {}, False),
    ("xception", [S32], {}, False),
    ("darknet53", [S32], {}, False),
    ("nasnet_4_1056", [S32], {}, False),
    ("residualattentionnet56", [S224], {}, False),
    ("hrnet_w18_small_v1_c", [S32], {}, False),
    ("dla34", [S32], {}, False),
    # CIFAR
    ("cifar_resnet20_v1", [G32], {}, True),
    ("cifar_resnet20_v2", [S32], {}, False),
    ("cifar_wideresnet16_10", [S32], {}, False),
    ("cifar_resnext29_32x4d", [S32], {}, False),
    ("cifar_residualattentionnet56", [S32], {}, False),
    # segmentation heads (crop 64: the heads size their pooling from it)
    ("fcn_resnet50_voc", [S64], SEG, False),
    ("psp_resnet50_ade", [S64], SEG, False),
    ("deeplab_resnet50_ade", [S64], SEG, False),
    ("danet_resnet50_citys", [S64], SEG, False),
    ("icnet_resnet50_citys", [[1, 3, 96, 96]], {**SEG, "crop_size": 96, "base_size": 108}, False),
    ("fastscnn_citys", [S64], SEG, False),
    ("hrnet_w18_small_v1_s", [S32], {}, False),
    # detection, pose, depth, video
    ("center_net_resnet18_v1b_voc", [S64], {"pretrained_base": False}, False),
    ("center_net_mobilenetv3_small_duc_voc", [S64], {"pretrained_base": False}, False),
    ("yolo3_mobilenet0.25_voc", [S64], {"pretrained_base": False}, False),
    ("yolo3_darknet53_voc", [S64], {"pretrained_base": False}, False),
    ("ssd_300_mobilenet0.25_voc", [[1, 3, 300, 300]], {"pretrained_base": False}, False),
    ("simple_pose_resnet18_v1b", [S64], {"pretrained_base": False}, False),
    ("mobile_pose_mobilenetv3_small", [S64], {"pretrained_base": False}, False),
    ("monodepth2_resnet18_kitti_stereo_640x192", [S64], {"pretrained_base": False}, False),
    ("r2plus1d_resnet18_kinetics400", [[1, 3, 4, 32, 32]], {}, False),
    ("i3d_resnet50_v1_kinetics400", [[1, 3, 8, 32, 32]], {"pretrained_base": False}, False),
]

CAUSES = ["gluon-fails-to-build", "converted-import-fails", "converted-build-fails", "forward-fails",
          "weight-pairing-fails", "outputs-differ", "gradients-differ", "timeout", "crash", "harness-error",
          "match"]


# -- the corpus ---------------------------------------------------------------------------
def find_corpus(arg: str | None) -> tuple[Path | None, str]:
    text = arg or os.environ.get("XLATE_ZOO_CORPUS", "")
    if not text:
        return None, "no corpus given (argument CORPUS or XLATE_ZOO_CORPUS)"
    path = Path(text).expanduser().resolve()
    if path.name == "gluoncv" and (path / "__init__.py").is_file():
        path = path.parent
    if not (path / "gluoncv" / "__init__.py").is_file():
        return None, f"{path}: no gluoncv/ package there"
    return path, ""


def missing_frameworks() -> str:
    import importlib.util

    gone = [m for m in ("mxnet", "torch", "libcst") if importlib.util.find_spec(m) is None]
    return ", ".join(gone)


# -- 1. conversion and its speed ------------------------------------------------------------
def convert(package: Path, out: Path) -> dict:
    """Convert the package in this process with the CLI's own code (-j 1); returns the report,
    the exit code and the time."""
    from xlate import cli

    if out.exists():
        shutil.rmtree(out)
    buf = io.StringIO()
    gc.collect()
    start = time.perf_counter()
    with contextlib.redirect_stderr(buf):
        code = cli.main(["convert", str(package), "-o", str(out), "--format", "json", "-j", "1"])
    seconds = time.perf_counter() - start
    text = buf.getvalue()
    try:
        report = json.loads(text)
    except json.JSONDecodeError:
        report = {"files": [], "summary": {}, "unparsed": text[-2000:]}
    return {"exit_code": code, "seconds": seconds, "report": report}


def floor_time(package: Path) -> tuple[float, int, int]:
    """libcst.parse_module(src).code over every .py file of the package: (seconds, files, lines)."""
    import libcst

    sources = [p.read_text(encoding="utf-8") for p in sorted(package.rglob("*.py"))]
    gc.collect()
    start = time.perf_counter()
    for src in sources:
        libcst.parse_module(src).code
    return time.perf_counter() - start, len(sources), sum(s.count("\n") for s in sources)


# -- 2. plumbing: both packages in one process ----------------------------------------------
_FROM = re.compile(r"^(\s*from\s+)gluoncv\b")
_IMPORT = re.compile(r"\bimport(\s+)gluoncv\b")


def make_importable(converted: Path, root: Path) -> int:
    """Copy the converted tree to root/gluoncv_pt and rename its absolute gluoncv imports
    in place (one line each, so line numbers stay those of xlate's output)."""
    import ast

    target = root / "gluoncv_pt"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(converted, target)
    renamed = 0
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        lines = text.splitlines(keepends=True)
        hit = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                    and node.module.split(".")[0] == "gluoncv":
                hit.add((node.lineno - 1, _FROM, r"\1gluoncv_pt"))
            elif isinstance(node, ast.Import) and any(a.name.split(".")[0] == "gluoncv" for a in node.names):
                hit.add((node.lineno - 1, _IMPORT, r"import\1gluoncv_pt"))
        for i, pattern, repl in hit:
            new = pattern.sub(repl, lines[i])
            renamed += new != lines[i]
            lines[i] = new
        if hit:
            path.write_text("".join(lines), encoding="utf-8")
    return renamed


# -- 3. the models, in worker processes -------------------------------------------------------
class Slot(threading.Thread):
    """Feeds models to one worker process; restarts it after a timeout or a crash."""

    def __init__(self, n: int, todo: queue.Queue, results: dict, opts, log_dir: Path, verbose: bool):
        super().__init__(daemon=True)
        self.n, self.todo, self.results, self.opts = n, todo, results, opts
        self.log_dir, self.verbose = log_dir, verbose
        self.proc = None
        self.lines: queue.Queue = queue.Queue()
        self.starts = 0

    def _start(self) -> None:
        self.starts += 1
        self.log = self.log_dir / f"worker{self.n}-{self.starts}.log"
        path = [str(REPO)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        # one thread each: two workers on two cores, and MXNet's OpenMP next to torch's crashes less
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", MXNET_CPU_WORKER_NTHREADS="1",
                   MXNET_HOME=str(self.opts.work / "mxnet_home"), PYTHONWARNINGS="ignore",
                   PYTHONPATH=os.pathsep.join(path))
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "zoo_worker.py"), "--corpus-root", str(self.opts.corpus),
             "--pt-root", str(self.opts.pt_root)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(self.log, "w"), text=True,
            bufsize=1, env=env, start_new_session=True)
        self.lines = queue.Queue()
        proc, lines = self.proc, self.lines
        threading.Thread(target=lambda: [lines.put(ln) for ln in proc.stdout] + [lines.put(None)],
                         daemon=True).start()

    def _stop(self) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, 9)  # the worker's own session: it and its children only
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.proc = None

    def _ready(self, limit: float = 180.0) -> bool:
        """Wait for the worker's imports (both packages): not counted in any model's time."""
        deadline = time.perf_counter() + limit
        while True:
            try:
                line = self.lines.get(timeout=max(0.05, deadline - time.perf_counter()))
            except queue.Empty:
                return False
            if line is None:
                return False
            if line.startswith("{") and "ready" in json.loads(line):
                return True

    def _log_tail(self, n: int = 12) -> str:
        try:
            return "".join(self.log.read_text(errors="replace").splitlines(keepends=True)[-n:])
        except OSError:
            return ""

    def run(self) -> None:
        while True:
            try:
                name, request = self.todo.get_nowait()
            except queue.Empty:
                break
            if self.proc is None:
                self._start()
                if not self._ready():
                    self.results[name] = {"model": name, "cause": "harness-error", "stage": "start",
                                          "error": "the worker did not start", "traceback": self._log_tail(),
                                          "input": ""}
                    self._stop()
                    continue
            started = time.perf_counter()
            stage = "gluon-build"
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            deadline = started + self.opts.timeout
            result = None
            while True:
                try:
                    line = self.lines.get(timeout=max(0.05, deadline - time.perf_counter()))
                except queue.Empty:
                    result = {"model": name, "cause": "timeout", "stage": stage, "error_type": "Timeout",
                              "error": f"Timeout: no answer after {self.opts.timeout:.0f} s in stage {stage}"}
                    self._stop()
                    break
                if line is None:  # the worker died: a segfault, an abort, out of memory
                    code = self.proc.wait()
                    self.proc = None
                    if not request.get("retry"):  # once more in a fresh worker: state left by
                        request["retry"] = f"exit code {code} in stage {stage}"  # an earlier model, or a flaky kernel
                        self.todo.put((name, request))
                        break
                    result = {"model": name, "cause": "crash", "stage": stage, "error_type": "Crash",
                              "error": f"Crash: the worker died (exit code {code}) in stage {stage}",
                              "traceback": self._log_tail()}
                    break
                try:
                    message = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if "stage" in message:
                    stage = message["stage"]
                elif "result" in message:
                    result = message["result"]
                    break
            if result is None:  # crashed once: queued again
                continue
            result["seconds"] = round(time.perf_counter() - started, 2)
            if request.get("retry"):
                result["first_attempt_crashed"] = request["retry"]
            result["input"] = "+".join("x".join(map(str, shape)) for shape in request["inputs"])
            self.results[name] = result
            if self.verbose:
                print(f"  [{len(self.results)}] {name}: {result['cause']} ({result['seconds']} s)"
                      f"{'  ' + result.get('error', '')[:100] if result['cause'] != 'match' else ''}", flush=True)
        self._stop()


def run_models(models, opts) -> dict:
    timings_file = opts.work / "timings.json"
    try:
        previous = json.loads(timings_file.read_text())
    except (OSError, ValueError):
        previous = {}
    # longest first (times of the last run), so that two workers finish together
    order = sorted(models, key=lambda m: -previous.get(m[0], 5.0))
    todo: queue.Queue = queue.Queue()
    for name, inputs, kwargs, grad in order:
        todo.put((name, {"name": name, "inputs": inputs, "kwargs": kwargs, "grad": grad, "seed": opts.seed}))
    results: dict = {}
    log_dir = opts.work / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    slots = [Slot(i, todo, results, opts, log_dir, opts.verbose) for i in range(max(1, opts.jobs))]
    for s in slots:
        s.start()
    for s in slots:
        s.join()
    previous.update({n: r.get("seconds", 5.0) for n, r in results.items()})
    timings_file.write_text(json.dumps(previous, indent=1, sort_keys=True))
    return results


# -- main -----------------------------------------------------------------------------------
def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("corpus", nargs="?", help="folder holding gluoncv/ (default: $XLATE_ZOO_CORPUS)")
    p.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "xlate-model-zoo",
                   help="scratch folder: converted tree, importable copy, logs (default: %(default)s)")
    p.add_argument("--json", type=Path, help="also write everything measured to this JSON file")
    p.add_argument("--models", help="only models whose name matches this regular expression")
    p.add_argument("-j", "--jobs", type=int, default=2, help="worker processes (default: %(default)s)")
    p.add_argument("--timeout", type=float, default=150.0, help="seconds per model (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--reuse", action="store_true",
                   help="keep the converted tree of the last run (no conversion, no timing)")
    p.add_argument("--no-models", action="store_true", help="only convert, time and count silent misses")
    p.add_argument("--sample", type=int, default=15, help="silent misses to list (default: %(default)s)")
    p.add_argument("--speed-repeats", type=int, default=1,
                   help="conversions to time, alternating with the floor; best of each (default: %(default)s)")
    p.add_argument("-v", "--verbose", action="store_true", help="print each model as it finishes")
    opts = p.parse_args(argv)

    corpus, why = find_corpus(opts.corpus)
    if corpus is None:
        print(f"model_zoo: skipped: {why}. See bench/README.md for fetching GluonCV.")
        return 0
    gone = missing_frameworks()
    if gone:
        print(f"model_zoo: skipped: {gone} not installed (the comparison needs mxnet and torch)")
        return 0
    from zoo_report import Tree, headline, locate, print_silent, print_table, root_causes
    from xlate.check import leftovers as zoo_silent

    from xlate.check.noise import K as NOISE_K

    opts.corpus = corpus
    opts.work = opts.work.resolve()
    opts.work.mkdir(parents=True, exist_ok=True)
    package, converted = corpus / "gluoncv", opts.work / "converted" / "gluoncv"
    opts.pt_root = opts.work / "importable"
    record: dict = {"corpus": str(corpus), "models_requested": 0}
    t_all = time.perf_counter()

    # 1. convert, and the floor in the same process
    if opts.reuse and (opts.work / "report.json").is_file() and converted.is_dir():
        conv = {"exit_code": None, "seconds": None, "report": json.loads((opts.work / "report.json").read_text())}
        print(f"reusing the conversion in {converted}")
    else:
        floor_a = floor_time(package)
        conv = convert(package, converted)
        floor = floor_a[0]
        for _ in range(opts.speed_repeats - 1):  # alternate, so that load from elsewhere hits both
            floor = min(floor, floor_time(package)[0])
            again = convert(package, converted)
            conv["seconds"] = min(conv["seconds"], again["seconds"])
        (opts.work / "report.json").write_text(json.dumps(conv["report"]))
        s = conv["report"].get("summary", {})
        rate = f"{100 * s['rate']:.1f}%" if s.get("rate") is not None else "n/a"
        print(f"xlate convert gluoncv -o ... -j 1 (in this process): {conv['seconds']:.1f} s, exit code "
              f"{conv['exit_code']}; floor (libcst parse + render, {floor_a[1]} files, {floor_a[2]} lines): "
              f"{floor:.1f} s; ratio {conv['seconds'] / floor:.2f}x")
        print(f"report: {s.get('files')} files ({s.get('changed')} changed), {s.get('fixed')} fixed, "
              f"{s.get('review')} review, {s.get('manual')} manual; convert rate {rate}")
        manual = Counter(d["code"] for f in conv["report"].get("files", []) for d in f["diagnostics"]
                         if d["status"] == "manual")
        print("  manual items by code: " + ", ".join(f"{c} {n}" for c, n in manual.most_common(10)))
        record["speed"] = {"convert_s": conv["seconds"], "floor_s": floor, "ratio": conv["seconds"] / floor,
                           "files": floor_a[1], "lines": floor_a[2]}
        record["report_summary"] = s
        record["exit_code"] = conv["exit_code"]
        if not converted.is_dir():
            print("model_zoo: the conversion wrote no tree; stopping here")
            print(conv["report"].get("unparsed", ""))
            return 1

    # 2. plumbing
    renamed = make_importable(converted, opts.pt_root)
    print(f"harness plumbing (not xlate's output): converted tree copied to {opts.pt_root / 'gluoncv_pt'}, "
          f"{renamed} absolute `gluoncv` imports renamed to `gluoncv_pt` on their own lines")

    # 5. silent misses
    tree = Tree(package, converted, conv["report"])
    originals, texts = tree.texts()
    items = zoo_silent.find(originals, texts, tree.diagnostics, frozenset({"gluoncv"}))
    print()
    record["silent"] = print_silent(items, opts.sample)
    record["silent"]["items"] = [vars(lo) for lo in items if not lo.reported]

    # 3-4. models
    models = [m for m in MODELS if not opts.models or re.search(opts.models, m[0])]
    record["models_requested"] = len(models)
    if models and not opts.no_models:
        print(f"\nrunning {len(models)} models in {opts.jobs} worker processes "
              f"(timeout {opts.timeout:.0f} s each; logs in {opts.work / 'logs'})", flush=True)
        t0 = time.perf_counter()
        results = run_models(models, opts)
        print(f"models done in {time.perf_counter() - t0:.0f} s\n")
        locate(results, tree)
        print_table(results)
        head = headline(results, models)
        causes = root_causes(results)
        print()
        r = head["reached"]
        print(f"Gluon builds {head['gluon_builds']} of {head['models']} models (the others are excluded from the "
              f"target). "
              f"After conversion: {r['imports']} import, {r['builds']} build, {r['runs']} run, "
              f"{r['pairs']} pair their weights, {r['outputs match']} give Gluon's outputs; "
              f"gradients match for {head['gradient_match']} of the {head['gradient_models']} checked "
              f"({head['gradient_within_noise']} of them within float32 noise, noise mode K={NOISE_K:g}; "
              f"see Note [noise floor] in xlate/check/noise.py).")
        print("by cause: " + ", ".join(f"{c} {head['by_cause'][c]}" for c in CAUSES if c in head["by_cause"]))
        located = [x for x in results.values() if x.get("side") == "converted" and x["cause"] != "match"]
        flagged = sum(bool(x.get("report_at_line")) for x in located)
        print(f"failures located in converted code: {len(located)}; at a line the report flags manual/review: "
              f"{flagged}; at a line it does not: {len(located) - flagged}")
        print("\nroot causes (models sharing one error; where; what the report says there):")
        for g in causes[:20]:
            print(f"  {len(g['models']):3} x {g['cause'][:150]}")
            print(f"        models: {', '.join(g['models'][:8])}{' ...' if len(g['models']) > 8 else ''}")
            locs = list(g["locations"].items())[:3]
            if locs:
                print("        at: " + "; ".join(f"{k} x{v}" for k, v in locs))
            if g["report"]:
                print("        report: " + "; ".join(f"{k} x{v}" for k, v in list(g["report"].items())[:2]))
        record.update(headline=head, root_causes=causes, models=results)
    record["total_s"] = time.perf_counter() - t_all
    print(f"\ntotal {record['total_s']:.0f} s")
    if opts.json:
        opts.json.write_text(json.dumps(record, indent=1, default=str))
        print(f"wrote {opts.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
