"""`xlate check --rules`: every family's samples, run through the checker.

For each registered `Sample`, hypothesis draws `examples` configurations (seeded, no
database, generation only: no shrinking, no deadline), so the same seed draws the same
configurations on every run and machine with the same hypothesis version. Each is built
fresh and compared by `check_models` (inference, then training forward and backward) with
the family's tolerance; a failure keeps its configuration and first mismatch.

The greatest absolute error is measured over the passing comparisons too: `check_models`
reports it for every check (`Check.max_abs`).

The catalogue's NDArray and device rules (`xlate.check.rule_cases`) get a row each, by rule
code: every case filed under the code runs `examples` times on hypothesis-drawn shapes and
options (a case with fixed shapes runs on fresh values each time), and its special checks
(random draws by their statistics, the seed, counting GPUs) once per example. `--family
ndarray` (0xx) or `--family devices` (5xx), or a rule code, selects them.

The training rules (Trainer, optimizers, schedulers, losses: `xlate.check.train_cases`) get
their rows the same way: each case converts a small training loop and takes K optimizer
steps on both sides (`--steps K`, 3 without it), comparing the loss and every parameter
after each step. `--family losses` (4xx) or `--family training` (every row with such a
case) selects them.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterable, Optional


from xlate.check import families as _families  # noqa: F401  (registers every family and its samples)
from xlate.check import precision
from xlate.check.mapping import FAMILIES
from xlate.check.samples import SAMPLES, Sample, describe


@dataclass(frozen=True)
class Failure:
    sample: str
    config: str
    message: str


@dataclass
class FamilyResult:
    family: str
    samples: list[str] = field(default_factory=list)
    examples: int = 0
    failures: list[Failure] = field(default_factory=list)
    max_abs: float = 0.0
    seconds: float = 0.0


@dataclass
class Report:
    families: list[FamilyResult]
    examples: int
    seed: int
    device: str

    @property
    def ok(self) -> bool:
        return all(not f.failures for f in self.families)

    @property
    def unsampled(self) -> list[str]:
        """Families that claim equivalence but declare no sample: listed, not failed."""
        return [f.family for f in self.families if not f.samples]

    def format(self) -> str:
        rows = [("family / rule", "examples", "failures", "max abs error", "time")]
        for f in self.families:
            if not f.samples:
                rows.append((f.family, "-", "-", "no samples", "-"))
                continue
            rows.append((f.family, str(f.examples), str(len(f.failures)), f"{f.max_abs:.3g}", f"{f.seconds:.2f}s"))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
                 for r in rows]
        lines.insert(1, "  ".join("-" * w for w in widths))
        for f in self.families:
            for x in f.failures:
                lines.append(f"FAIL {f.family} [{x.sample}] {x.config}\n    {x.message}")
        run = sum(f.examples for f in self.families)
        failed = sum(len(f.failures) for f in self.families)
        verdict = "all equal" if self.ok else f"{failed} of {run} examples differ"
        lines.append(f"Self-check: {run} examples over {sum(bool(f.samples) for f in self.families)} families and rules "
                     f"(seed {self.seed}, {self.examples} per sample, PyTorch on {self.device}): {verdict}.")
        if self.unsampled:
            lines.append(f"Families without samples (not checked): {', '.join(self.unsampled)}.")
        return "\n".join(lines) + "\n"


def draw_configs(sample: Sample, *, examples: int, seed: int) -> list:
    """`examples` configurations of `sample`, the same for the same seed."""
    return _draw(sample.configs(), examples=examples, seed=seed)


def draw_examples(strategy, *, examples: int, seed: int) -> list:
    """Exactly `examples` draws of `strategy`, the same for the same seed: a strategy with
    fewer distinct values than that (a fixed shape) repeats them."""
    drawn = _draw(strategy, examples=examples, seed=seed)
    return [drawn[i % len(drawn)] for i in range(examples)]


def _draw(strategy, *, examples: int, seed: int) -> list:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as seeded

    drawn: list = []

    @seeded(seed)
    @settings(max_examples=examples, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck), derandomize=False)
    @given(strategy)
    def collect(config) -> None:
        drawn.append(config)

    collect()
    return drawn[:examples]


def _first_problem(result) -> str:
    for c in result.checks:
        if not c.ok:
            text = c.mismatch.format()
            return text + (f"\n    first diverging layer: {result.divergence}" if result.divergence else "")
    return "failed"


def _run_sample(sample: Sample, out: FamilyResult, *, examples: int, seed: int, device: str) -> None:
    from xlate.check.pair import check_models

    tolerance = sample.tolerance or FAMILIES[sample.family].tolerance
    for i, config in enumerate(draw_configs(sample, examples=examples, seed=seed)):
        out.examples += 1
        try:
            mx_block, pt_module, inputs = sample.build(config)
            result = check_models(mx_block, pt_module, inputs, seed=seed + i, device=device, tolerance=tolerance)
        except Exception as e:  # a build or pairing that fails is a failure of this sample
            out.failures.append(Failure(sample.name, describe(config), f"{type(e).__name__}: {e}"))
            continue
        out.max_abs = max([out.max_abs, *(c.max_abs for c in result.checks if c.max_abs is not None)])
        if not result.ok:
            out.failures.append(Failure(sample.name, describe(config), _first_problem(result)))


RULE_GROUPS = {"ndarray": 0, "losses": 4, "devices": 5, "numpy": 7}  # --family names for rule rows, by family


def rule_rows() -> dict[str, list[str]]:
    """Row name ("MX028 nd-concat") -> the names of its cases and special checks, by rule code."""
    from xlate.convert import catalogue
    from xlate.check import rule_cases, train_cases

    names = {r.code: r.name for r in catalogue.read()}
    by_code: dict[str, list[str]] = {}
    for item in [*rule_cases.CASES, *rule_cases.SPECIAL_CHECKS, *train_cases.TRAIN_CASES]:
        if item.rule:
            by_code.setdefault(item.rule, []).append(item.id)
    return {f"{code} {names.get(code, '?')}": by_code[code] for code in sorted(by_code)}


def _rule_selected(row: str, wanted: list[str], ids: Iterable[str] = ()) -> bool:
    from xlate.check import train_cases

    code = row.split()[0]
    training = any(i in train_cases.BY_ID for i in ids)
    return any(w == code or w == row or RULE_GROUPS.get(w) == int(code[2:]) // 100 or (w == "training" and training)
               for w in wanted)


def _run_rule_row(row: str, ids: list[str], out: FamilyResult, *, examples: int, seed: int,
                  steps: Optional[int] = None) -> None:
    from xlate.check import rule_cases, train_cases

    specials = {s.id: s for s in rule_cases.SPECIAL_CHECKS}
    for item_id in ids:
        training = train_cases.BY_ID.get(item_id)
        if training is not None:
            for i in range(examples):
                out.examples += 1
                config = f"{steps or train_cases.DEFAULT_STEPS} steps, seed {seed + i}"
                try:
                    rows = train_cases.run_training(training, steps=steps or train_cases.DEFAULT_STEPS,
                                                    seed=rule_cases.seed_for(item_id) + seed + i)
                except Exception as e:
                    message = f"{type(e).__name__}: {e}".strip().splitlines()
                    out.failures.append(Failure(item_id, config, "\n    ".join(message[:6])))
                    continue
                _record(out, item_id, config, rows)
            continue
        case = rule_cases.BY_ID.get(item_id)
        if case is None:
            for i in range(examples):
                out.examples += 1
                try:
                    rows = specials[item_id].run(seed + i) or []
                except Exception as e:
                    out.failures.append(Failure(item_id, f"example {i}", f"{type(e).__name__}: {e}"))
                    continue
                _record(out, item_id, f"example {i}", rows)
            continue
        try:
            drawn = draw_examples(case.inputs(), examples=examples, seed=seed)
        except Exception as e:
            out.examples += 1
            out.failures.append(Failure(case.id, "drawing", f"{type(e).__name__}: {e}"))
            continue
        for i, (specs, options) in enumerate(drawn):
            out.examples += 1
            config = rule_cases.describe(specs, options)
            try:
                rows = rule_cases.run_example(case, specs, options, rule_cases.seed_for(case.id) + seed + i)
            except Exception as e:  # a conversion that misses the rule, or a side that raises
                message = f"{type(e).__name__}: {e}".strip().splitlines()
                out.failures.append(Failure(case.id, config, "\n    ".join(message[:6])))
                continue
            _record(out, case.id, config, rows)


def _record(out: FamilyResult, name: str, config: str, rows: list) -> None:
    out.max_abs = max([out.max_abs, *(err for _, _, err in rows if err is not None)])
    bad = [m for _, m, _ in rows if m is not None]
    if bad:
        out.failures.append(Failure(name, config, bad[0].format()))


@precision.pinning  # Note [pinned precision]
def run(*, examples: int = 5, seed: int = 0, device: str = "cpu", families: Optional[Iterable[str]] = None,
        rules: bool = True, steps: Optional[int] = None) -> Report:
    """Check every sample of every registered family and every rule's cases (or those of
    `families`: layer family names, "ndarray", "losses", "devices", "numpy", "training" or rule
    codes); `rules=False` leaves the rule rows out; `steps`: optimizer steps per training case
    (DEFAULT_STEPS in train_cases.py when None)."""
    if examples < 1:
        raise ValueError(f"examples must be at least 1, got {examples}")
    names = list(FAMILIES)
    rows = rule_rows() if rules else {}
    if families is not None:
        wanted = list(dict.fromkeys(families))
        unknown = [n for n in wanted if n not in FAMILIES and not any(_rule_selected(r, [n], i) for r, i in rows.items())]
        if unknown:
            raise ValueError(f"no family {', '.join(map(repr, unknown))}; the families are {', '.join(FAMILIES)}, "
                             f"{', '.join(RULE_GROUPS)}, training and the rule codes")
        names = [n for n in names if n in wanted]
        rows = {r: ids for r, ids in rows.items() if _rule_selected(r, wanted, ids)}
    report = Report([], examples, seed, device)
    for name in names:
        out = FamilyResult(name, [s.name for s in SAMPLES.values() if s.family == name])
        start = time.perf_counter()
        for sample in SAMPLES.values():
            if sample.family == name:
                _run_sample(sample, out, examples=examples, seed=seed, device=device)
        out.seconds = time.perf_counter() - start
        report.families.append(out)
    for row, ids in rows.items():
        out = FamilyResult(row, ids)
        start = time.perf_counter()
        _run_rule_row(row, ids, out, examples=examples, seed=seed, steps=steps)
        out.seconds = time.perf_counter() - start
        report.families.append(out)
    return report
