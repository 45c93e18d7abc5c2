"""Issue 23's GPU benchmark: the checker on CUDA against references MXNet recorded on a CPU,
converted models against hand ports (train step in float32 and bf16 autocast, eval), and
torch.compile's graph breaks per converted model. One script, for a machine with torch and
nothing else (no MXNet, LibCST, gluonnlp, torchvision or transformers): everything it needs is
made beforehand by bench/gpu_prepare.py (Note [what travels]).

    # here, with MXNet and the GluonCV corpus (see bench/README.md):
    PYTHONPATH=$PWD .venv/bin/python bench/gpu_prepare.py --out .gpubench
    # there (the device tool's command; carry [".gpubench"]):
    PYTHONPATH=$PWD/.gpubench/src python3 .gpubench/src/bench/gpu_bench.py --prepared .gpubench --device cuda --out $OUT
    # here, end to end on the CPU with small sizes (under a minute):
    PYTHONPATH=$PWD .venv/bin/python bench/gpu_bench.py --prepared .gpubench --device cpu --smoke

Phases (`--phases check,speed,compile`):
1. check: `xlate check --against REF --device DEVICE --format json` for every recorded reference
   (the fixtures' models in strict mode, Gluon's MobileNetV2 in noise mode), and for the mutants
   (a reference replayed with `--pt` naming a deliberately wrong translation). A reference
   passes when the device gives Equal where the CPU replay gave Equal, with TF32 pinned off by
   the checker (its report's precision settings) and the process's settings as they were after
   it; a mutant passes when it DIVERGES (exit 1; a load error is no catch).
2. speed: each converted model against its hand port (bench/hand_ports.py), the same weights
   (copied from the converted model), their eval outputs compared in float32 with full precision
   pinned before anything is timed; then alternating, median of -n after a warm-up: a train step
   (forward, loss, backward, SGD step) in float32 and under bf16 autocast, and an eval forward in
   each. The timings run with torch's own precision defaults (the results say which).
3. compile: `torch._dynamo.explain(model)(inputs).graph_break_count` per converted model in
   training mode, and `torch.compile(model)` with one forward and backward for the models of
   `--compile-run`.

Exit status: 0 when everything ran and every correctness condition held; 1 when a reference,
a mutant, a hand-port agreement or a compiled run failed, or a phase crashed or ran out of
`--budget-s`; 2 when something it needs is missing (the prepared folder, a file it lists, CUDA
with --device cuda). Ratios and graph breaks are measurements: printed beside their targets
(train-step ratio at most 1.05 on a GPU, 0 graph breaks), not failures.

Note [what travels]
The device machine gets a copy of the checkout the session started in plus the carried paths,
and it cannot install anything. So the prepared folder holds a snapshot of this checkout's
`xlate` package and of the bench scripts (`src/`, what runs there), the converted models
(`models/`: GluonCV's resnet50_v1b, mobilenetv2_1.0 and densenet121 converted as a package, and
bench/gpu_bench_mx.py's LSTM, BERT and MobileNetV2 converted as one), the fixtures' converted
files the references point to (`check/`), the references (`refs/`) and `manifest.json`, which
lists all of them with the CPU verdicts measured at preparation. The run refuses to import
mxnet, libcst, gluonnlp, torchvision and transformers (`--allow-imports` lets them), so a CPU
run here exercises what the device has and no more.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
FORBIDDEN = ("mxnet", "libcst", "gluonnlp", "torchvision", "transformers")

# name, builder in the prepared models, hand port, kind, device size, smoke size
CNNS = {"gcv resnet50_v1b": ("gluoncv.model_zoo.resnetv1b", "resnet50_v1b", "ResNet50"),
        "gcv mobilenetv2_1.0": ("gluoncv.model_zoo.mobilenet", "mobilenet_v2_1_0", "MobileNetV2"),
        "gcv densenet121": ("gluoncv.model_zoo.densenet", "densenet121", "DenseNet121")}
SIZES = {  # (batch, image size) for CNNs; (batch, steps) for BERT; (batch, steps, hidden) for the LSTM
    "full": {"cnn": (64, 224), "densenet": (64, 224), "bert": (32, 128), "lstm": (64, 128, 512),
             "bert_hparams": {}, "vocab": 30522},
    # GluonCV's densenet121 ends with AvgPool2D(7): 224x224 is the smallest input it takes
    "smoke": {"cnn": (2, 32), "densenet": (1, 224), "bert": (2, 16), "lstm": (2, 8, 64),
              "bert_hparams": {"num_layers": 2, "units": 128, "embed_size": 128, "hidden_size": 256, "num_heads": 2,
                               "max_length": 64}, "vocab": 1000},
}
SMOKE_COMPILE = ["gcv mobilenetv2_1.0", "bert", "lstm"]
SMOKE_UNTIMED = {"gcv densenet121", "gcv resnet50_v1b"}  # --smoke compares them with their hand ports only
TARGET_RATIO = {"cuda": 1.05, "cpu": 1.10}


class Missing(Exception):
    """Something the run needs is not there: exit 2, never a pass."""


def refuse_imports(names=FORBIDDEN) -> None:
    """`import NAME` fails as on the device (None in sys.modules: ImportError on import,
    importlib.util.find_spec gives None, as for a package that is not installed)."""
    for name in names:
        loaded = [m for m in sys.modules if m == name or m.startswith(name + ".")]
        if loaded:
            raise Missing(f"{name} is already imported; run gpu_bench.py in a fresh process")
        sys.modules[name] = None


# -- phase 1: the checker -----------------------------------------------------------------------
def precision_state() -> dict:
    from xlate.check.precision import knobs

    return {k.name: repr(k.get()) for k in knobs()}


def tf32_pinned_off(settings: dict) -> bool:
    """The checker's report says TF32 was off for cuDNN and cuBLAS while it checked."""
    tf32 = {k: v for k, v in settings.items() if k.endswith(("fp32_precision", "allow_tf32"))}
    cudnn = [k for k in tf32 if k.startswith("cudnn")]
    return bool(cudnn) and all(v in ("ieee", False) for v in tf32.values()) and \
        settings.get("float32_matmul_precision", "highest") == "highest"


