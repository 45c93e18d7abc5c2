"""How fast xlate converts, against LibCST's own parse + render, and how fast it starts.

    .venv/bin/python bench/convert_speed.py                  # generated ~3000-line corpus
    .venv/bin/python bench/convert_speed.py path/to/file.py  # your own file instead
    .venv/bin/python bench/convert_speed.py --repeats 3 --skip-dir
    .venv/bin/python bench/convert_speed.py --tree ../corpus/gluoncv-v0.10.0/gluoncv --only-tree

Measured, all wall-clock, best of N:
  floor    libcst.parse_module(src).code        (what any LibCST codemod pays)
  convert  xlate.convert.engine.convert_source(src)     (target: < 3.0x the floor)
  startup  `python -m xlate convert --help` in a fresh process (target: < 0.5 s),
           plus the `xlate` console script when the venv has one, a bare interpreter for
           reference, and a tiny real conversion (imports LibCST and the catalogue)
  trees    `python -m xlate convert DIR -o OUT` over 16 files of ~1000 lines with -j 1
           and -j 2 (the speed-up says whether the process pool pays off)
  real     with --tree DIR: a real package converted as one tree, in this process with
           -j 1 (package analysis, every file, the helper module, the writes), against
           the floor summed over its files (target: < 2.0x); then -j 2 against -j 1 in
           fresh processes (target: >= 1.8x on 2 idle cores)

Always exits 0: it reports, it does not gate.
"""
from __future__ import annotations

import argparse
import gc
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

import libcst  # noqa: E402

from make_corpus import generate  # noqa: E402
from xlate.convert.engine import convert_source  # noqa: E402

RATIO_TARGET = 3.0
TREE_TARGET = 2.0
JOBS_TARGET = 1.8
STARTUP_TARGET = 0.5


def best_of(fn, repeats: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), times


def run_wall(cmd: list[str], repeats: int, **kw) -> tuple[float, int]:
    """Best wall time of a subprocess, and its exit status."""
    best, rc = float("inf"), 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        best = min(best, time.perf_counter() - t0)
        rc = proc.returncode
    return best, rc


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def bench_in_process(src: str, repeats: int) -> dict:
    lines = src.count("\n") + (not src.endswith("\n"))
    # First conversion in this process: imports transforms, loads the catalogue.
    t0 = time.perf_counter()
    result = convert_source(src)
    first = time.perf_counter() - t0
    # Floor and convert alternate, so load from other processes hits both alike.
    floor_all, conv_all = [], []
    for _ in range(repeats):
        floor_all.append(best_of(lambda: libcst.parse_module(src).code, 1)[0])
        conv_all.append(best_of(lambda: convert_source(src), 1)[0])
    return dict(lines=lines, first=first, floor=min(floor_all), conv=min(conv_all), floor_all=floor_all,
                conv_all=conv_all, diagnostics=len(result.diagnostics), changed=result.changed)


def bench_startup(repeats: int) -> list[tuple[str, float, int]]:
    py = sys.executable
    rows = [("python -c pass (interpreter alone)", *run_wall([py, "-c", "pass"], repeats)),
            ("python -m xlate convert --help", *run_wall([py, "-m", "xlate", "convert", "--help"], repeats))]
    script = Path(py).parent / "xlate"
    if script.exists():
        rows.append(("xlate convert --help (console script)", *run_wall([str(script), "convert", "--help"], repeats)))
    else:
        rows.append(("xlate console script", float("nan"), -1))
    with tempfile.TemporaryDirectory(prefix="xlate-bench-") as tmp:
        tiny = Path(tmp) / "tiny.py"
        tiny.write_text("from mxnet import nd\nx = nd.ones((2, 3))\ny = x.reshape((0, -1)).asnumpy()\n")
        rows.append(("python -m xlate convert tiny.py (3 lines)", *run_wall([py, "-m", "xlate", "convert", str(tiny)], repeats)))
    return rows


