"""The checker's report: text for people, JSON for machines, JUnit XML for CI systems."""
from __future__ import annotations

import json
from xml.sax.saxutils import escape, quoteattr

from xlate.check.pair import Result
from xlate.check.precision import describe


def text(result: Result, inputs: str, seed: int) -> str:
    lines = [f"xlate check {result.mx_ref} vs {result.pt_ref}",
             f"devices: MXNet {result.devices['mxnet']}, PyTorch {result.devices['pytorch']}",
             f"inputs: {inputs} (seed {seed})"]
    if result.precision:
        lines.append(describe(result.precision))
    if result.noise is not None:
        lines.append(f"noise mode: what differs is judged against a float64 copy of the PyTorch model; MXNet may "
                     f"deviate from it by K={result.noise.k:g} times PyTorch float32's own deviation")
    for c in result.checks:
        if not c.ok:
            lines.append(f"  FAIL  {c.mismatch.format()}")
        else:
            lines.append(f"  ok    {c.what}" + (f" ({c.noise.summary()})" if c.noise is not None else ""))
    if result.divergence:
        lines.append(f"first layer whose outputs differ: {result.divergence}")
    for key in result.unchecked:
        lines.append(f"  not checked against a recording (needs MXNet): {key}")
    lines.extend(result.advice)
    failed = sum(not c.ok for c in result.checks)
    lines.append(f"{'Equal' if result.ok else 'DIVERGES'}: {len(result.checks) - failed} of "
                 f"{len(result.checks)} checks passed{_noise_summary(result)}.")
    return "\n".join(lines) + "\n"


def _noise_summary(result: Result) -> str:
    """How many checks needed the noise allowance, and the worst of them."""
    if result.noise is None:
        return ""
    excused = [c for c in result.checks if c.ok and c.noise is not None and c.noise.verdict == "noise"]
    if not excused:
        return f" (noise mode, K={result.noise.k:g}: none needed the noise allowance)"
    worst = max(excused, key=lambda c: c.noise.ratio)
    return (f" ({len(excused)} within float32 noise (K={result.noise.k:g}), at most {worst.noise.ratio:.3g}x "
            f"PyTorch float32's deviation: {worst.what})")


def as_json(result: Result, inputs: str, seed: int) -> str:
    return json.dumps({
        "mx": result.mx_ref, "pt": result.pt_ref, "devices": result.devices, "inputs": inputs,
        "seed": seed, "ok": result.ok, "divergence": result.divergence, "unchecked": result.unchecked,
        "advice": result.advice, "precision": result.precision, "kinks": result.kinks, "noise_floor": None if result.noise is None else vars(result.noise),
        "checks": [{"what": c.what, "ok": c.ok, "mismatch": None if c.ok else _plain(c.mismatch),
                    "noise": None if c.noise is None else vars(c.noise)}
                   for c in result.checks],
    }, indent=2, default=str) + "\n"


def _plain(mismatch) -> dict:
    fields = dict(vars(mismatch))
    fields.pop("noise", None)  # given once, under the check's "noise"
    return fields


def junit(result: Result) -> str:
    failures = sum(not c.ok for c in result.checks)
    cases = []
    for c in result.checks:
        name = quoteattr(c.what)
        if c.ok:
            cases.append(f"    <testcase classname={quoteattr(result.mx_ref)} name={name}/>")
        else:
            msg = c.mismatch.format()
            cases.append(f"    <testcase classname={quoteattr(result.mx_ref)} name={name}>\n"
                         f"      <failure message={quoteattr(msg)}>{escape(msg)}</failure>\n"
                         f"    </testcase>")
    return ('<?xml version="1.0" encoding="utf-8"?>\n'
            f'<testsuites>\n  <testsuite name="xlate check" tests="{len(result.checks)}" '
            f'failures="{failures}">\n' + "\n".join(cases) + "\n  </testsuite>\n</testsuites>\n")
