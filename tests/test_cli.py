"""Behaviour of the `xlate` command line: what it prints, what it writes, what it never touches,
and its exit codes (0 = all converted, 1 = manual items remain, 2 = usage or input error).

Most cases run `xlate.cli.main` in-process; a few run `python -m xlate` to see real exit codes.
Every error case also checks that nothing at all was written next to the inputs.
"""
from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

import xlate
from xlate.cli import main
from xlate.convert.engine import convert_source

REPO = Path(xlate.__file__).resolve().parent.parent

CONVERTIBLE = "import mxnet as mx\nx = mx.nd.ones((2, 3))\nctx = mx.gpu(0)\n"
CONVERTED = 'import torch\nx = torch.ones((2, 3))\nctx = torch.device("cuda", 0)\n'
MANUAL = "import mxnet as mx\nnet = mx.sym.Variable(\"data\")\n"
PLAIN = "import numpy as np\n\n# no MXNet here\nx = np.zeros(3)\n"
THREE_RULES = (
    "import mxnet as mx\n"
    "from mxnet import nd\n"
    "x = nd.ones((2, 3))\n"
    "c = nd.concat(x, x)\n"
    "ctx = mx.gpu(0)\n"
)


def _chmod_stops_reads() -> bool:
    """Whether chmod 000 stops this process reading a file: not as root (os.geteuid() == 0),
    unless root runs without CAP_DAC_OVERRIDE (`setpriv --bounding-set -dac_override,...`)."""
    if not hasattr(os, "geteuid") or os.name != "posix":
        return False
    if os.geteuid() != 0:
        return True
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        probe = Path(d) / "probe"
        probe.write_text("x")
        probe.chmod(0)
        try:
            probe.read_bytes()
        except PermissionError:
            return True  # root without CAP_DAC_OVERRIDE
        return False


CHMOD_IGNORED = not _chmod_stops_reads()


# -- helpers -------------------------------------------------------------------------------
def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def snapshot(root: Path) -> dict:
    """Every entry under root (hidden ones included) with its kind, bytes and mtime."""
    snap = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            if stat.S_ISREG(st.st_mode):
                try:
                    data = p.read_bytes()
                except PermissionError:
                    data = None
                snap[str(p.relative_to(root))] = ("file", data, st.st_mtime_ns, stat.S_IMODE(st.st_mode))
            else:
                snap[str(p.relative_to(root))] = (stat.S_IFMT(st.st_mode), st.st_mtime_ns)
    return snap


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


def strays(root: Path) -> list[str]:
    """Temporary files or staging folders xlate may leave behind."""
    return [str(p) for p in root.rglob("*")
            if p.name.endswith(".xlate-tmp") or re.match(r"\.\w[^.]*\.\w+", p.name)]


def make_tree(root: Path) -> Path:
    src = root / "proj"
    write(src / "top.py", CONVERTIBLE)
    write(src / "pkg" / "__init__.py", "")
    write(src / "pkg" / "model.py", MANUAL)
    write(src / "pkg" / "sub" / "__init__.py", "from . import ops\n")
    write(src / "pkg" / "sub" / "ops.py", "from mxnet import nd\n\ndef f(x):\n    return nd.concat(x, x)\n")
    write(src / "pkg" / "plain.py", PLAIN)
    write(src / "README.md", "# proj\n")
    write(src / "pkg" / "data" / "weights.bin", bytes(range(256)))
    write(src / "pkg" / "sub" / "config.json", '{"a": 1}\n')
    write(src / ".git" / "config", "[core]\n")
    write(src / ".git" / "hooks" / "pre-commit.py", "import mxnet\n")
    write(src / ".venv" / "lib" / "site.py", "import mxnet as mx\nx = mx.nd.ones(1)\n")
    write(src / "venv" / "bin" / "activate", "echo\n")
    write(src / "pkg" / "__pycache__" / "model.cpython-311.pyc", b"\x00\x01")
    write(src / ".tox" / "py311" / "x.py", "x = 1\n")
    return src


def assert_error(rc: int, err: str, *fragments: str) -> None:
    assert rc == 2
    assert "Traceback" not in err
    for f in fragments:
        assert f in err, f"{f!r} not in stderr:\n{err}"


# -- single files -----------------------------------------------------------------------------
def test_single_file_to_stdout(tmp_path, capsys):
    src = write(tmp_path / "a.py", CONVERTIBLE)
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", src)
    assert rc == 0
    assert out == CONVERTED  # only the code on stdout
    assert f"{src}:2:5: MX011 [fixed]" in err
    assert f"{src}:3:7: MX502 [fixed]" in err
    assert "Converted 1 file (1 changed): 3 fixed, 0 to review, 0 manual items left." in err
    assert "Convert rate: 100.0% (2/2)" in err
    assert snapshot(tmp_path) == before


