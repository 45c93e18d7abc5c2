"""Where convert_source spends its time: phase breakdown, then a cProfile of xlate's code.

    .venv/bin/python bench/profile_convert.py                 # generated ~3000-line corpus
    .venv/bin/python bench/profile_convert.py FILE --top 25 --dump /tmp/conv.prof

1. Phases, without a profiler (best of --repeats): the LibCST parse, `ast.parse`, the
   names analysis, every `Module.visit` labelled by its visitor class (so a second
   Converter pass shows up as a second row), helper-module steps, and the final render.
   Measured by wrapping the functions convert_source calls, so it follows the engine as
   it changes; rows are shown as a share of convert_source and as multiples of the floor
   (`parse_module(src).code`).
2. cProfile of one conversion (after a warm-up): xlate's own functions by cumulative time,
   as a share of convert_source, then the overall top by internal time. cProfile inflates
   LibCST's many small calls, so trust the phase table for proportions.
"""
from __future__ import annotations

import argparse
import ast
import cProfile
import gc
import io
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

import libcst as cst  # noqa: E402

from make_corpus import generate  # noqa: E402
from xlate.convert import engine  # noqa: E402

TIMES: dict[str, float] = defaultdict(float)
CALLS: dict[str, int] = defaultdict(int)


def _timed(label, fn):
    def wrapper(*a, **kw):
        t0 = time.perf_counter()
        try:
            return fn(*a, **kw)
        finally:
            TIMES[label] += time.perf_counter() - t0
            CALLS[label] += 1
    wrapper.__wrapped__ = fn
    return wrapper


def install_phase_timers() -> list:
    """Wrap what convert_source calls; returns undo actions."""
    undo = []

    def patch(owner, name, label):
        if not hasattr(owner, name):
            return
        old = getattr(owner, name)
        setattr(owner, name, _timed(label, old))
        undo.append(lambda: setattr(owner, name, old))

    patch(engine.cst, "parse_module", "libcst parse_module")
    patch(engine.ast, "parse", "ast.parse (all calls)")
    patch(engine.names, "Analysis", "names.Analysis")
    for name in ("fix_imports", "locate"):
        patch(engine, name, f"engine.{name}")

    old_visit = cst.Module.visit

    def visit(self, visitor):
        label = f"Module.visit({type(visitor).__name__})"
        t0 = time.perf_counter()
        try:
            return old_visit(self, visitor)
        finally:
            TIMES[label] += time.perf_counter() - t0
            CALLS[label] += 1
    cst.Module.visit = visit
    undo.append(lambda: setattr(cst.Module, "visit", old_visit))

    old_code = cst.Module.code

    def code(self):
        t0 = time.perf_counter()
        try:
            return old_code.fget(self)
        finally:
            TIMES["Module.code (render)"] += time.perf_counter() - t0
            CALLS["Module.code (render)"] += 1
    cst.Module.code = property(code)
    undo.append(lambda: setattr(cst.Module, "code", old_code))
    return undo


def phase_table(src: str, repeats: int) -> None:
    floor = min(_once(lambda: cst.parse_module(src).code) for _ in range(repeats))
    engine.convert_source(src)  # warm-up
    undo = install_phase_timers()
    best: dict[str, float] = {}
    calls: dict[str, int] = {}
    total_best = float("inf")
    try:
        for _ in range(repeats):
            TIMES.clear()
            CALLS.clear()
            total = _once(lambda: engine.convert_source(src))
            if total < total_best:
                total_best, best, calls = total, dict(TIMES), dict(CALLS)
    finally:
        for u in reversed(undo):
            u()
    # Nested timers (a visit inside fix_imports) are reported but not subtracted twice.
    print(f"Phases of convert_source (the fastest of {repeats} runs: {total_best * 1e3:.0f} ms = "
          f"{total_best / floor:.2f}x the floor of {floor * 1e3:.0f} ms)")
    accounted = 0.0
    for label, t in sorted(best.items(), key=lambda kv: -kv[1]):
        n = calls.get(label, 1)
        shown = f"{label} x{n}" if n > 1 else label
        print(f"  {shown:<40} {t * 1e3:8.1f} ms  {t / total_best:6.1%}  {t / floor:5.2f}x floor")
        if label != "engine.fix_imports":  # its visit is already a row of its own
            accounted += t
    other = total_best - accounted
    fix = best.get("engine.fix_imports", 0.0) - best.get("Module.visit(_ImportFixer)", 0.0)
    other -= max(fix, 0.0)
    print(f"  {'(rest: fix_imports outside its visit)':<40} {max(fix, 0) * 1e3:8.1f} ms")
    print(f"  {'(rest: unaccounted)':<40} {other * 1e3:8.1f} ms  {other / total_best:6.1%}")
    print()


def _once(fn) -> float:
    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def profile(src: str, top: int, dump: str | None) -> None:
    engine.convert_source(src)  # warm-up: catalogue, lazy transform imports, template cache
    prof = cProfile.Profile()
    prof.enable()
    engine.convert_source(src)
    prof.disable()
    if dump:
        prof.dump_stats(dump)
    stats = pstats.Stats(prof)
    raw = stats.stats  # {(file, line, func): (cc, nc, tt, ct, callers)}
    total = next((v[3] for k, v in raw.items() if k[2] == "convert_source"), None) or stats.total_tt
    xlate_dir = str(REPO / "xlate")
    rows = []
    for (file, line, func), (cc, nc, tt, ct, _callers) in raw.items():
        if file.startswith(xlate_dir):
            rows.append((ct, tt, nc, f"{Path(file).relative_to(REPO)}:{line}:{func}"))
    rows.sort(reverse=True)
    print(f"cProfile, one convert_source: {total:.2f} s under the profiler "
          f"(xlate functions by cumulative time; share of convert_source)")
    print(f"  {'cum %':>6} {'cum s':>7} {'self s':>7} {'calls':>8}  function")
    for ct, tt, nc, name in rows[:top]:
        print(f"  {ct / total:6.1%} {ct:7.3f} {tt:7.3f} {nc:8d}  {name}")
    print()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
    body = out.getvalue()
    start = body.find("   ncalls")
    print(f"Overall top {top} by internal time (LibCST included):")
    print(body[start:].rstrip() if start >= 0 else body.rstrip())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Profile xlate's convert_source.")
    p.add_argument("path", nargs="?", help="a Python file (default: generated corpus)")
    p.add_argument("--lines", type=int, default=3000)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--dump", metavar="FILE", help="also write the raw pstats here")
    args = p.parse_args(argv)
    src = Path(args.path).read_text(encoding="utf-8") if args.path else generate(args.lines)
    ast.parse(src)
    print(f"input: {args.path or 'generated corpus'}, {src.count(chr(10))} lines\n")
    phase_table(src, args.repeats)
    profile(src, args.top, args.dump)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
