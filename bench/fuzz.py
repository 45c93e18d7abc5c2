"""Fuzz the converter: thousands of hypothesmith programs with MXNet spliced in.

    .venv/bin/python bench/fuzz.py                 # 3000 programs, seed 0 (a few minutes)
    .venv/bin/python bench/fuzz.py -n 10000 --seed 7 --save /tmp/fuzz-failures

The programs come from tests/fuzzgen.py (the suite's tests/test_fuzz.py runs a few hundred of
the same kind). Two worker processes, with different PYTHONHASHSEEDs, convert every program;
each checks the promises in fuzzgen.problems (no crash, output compiles, no name left
unbound, a second pass changes and reports nothing new, two runs agree), and the parent
compares the two processes' outputs, which catches anything that depends on hash order or
object identity. It prints the count per failure kind and a few examples of each; it exits
1 when any kind other than "rejected" (valid Python LibCST cannot read, reported plainly) is
non-zero.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

KINDS = ["crash", "hang", "unparseable", "varying", "unbound", "second pass", "rejected"]
PER_PROGRAM_S = 30


def _alarm(*_):
    raise TimeoutError("hang")


def worker(inp: Path, out: Path) -> None:
    warnings.simplefilter("ignore", SyntaxWarning)
    import fuzzgen
    from xlate.convert.engine import convert_source

    signal.signal(signal.SIGALRM, _alarm)
    with open(inp, encoding="utf-8") as fh, open(out, "w", encoding="utf-8") as dst:
        for line in fh:
            source = json.loads(line)
            signal.alarm(PER_PROGRAM_S)
            try:
                found = fuzzgen.problems(source, convert_source)
                try:
                    output = convert_source(source).output
                except Exception as e:  # noqa: BLE001 -- recorded by problems() already
                    output = f"<{type(e).__name__}>"
            except TimeoutError:
                found, output = [("hang", f"over {PER_PROGRAM_S} s")], "<hang>"
            finally:
                signal.alarm(0)
            dst.write(json.dumps({"problems": found, "output": output}) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=3000, help="programs to generate (default 3000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=2, help="examples printed per failure kind")
    ap.add_argument("--save", metavar="DIR", help="write every failing program there")
    ap.add_argument("--worker", nargs=2, metavar=("IN", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(Path(args.worker[0]), Path(args.worker[1]))
        return 0

    t0 = time.perf_counter()
    import fuzzgen

    # in runs of 500: hypothesis slows down (and grows) over one very long run
    programs: list[str] = []
    for batch in range(0, args.n, 500):
        programs += fuzzgen.generate(min(500, args.n - batch), args.seed * 1000 + batch // 500)
    programs = list(dict.fromkeys(programs))
    t1 = time.perf_counter()
    print(f"generated {len(programs)} programs in {t1 - t0:.0f} s (seed {args.seed})")
    with tempfile.TemporaryDirectory() as tmp:
        inp = Path(tmp) / "programs.jsonl"
        inp.write_text("".join(json.dumps(p) + "\n" for p in programs), encoding="utf-8")
        procs, outs = [], []
        for hash_seed in ("1", "2"):
            out = Path(tmp) / f"out{hash_seed}.jsonl"
            env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
            procs.append(subprocess.Popen([sys.executable, __file__, "--worker", str(inp), str(out)], env=env))
            outs.append(out)
        codes = [p.wait() for p in procs]
        if any(codes):
            print(f"a worker failed: exit codes {codes}")
            return 2
        results = [[json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] for out in outs]
    print(f"converted each twice, in two processes, in {time.perf_counter() - t1:.0f} s")

    counts: Counter = Counter()
    examples: dict = {}
    failing = []
    for source, a, b in zip(programs, *results):
        kinds = {(k, d) for k, d in a["problems"]} | {(k, d) for k, d in b["problems"]}
        if a["output"] != b["output"]:
            kinds.add(("varying", "the two processes (hash seeds 1 and 2) differ"))
        for kind in {k for k, _ in kinds}:
            counts[kind] += 1
            examples.setdefault(kind, []).append((source, sorted(d for k, d in kinds if k == kind)))
        if kinds:
            failing.append((source, sorted(kinds)))

    print(f"\n{'programs':<14}{len(programs):>7}")
    for kind in KINDS:
        print(f"{kind:<14}{counts[kind]:>7}")
    for kind in KINDS:
        for source, details in examples.get(kind, [])[: args.show]:
            print(f"\n--- {kind}: {details[0][:300]}\n{source[:1500]}")
    if args.save:
        folder = Path(args.save)
        folder.mkdir(parents=True, exist_ok=True)
        for i, (source, kinds) in enumerate(failing):
            (folder / f"fail_{i:05d}.py").write_text(source, encoding="utf-8", newline="")
            (folder / f"fail_{i:05d}.txt").write_text("\n".join(f"{k}: {d}" for k, d in kinds), encoding="utf-8")
        print(f"\n{len(failing)} failing programs written to {folder}")
    return 1 if any(counts[k] for k in KINDS if k != "rejected") else 0


if __name__ == "__main__":
    sys.exit(main())