def bench_tree(files: int, lines: int, repeats: int, jobs: tuple[int, ...]) -> dict:
    results = {}
    with tempfile.TemporaryDirectory(prefix="xlate-bench-") as tmp:
        src_dir = Path(tmp) / "src"
        (src_dir / "pkg").mkdir(parents=True)
        total = 0
        for i in range(files):
            text = generate(lines, seed=1000 + i)
            total += text.count("\n")
            (src_dir / "pkg" / f"module_{i:02d}.py").write_text(text, encoding="utf-8")
        best = {j: (float("inf"), 0) for j in jobs}
        for r in range(repeats):  # -j 1 and -j 2 alternate, so drifting load hits both
            for j in jobs:
                out = Path(tmp) / f"out_j{j}_{r}"
                t0 = time.perf_counter()
                proc = subprocess.run([sys.executable, "-m", "xlate", "convert", str(src_dir), "-o", str(out), "-j", str(j)],
                                      cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                elapsed = time.perf_counter() - t0
                if proc.returncode not in (0, 1):
                    print(f"  xlate convert -j {j} failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
                best[j] = (min(best[j][0], elapsed), proc.returncode)
                shutil.rmtree(out, ignore_errors=True)
        results.update(best)
        results["total_lines"] = total
    return results


def bench_real_tree(root: Path, repeats: int, jobs_repeats: int) -> dict:
    """A real package as one tree: in-process -j 1 against the summed floor, then -j 2/-j 1."""
    from contextlib import redirect_stderr
    from xlate import cli

    files = sorted(p for p in root.rglob("*.py") if p.is_file())
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in files]
    lines = sum(t.count("\n") for t in texts)

    def floor():
        for t in texts:
            try:
                libcst.parse_module(t).code
            except Exception:  # a file LibCST rejects costs its attempt, as it does xlate
                pass

    def convert(out: Path, jobs: int) -> int:
        with open(os.devnull, "w") as null, redirect_stderr(null):
            return cli.main(["convert", str(root), "-o", str(out), "-j", str(jobs), "--exit-zero", "--keep-going"])

    floor_all, conv_all, rc = [], [], 0
    with tempfile.TemporaryDirectory(prefix="xlate-bench-") as tmp:
        rc = convert(Path(tmp) / "warm", 1)  # catalogue load and lazy imports, once
        for r in range(repeats):  # interleaved, so drifting load hits both alike
            floor_all.append(best_of(floor, 1)[0])
            out = Path(tmp) / f"out{r}"
            conv_all.append(best_of(lambda: convert(out, 1), 1)[0])
            shutil.rmtree(out, ignore_errors=True)
        wall = {1: float("inf"), 2: float("inf")}
        for r in range(jobs_repeats):
            for j in (1, 2):
                out = Path(tmp) / f"j{j}_{r}"
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "xlate", "convert", str(root), "-o", str(out), "-j", str(j),
                                "--keep-going"], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                wall[j] = min(wall[j], time.perf_counter() - t0)
                shutil.rmtree(out, ignore_errors=True)
    return dict(files=len(files), lines=lines, floor=min(floor_all), conv=min(conv_all), rc=rc, wall=wall)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Benchmark xlate's conversion speed and start-up.")
    p.add_argument("path", nargs="?", help="a Python file to convert instead of the generated corpus")
    p.add_argument("--lines", type=int, default=3000, help="size of the generated corpus (default 3000)")
    p.add_argument("--seed", type=int, default=None, help="corpus seed (default: make_corpus's)")
    p.add_argument("--repeats", type=int, default=5, help="best of N for in-process timings (default 5)")
    p.add_argument("--startup-repeats", type=int, default=5)
    p.add_argument("--dir-files", type=int, default=16)
    p.add_argument("--dir-lines", type=int, default=1000)
    p.add_argument("--dir-repeats", type=int, default=1)
    p.add_argument("--skip-startup", action="store_true")
    p.add_argument("--skip-dir", action="store_true")
    p.add_argument("--tree", help="a real package to convert as one tree (e.g. gluoncv/)")
    p.add_argument("--tree-repeats", type=int, default=3)
    p.add_argument("--only-tree", action="store_true", help="measure --tree alone")
    args = p.parse_args(argv)

    t_start = time.perf_counter()
    if args.path:
        src = Path(args.path).read_text(encoding="utf-8")
        what = args.path
    else:
        src = generate(args.lines) if args.seed is None else generate(args.lines, args.seed)
        what = f"generated corpus (bench/make_corpus.py, {args.lines} lines requested)"

    try:
        from importlib.metadata import version
        cst_version = version("libcst")
    except Exception:  # pragma: no cover
        cst_version = "?"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"xlate conversion benchmark: python {sys.version.split()[0]}, libcst {cst_version}, "
          f"{os.cpu_count()} CPUs, load average {load:.2f}")
    if load > 0.5 * (os.cpu_count() or 1):
        print("warning: other processes are busy on this machine; timings (and -j 2) will be noisy")
    print(f"input: {what}\n")

    if args.tree:
        t = bench_real_tree(Path(args.tree), args.tree_repeats, args.tree_repeats)
        tr = t["conv"] / t["floor"]
        sp = t["wall"][1] / t["wall"][2]
        print(f"Real tree {args.tree}: {t['files']} files, {t['lines']} lines (exit {t['rc']}), best of "
              f"{args.tree_repeats}:")
        print(f"  floor   parse_module(src).code, every file   {t['floor']:7.2f} s")
        print(f"  convert xlate convert DIR -o OUT -j 1        {t['conv']:7.2f} s  (in this process, "
              f"package analysis and writes included)")
        print(f"  ratio convert/floor                          {tr:7.2f}x   target < {TREE_TARGET:.1f}x  "
              f"[{verdict(tr < TREE_TARGET)}]")
        print(f"  fresh processes: -j 1 {t['wall'][1]:.2f} s, -j 2 {t['wall'][2]:.2f} s, speed-up {sp:.2f}x   "
              f"target >= {JOBS_TARGET:.1f}x  [{verdict(sp >= JOBS_TARGET)}]")
        print()
        if args.only_tree:
            return 0

    r = bench_in_process(src, args.repeats)
    ratio = r["conv"] / r["floor"]
    n = r["lines"]
    print(f"In-process, one file of {n} lines, best of {args.repeats}, floor and convert interleaved (gc enabled):")
    print(f"  floor   parse_module(src).code  {r['floor'] * 1e3:8.1f} ms  {n / r['floor']:9.0f} lines/s")
    print(f"  convert convert_source(src)     {r['conv'] * 1e3:8.1f} ms  {n / r['conv']:9.0f} lines/s"
          f"   ({r['diagnostics']} diagnostics)")
    print(f"  first convert in this process   {r['first'] * 1e3:8.1f} ms  (catalogue load, lazy imports)")
    print(f"  ratio convert/floor             {ratio:8.2f}x    target < {RATIO_TARGET:.1f}x  [{verdict(ratio < RATIO_TARGET)}]")
    spread = max(r["conv_all"]) / r["conv"]
    if spread > 1.25:
        print(f"  (noisy machine: slowest convert run was {spread:.2f}x the best)")
    print()

    startup = []
    if not args.skip_startup:
        startup = bench_startup(args.startup_repeats)
        print(f"Start-up, fresh process wall time, best of {args.startup_repeats}:")
        for label, t, rc in startup:
            if t != t:  # nan: not installed
                print(f"  {label:<44}      n/a    (not installed in this venv; use python -m xlate)")
                continue
            mark = ""
            if "--help" in label:
                mark = f"   target < {STARTUP_TARGET:.1f} s  [{verdict(t < STARTUP_TARGET)}]"
            print(f"  {label:<44} {t:7.3f} s{mark}" + (f"  (exit {rc})" if rc not in (0, 1) else ""))
        print()

    tree = {}
    if not args.skip_dir:
        tree = bench_tree(args.dir_files, args.dir_lines, args.dir_repeats, (1, 2))
        (t1, rc1), (t2, rc2) = tree[1], tree[2]
        total = tree["total_lines"]
        print(f"Directory, {args.dir_files} files, {total} lines, `python -m xlate convert DIR -o OUT`, "
              f"best of {args.dir_repeats}:")
        print(f"  -j 1  {t1:7.2f} s  {total / t1:9.0f} lines/s  (exit {rc1})")
        print(f"  -j 2  {t2:7.2f} s  {total / t2:9.0f} lines/s  (exit {rc2})")
        print(f"  speed-up -j2 vs -j1: {t1 / t2:.2f}x (ideal 2.0x on >= 2 idle cores; this machine has "
              f"{os.cpu_count()} CPUs)")
        print()

    print("Summary")
    print(f"  convert/floor ratio   {ratio:6.2f}x   (target < {RATIO_TARGET:.1f}x)   [{verdict(ratio < RATIO_TARGET)}]")
    print(f"  convert throughput    {n / r['conv']:6.0f} lines/s   (floor {n / r['floor']:.0f} lines/s)")
    helps = [t for label, t, _ in startup if "--help" in label and t == t]
    if helps:
        print(f"  start-up (--help)     {min(helps):6.3f} s    (target < {STARTUP_TARGET:.1f} s)   "
              f"[{verdict(min(helps) < STARTUP_TARGET)}]")
    if tree:
        print(f"  -j2 vs -j1            {tree[1][0] / tree[2][0]:6.2f}x")
    print(f"  (benchmark took {time.perf_counter() - t_start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
