"""Fuzzing in the suite: a few hundred hypothesmith programs with MXNet spliced in (the same
every run), each held to the engine's promises (tests/fuzzgen.py): no crash, output that
compiles, no name left unbound, identical output from two runs, and a second pass over the
output that changes nothing and reports nothing new. The outputs are then made again in a
process with another PYTHONHASHSEED: hash order must not show. bench/fuzz.py runs thousands.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import fuzzgen
from xlate.convert.engine import convert_source

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = 200  # 300 cost 10 s of the suite to draw; bench/fuzz.py draws thousands


@pytest.fixture(scope="module")
def programs() -> list[str]:
    return fuzzgen.generate(PROGRAMS, seed=12)


def test_there_are_enough_programs(programs):
    assert len(programs) >= PROGRAMS * 0.9
    assert sum(re.search(r"\b(nd|mx|gluon)\.", p.split("\n", 2)[2]) is not None for p in programs) == len(programs)


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    """The first conversion of each program, as the promises test made it (shared: converting
    the 300 programs again for the hash-order test cost 7 s)."""
    return {}


def test_fuzzed_programs_keep_every_promise(programs, outputs):
    def convert(text):
        result = convert_source(text)
        outputs.setdefault(text, result.output)  # only the first run's: problems() runs it again to compare
        return result

    failures = [(kind, detail, source) for source in programs for kind, detail in fuzzgen.problems(source, convert)]
    assert failures == [], "\n\n".join(f"{k}: {d}\n{s}" for k, d, s in failures[:5])


def test_fuzzed_outputs_do_not_depend_on_hash_order(programs, outputs):
    here = [outputs[p] if p in outputs else convert_source(p).output for p in programs]
    script = ("import json, sys\nfrom xlate.convert.engine import convert_source\n"
              "print(json.dumps([convert_source(s).output for s in json.load(sys.stdin)]))\n")
    env = dict(os.environ, PYTHONHASHSEED="4321", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(programs), env=env,
                          capture_output=True, text=True, timeout=600, check=True)
    there = json.loads(done.stdout)
    assert [i for i, (a, b) in enumerate(zip(here, there)) if a != b] == []


def test_the_checks_catch_what_they_look_for():
    """problems() is not vacuous: each kind fires on a converter that misbehaves that way."""
    good = convert_source

    def unparseable(text):
        r = good(text)
        r.output += "def f(:\n"
        return r

    def unbound(text):
        r = good(text)
        r.output = r.output.replace("import torch\n", "")
        return r

    calls = []

    def varying(text):
        calls.append(text)
        r = good(text)
        r.output += "#" * len(calls)
        return r

    def second_pass_change(text):
        r = good(text)
        if "mx" not in text:
            r.output = r.output.replace("torch.ones", "torch.zeros")
        return r

    def crash(text):
        raise KeyError("boom")

    source = "import mxnet as mx\nx = mx.nd.ones(2)\n"
    assert fuzzgen.problems(source, good) == []
    kinds = {name: {k for k, _ in fuzzgen.problems(source, fn)} for name, fn in
             [("unparseable", unparseable), ("unbound", unbound), ("varying", varying),
              ("second pass", second_pass_change), ("crash", crash)]}
    assert all(name in found for name, found in kinds.items()), kinds