def test_single_file_with_output_file(tmp_path, capsys):
    src = write(tmp_path / "a.py", CONVERTIBLE)
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "new" / "b.py")
    assert rc == 0
    assert (tmp_path / "new" / "b.py").read_text(encoding="utf-8") == CONVERTED
    assert "MX011 [fixed]" in err and "Converted 1 file" in err  # the report goes to stderr, as in every mode
    assert out == ""
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("new")} == before
    assert sorted(after) == sorted(before) + ["new", "new/b.py"]


def test_output_file_keeps_line_endings_and_byte_order_mark(tmp_path, capsys):
    crlf = write(tmp_path / "crlf.py", CONVERTIBLE.replace("\n", "\r\n").encode())
    rc, _, _ = run(capsys, "convert", crlf, "-o", tmp_path / "crlf_out.py")
    assert rc == 0
    assert (tmp_path / "crlf_out.py").read_bytes() == CONVERTED.replace("\n", "\r\n").encode()

    plain = b"\xef\xbb\xbf" + PLAIN.encode()
    bom = write(tmp_path / "bom.py", plain)
    rc, _, _ = run(capsys, "convert", bom, "-o", tmp_path / "bom_out.py")
    assert rc == 0
    assert (tmp_path / "bom_out.py").read_bytes() == plain  # a pass-through is byte-identical

    bom_mx = write(tmp_path / "bom_mx.py", b"\xef\xbb\xbf" + CONVERTIBLE.encode())
    rc, _, _ = run(capsys, "convert", bom_mx, "-o", tmp_path / "bom_mx_out.py")
    assert rc == 0
    assert (tmp_path / "bom_mx_out.py").read_bytes() == b"\xef\xbb\xbf" + CONVERTED.encode()


def test_in_place_rewrites_only_changed_files(tmp_path, capsys):
    src = write(tmp_path / "a.py", CONVERTIBLE)
    os.chmod(src, 0o750)
    plain = write(tmp_path / "plain.py", PLAIN)
    os.utime(plain, ns=(1_000_000_000, 1_000_000_000))
    rc, out, err = run(capsys, "convert", "--in-place", src, plain)
    assert rc == 0
    assert src.read_text(encoding="utf-8") == CONVERTED
    assert stat.S_IMODE(src.stat().st_mode) == 0o750  # the mode survives the atomic replace
    assert plain.read_bytes() == PLAIN.encode()
    assert plain.stat().st_mtime_ns == 1_000_000_000  # an unchanged file is not rewritten
    assert "Converted 2 files (1 changed)" in err and out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "plain.py"]  # no temp files


@pytest.mark.parametrize("mode", [[], ["--diff"], ["--format", "json"], ["-o", "{out}"],
                                  ["--select", "MX0"], ["--diff", "--ignore", "MX0"]])
def test_input_is_never_modified_without_in_place(tmp_path, capsys, mode):
    src = write(tmp_path / "in" / "a.py", CONVERTIBLE)
    os.utime(src, ns=(1_000_000_000, 1_000_000_000))
    before = snapshot(tmp_path / "in")
    rc, out, err = run(capsys, "convert", src, *(m.format(out=tmp_path / "out.py") for m in mode))
    assert rc in (0, 1)
    assert snapshot(tmp_path / "in") == before


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path, capsys):
    src = write(tmp_path / "a.py", CONVERTIBLE)
    plain = write(tmp_path / "plain.py", PLAIN)
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", "--diff", src, plain)
    assert rc == 0
    lines = out.splitlines()
    assert lines[0] == f"--- a/{src}"
    assert lines[1] == f"+++ b/{src}"
    assert lines[2].startswith("@@ ")
    assert "-x = mx.nd.ones((2, 3))" in lines and "+x = torch.ones((2, 3))" in lines
    assert "-import mxnet as mx" in lines and "+import torch" in lines
    assert str(plain) not in out  # an unchanged file has no diff
    assert "MX011 [fixed]" in err and "Converted 2 files (1 changed)" in err
    assert snapshot(tmp_path) == before


def _keep_ends(text: str) -> list[str]:
    lines = [line + "\n" for line in text.split("\n")]
    last = lines.pop()[:-1]
    return lines + [last] if last else lines