def run_check(entry: dict, prepared: Path, device: str) -> dict:
    """One `xlate check --against` in this process; the counts and what was pinned."""
    from xlate.cli import main as xlate

    argv = ["check", "--against", str(prepared / entry["dir"]), "--device", device, "--format", "json"]
    if entry.get("noise"):
        argv.append("--noise-floor")
    if entry.get("pt"):
        argv += ["--pt", str(prepared / entry["pt"])]
    before = precision_state()
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = xlate(argv)
    row = {"name": entry["name"], "rc": rc, "seconds": round(time.perf_counter() - start, 1),
           "restored": precision_state() == before}
    try:
        report = json.loads(out.getvalue())
    except ValueError:
        row.update(equal=0, total=0, error=(err.getvalue() or out.getvalue()).strip()[-400:])
        return row
    checks = report.get("checks", [])
    row.update(equal=sum(bool(c["ok"]) for c in checks), total=len(checks),
               device=report.get("devices", {}).get("pytorch"), tf32_off=tf32_pinned_off(report.get("precision", {})),
               failed=[c["what"] for c in checks if not c["ok"]][:3])
    return row


def judge_check(entry: dict, row: dict, device: str) -> str:
    """'' when the row is what the entry expects on this device, else why not."""
    if row["rc"] in (2, None) or "error" in row:
        return f"could not run (exit {row['rc']}): {row.get('error', '')[:200]}"
    if not str(row.get("device", "")).startswith(device):
        return f"ran on {row.get('device')}, not {device}"
    if not row["tf32_off"]:
        return "the report does not say TF32 was pinned off"
    if not row["restored"]:
        return "the process's precision settings differ after the check"
    if entry["expect"] == "caught":
        return "" if row["rc"] == 1 else f"the mutant passed ({row['equal']}/{row['total']} equal)"
    return "" if row["rc"] == 0 else f"DIVERGES: {row['equal']}/{row['total']} equal; first: {row['failed']}"


