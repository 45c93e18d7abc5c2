"""`xlate check --rules`: every family's samples, run through the checker.

For each registered `Sample`, hypothesis draws `examples` configurations (seeded, no
database, generation only: no shrinking, no deadline), so the same seed draws the same
configurations on every run and machine with the same hypothesis version. Each is built
fresh and compared by `check_models` (inference, then training forward and backward) with
the family's tolerance; a failure keeps its configuration and first mismatch.

The greatest absolute error is measured over the passing comparisons too: `check_models`
reports it for every check (`Check.max_abs`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterable, Optional


from xlate.check import families as _families  # noqa: F401  (registers every family and its samples)
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
        rows = [("family", "examples", "failures", "max abs error", "time")]
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
        lines.append(f"Self-check: {run} examples over {sum(bool(f.samples) for f in self.families)} families "
                     f"(seed {self.seed}, {self.examples} per sample, PyTorch on {self.device}): {verdict}.")
        if self.unsampled:
            lines.append(f"Families without samples (not checked): {', '.join(self.unsampled)}.")
        return "\n".join(lines) + "\n"


def draw_configs(sample: Sample, *, examples: int, seed: int) -> list:
    """`examples` configurations of `sample`, the same for the same seed."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as seeded

    drawn: list = []

    @seeded(seed)
    @settings(max_examples=examples, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck), derandomize=False)
    @given(sample.configs())
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


def run(*, examples: int = 5, seed: int = 0, device: str = "cpu", families: Optional[Iterable[str]] = None) -> Report:
    """Check every sample of every registered family (or of `families`)."""
    if examples < 1:
        raise ValueError(f"examples must be at least 1, got {examples}")
    names = list(FAMILIES)
    if families is not None:
        wanted = list(dict.fromkeys(families))
        unknown = [n for n in wanted if n not in FAMILIES]
        if unknown:
            raise ValueError(f"no family {', '.join(map(repr, unknown))}; the families are {', '.join(FAMILIES)}")
        names = [n for n in names if n in wanted]
    report = Report([], examples, seed, device)
    for name in names:
        out = FamilyResult(name, [s.name for s in SAMPLES.values() if s.family == name])
        start = time.perf_counter()
        for sample in SAMPLES.values():
            if sample.family == name:
                _run_sample(sample, out, examples=examples, seed=seed, device=device)
        out.seconds = time.perf_counter() - start
        report.families.append(out)
    return report
