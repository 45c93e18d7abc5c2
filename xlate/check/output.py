"""The checker's report: text for people, JSON for machines, JUnit XML for CI systems."""
from __future__ import annotations

import json
from xml.sax.saxutils import escape, quoteattr

from xlate.check.pair import Result


def text(result: Result, inputs: str, seed: int) -> str:
    lines = [f"xlate check {result.mx_ref} vs {result.pt_ref}",
             f"devices: MXNet {result.devices['mxnet']}, PyTorch {result.devices['pytorch']}",
             f"inputs: {inputs} (seed {seed})"]
    for c in result.checks:
        lines.append(f"  {'ok  ' if c.ok else 'FAIL'}  {c.what if c.ok else c.mismatch.format()}")
    if result.divergence:
        lines.append(f"first layer whose outputs differ: {result.divergence}")
    for key in result.unchecked:
        lines.append(f"  not checked against a recording (needs MXNet): {key}")
    lines.extend(result.advice)
    failed = sum(not c.ok for c in result.checks)
    lines.append(f"{'Equal' if result.ok else 'DIVERGES'}: {len(result.checks) - failed} of "
                 f"{len(result.checks)} checks passed.")
    return "\n".join(lines) + "\n"


def as_json(result: Result, inputs: str, seed: int) -> str:
    return json.dumps({
        "mx": result.mx_ref, "pt": result.pt_ref, "devices": result.devices, "inputs": inputs,
        "seed": seed, "ok": result.ok, "divergence": result.divergence, "unchecked": result.unchecked,
        "advice": result.advice,
        "checks": [{"what": c.what, "ok": c.ok, "mismatch": None if c.ok else vars(c.mismatch)}
                   for c in result.checks],
    }, indent=2, default=str) + "\n"


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