def phase_check(manifest: dict, prepared: Path, device: str, smoke: bool, log) -> tuple[list, list]:
    rows, failures = [], []
    for entry in manifest["references"]:
        if smoke and entry.get("heavy"):
            log(f"check  {entry['name']}: skipped in --smoke (heavy; the device run replays it)")
            continue
        cpu = entry["cpu_replay"]
        if entry["expect"] == "equal" and cpu["rc"] != 0:
            log(f"check  {entry['name']}: not Equal on the CPU at preparation ({cpu}); replayed, not judged")
        try:
            row = run_check(entry, prepared, device)
        except Exception as e:  # noqa: BLE001 - this reference's failure; the others still run
            row = {"name": entry["name"], "rc": None, "equal": 0, "total": 0, "seconds": 0, "restored": None,
                   "error": f"crashed: {type(e).__name__}: {e}"[:300]}
        why = judge_check(entry, row, device) if (entry["expect"] == "caught" or cpu["rc"] == 0) else ""
        row.update(expect=entry["expect"], mode="noise" if entry.get("noise") else "strict", cpu=cpu, why=why,
                   what=entry.get("what", ""))
        rows.append(row)
        log(f"check  {entry['name']:34s} {row['mode']:6s} CPU {cpu['equal']}/{cpu['total']}, {device} "
            f"{row['equal']}/{row['total']} (exit {row['rc']}, {row['seconds']} s): {why or 'ok'}")
        if why:
            failures.append(f"check {entry['name']}: {why}")
    return rows, failures


# -- phase 2: converted against hand port ----------------------------------------------------
def sync(device) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize(device)


def randomise_bert(model, seed: int) -> None:
    import torch

    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            noise = torch.randn(p.shape, generator=g)
            p.copy_(1 + 0.1 * noise if name.endswith("layer_norm.weight") else 0.05 * noise)


def build_pairs(prepared: Path, size: str, only: list | None):
    """(name, kind, converted, hand, make inputs, loss) for each model, built on the CPU."""
    import torch

    import hand_ports
    from speed_vs_hand_port import copy_weights, randomise

    sizes = SIZES[size]
    sys.path.insert(0, str(prepared / "models"))
    seq = importlib.import_module("seqbench.models")
    for name, (module, fn, hand_name) in CNNS.items():
        if only and name not in only:
            continue
        batch, pixels = sizes["densenet" if "densenet" in name else "cnn"]
        conv = getattr(importlib.import_module(module), fn)()
        conv.eval()
        with torch.no_grad():
            conv(torch.randn(1, 3, pixels, pixels))  # fixes the deferred sizes
        randomise(conv, 1)
        hand = getattr(hand_ports, hand_name)()
        copy_weights(conv, hand)

        def inputs(device, batch=batch, pixels=pixels, g=torch.Generator().manual_seed(2)):
            return (torch.randn(batch, 3, pixels, pixels, generator=g).to(device),), \
                torch.randint(0, 1000, (batch,), generator=g).to(device)

        yield name, conv, hand, inputs, lambda out, y: torch.nn.functional.cross_entropy(out.float(), y)
    hp, vocab = sizes["bert_hparams"], sizes["vocab"]
    if not only or "bert" in only:
        conv = seq.bert(vocab_size=vocab, **hp)
        with torch.no_grad():
            conv.eval()(torch.zeros(1, 2, dtype=torch.long), torch.zeros(1, 2, dtype=torch.long))  # deferred sizes
        randomise_bert(conv, 3)
        hand = hand_ports.Bert(vocab_size=vocab, **{k: v for k, v in hp.items() if k != "embed_size"})
        hand.load_converted(conv)
        batch, steps = sizes["bert"]

        def bert_inputs(device, g=torch.Generator().manual_seed(4)):
            ids = torch.randint(0, vocab, (batch, steps), generator=g)
            types = torch.randint(0, 2, (batch, steps), generator=g)
            return (ids.to(device), types.to(device)), None

        yield "bert", conv, hand, bert_inputs, lambda out, y: sum(o.float().square().mean() for o in out)
    if not only or "lstm" in only:
        batch, steps, hidden = sizes["lstm"]
        conv, hand = seq.lstm(hidden), hand_ports.lstm(hidden)
        g = torch.Generator().manual_seed(5)
        with torch.no_grad():
            for p in conv.parameters():
                p.copy_((torch.rand(p.shape, generator=g) - 0.5) * 2 / hidden ** 0.5)
        hand.load_state_dict(conv.state_dict())

        def lstm_inputs(device, g=torch.Generator().manual_seed(6)):
            return (torch.randn(batch, steps, hidden, generator=g).to(device),), None

        yield "lstm", conv, hand, lstm_inputs, \
            lambda out, y: (out[0] if isinstance(out, tuple) else out).float().square().mean()


