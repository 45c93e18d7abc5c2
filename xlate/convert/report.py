"""Diagnostics and the linter-style report (text and JSON)."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Iterable, Optional

# A rewrite is `fixed` (safe), `review` (rewritten, but a human must confirm) or `manual`
# (left as it was: a human must translate it).
STATUSES = ("fixed", "review", "manual")


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    col: int
    code: str
    status: str
    message: str
    counts: bool = True  # counts towards the convert rate (imports do not)

    def format(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} [{self.status}] {self.message}"


@dataclass
class FileResult:
    path: str
    source: str
    output: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    helpers: tuple[str, ...] = ()  # the helpers the output uses, with what they use
    helper_import: Optional[object] = None  # how it imports them (a tree's placement.HelperImport)
    encoding: str = "utf-8"  # the file's own (PEP 263): the output is written back in it

    @property
    def data(self) -> bytes:
        """The output as the bytes to write."""
        return self.output.encode(self.encoding)

    @property
    def changed(self) -> bool:
        return self.output != self.source

    @property
    def manual(self) -> int:
        return sum(d.status == "manual" for d in self.diagnostics)


@dataclass
class Summary:
    files: int = 0
    changed: int = 0
    fixed: int = 0
    review: int = 0
    manual: int = 0
    found: int = 0
    converted: int = 0

    @classmethod
    def of(cls, results: Iterable[FileResult]) -> "Summary":
        s = cls()
        for r in results:
            s.files += 1
            s.changed += r.changed
            for d in r.diagnostics:
                setattr(s, d.status, getattr(s, d.status) + 1)
                if d.counts:
                    s.found += 1
                    s.converted += d.status != "manual"
        return s

    @property
    def rate(self) -> Optional[float]:
        return self.converted / self.found if self.found else None


def format_text(results: list[FileResult], notes: dict[str, str], *, helpers: Iterable[str] = ()) -> str:
    """The report; `helpers`: lines that say where the converted code's helpers went."""
    lines = []
    for r in results:
        lines.extend(d.format() for d in r.diagnostics)
    s = Summary.of(results)
    rate = "n/a (no MXNet found)" if s.rate is None else f"{100 * s.rate:.1f}% ({s.converted}/{s.found})"
    lines.append("")
    lines.append(
        f"Converted {s.files} file{'s' * (s.files != 1)} ({s.changed} changed): "
        f"{s.fixed} fixed, {s.review} to review, {s.manual} manual item{'s' * (s.manual != 1)} left."
    )
    lines.append(f"Convert rate: {rate} of MXNet references.")
    lines.extend(helpers)
    used = sorted({d.code for r in results for d in r.diagnostics if d.status != "fixed"})
    if used:
        lines.append("")
        lines.append("Notes (each code once; `xlate rule CODE` explains it):")
        for code in used:
            if notes.get(code):
                body = " ".join(notes[code].split())
                lines.append(f"  {code}: {body}")
    return "\n".join(lines) + "\n"


def format_json(results: list[FileResult], notes: dict[str, str], *, helpers: Iterable[str] = ()) -> str:
    s = Summary.of(results)
    used = sorted({d.code for r in results for d in r.diagnostics})
    payload = {
        "files": [
            {"path": r.path, "changed": r.changed, "diagnostics": [asdict(d) for d in r.diagnostics]}
            for r in results
        ],
        "summary": {**asdict(s), "rate": s.rate},
        "notes": {c: notes.get(c, "") for c in used},
    }
    helpers = list(helpers)
    if helpers:
        payload["helpers"] = helpers
    return json.dumps(payload, indent=2) + "\n"