def apply_unified_diff(old: str, diff: str) -> str:
    """A small `patch`: apply one file's unified diff to its old text."""
    rows = [line for line in _keep_ends(diff) if not line.startswith(("--- ", "+++ "))]
    for i, row in enumerate(rows):  # "\ No newline at end of file" belongs to the row before
        if row.startswith("\\"):
            rows[i - 1] = rows[i - 1][:-1]
    rows = [row for row in rows if not row.startswith("\\")]
    old_lines, out, at = _keep_ends(old), [], 0
    for row in rows:
        hunk = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", row)
        if hunk:
            start = int(hunk[1]) - (hunk[2] != "0")
            out += old_lines[at:start]
            at = start
        elif row[0] in " -":
            assert old_lines[at] == row[1:], (old_lines[at], row)
            if row[0] == " ":
                out.append(row[1:])
            at += 1
        else:
            assert row[0] == "+", row
            out.append(row[1:])
    return "".join(out + old_lines[at:])


@pytest.mark.parametrize("text", [
    CONVERTIBLE,
    CONVERTIBLE.rstrip("\n"),  # no newline at the end
    CONVERTIBLE.replace("\n", "\r\n"),
    "import mxnet as mx\n# a\u2028comment\fwith\x1cseparators\ns = 'x\u2029y'\nx = mx.nd.ones(3)",
    "from mxnet import nd\n\n" + "k = 1\n" * 12 + "y = nd.dot(a, b)\n" + "k = 2\n" * 12 + "z = nd.where(c, a, b)\n",
])
def test_diff_applies_to_give_the_converted_file(tmp_path, capsys, text):
    src = write(tmp_path / "a.py", text)
    rc, diff, _ = run(capsys, "convert", "--diff", src)
    assert rc == 0
    expected = convert_source(text).output
    assert expected != text
    assert apply_unified_diff(text, diff) == expected


def test_diff_of_a_directory(tmp_path, capsys):
    src = make_tree(tmp_path)
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", "--diff", src, "-j", "1")
    assert rc == 1  # gluon.nn.Dense is left
    assert f"+++ b/{src / 'top.py'}" in out
    assert f"+++ b/{src / 'pkg' / 'sub' / 'ops.py'}" in out
    # pkg/model.py's MXNet import is guarded (a package module: Note [kept MXNet imports]); the file
    # without MXNet is not in the diff
    assert f"+++ b/{src / 'pkg' / 'model.py'}" in out and "plain.py" not in out
    assert ".venv" not in out + err and ".git" not in out + err
    assert snapshot(tmp_path) == before