def outputs(out) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def agreement(conv, hand, x) -> float:
    """Greatest difference of the eval outputs relative to the hand port's largest, float32 with
    full precision pinned (the checker's pinning)."""
    import torch

    from xlate.check.precision import pinned

    conv.eval()
    hand.eval()
    with pinned(), torch.no_grad():
        a, b = outputs(conv(*x)), outputs(hand(*x))
    if len(a) != len(b) or any(u.shape != v.shape for u, v in zip(a, b)):
        return float("inf")
    return max(((u - v).abs().max() / v.abs().max().clamp_min(1e-12)).item() for u, v in zip(a, b))


def phase_speed(prepared: Path, device, args, log, deadline) -> tuple[list, list]:
    import torch

    rows, failures = [], []
    size = "smoke" if args.smoke else "full"
    pairs = build_pairs(prepared, size, args.models.split(",") if args.models else None)
    while True:
        if time.monotonic() > deadline:
            failures.append("speed: --budget-s ran out before every model was timed")
            log("speed  STOPPED: --budget-s ran out")
            break
        try:
            name, conv, hand, make_inputs, loss_fn = next(pairs)
        except StopIteration:
            break
        except Exception as e:  # noqa: BLE001 - the generator is spent: the models after it are not built
            traceback.print_exc()
            failures.append(f"speed: building a model failed: {type(e).__name__}: {str(e)[:200]}")
            break
        start = time.perf_counter()
        conv.to(device)
        hand.to(device)
        x, y = make_inputs(device)
        try:
            err = agreement(conv, hand, tuple(t[:2] for t in x))
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            err = float("nan")
            log(f"speed  {name}: the eval forward crashed: {type(e).__name__}: {str(e)[:200]}")
        row = {"model": name, "agreement": err}
        if not err < 1e-4:
            failures.append(f"speed {name}: converted and hand port differ in eval (relative {err:.2e})")
            log(f"speed  {name}: converted and hand port DIFFER (relative {err:.2e}); not timed")
            rows.append(row)
            continue
        if args.smoke and name in SMOKE_UNTIMED and not args.models:
            log(f"speed  {name:20s} eval outputs agree with the hand port ({err:.1e}); not timed in --smoke")
            rows.append(row)
            continue
        for precision in ("float32", "bf16"):
            try:
                row[precision] = time_pair(conv, hand, x, y, loss_fn, precision, device, args)
            except Exception as e:  # noqa: BLE001 - this model and precision's failure; the rest still run
                traceback.print_exc()
                failures.append(f"speed {name} {precision}: crashed: {type(e).__name__}: {str(e)[:200]}")
                log(f"speed  {name:20s} {precision:7s} CRASHED: {type(e).__name__}: {str(e)[:200]}")
                continue
            t = row[precision]
            log(f"speed  {name:20s} {precision:7s} train: converted {t['train_ms'][0]:8.2f} ms, hand "
                f"{t['train_ms'][1]:8.2f} ms, ratio {t['train_ratio']:.3f}; eval: {t['eval_ms'][0]:8.2f} / "
                f"{t['eval_ms'][1]:8.2f} ms, ratio {t['eval_ratio']:.3f}")
        row["seconds"] = round(time.perf_counter() - start, 1)
        rows.append(row)
        del conv, hand, x, y
        if device.type == "cuda":
            torch.cuda.empty_cache()
    return rows, failures


