"""The command line as a new user meets it: `--version`, the README's set-up commands (which
must succeed as shown), `--exit-zero`, and the progress line that appears on a terminal only."""
from __future__ import annotations

import io
import os
import re
import shlex
import shutil
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
from xlate.convert.progress import ERASE, Progress, on_terminal

REPO = Path(xlate.__file__).resolve().parent.parent
MANUAL = "import mxnet as mx\nnet = mx.sym.Variable(\"data\")\n"
CONVERTIBLE = "import mxnet as mx\nx = mx.nd.ones((2, 3))\n"


def xlate_process(*argv, cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "xlate", *map(str, argv)], cwd=cwd, env=env,
                          text=True, timeout=120, **kw)


# -- --version ----------------------------------------------------------------------------------
def test_version_is_the_packages_version():
    with open(REPO / "pyproject.toml", "rb") as fh:
        declared = tomllib.load(fh)["project"]["version"]
    assert xlate.__version__ == declared  # one version, said the same in both places
    done = xlate_process("--version", cwd=REPO, capture_output=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"xlate {declared}\n", "")


def test_version_needs_no_converter_or_framework():
    code = ("import sys\nfrom xlate.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
            "loaded = [m for m in ('libcst', 'torch', 'mxnet', 'numpy') if m in sys.modules]\n"
            "assert not loaded, loaded\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, capture_output=True)


# -- the README's set-up commands ---------------------------------------------------------------
def setup_commands() -> list[str]:
    """The indented command lines of the README's Set-up section."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Set-up\n", 1)[1].split("\n## ", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    ") and line.strip()]


def test_the_readme_has_exactly_two_setup_commands():
    first, second = setup_commands()  # one for the main job, one for the test suite
    assert re.fullmatch(r"python -m venv \.venv && \.venv/bin/pip install \. && \.venv/bin/xlate convert \S+", first)
    assert second == "python -m venv .venv && .venv/bin/pip install -e \".[dev]\" && .venv/bin/python -m pytest -q"
    ci = (REPO / ".ci" / "run").read_text()
    assert second.replace("pip install", "pip install -q") in ci  # CI runs the README's own command


def test_the_readmes_main_job_example_exits_0(capsys):
    """`xlate convert <example>` as the first set-up command runs it: exit 0, code on stdout,
    the report on stderr. An example with manual items would exit 1 and look like a failure."""
    argv = shlex.split(setup_commands()[0].split("&&")[-1])
    assert argv[0] == ".venv/bin/xlate"
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        rc = main(argv[1:])
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "import torch" in out and "mxnet" not in out
    assert "0 manual items left" in err and "Convert rate: 100.0%" in err


@pytest.mark.slow
def test_the_first_setup_command_works_on_a_fresh_copy(tmp_path):
    """The first command literally, in a copy of the tracked files with no virtualenv: a new
    user's machine (packages come from the configured registry)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    if not files:
        pytest.skip("not a git checkout")
    copy = tmp_path / "xlate"
    for name in files.decode().split("\0"):
        if name and (REPO / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, copy / name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    command = setup_commands()[0].replace("python -m venv", f"{shlex.quote(sys.executable)} -m venv", 1)
    done = subprocess.run(command, shell=True, cwd=copy, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "import torch" in done.stdout and "Convert rate: 100.0%" in done.stderr


# -- --exit-zero --------------------------------------------------------------------------------
def test_exit_zero_keeps_the_report_and_changes_only_the_exit_code(tmp_path, capsys):
    src = tmp_path / "m.py"
    src.write_text(MANUAL)
    assert main(["convert", str(src)]) == 1
    plain = capsys.readouterr()
    assert main(["convert", str(src), "--exit-zero"]) == 0
    assert capsys.readouterr() == plain  # the same code and the same manual items, said the same way
    assert "[manual]" in plain.err


def test_exit_zero_does_not_hide_errors(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n")
    assert main(["convert", str(bad), "--exit-zero"]) == 2
    assert "does not parse" in capsys.readouterr().err


# -- progress on a terminal, nothing elsewhere ---------------------------------------------------
def make_tree(root: Path, n: int = 8) -> Path:
    for i in range(n):
        (root / "src" / f"m{i}.py").parent.mkdir(parents=True, exist_ok=True)
        (root / "src" / f"m{i}.py").write_text(CONVERTIBLE)
    return root / "src"


def run_on_a_terminal(argv, cwd: Path) -> tuple[int, str, str]:
    """Run xlate with stderr on a pseudo-terminal and stdout on a pipe: (rc, stdout, terminal)."""
    import pty

    try:
        master, slave = pty.openpty()
    except OSError as e:  # a container without /dev/pts
        pytest.skip(f"no pseudo-terminal here: {e}")
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "xlate", *map(str, argv)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    while True:  # read until the child closes the terminal; EIO at the end on Linux
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    out = proc.stdout.read().decode()
    return proc.wait(timeout=120), out, seen.decode()


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tree_shows_progress_on_a_terminal(tmp_path, jobs):
    src = make_tree(tmp_path)
    rc, out, terminal = run_on_a_terminal(["convert", src, "-o", tmp_path / "out", "-j", jobs], tmp_path)
    assert rc == 0, terminal
    assert out == ""
    assert "xlate: 8/8 files converted" in terminal
    shown = terminal.index("xlate: 8/8 files converted")
    report = terminal.index("MX011 [fixed]")
    assert terminal.rfind(ERASE, shown, report) > shown  # the line is erased before the report
    assert len(list((tmp_path / "out").glob("*.py"))) == 8


def test_a_tree_shows_no_progress_when_stderr_is_not_a_terminal(tmp_path):
    src = make_tree(tmp_path)
    done = xlate_process("convert", src, "-o", tmp_path / "out", "-j", "1", cwd=tmp_path, capture_output=True)
    assert done.returncode == 0
    assert "files converted" not in done.stderr and "\r" not in done.stderr and "\x1b" not in done.stderr
    assert done.stderr.startswith(f"{src / 'm0.py'}:1:1: MX001 [fixed]")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_counts_every_file_and_erases_itself(tmp_path, monkeypatch, capsys):
    """In-process: convert_all reports each file done, in order, and the line goes at the end."""
    import xlate.cli

    src = make_tree(tmp_path, n=5)
    screen = Terminal()
    seen = []
    real = xlate.convert.progress.Progress.__call__

    def spy(self, done):
        seen.append(done)
        real(self, done)

    monkeypatch.setattr(xlate.convert.progress.Progress, "__call__", spy)
    monkeypatch.setattr(xlate.cli.sys, "stderr", screen)
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "-j", "1"]) == 0
    assert seen == [1, 2, 3, 4, 5]
    text = screen.getvalue()
    progress, report = text.split(ERASE + "xlate: 5/5 files converted" + ERASE)
    assert progress.startswith(ERASE + "xlate: 1/5 files converted")
    assert report.startswith(f"{src / 'm0.py'}:1:1: MX001 [fixed]")


def test_progress_is_throttled_and_shows_the_last_count():
    screen = Terminal()
    with Progress(screen, 1000, interval=3600) as progress:
        for done in range(1, 1001):
            progress(done)
    assert screen.getvalue() == (f"{ERASE}xlate: 1/1000 files converted"
                                 f"{ERASE}xlate: 1000/1000 files converted{ERASE}")


def test_no_progress_for_a_pipe_or_a_single_file():
    assert on_terminal(io.StringIO(), 100) is None
    assert on_terminal(Terminal(), 1) is None
    assert isinstance(on_terminal(Terminal(), 2), Progress)
