"""Prepare bench/gpu_bench.py's folder here, where MXNet, LibCST and gluonnlp are (the GPU machine
has none of them): conversions, references recorded with MXNet on this CPU, mutants, a snapshot
of the code that runs there, and a manifest with the CPU verdicts (Note [what travels] in
gpu_bench.py).

    PYTHONPATH=$PWD .venv/bin/python bench/gpu_prepare.py [--out .gpubench] [--gluoncv /work/corpus/gluoncv-v0.10.0]

About 2 minutes on 2 cores; about 30 MiB (the device tool carries at most 64 MiB). The folder is
git-ignored (`/.gpubench/`). It fails (exit 1) when a reference is not Equal live, its replay
on this CPU is not Equal, or a mutant is not caught here: the device run judges against these.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "bench"), str(REPO / "tests")]

BENCH_FILES = ("gpu_bench.py", "hand_ports.py", "speed_vs_hand_port.py")  # what runs there, with xlate/
# the noise-mode reference (the fixtures' references are tests/test_fixture_models.py's CASES,
# whose converted files carry their helpers inlined and travel as they are)
MOBILENET = {"name": "mobilenetv2_1.0 (Gluon zoo, converted)", "mx": "bench/gpu_bench_mx.py:mobilenet_v2",
             "pt": "models/seqbench/models.py:mobilenet_v2", "input": "x:float32[2,3,64,64]",
             # seed 2: noise mode on this model at 64x64 is Equal for some seeds and not others
             # (seeds 0-3 gave 268, 268, 269 and 179 of 269); the device is judged where the CPU is Equal
             "seed": 2}
MUTANTS = [
    # (name, the reference it replays, the folder copied, the file changed in it, the text, the
    #  wrong text, the model in the copy, what it is)
    ("mutant: lstm_tagger layout NTC as TNC", "lstm_tagger", "check/lstm_tagger", "model_pt.py", "layout='NTC'",
     "layout='TNC'", "model_pt.py:build", "batch_first lost: the LSTM reads (N, T, C) as time-major"),
    ("mutant: mobilenetv2 BatchNorm momentum", "mobilenetv2_noise", "models/seqbench", "_mx_compat.py",
     "eps=epsilon, momentum=1 - momentum)", "eps=epsilon, momentum=momentum)", "models.py:mobilenet_v2",
     "Gluon's momentum 0.9 passed to torch unflipped (torch weighs the new batch)"),
]


def cli(argv: list) -> tuple[int, dict | None, str]:
    """`xlate ...` in this process; (exit status, the JSON report if any, stderr)."""
    from xlate.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    try:
        return rc, json.loads(out.getvalue()), err.getvalue()
    except ValueError:
        return rc, None, err.getvalue() + out.getvalue()[-400:]


def counts(rc: int, report: dict | None) -> dict:
    checks = (report or {}).get("checks", [])
    return {"rc": rc, "equal": sum(bool(c["ok"]) for c in checks), "total": len(checks)}


def convert_seqbench(out: Path, work: Path) -> None:
    """bench/gpu_bench_mx.py converted as the module `models` of a package `seqbench`: a package,
    so that its helpers are imported relatively and a mutant copy of them is loaded anew."""
    tree = work / "seqbench"
    tree.mkdir(parents=True)
    (tree / "__init__.py").write_text("")
    shutil.copy(REPO / "bench" / "gpu_bench_mx.py", tree / "models.py")
    rc, _, err = cli(["convert", str(tree), "-o", str(out / "models" / "seqbench"), "-j", "1", "--exit-zero"])
    if rc:
        raise SystemExit(f"converting {tree} failed: {err}")


def record(out: Path, name: str, mx: str, pt: str, inputs: list, kwargs: dict, seed: int, noise: bool) -> dict:
    args = ["check", "--mx", mx, "--pt", str(out / pt), "--format", "json", "--seed", str(seed),
            "--record", str(out / "refs" / name)]
    for spec in inputs:
        args += ["--input", spec]
    if kwargs:
        args += ["--mx-args", json.dumps(kwargs), "--pt-args", json.dumps(kwargs)]
    if noise:
        args.append("--noise-floor")
    rc, report, err = cli(args)
    if report is None:
        raise SystemExit(f"recording {name} failed (exit {rc}): {err}")
    return counts(rc, report)


def replay(out: Path, entry: dict) -> dict:
    argv = ["check", "--against", str(out / entry["dir"]), "--device", "cpu", "--format", "json"]
    argv += ["--noise-floor"] if entry.get("noise") else []
    argv += ["--pt", str(out / entry["pt"])] if entry.get("pt") else []
    rc, report, _ = cli(argv)
    return counts(rc, report)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / ".gpubench"))
    parser.add_argument("--gluoncv", default="/work/corpus/gluoncv-v0.10.0",
                        help="GluonCV v0.10.0 (a folder holding gluoncv/; see bench/README.md)")
    args = parser.parse_args()
    out = Path(args.out).resolve()
    if not (Path(args.gluoncv) / "gluoncv").is_dir():
        print(f"gpu_prepare: no GluonCV corpus at {args.gluoncv} (see bench/README.md)", file=sys.stderr)
        return 2
    started = time.monotonic()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    import compile_check
    from test_fixture_models import CASES, numpy_mode_kept

    # the code that runs there: this checkout's xlate and the bench scripts
    shutil.copytree(REPO / "xlate", out / "src" / "xlate", ignore=shutil.ignore_patterns("__pycache__"))
    (out / "src" / "bench").mkdir()
    for name in BENCH_FILES:
        shutil.copy(REPO / "bench" / name, out / "src" / "bench" / name)
    # the models
    with tempfile.TemporaryDirectory(prefix="xlate-gpu-prepare-") as work:
        converted = compile_check.convert_gluoncv(Path(args.gluoncv), Path(work))
        shutil.copytree(converted / "gluoncv", out / "models" / "gluoncv")
        convert_seqbench(out, Path(work))
    print(f"converted: GluonCV's three models and bench/gpu_bench_mx.py ({time.monotonic() - started:.0f} s)",
          flush=True)
    # the references: every fixture of tests/test_fixture_models.py, strict; the MobileNetV2 in noise mode
    refs = []
    for case in CASES:
        folder = out / "check" / case.id
        folder.mkdir(parents=True)
        shutil.copy(REPO / "fixtures" / case.folder / "model_pt.py", folder / "model_pt.py")
        with numpy_mode_kept():
            live = record(out, case.id, f"{REPO / 'fixtures' / case.folder / 'model_mx.py'}:{case.factory}",
                          f"check/{case.id}/model_pt.py:{case.factory}", list(case.inputs), case.kwargs, 0, False)
        refs.append({"name": case.id, "dir": f"refs/{case.id}", "expect": "equal", "cpu_live": live,
                     "what": f"fixtures/{case.folder}, {case.factory}{case.kwargs or ''}"})
        print(f"recorded {case.id}: {live}", flush=True)
    live = record(out, "mobilenetv2_noise", str(REPO / MOBILENET["mx"]), MOBILENET["pt"], [MOBILENET["input"]], {},
                  MOBILENET["seed"], True)
    refs.append({"name": "mobilenetv2_noise", "dir": "refs/mobilenetv2_noise", "expect": "equal", "noise": True,
                 "heavy": True, "cpu_live": live, "what": f"{MOBILENET['name']}, {MOBILENET['input']}, noise mode"})
    print(f"recorded mobilenetv2_noise: {live}", flush=True)
    for name, ref, root, changed, text, wrong, model, what in MUTANTS:
        base = next(r for r in refs if r["name"] == ref)
        copy = Path("mutants") / ref / Path(root).name  # the whole folder: a package's helpers are relative
        shutil.copytree(out / root, out / copy)
        body = (out / copy / changed).read_text()
        if body.count(text) != 1:
            raise SystemExit(f"{name}: {text!r} is not in {root}/{changed} exactly once")
        (out / copy / changed).write_text(body.replace(text, wrong))
        refs.append({"name": name, "dir": base["dir"], "pt": f"{(copy / model).as_posix()}", "expect": "caught",
                     "noise": base.get("noise", False), "heavy": base.get("heavy", False), "what": what})
    # the golden references CI replays (fixtures/golden), with the models they point to
    shutil.copytree(REPO / "fixtures" / "golden", out / "src" / "fixtures" / "golden")
    shutil.copytree(REPO / "tests" / "mutants", out / "src" / "tests" / "mutants",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for ref in sorted((out / "src" / "fixtures" / "golden").iterdir()):
        refs.append({"name": f"golden/{ref.name}", "dir": ref.relative_to(out).as_posix(), "expect": "equal",
                     "what": "fixtures/golden (the CPU-only CI replay)"})
    # the CPU verdicts the device is judged against: the replay, here, as the device replays
    failures = []
    for entry in refs:
        entry["cpu_replay"] = replay(out, entry)
        want = 1 if entry["expect"] == "caught" else 0
        if entry["cpu_replay"]["rc"] != want or entry.get("cpu_live", {"rc": 0})["rc"] != 0:
            failures.append(f"{entry['name']}: live {entry.get('cpu_live')}, replay {entry['cpu_replay']}")
        print(f"replayed {entry['name']}: {entry['cpu_replay']}", flush=True)
    import mxnet
    import numpy
    import torch

    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "xlate", "bench"],
                                capture_output=True, text=True).stdout.strip())
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    manifest = {"made": f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, xlate {commit}"
                        f"{' (uncommitted changes)' if dirty else ''}, torch {torch.__version__}, "
                        f"mxnet {mxnet.__version__}, numpy {numpy.__version__}",
                "references": refs, "files": files}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    size = sum((out / f).stat().st_size for f in files)
    print(f"prepared {out}: {len(files)} files, {size / 2 ** 20:.1f} MiB, {time.monotonic() - started:.0f} s")
    for f in failures:
        print(f"gpu_prepare: FAILED: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