def time_pair(conv, hand, x, y, loss_fn, precision, device, args) -> dict:
    """Train steps, then eval forwards, of the two models alternately: median times and ratios."""
    import torch

    from speed_vs_hand_port import alternate

    autocast = (torch.autocast(device.type, dtype=torch.bfloat16) if precision == "bf16"
                else contextlib.nullcontext())
    steps = []
    for m in (conv, hand):
        opt = torch.optim.SGD(m.parameters(), lr=1e-4, momentum=0.9)

        def step(m=m, opt=opt, autocast=autocast):
            opt.zero_grad(set_to_none=True)
            with autocast:
                loss = loss_fn(m(*x), y)
            loss.backward()
            opt.step()
            sync(device)

        steps.append(step)
    for m in (conv, hand):
        m.train()
    train = alternate(steps, args.n, args.warmup)
    for m in (conv, hand):
        m.eval()

    def forward(m, autocast=autocast):
        with torch.no_grad(), autocast:
            m(*x)
        sync(device)

    evals = alternate([lambda m=m: forward(m) for m in (conv, hand)], args.n, args.warmup)
    return {"train_ms": [t * 1e3 for t in train], "train_ratio": train[0] / train[1],
            "eval_ms": [t * 1e3 for t in evals], "eval_ratio": evals[0] / evals[1]}


# -- phase 3: torch.compile --------------------------------------------------------------------
def phase_compile(prepared: Path, device, args, log, deadline) -> tuple[list, list]:
    import torch
    import torch._dynamo as dynamo

    rows, failures = [], []
    run = set(filter(None, args.compile_run.split(",")))
    only = args.models.split(",") if args.models else None
    if args.smoke and not only:  # dynamo's tracing of the two deep CNNs takes most of a minute on a CPU
        only = SMOKE_COMPILE
        log(f"compile: --smoke traces {', '.join(only)} (--models for others)")
    for name, conv, _, make_inputs, loss_fn in build_pairs(prepared, "smoke", only):
        if time.monotonic() > deadline:
            failures.append("compile: --budget-s ran out before every model was traced")
            log("compile STOPPED: --budget-s ran out")
            break
        start = time.perf_counter()
        conv.to(device).train()
        x, y = make_inputs(device)
        dynamo.reset()
        try:
            explained = dynamo.explain(conv)(*x)
            row = {"model": name, "breaks": explained.graph_break_count, "graphs": explained.graph_count,
                   "reasons": sorted({str(r.reason).splitlines()[0][:120] for r in explained.break_reasons})[:3]}
        except Exception as e:  # noqa: BLE001 - a crash is a finding, reported and counted
            row = {"model": name, "breaks": None, "reasons": [f"explain fails: {type(e).__name__}: {e}"[:300]]}
            failures.append(f"compile {name}: dynamo.explain fails: {type(e).__name__}")
        row["compiled"] = "not run"
        if name in run:
            dynamo.reset()
            try:
                loss_fn(torch.compile(conv)(*x), y).backward()
                sync(device)
                row["compiled"] = "runs (forward + backward)"
            except Exception as e:  # noqa: BLE001
                row["compiled"] = f"fails: {type(e).__name__}: {str(e).strip().splitlines()[0][:200]}"
                failures.append(f"compile {name}: torch.compile fails")
        row["seconds"] = round(time.perf_counter() - start, 1)
        rows.append(row)
        log(f"compile {name:20s} graph breaks: {breaks_cell(row)} {row['reasons'] or ''}; compiled: "
            f"{row['compiled']} ({row['seconds']} s)")
        dynamo.reset()
    return rows, failures


