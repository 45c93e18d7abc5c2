"""`xlate check --rules`: every family's samples pass; a wrong translation or a wrong mapping
table fails naming the family and the configuration; the draws are reproducible."""
from __future__ import annotations

import dataclasses
import re

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
pytest.importorskip("hypothesis")
from hypothesis import strategies as st  # noqa: E402

from xlate.check import case_kit, layers, mapping, samples, selfcheck  # noqa: E402
from xlate.cli import main  # noqa: E402

pytestmark = pytest.mark.mxnet


def _rows(out: str) -> dict[str, list[str]]:
    """The report's table: family -> its other columns."""
    table = out.split("\nSelf-check:")[0].splitlines()[2:]
    rows = {}
    for line in table:
        if line.startswith("FAIL") or line.startswith(" "):
            continue
        name, *columns = re.split(r"\s{2,}", line.strip())  # columns are 2 spaces apart at least
        rows[name] = columns
    return rows


def test_every_family_passes_and_is_listed(capsys):
    # one example a row: each row's own tests draw more (the suite's time is CI's limit); the
    # NDArray rows (0xx) are left out here, as tests/test_numeric_ndarray.py runs each of their cases
    groups = ["numpy", "devices", "losses", "training", *mapping.FAMILIES]
    assert main(["check", "--rules", "--examples", "1", "--device", "cpu",
                 *[a for g in groups for a in ("--family", g)]]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    rule_rows = {r: rows.pop(r) for r in list(rows) if re.match(r"MX\d{3} ", r)}
    assert set(rows) == set(mapping.FAMILIES)
    every = selfcheck.rule_rows()
    assert set(rule_rows) == {r for r in every if selfcheck._rule_selected(r, groups[:4], every[r])}
    assert {"MX507 random-seed-determinism", "MX550 gluon-trainer", "MX552 mx-lr-scheduler",
            "MX400 gluon-l2-loss"} <= set(rule_rows)  # training rows, K steps each
    for name, (examples, failures, error, _) in rule_rows.items():
        assert failures == "0" and int(examples) >= 1, (name, examples, failures)
        assert float(error) < 1e-4, (name, error)
    sampled = {s.family for s in samples.SAMPLES.values()}
    for name, (examples, failures, error, _) in rows.items():
        if name in sampled:
            assert failures == "0" and int(examples) >= sum(s.family == name for s in samples.SAMPLES.values())
            assert float(error) < 1e-5, (name, error)
    assert "all equal" in out


def test_every_layer_and_rnn_family_has_a_sample():
    from xlate.check import rnn

    declared = {f.name for mod in (layers, rnn) for f in vars(mod).values() if isinstance(f, mapping.Family)}
    assert declared <= {s.family for s in samples.SAMPLES.values()}
    assert all(s.family in mapping.FAMILIES for s in samples.SAMPLES.values())


def test_a_sample_is_registered_once():
    with pytest.raises(ValueError, match="registered twice"):
        samples.register_sample(samples.SAMPLES["dense"])


def _wrong_dense(c):
    """Gluon Dense(activation='tanh') translated with relu: a wrong torch translation."""
    block = mx.gluon.nn.Dense(c["units"], activation="tanh", in_units=c["features"])
    linear = torch.nn.Linear(c["features"], c["units"])
    return block, samples.torch_call(linear, lambda m, x: torch.relu(m(x))), [samples.floats("x", 3, c["features"])]


def test_a_wrong_translation_fails_naming_family_and_config(monkeypatch, capsys):
    wrong = samples.Sample("dense tanh as relu", "dense",
                           st.fixed_dictionaries({"units": st.integers(2, 4), "features": st.integers(2, 4)}),
                           _wrong_dense)
    monkeypatch.setitem(samples.SAMPLES, wrong.name, wrong)
    assert main(["check", "--rules", "--examples", "2", "--family", "dense", "--device", "cpu"]) == 1
    out = capsys.readouterr().out
    assert "FAIL dense [dense tanh as relu] units=" in out and "features=" in out
    assert "inference: output" in out and "elements differ" in out
    assert _rows(out)["dense"][1] == "2"
    assert "2 of 4 examples differ" in out


def test_a_wrong_mapping_table_fails(monkeypatch, capsys):
    # per-group values laid out group after group (tile) instead of channel by channel (repeat)
    tiled = lambda v, b, m: np.tile(v, m.num_channels // m.num_groups)  # noqa: E731
    fam = mapping._BY_MX["GroupNorm"]
    monkeypatch.setitem(mapping._BY_MX, "GroupNorm", dataclasses.replace(
        fam, expand=None, params=tuple(dataclasses.replace(p, to_pt=tiled) for p in layers.GROUPNORM_PARAMS)))
    report = selfcheck.run(examples=6, seed=0, device="cpu", families=["groupnorm"])
    assert not report.ok
    [row] = report.families
    assert row.family == "groupnorm" and row.failures
    # a single group or a group per channel hides the layout: only the others must fail
    assert all("groups=1" not in f.config for f in row.failures)
    assert "FAIL groupnorm [groupnorm] groups=" in report.format()


def test_family_filter(capsys):
    assert main(["check", "--rules", "--examples", "1", "--family", "conv", "--family", "prelu",
                 "--device", "cpu"]) == 0
    assert set(_rows(capsys.readouterr().out)) == {"conv", "prelu"}
    assert main(["check", "--rules", "--family", "no such family"]) == 2
    assert "no family 'no such family'" in capsys.readouterr().err


def test_rules_takes_precedence_over_the_project_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no pyproject.toml here: `xlate check` alone would be an error
    assert main(["check", "--rules", "--examples", "1", "--family", "embedding", "--device", "cpu"]) == 0
    assert main(["check", "--rules", "--mx", "a.py:A"]) == 2
    assert "takes no --mx" in capsys.readouterr().err
    assert main(["check", "--rules", "--examples", "0"]) == 2


def test_draws_are_deterministic_and_follow_the_seed():
    for sample in samples.SAMPLES.values():
        first = selfcheck.draw_configs(sample, examples=5, seed=3)
        assert first == selfcheck.draw_configs(sample, examples=5, seed=3), sample.name
        assert len(first) == 5 and len({samples.describe(c) for c in first}) > 1, sample.name
    rnn = samples.SAMPLES["rnn layers"]
    assert selfcheck.draw_configs(rnn, examples=5, seed=3) != selfcheck.draw_configs(rnn, examples=5, seed=4)


def test_strategies_validate_their_knobs():
    with pytest.raises(ValueError, match="max_batch"):
        layers.dense_configs(max_batch=0)


def test_rule_rows_filter_and_a_broken_transform_fails_naming_the_rule(monkeypatch, capsys, request):
    from xlate.convert.transforms import reduce

    assert main(["check", "--rules", "--examples", "2", "--family", "MX033", "--device", "cpu"]) == 0
    assert set(_rows(capsys.readouterr().out)) == {"MX033 nd-reduction"}
    # max over an axis translated as amin: a wrong transform
    # conversions are memoised per process (case_kit.convert): none made before the breakage may
    # answer for it, and none made with it may outlive the test
    request.addfinalizer(case_kit.convert.cache_clear)
    case_kit.convert.cache_clear()
    monkeypatch.setitem(reduce._TORCH, "max", "amin")
    # the broken row and one beside it (the whole ndarray group took 8 s of the suite)
    assert main(["check", "--rules", "--examples", "2", "--family", "MX033", "--family", "MX028",
                 "--device", "cpu"]) == 1
    out = capsys.readouterr().out
    rows = _rows(out)
    assert set(rows) == {"MX033 nd-reduction", "MX028 nd-concat-dim1"}
    assert rows["MX033 nd-reduction"][1] != "0" and rows["MX028 nd-concat-dim1"][1] == "0"
    assert "FAIL MX033 nd-reduction [max-axis] x=" in out and "elements differ" in out


def test_a_group_and_a_code_together(capsys):
    # a group (the losses: 7 rows; every group's rows run in test_every_family_passes_and_is_listed) and
    # a code of another family, in one call
    assert main(["check", "--rules", "--examples", "1", "--family", "losses", "--family", "MX015",
                 "--device", "cpu"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert "MX015 nd-random" in rows
    assert all(r.startswith("MX4") or r.startswith("MX015 ") for r in rows)
    assert any(r.startswith("MX400 ") for r in rows) and any(r.startswith("MX421 ") for r in rows)
