"""Whole files through the whole pipeline: output and report must match what is checked in.

Set XLATE_REGEN=1 to rewrite the expected files, then review the diff before committing.
"""
import ast
import os
from pathlib import Path

import pytest

from fuzzgen import second_pass_reports
from xlate.convert import catalogue
from xlate.convert.engine import convert_source
from xlate.convert.report import format_text

ROOT = Path(__file__).resolve().parent.parent
INPUTS = sorted(p for p in (ROOT / "fixtures").rglob("*_mx.py"))


def _expected(path: Path, suffix: str) -> Path:
    return path.with_name(path.name[: -len("_mx.py")] + suffix)


@pytest.mark.parametrize("path", INPUTS, ids=[p.parent.name for p in INPUTS])
def test_fixture(path: Path):
    rel = path.relative_to(ROOT).as_posix()
    result = convert_source(path.read_text(encoding="utf-8"), path=rel)
    notes = {r.code: r.notes for r in catalogue.load()}
    report = format_text([result], notes)
    out_path, report_path = _expected(path, "_pt.py"), _expected(path, ".report.txt")
    if os.environ.get("XLATE_REGEN"):
        out_path.write_text(result.output, encoding="utf-8")
        report_path.write_text(report, encoding="utf-8")
    ast.parse(result.output)
    assert result.output == out_path.read_text(encoding="utf-8")
    assert report == report_path.read_text(encoding="utf-8")
    # converting the converted file changes nothing, and reports only the manual items left
    second = convert_source(result.output)
    assert second.output == result.output
    assert second_pass_reports(result, second) == []


def test_there_are_fixtures():
    assert len(INPUTS) >= 3