def breaks_cell(row: dict) -> str:
    if row.get("graphs") == 0:  # dynamo runs torch's RNN modules eagerly (config.allow_rnn is off)
        return "not traced (dynamo made no graph: it runs the module eagerly)"
    return str(row["breaks"])


# -- the report --------------------------------------------------------------------------------
def summary(results: dict) -> str:
    dev = results["device"]
    lines = [f"# gpu_bench: {results['device_name']}, torch {results['torch']}, numpy {results['numpy']}, "
             f"{'smoke sizes' if results['smoke'] else 'full sizes'}, {results['seconds']:.0f} s",
             "", f"Prepared: {results['prepared']}", ""]
    if results.get("check"):
        lines += ["## The checker against references recorded with MXNet on a CPU", "",
                  f"| reference | mode | expected | CPU (at preparation) | {dev} | TF32 pinned off, restored | verdict |",
                  "|---|---|---|---|---|---|---|"]
        for r in results["check"]:
            lines.append(f"| {r['name']} | {r['mode']} | {r['expect']} | {r['cpu']['equal']}/{r['cpu']['total']} "
                         f"(exit {r['cpu']['rc']}) | {r['equal']}/{r['total']} (exit {r['rc']}) | "
                         f"{r.get('tf32_off')}, {r['restored']} | {r['why'] or 'ok'} |")
        lines.append("")
    if results.get("speed"):
        target = TARGET_RATIO.get(dev, 1.10)
        lines += ["## Converted against hand port (ratio converted / hand; median)", "",
                  f"Timed with torch's precision defaults: {results['timing_precision']}", "",
                  *(["--smoke: one call each, no warm-up: these times show that the code runs, they measure "
                     "nothing", ""] if results["smoke"] else []),
                  "| model | precision | train converted ms | train hand ms | train ratio | eval ratio |",
                  "|---|---|---|---|---|---|"]
        for r in results["speed"]:
            for p in ("float32", "bf16"):
                if p in r:
                    t = r[p]
                    flag = "" if t["train_ratio"] <= target or results["smoke"] else f" (over {target})"
                    lines.append(f"| {r['model']} | {p} | {t['train_ms'][0]:.2f} | {t['train_ms'][1]:.2f} | "
                                 f"{t['train_ratio']:.3f}{flag} | {t['eval_ratio']:.3f} |")
            if "float32" not in r:
                why = ("outputs differ" if not r["agreement"] < 1e-4 else
                       "--smoke; outputs agree" if results["smoke"] else "crashed (see the failures)")
                lines.append(f"| {r['model']} | - | not timed: {why} ({r['agreement']:.1e}) | | | |")
        lines.append("")
    if results.get("compile"):
        lines += ["## torch.compile of the converted models (training mode)", "",
                  "| model | graph breaks | reasons | compiled forward + backward |", "|---|---|---|---|"]
        for r in results["compile"]:
            lines.append(f"| {r['model']} | {breaks_cell(r)} | {'; '.join(r['reasons']) or '-'} | {r['compiled']} |")
        lines.append("")
    lines += ["## Failures", ""] + ([f"- {f}" for f in results["failures"]] or ["none"])
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prepared", default=".gpubench", help="bench/gpu_prepare.py's folder")
    parser.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    parser.add_argument("--smoke", action="store_true", help="small sizes, one timed repeat: the CPU run here")
    parser.add_argument("--phases", default="check,speed,compile")
    parser.add_argument("--models", help="speed and compile: only these (comma-separated names)")
    parser.add_argument("-n", type=int, help="timed repeats (median); default 10, 1 with --smoke")
    parser.add_argument("--warmup", type=int, help="default 3, 0 with --smoke")
    parser.add_argument("--compile-run", default=None,
                        help="compile and run these converted models too (default: 'gcv resnet50_v1b' on cuda, "
                             "none on cpu)")
    parser.add_argument("--budget-s", type=float, help="stop starting models after this many seconds (exit 1); "
                        "default 280 (the device's 5 minutes), 900 with --smoke (a CPU others share)")
    parser.add_argument("--out", help="write results.json and summary.md here")
    parser.add_argument("--allow-imports", action="store_true",
                        help=f"do not refuse {', '.join(FORBIDDEN)} (the device has none of them)")
    args = parser.parse_args(argv)
    args.n = args.n or (1 if args.smoke else 10)
    args.warmup = args.warmup if args.warmup is not None else (0 if args.smoke else 3)
    if args.compile_run is None:
        args.compile_run = "gcv resnet50_v1b" if args.device == "cuda" else ""
    started = time.monotonic()
    deadline = started + (args.budget_s or (900 if args.smoke else 280))
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    log_lines = []

    def log(line: str) -> None:
        print(line, flush=True)
        log_lines.append(line)

    try:
        if not args.allow_imports:
            refuse_imports()
        prepared = Path(args.prepared).resolve()
        manifest_path = prepared / "manifest.json"
        if not manifest_path.is_file():
            raise Missing(f"{manifest_path}: no prepared folder (run bench/gpu_prepare.py here first, then carry it)")
        manifest = json.loads(manifest_path.read_text())
        absent = [p for p in manifest["files"] if not (prepared / p).is_file()]
        if absent:
            raise Missing(f"{len(absent)} prepared files are absent, first {absent[:3]}")
        sys.path[:0] = [str(HERE)]
        import numpy
        import torch

        if args.device == "cuda" and not torch.cuda.is_available():
            raise Missing("--device cuda, and torch sees no CUDA device")
        device = torch.device(args.device)
    except Missing as e:
        print(f"gpu_bench: MISSING: {e}", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else f"CPU, {torch.get_num_threads()} threads"
    results = {"device": args.device, "device_name": name, "torch": torch.__version__, "numpy": numpy.__version__,
               "smoke": args.smoke, "prepared": manifest["made"], "failures": [],
               "timing_precision": precision_state()}
    log(f"gpu_bench: {name}, torch {torch.__version__}, numpy {numpy.__version__}; prepared {manifest['made']}")
    phases = {"check": lambda: phase_check(manifest, prepared, args.device, args.smoke, log),
              "speed": lambda: phase_speed(prepared, device, args, log, deadline),
              "compile": lambda: phase_compile(prepared, device, args, log, deadline)}
    for phase in args.phases.split(","):
        start = time.monotonic()
        try:
            rows, failures = phases[phase]()
        except Exception as e:  # noqa: BLE001 - a crashed phase is a failure, with its traceback
            traceback.print_exc()
            rows, failures = [], [f"{phase}: crashed: {type(e).__name__}: {str(e)[:300]}"]
        results[phase] = rows
        results["failures"] += failures
        log(f"-- {phase}: {time.monotonic() - start:.0f} s, {len(failures)} failures")
        results["seconds"] = time.monotonic() - started
        if out:  # after every phase: a run stopped at its limit still leaves what it measured
            (out / "results.json").write_text(json.dumps(results, indent=1, default=str) + "\n")
    results["seconds"] = time.monotonic() - started
    text = summary(results)
    print("\n" + text)
    if out:
        (out / "results.json").write_text(json.dumps(results, indent=1, default=str) + "\n")
        (out / "summary.md").write_text(text)
        (out / "log.txt").write_text("\n".join(log_lines) + "\n")
    return 1 if results["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