# -- directories ------------------------------------------------------------------------------
def test_directory_is_mirrored(tmp_path, capsys):
    src = make_tree(tmp_path)
    before = snapshot(src)
    out_dir = tmp_path / "out" / "converted"
    rc, out, err = run(capsys, "convert", src, "-o", out_dir, "-j", "1")
    assert rc == 1  # pkg/model.py keeps gluon.nn.Dense
    files = {str(p.relative_to(out_dir)) for p in out_dir.rglob("*") if p.is_file()}
    # pkg/_mx_compat.py: the guard of model.py's kept import (Note [kept MXNet imports])
    assert files == {
        "top.py", "pkg/__init__.py", "pkg/model.py", "pkg/plain.py", "pkg/sub/__init__.py",
        "pkg/sub/ops.py", "README.md", "pkg/data/weights.bin", "pkg/sub/config.json", "pkg/_mx_compat.py",
    }
    assert (out_dir / "top.py").read_text(encoding="utf-8") == CONVERTED
    assert (out_dir / "pkg" / "sub" / "ops.py").read_text(encoding="utf-8") == (
        "import torch\n\ndef f(x):\n    return torch.cat([x, x], dim=1)\n")
    model = (out_dir / "pkg" / "model.py").read_text(encoding="utf-8")
    assert "    import mxnet as mx\nexcept ImportError:" in model and model.endswith(MANUAL.splitlines(True)[-1])
    assert (out_dir / "pkg" / "plain.py").read_bytes() == PLAIN.encode()
    assert (out_dir / "pkg" / "data" / "weights.bin").read_bytes() == bytes(range(256))
    assert (out_dir / "pkg" / "sub" / "config.json").read_text() == '{"a": 1}\n'
    assert out == ""
    assert "Converted 6 files (3 changed)" in err
    assert f"{src / 'pkg' / 'model.py'}:2:7: MX900 [manual]" in err
    assert ".venv" not in err and ".git" not in err and ".tox" not in err
    assert snapshot(src) == before
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["converted"]  # no staging folder left
    assert strays(tmp_path) == []


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_a_new_output_directory_gets_the_umasks_mode(tmp_path, capsys, umask):
    """The tree is staged in a temporary folder (mkdtemp: 0700) and renamed into place: the
    folder must still get the mode any new folder gets, as its subfolders do."""
    src = make_tree(tmp_path)
    out_dir = tmp_path / "out" / "converted"
    old = os.umask(umask)
    try:
        rc, _, _ = run(capsys, "convert", src, "-o", out_dir, "-j", "1")
    finally:
        os.umask(old)
    assert rc == 1
    for folder in (out_dir, out_dir / "pkg", out_dir / "pkg" / "sub"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o777 & ~umask, folder
    assert stat.S_IMODE((out_dir / "top.py").stat().st_mode) == 0o666 & ~umask


def test_directory_other_files_skip(tmp_path, capsys):
    src = make_tree(tmp_path)
    out_dir = tmp_path / "out"
    rc, _, _ = run(capsys, "convert", src, "-o", out_dir, "--other-files", "skip", "-j", "1")
    assert rc == 1
    files = {str(p.relative_to(out_dir)) for p in out_dir.rglob("*") if p.is_file()}
    assert files == {"top.py", "pkg/__init__.py", "pkg/model.py", "pkg/plain.py",
                     "pkg/sub/__init__.py", "pkg/sub/ops.py", "pkg/_mx_compat.py"}


def test_directory_into_an_existing_output_directory(tmp_path, capsys):
    src = make_tree(tmp_path)
    out_dir = write(tmp_path / "out" / "keep.txt", "mine\n").parent
    rc, _, _ = run(capsys, "convert", src, "-o", out_dir, "-j", "1")
    assert rc == 1
    assert (out_dir / "keep.txt").read_text() == "mine\n"
    assert (out_dir / "top.py").read_text(encoding="utf-8") == CONVERTED
    assert strays(tmp_path) == []


def test_directory_in_place(tmp_path, capsys):
    src = make_tree(tmp_path)
    before = snapshot(src)
    rc, out, _ = run(capsys, "convert", src, "--in-place", "-j", "1")
    assert rc == 1
    after = snapshot(src)
    changed = sorted(k for k in after if after[k][0] == "file" and after[k] != before.get(k))
    # model.py's kept import is guarded, with its helper beside it (Note [kept MXNet imports])
    assert changed == ["pkg/_mx_compat.py", "pkg/model.py", "pkg/sub/ops.py", "top.py"]
    assert (src / "top.py").read_text(encoding="utf-8") == CONVERTED
    assert (src / ".venv" / "lib" / "site.py").read_text() == "import mxnet as mx\nx = mx.nd.ones(1)\n"
    assert strays(tmp_path) == []


def test_directory_with_worker_processes(tmp_path, capsys):
    src = tmp_path / "many"
    for i in range(8):
        write(src / f"m{i}.py", CONVERTIBLE)
    rc, _, err = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "3")
    assert rc == 0
    assert all((tmp_path / "out" / f"m{i}.py").read_text(encoding="utf-8") == CONVERTED for i in range(8))
    # the report keeps the files' order
    assert [line.split(":")[0] for line in err.splitlines() if "MX011" in line] == [
        str(src / f"m{i}.py") for i in range(8)]


# -- rule selection -----------------------------------------------------------------------------
@pytest.mark.parametrize("option,rewritten,kept", [
    (["--select", "MX011"], ["torch.ones"], ["nd.concat(x, x)", "mx.gpu(0)"]),
    (["--select", "MX0"], ["torch.ones", "torch.cat"], ["mx.gpu(0)"]),
    (["--select", "mx5,MX028"], ["torch.cat", 'torch.device("cuda", 0)'], ["nd.ones((2, 3))"]),
    (["--ignore", "MX028"], ["torch.ones", 'torch.device("cuda", 0)'], ["nd.concat(x, x)"]),
    (["--ignore", "MX0"], ['torch.device("cuda", 0)'], ["nd.ones((2, 3))", "nd.concat(x, x)"]),
    (["--select", "MX0", "--ignore", "MX02"], ["torch.ones"], ["nd.concat(x, x)", "mx.gpu(0)"]),
])
def test_select_and_ignore(tmp_path, capsys, option, rewritten, kept):
    src = write(tmp_path / "a.py", THREE_RULES)
    rc, out, err = run(capsys, "convert", src, *option)
    assert rc == 1  # what is not selected stays, and is reported as manual
    for text in rewritten:
        assert text in out
    for text in kept:
        assert text in out
        line = next(i for i, l in enumerate(THREE_RULES.splitlines(), 1) if text in l)
        assert re.search(rf"a\.py:{line}:\d+: MX\d+ \[manual\] .*rule not selected", err), err
    assert "from mxnet import nd" in out or "nd." not in out
    assert "import mxnet as mx" in out or "mx." not in out


