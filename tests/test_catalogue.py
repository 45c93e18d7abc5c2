"""The catalogue's contract: every rule carries an example, codes are unique, non-safe rules
explain themselves; and each example, run with only its rule enabled, gives its `after`."""
import ast
import dataclasses

import pytest

from xlate.convert import catalogue
from xlate.convert.catalogue import Example, Rule
from xlate.convert.context import FileContext
from xlate.convert.engine import convert_source
from xlate.runtime import elided, sources

RULES = catalogue.read()
EXAMPLES = [(r, i, ex) for r in RULES for i, ex in enumerate(r.examples)]


@pytest.mark.parametrize("rule,i,example", EXAMPLES, ids=[f"{r.code}-{i}" for r, i, _ in EXAMPLES])
def test_example(rule: Rule, i: int, example: Example):
    # MX001 is the import bookkeeping every rewrite relies on; it stays on.
    around = dict(example.context, shadows=example.shadows) if example.shadows or example.context else None
    options = {"context": FileContext(**around)} if around else None
    result = convert_source(example.before.lstrip("\n"), select=[rule.code, "MX001", *example.also], options=options)
    # the examples show each pasted helper as a `# helper: NAME` line (its text is in xlate/runtime)
    assert elided(result.output) == example.after.lstrip("\n")
    pasted = {n.name: ast.get_source_segment(result.output, n) for n in ast.parse(result.output).body
              if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in sources()}
    assert all(text == sources()[name] for name, text in pasted.items())
    codes = {d.code for d in result.diagnostics}
    if rule.kind in ("call", "reference", "assign", "def", "type"):
        assert rule.code in codes, f"{rule.code} did not report itself on its own example"
    if rule.kind == "report" and rule.applicability == "review":  # a rewrite it says is a guess
        assert any(d.code == rule.code and d.status == "review" for d in result.diagnostics)
    elif rule.applicability == "manual":
        assert any(d.status == "manual" for d in result.diagnostics)
    elif rule.kind == "report":  # a safe one says what was done, at its line
        assert any(d.code == rule.code and d.status == "fixed" for d in result.diagnostics)


def test_catalogue_is_valid():
    assert catalogue.validate(RULES) == []


def _broken(**changes) -> tuple:
    base = next(r for r in RULES if r.code == "MX028")
    return RULES + (dataclasses.replace(base, **changes),)


@pytest.mark.parametrize("changes,problem", [
    (dict(code="MX999", name="no-example", examples=()), "no before/after example"),
    (dict(name="duplicate-code"), "duplicate code"),
    (dict(code="MX998", name="review-no-notes", applicability="review", notes=""), "needs notes"),
    (dict(code="MX997", name="bad-applicability", applicability="maybe"), "applicability"),
    (dict(code="MXA01", name="bad-code"), "MX + 3 digits"),
    (dict(code="MX829", name="wrong-family-file"), "in another family's file"),
    (dict(code="MX996", name="nd-concat-dim1"), "used twice"),
    (dict(code="MX995", name="shadowed-match"), "is already matched by MX028"),
])
def test_validate_rejects(changes, problem):
    problems = catalogue.validate(_broken(**changes))
    assert any(problem in p for p in problems), problems


def test_validate_rejects_a_code_of_no_family(monkeypatch):
    # every hundred is a family now (8xx since 0xx filled up); one removed must be refused
    monkeypatch.delitem(catalogue.FAMILIES, 2)
    assert any("no family 2xx" in p for p in catalogue.validate(RULES))


def test_rule_count_per_family():
    families = {}
    for r in RULES:
        families.setdefault(r.family, []).append(r.code)
    assert families[0] and families[5] and families[9]
    assert all(r.code[:3] == f"MX{r.family}" for r in RULES)


def test_catalogue_ships_with_the_package():
    # the only place that knows where rules live finds the same rules the tests read
    assert catalogue.load() == tuple(sorted(RULES, key=lambda r: r.code))