def test_ignore_everything_leaves_the_file_as_it_was(tmp_path, capsys):
    src = write(tmp_path / "a.py", THREE_RULES)
    rc, out, err = run(capsys, "convert", src, "--ignore", "MX0,MX5")
    assert rc == 1
    assert out == THREE_RULES
    assert len(re.findall(r"\[manual\] .*rule not selected", err)) == 3


@pytest.mark.parametrize("codes", ["foo", "MX0x", "MX0001", "MX028,,bar"])
def test_select_rejects_what_is_not_a_code(tmp_path, capsys, codes):
    src = write(tmp_path / "a.py", THREE_RULES)
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", src, "--select", codes)
    assert_error(rc, err, "not a rule code")
    assert out == ""
    assert snapshot(tmp_path) == before


# -- the report -------------------------------------------------------------------------------
def test_json_report(tmp_path, capsys):
    a = write(tmp_path / "a.py", CONVERTIBLE)
    b = write(tmp_path / "b.py", MANUAL)
    rc, out, err = run(capsys, "convert", a, b, "--format", "json")
    assert rc == 1
    assert out == CONVERTED + MANUAL
    report = json.loads(err)
    assert set(report) == {"files", "summary", "notes"}
    assert [f["path"] for f in report["files"]] == [str(a), str(b)]
    assert [f["changed"] for f in report["files"]] == [True, False]
    diags = [d for f in report["files"] for d in f["diagnostics"]]
    assert {"path", "line", "col", "code", "status", "message"} <= set(diags[0])
    assert (str(a), 2, 5, "MX011", "fixed") in {(d["path"], d["line"], d["col"], d["code"], d["status"]) for d in diags}
    assert (str(b), 2, 7, "MX900", "manual") in {(d["path"], d["line"], d["col"], d["code"], d["status"]) for d in diags}
    s = report["summary"]
    assert (s["files"], s["changed"], s["manual"]) == (2, 1, sum(d["status"] == "manual" for d in diags))
    assert s["fixed"] == sum(d["status"] == "fixed" for d in diags)
    assert s["rate"] == pytest.approx(2 / 3)
    assert "MX900" in report["notes"] and report["notes"]["MX900"]


@pytest.mark.parametrize("mode", [[], ["-o", "{dir}/b.py"], ["--in-place"], ["--diff"]])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_report_goes_to_stderr_in_every_mode(tmp_path, capsys, mode, fmt):
    a = write(tmp_path / "a.py", CONVERTIBLE)
    rc, out, err = run(capsys, "convert", a, "--format", fmt, *(m.format(dir=tmp_path) for m in mode))
    assert rc == 0
    if fmt == "json":
        assert json.loads(err)["summary"]["rate"] == 1.0
    else:
        assert f"{a}:2:5: MX011 [fixed]" in err and "Convert rate: 100.0% (2/2)" in err
    # stdout carries the code (no -o), the diff (--diff), or nothing: never the report
    assert "MX011" not in out and "Convert rate" not in out
    if mode == ["--diff"]:
        assert out.startswith(f"--- a/{a}\n")
    else:
        assert out == (CONVERTED if not mode else "")


def test_text_report_notes_once_per_code(tmp_path, capsys):
    src = write(tmp_path / "a.py", MANUAL + "label = mx.sym.Variable('label')\n")
    rc, _, err = run(capsys, "convert", src)
    assert rc == 1
    assert err.count(" MX900 [manual] ") == 2
    assert err.count("  MX900: ") == 1
    assert "Converted 1 file (0 changed): 0 fixed, 0 to review, 3 manual items left." in err
    assert "Convert rate: 0.0% (0/2)" in err


# -- the catalogue commands -------------------------------------------------------------------
def catalogue_rules() -> dict[str, dict]:
    """The rule tables as the TOML files hold them (read here, not through xlate.convert.catalogue)."""
    rules = {}
    for path in sorted((REPO / "rules").glob("*.toml")):
        with path.open("rb") as fh:
            rules.update((r["code"], r) for r in tomllib.load(fh)["rule"])
    return rules


def catalogue_codes() -> list[str]:
    return list(catalogue_rules())


def test_rules_lists_every_code(capsys):
    rc, out, err = run(capsys, "rules")
    assert rc == 0 and err == ""
    listed = re.findall(r"^\s+(MX\d{3})\s", out, flags=re.M)
    assert sorted(listed) == sorted(catalogue_codes())
    assert len(listed) == len(set(listed)) > 40


def test_rule_explains_one_code(capsys):
    rule = catalogue_rules()["MX028"]
    rc, out, err = run(capsys, "rule", "mx028")
    assert rc == 0 and err == ""
    assert out.startswith(f"MX028 {rule['name']} [{rule['applicability']}]")
    flat = " ".join(out.split())
    assert " ".join(rule["summary"].split()) in flat
    assert " ".join(rule["notes"].split()) in flat
    example = rule["examples"][0]
    before = out.index("Example 1, before:")
    after = out.index("after:", before)
    for line in example["before"].strip().splitlines():
        assert "    " + line in out[before:after].splitlines()
    for line in example["after"].strip().splitlines():
        assert ("    " + line if line else "") in out[after:].splitlines()


def test_unknown_rule(capsys):
    rc, out, err = run(capsys, "rule", "MX999")
    assert_error(rc, err, "MX999")
    assert out == ""


# -- exit codes -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text,code", [
    (PLAIN, 0),
    ("", 0),
    (CONVERTIBLE, 0),
    (MANUAL, 1),
    ("from mxnet.ndarray import *\nx = ones(3)\n", 1),
    ("from mxnet import nd\ny = nd.no_such_op(1)\n", 1),
])
def test_exit_code(tmp_path, capsys, text, code):
    src = write(tmp_path / "a.py", text)
    rc, _, _ = run(capsys, "convert", src)
    assert rc == code


def xlate_process(*argv, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "xlate", *map(str, argv)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_real_exit_codes(tmp_path):
    write(tmp_path / "ok.py", CONVERTIBLE)
    write(tmp_path / "manual.py", MANUAL)
    write(tmp_path / "bad.py", "def f(:\n    pass\n")
    ok = xlate_process("convert", "ok.py", cwd=tmp_path)
    assert (ok.returncode, ok.stdout) == (0, CONVERTED)
    assert "Convert rate: 100.0%" in ok.stderr
    manual = xlate_process("convert", "manual.py", cwd=tmp_path)
    assert (manual.returncode, manual.stdout) == (1, MANUAL)
    assert "manual.py:2:7: MX900 [manual]" in manual.stderr
    bad = xlate_process("convert", "bad.py", "-o", "out.py", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stdout == ""
    assert re.search(r"^bad\.py:\d+:\d+: does not parse: ", bad.stderr, flags=re.M)
    usage = xlate_process("convert", "ok.py", "--format", "xml", cwd=tmp_path)
    assert usage.returncode == 2 and "--format" in usage.stderr
    unknown = xlate_process("rule", "MX999", cwd=tmp_path)
    assert unknown.returncode == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.py", "manual.py", "ok.py"]


# -- input errors: exit 2 and nothing written --------------------------------------------------
def test_file_that_does_not_parse(tmp_path, capsys):
    good = write(tmp_path / "good.py", CONVERTIBLE)
    bad = write(tmp_path / "bad.py", "import mxnet as mx\nx = mx.nd.ones(3)\ny = (1,\n")
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", "--in-place", good, bad)
    assert_error(rc, err, f"{bad}:3:", "does not parse", "was never closed")
    assert re.search(rf"{re.escape(str(bad))}:3:\d+: does not parse: ", err)
    assert "nothing was written" in err
    assert out == ""
    assert snapshot(tmp_path) == before  # the good file was not rewritten either


@pytest.mark.parametrize("text,line,col", [("x = 1\na b\n", 2, 3), ("def f(:\n    pass\n", 1, 7)])
def test_parse_error_position_points_at_the_offending_token(tmp_path, capsys, text, line, col):
    bad = write(tmp_path / "bad.py", text)
    rc, _, err = run(capsys, "convert", bad)
    assert rc == 2
    assert f"{bad}:{line}:{col}: does not parse" in err


def test_file_that_is_not_utf8(tmp_path, capsys):
    bad = write(tmp_path / "latin.py", b"import mxnet as mx\n# caf\xe9\nx = mx.nd.ones(3)\n")
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", bad, "-o", tmp_path / "out.py")
    assert_error(rc, err, f"{bad}:2:", "not UTF-8")
    assert out == ""
    assert snapshot(tmp_path) == before


def test_missing_path(tmp_path, capsys):
    good = write(tmp_path / "good.py", CONVERTIBLE)
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", "--in-place", good, tmp_path / "nope.py")
    assert_error(rc, err, "nope.py", "no such file")
    assert snapshot(tmp_path) == before


def test_one_bad_file_in_a_tree_writes_nothing(tmp_path, capsys):
    src = make_tree(tmp_path)
    write(src / "pkg" / "sub" / "broken.py", "def f(:\n")
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "1")
    assert_error(rc, err, "broken.py:1:", "nothing was written", "--keep-going writes the files that convert")
    assert snapshot(tmp_path) == before
    # an existing output folder gets no file either, and in-place touches no file
    write(tmp_path / "out2" / "keep.txt", "mine\n")
    before = snapshot(tmp_path)
    for args in (["-o", tmp_path / "out2"], ["--in-place"]):
        rc, out, err = run(capsys, "convert", src, *args, "-j", "1")
        assert_error(rc, err, "broken.py:1:")
        assert snapshot(tmp_path) == before


def test_one_bad_file_among_worker_processes(tmp_path, capsys):
    src = tmp_path / "many"
    for i in range(8):
        write(src / f"m{i}.py", CONVERTIBLE)
    write(src / "m5.py", "def f(:\n")
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "2")
    assert_error(rc, err, "m5.py:1:", "does not parse", "nothing was written")
    assert snapshot(tmp_path) == before


def test_internal_error_names_the_file_and_exits_2(tmp_path, capsys, monkeypatch):
    """A crash inside the converter must not exit 1 (that means "manual items left")."""
    import xlate.convert.files

    src = make_tree(tmp_path)
    real = xlate.convert.files.convert_source

    def crashing(text, *, path, **kw):
        if path.endswith("ops.py"):
            raise RuntimeError("boom")
        return real(text, path=path, **kw)

    monkeypatch.setattr(xlate.convert.files, "convert_source", crashing)
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "1")
    assert rc == 2
    assert f"{src / 'pkg' / 'sub' / 'ops.py'}:1:1: internal error" in err and "RuntimeError: boom" in err
    assert "nothing was written" in err
    assert snapshot(tmp_path) == before


@pytest.mark.skipif(CHMOD_IGNORED, reason="running as root: chmod 000 does not stop reads")
def test_unreadable_file_in_a_tree(tmp_path, capsys):
    src = make_tree(tmp_path)
    for name in ("pkg/secret.py", "pkg/secret.txt"):
        bad = write(src / name, "x = 1\n")
        bad.chmod(0)
        try:
            before = snapshot(tmp_path)
            rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "1")
            assert_error(rc, err, str(bad), "cannot read")
            assert snapshot(tmp_path) == before
        finally:
            bad.chmod(0o644)
            bad.unlink()


@pytest.mark.skipif(CHMOD_IGNORED, reason="running as root: chmod 000 does not stop reads")
def test_unreadable_directory_in_a_tree(tmp_path, capsys):
    src = make_tree(tmp_path)
    locked = src / "pkg" / "locked"
    write(locked / "m.py", CONVERTIBLE)
    locked.chmod(0)
    try:
        before = snapshot(tmp_path / "proj" / "pkg" / "sub")
        rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "1")
        assert_error(rc, err, str(locked), "cannot read directory")
        assert not (tmp_path / "out").exists()
        assert snapshot(tmp_path / "proj" / "pkg" / "sub") == before
        assert strays(tmp_path) == []
    finally:
        locked.chmod(0o755)


def test_unreadable_directory_without_permissions(tmp_path, capsys, monkeypatch):
    """The same as above where chmod cannot help (root): os.walk's listing of one folder fails."""
    src = make_tree(tmp_path)
    locked = src / "pkg" / "sub"
    before = snapshot(tmp_path)
    real_scandir = os.scandir

    def scandir(path="."):
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "1")
    assert_error(rc, err, str(locked), "cannot read directory", "Permission denied")
    monkeypatch.undo()
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("name", ["gone.py", "gone.txt"])
def test_broken_symlink_in_a_tree(tmp_path, capsys, name):
    src = make_tree(tmp_path)
    (src / "pkg" / name).symlink_to(tmp_path / "nowhere")
    before = snapshot(tmp_path)
    rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "1")
    assert_error(rc, err, name, "cannot read")
    assert snapshot(tmp_path) == before


def test_broken_symlink_to_a_skipped_other_file_is_not_an_error(tmp_path, capsys):
    src = make_tree(tmp_path)
    (src / "pkg" / "gone.txt").symlink_to(tmp_path / "nowhere")
    rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "out", "--other-files", "skip", "-j", "1")
    assert rc == 1
    assert not (tmp_path / "out" / "pkg" / "gone.txt").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", ["pipe.py", "pipe.txt"])
def test_fifo_in_a_tree(tmp_path, name):
    # A separate process with a timeout: reading a FIFO nobody writes to would block forever.
    src = make_tree(tmp_path)
    os.mkfifo(src / "pkg" / name)
    before = snapshot(tmp_path)
    proc = xlate_process("convert", src, "-o", tmp_path / "out", "-j", "1", cwd=tmp_path, timeout=30)
    assert_error(proc.returncode, proc.stderr, name, "not a regular file")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("out", ["proj", "proj/out", "proj/pkg/deep/out"])
def test_output_inside_the_input_tree(tmp_path, capsys, out):
    src = make_tree(tmp_path)
    before = snapshot(tmp_path)
    rc, _, err = run(capsys, "convert", src, "-o", tmp_path / out)
    assert_error(rc, err, "inside the input tree")
    assert snapshot(tmp_path) == before


def test_output_file_that_is_the_input(tmp_path, capsys):
    src = write(tmp_path / "a.py", CONVERTIBLE)
    before = snapshot(tmp_path)
    for target in (src, tmp_path / "." / "a.py"):
        rc, _, err = run(capsys, "convert", src, "-o", target)
        assert_error(rc, err, "--in-place")
        assert snapshot(tmp_path) == before


def test_output_that_cannot_be_written(tmp_path, capsys):
    src = write(tmp_path / "a.py", CONVERTIBLE)
    write(tmp_path / "plain.txt", "a file, not a folder\n")
    before = snapshot(tmp_path)
    rc, _, err = run(capsys, "convert", src, "-o", tmp_path / "plain.txt" / "b.py")
    assert_error(rc, err, "plain.txt")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("args,message", [
    (["{tree}"], "needs -o OUT, --in-place or --diff"),
    (["{tree}", "-o", "{out}", "--in-place"], "choose one of"),
    (["{tree}", "--in-place", "--diff"], "choose one of"),
    (["{file}", "-o", "{out}", "--diff"], "choose one of"),
    (["{file}", "{tree}", "-o", "{out}"], "-o takes one input"),
    (["{tree}", "-o", "{file}"], "exists and is not a directory"),
    (["{file}", "-o", "{tree}"], "is a directory"),
])
def test_usage_errors(tmp_path, capsys, args, message):
    tree = make_tree(tmp_path)
    file = write(tmp_path / "one.py", CONVERTIBLE)
    before = snapshot(tmp_path)
    names = {"tree": tree, "file": file, "out": tmp_path / "out"}
    rc, out, err = run(capsys, "convert", *(a.format(**names) for a in args))
    assert_error(rc, err, message)
    assert out == ""
    assert snapshot(tmp_path) == before


# -- suppression comments ----------------------------------------------------------------------
def test_ignore_comment_suppresses_one_rule_on_one_statement(tmp_path, capsys):
    src = write(tmp_path / "a.py", (
        "from mxnet import nd\n"
        "x = nd.ones((2, 3))\n"
        "c = nd.concat(x, x)  # xlate: ignore[MX028]\n"
        "d = nd.concat(x, x)\n"
    ))
    rc, out, err = run(capsys, "convert", src)
    assert out == (
        "import torch\n"
        "from mxnet import nd\n"
        "x = torch.ones((2, 3))\n"
        "c = nd.concat(x, x)  # xlate: ignore[MX028]\n"
        "d = torch.cat([x, x], dim=1)\n"
    )
    assert f"{src}:4:5: MX028 [fixed]" in err
    assert not re.search(r"a\.py:3:\d+: MX028", err)  # no report line for the suppressed one
    assert f"{src}:1:1: MX002 [manual]" in err  # the import it still needs is kept, and said so
    assert rc == 1


def test_ignore_comment_for_another_rule_does_not_suppress(tmp_path, capsys):
    src = write(tmp_path / "a.py", "from mxnet import nd\nc = nd.concat(a, b)  # xlate: ignore[MX011]\n")
    rc, out, err = run(capsys, "convert", src)
    assert rc == 0
    assert out == "import torch\nc = torch.cat([a, b], dim=1)  # xlate: ignore[MX011]\n"
    assert f"{src}:2:5: MX028 [fixed]" in err


def test_bare_ignore_comment_suppresses_every_rule(tmp_path, capsys):
    src = write(tmp_path / "a.py", (
        "import mxnet as mx\n"
        "y = mx.nd.concat(mx.nd.ones(2), mx.nd.ones(2), dim=0).as_in_context(mx.gpu(0))  # xlate: ignore\n"
        "z = mx.nd.zeros(3)\n"
    ))
    rc, out, err = run(capsys, "convert", src)
    assert out == (
        "import torch\n"
        "import mxnet as mx\n"
        "y = mx.nd.concat(mx.nd.ones(2), mx.nd.ones(2), dim=0).as_in_context(mx.gpu(0))  # xlate: ignore\n"
        "z = torch.zeros(3)\n"
    )
    assert not re.search(r"a\.py:2:", err)
    assert f"{src}:3:5: MX011 [fixed]" in err
