"""The command line under stress (issue 12): FIFOs, interrupts and leftovers of killed runs,
PEP 263 encodings, --keep-going, unknown rule codes. Interrupts run `python -m xlate` in a
process of its own and signal it in the middle of a conversion."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import xlate
from xlate.cli import main
from xlate.convert import files

REPO = Path(xlate.__file__).resolve().parent.parent
CONVERTIBLE = "import mxnet as mx\nx = mx.nd.ones((2, 3))\nctx = mx.gpu(0)\n"
CONVERTED = 'import torch\nx = torch.ones((2, 3))\nctx = torch.device("cuda", 0)\n'
DEAD_PID = 2 ** 22 + 12345  # above Linux's largest pid: no process has it


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8", newline="")
    return path


def tree_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def leftovers(root: Path) -> list[str]:
    return [str(p) for p in root.rglob("*") if p.name.endswith(".xlate-tmp") or ".xlate-stage" in p.name]


def xlate_process(*argv, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "xlate", *map(str, argv)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


# == FIFOs =========================================================================================
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_given_as_a_file_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "m.py")
    proc = xlate_process("convert", "m.py", cwd=tmp_path, timeout=30)
    assert proc.returncode == 2 and "not a regular file" in proc.stderr and "Traceback" not in proc.stderr


# == Python 2 ======================================================================================
def test_a_python2_file_says_so(tmp_path, capsys):
    write(tmp_path / "old.py", 'import mxnet as mx\nprint "hi"\n')
    rc, _, err = run(capsys, "convert", tmp_path / "old.py")
    assert rc == 2 and "Python 2" in err and ":2:1: does not parse" in err


@pytest.mark.parametrize("line", ["except ValueError, e:", "raise ValueError, 'x'", "x = 0777", "y = `x`"])
def test_other_python2_constructs_say_so(tmp_path, capsys, line):
    body = f"try:\n    pass\n{line}\n    pass\n" if line.startswith("except") else line + "\n"
    write(tmp_path / "old.py", body)
    rc, _, err = run(capsys, "convert", tmp_path / "old.py")
    assert rc == 2 and "Python 2" in err


def test_a_python3_syntax_error_is_not_called_python2(tmp_path, capsys):
    write(tmp_path / "bad.py", "def f(:\n    pass\n")
    rc, _, err = run(capsys, "convert", tmp_path / "bad.py")
    assert rc == 2 and "does not parse" in err and "Python 2" not in err


# == --keep-going ==================================================================================
def _mixed_tree(root: Path) -> Path:
    src = root / "proj"
    write(src / "good.py", CONVERTIBLE)
    write(src / "pkg" / "old.py", 'import mxnet as mx\nprint "hi"\n')
    write(src / "pkg" / "broken.py", "def f(:\n    pass\n")
    write(src / "pkg" / "also_good.py", "from mxnet import nd\ny = nd.zeros(2)\n")
    write(src / "README.md", "# proj\n")
    return src


def test_one_bad_file_stops_a_tree_by_default(tmp_path, capsys):
    src = _mixed_tree(tmp_path)
    rc, _, err = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "1")
    assert rc == 2 and "nothing was written" in err and "Python 2" in err
    assert not (tmp_path / "out").exists()


def test_keep_going_writes_what_converts_and_lists_the_rest(tmp_path, capsys):
    src = _mixed_tree(tmp_path)
    rc, out, err = run(capsys, "convert", src, "-o", tmp_path / "out", "--keep-going", "-j", "1")
    assert rc == 2
    assert tree_files(tmp_path / "out") == ["README.md", "good.py", "pkg", "pkg/also_good.py"]
    assert (tmp_path / "out" / "good.py").read_text() == CONVERTED
    assert out == ""  # the report goes to stderr, the files that did not convert after it
    assert "Converted 2 files (2 changed)" in err[:err.index("could not be converted")]
    listed = err[err.index("could not be converted"):]
    assert "old.py:2:1: does not parse" in listed and "Python 2" in listed and "broken.py:1:7" in listed


def test_keep_going_in_place(tmp_path, capsys):
    src = _mixed_tree(tmp_path)
    old = (src / "pkg" / "old.py").read_bytes()
    rc, _, _ = run(capsys, "convert", src, "--in-place", "--keep-going", "-j", "1")
    assert rc == 2
    assert (src / "good.py").read_text() == CONVERTED and (src / "pkg" / "old.py").read_bytes() == old


# == --select / --ignore ===========================================================================
@pytest.mark.parametrize("option,value", [("--select", "MX999"), ("--ignore", "MX999"), ("--select", "MX0,MX99"),
                                          ("--ignore", "MX93")])  # no rule in MX930-MX939
def test_codes_no_rule_has_are_errors(tmp_path, capsys, option, value):
    write(tmp_path / "a.py", CONVERTIBLE)
    rc, out, err = run(capsys, "convert", tmp_path / "a.py", option, value)
    assert rc == 2 and "no rule has the code or prefix" in err and out == ""


def test_codes_and_prefixes_rules_have_are_accepted(tmp_path, capsys):
    write(tmp_path / "a.py", CONVERTIBLE)
    rc, out, _ = run(capsys, "convert", tmp_path / "a.py", "--select", "MX0,MX50", "--ignore", "MX9")
    assert rc == 0 and out == CONVERTED


# == PEP 263 =========================================================================================
LATIN1 = '# -*- coding: latin-1 -*-\nfrom mxnet import nd\nname = "café"\nx = nd.ones(2)\n'


def test_a_latin1_file_is_read_and_written_in_latin1(tmp_path, capsys):
    src = write(tmp_path / "a.py", LATIN1.encode("latin-1"))
    rc, _, err = run(capsys, "convert", src, "-o", tmp_path / "b.py")
    assert rc == 0, err
    data = (tmp_path / "b.py").read_bytes()
    assert data == LATIN1.replace("from mxnet import nd", "import torch").replace(
        "nd.ones", "torch.ones").encode("latin-1")


def test_a_latin1_file_in_place_and_on_stdout(tmp_path):
    src = write(tmp_path / "a.py", LATIN1.encode("latin-1"))
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-m", "xlate", "convert", "a.py"], cwd=tmp_path, env=env,
                         capture_output=True, timeout=120)
    assert out.returncode == 0 and b'name = "caf\xe9"' in out.stdout and b"torch.ones(2)" in out.stdout
    assert xlate_process("convert", "a.py", "--in-place", cwd=tmp_path).returncode == 0
    assert b'"caf\xe9"' in src.read_bytes() and b"torch.ones(2)" in src.read_bytes()


def test_a_file_whose_bytes_are_not_its_declared_encoding(tmp_path, capsys):
    write(tmp_path / "a.py", b"# coding: ascii\nx = '\xe9'\n")
    rc, _, err = run(capsys, "convert", tmp_path / "a.py")
    assert rc == 2 and "not ascii (its coding declaration)" in err


def test_an_unknown_coding_declaration_does_not_parse(tmp_path, capsys):
    write(tmp_path / "a.py", b"# coding: no-such-codec\nx = 1\n")
    rc, _, err = run(capsys, "convert", tmp_path / "a.py")
    assert rc == 2 and "does not parse" in err and "Traceback" not in err


# == what interrupted runs leave =================================================================
def test_stale_staging_and_temporaries_are_removed_by_the_next_run(tmp_path, capsys):
    src = write(tmp_path / "proj" / "a.py", CONVERTIBLE).parent
    stale_stage = tmp_path / f".out.xlate-stage{DEAD_PID}.abc123"
    write(stale_stage / "a.py", "half\n")
    stale_tmp = write(src / f".a.py.xlate{DEAD_PID}.k2j4l1.xlate-tmp", "half\n")
    live_tmp = write(src / f".a.py.xlate{os.getpid()}.zzz.xlate-tmp", "being written\n")  # a run still going
    rc, _, _ = run(capsys, "convert", src, "-o", tmp_path / "out", "-j", "1")
    assert rc == 0
    assert not stale_stage.exists()
    assert tree_files(tmp_path / "out") == ["a.py"]  # temporaries in the input are not copied
    rc, _, _ = run(capsys, "convert", src, "--in-place", "-j", "1")
    assert rc == 0 and not stale_tmp.exists() and live_tmp.exists()


def test_in_place_stages_every_file_before_the_first_rename(tmp_path, capsys, monkeypatch):
    src = tmp_path / "proj"
    originals = {name: write(src / name, CONVERTIBLE).read_bytes() for name in ("a.py", "b.py", "c.py")}
    real_stage, calls = files._stage, []

    def stage(path, data):
        calls.append(path.name)
        if len(calls) == 3:
            raise KeyboardInterrupt  # Ctrl-C while the third file is being written
        return real_stage(path, data)

    monkeypatch.setattr(files, "_stage", stage)
    rc, _, _ = run(capsys, "convert", src, "--in-place", "-j", "1")
    assert rc == 130
    assert {name: (src / name).read_bytes() for name in originals} == originals  # none renamed yet
    assert leftovers(tmp_path) == []


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _busy_tree(root: Path, files_: int = 12, lines: int = 5000) -> Path:
    src = root / "proj"
    body = "".join(f"x{i} = nd.ones((2, 3)).reshape((0, -1)) + nd.zeros(3) * x{i % 7}\n" for i in range(lines))
    for k in range(files_):
        write(src / f"m{k}.py", "from mxnet import nd\n" + body)
    return src


def _as_from_a_terminal() -> None:
    """In the child before exec: SIGINT as a terminal gives it. An ignored disposition and the
    blocked-signal mask survive fork and exec, and this pytest process may carry either from a
    library another test loaded: the child would then never see the Ctrl-C (seen only in whole-suite
    runs, as 60 s timeouts)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def _start(*argv, cwd: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-m", "xlate", *map(str, argv)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_as_from_a_terminal)


def _wait_for_workers(proc: subprocess.Popen, count: int, timeout: float = 60) -> list[int]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        kids = _children(proc.pid)
        if len(kids) >= count:
            time.sleep(0.5)  # let them start on their files
            return kids
        time.sleep(0.05)
    raise AssertionError("the worker processes did not start")


def _gone(pids: list[int], timeout: float = 20) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists() or not hasattr(signal, "SIGKILL"),
                                reason="needs Linux's /proc")


@needs_proc
@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "sigkill"])
def test_an_interrupted_tree_conversion(tmp_path, how):
    """Ctrl-C (SIGINT to the whole process group) exits 130 without a traceback, SIGTERM 143;
    neither leaves a staging folder or a temporary file. After any of them, SIGKILL included,
    the worker processes are gone."""
    src = _busy_tree(tmp_path)
    # -j 3: two worker processes beside this one (Note [this process converts too])
    proc = _start("convert", src, "-o", tmp_path / "out", "-j", "3", cwd=tmp_path)
    workers = _wait_for_workers(proc, 2)
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == {"ctrl-c": 130, "sigterm": 143, "sigkill": -signal.SIGKILL}[how]
    assert _gone(workers), "worker processes outlived their parent"
    if how != "sigkill":
        assert "Traceback" not in err and err == ""
        assert leftovers(tmp_path) == [] and not (tmp_path / "out").exists()


@needs_proc
def test_ctrl_c_as_the_first_worker_is_forked(tmp_path):
    """Ctrl-C the moment a worker process exists, while the others are being forked and before
    any has set itself to ignore SIGINT: 130, nothing on stderr, no hang. It printed a worker's
    KeyboardInterrupt traceback, or the interpreter's exit hook's "Bad file descriptor", or hung
    on a worker forked before the main process's handler was in place (1 in 4 runs, found in CI)."""
    src = _busy_tree(tmp_path, files_=4, lines=2000)
    proc = _start("convert", src, "-o", tmp_path / "out", "-j", "3", cwd=tmp_path)
    end = time.monotonic() + 60
    while not _children(proc.pid) and time.monotonic() < end:
        time.sleep(0.001)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError("the interrupted conversion hung")
    assert (proc.returncode, err) == (130, "")
    assert leftovers(tmp_path) == [] and not (tmp_path / "out").exists()


@needs_proc
def test_ctrl_c_in_process_conversion_exits_130_quietly(tmp_path):
    src = _busy_tree(tmp_path, files_=1, lines=40000)  # many seconds of work: interrupted long before the end
    proc = _start("convert", src / "m0.py", "-o", tmp_path / "m0_pt.py", cwd=tmp_path)
    time.sleep(2.0)  # importing xlate, then converting
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "")
    assert not (tmp_path / "m0_pt.py").exists() and leftovers(tmp_path) == []


# -- two runs into the same new -o folder at once (issue 24 item 8, Note [concurrent runs]) ---------

def _concurrent_run(barrier, src: str, out: str, results) -> None:
    """A forked `xlate convert SRC -o OUT` that waits for the other run just before it writes."""
    import io
    import contextlib

    real = files.publish_tree

    def publish_together(*args, **kwargs):
        barrier.wait(timeout=60)
        return real(*args, **kwargs)

    files.publish_tree = publish_together
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["convert", src, "-o", out, "--exit-zero", "-j", "1"])
    results.put((rc, err.getvalue()))


def test_two_runs_into_one_new_output_folder_both_succeed(tmp_path):
    import multiprocessing

    src = tmp_path / "src"
    for i in range(6):
        write(src / "pkg" / f"m{i}.py", CONVERTIBLE)
    write(src / "pkg" / "__init__.py", "")
    write(src / "notes.txt", "kept\n")
    context = multiprocessing.get_context("fork")
    for attempt in range(8):
        out = tmp_path / f"out{attempt}"
        barrier, results = context.Barrier(2), context.Queue()
        workers = [context.Process(target=_concurrent_run, args=(barrier, str(src), str(out), results))
                   for _ in range(2)]
        for w in workers:
            w.start()
        outcomes = [results.get(timeout=120) for _ in workers]
        for w in workers:
            w.join(60)
        for rc, err in outcomes:
            assert "xlate-stage" not in err and rc == 0, err
        assert tree_files(out) == ["notes.txt", "pkg", "pkg/__init__.py"] + [f"pkg/m{i}.py" for i in range(6)]
        assert (out / "pkg" / "m0.py").read_text() == CONVERTED
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no staging left


def test_a_failure_while_publishing_names_the_output_folder_not_the_staging_one(tmp_path, monkeypatch, capsys):
    import errno

    src = write(tmp_path / "src" / "m.py", CONVERTIBLE).parent
    out = tmp_path / "out"

    def refuse(a, b):
        raise OSError(errno.EXDEV, "Invalid cross-device link", str(a), str(b))

    monkeypatch.setattr(files.os, "replace", refuse)
    rc, _, err = run(capsys, "convert", src, "-o", out)
    assert rc == 2 and f"cannot write {out}: Invalid cross-device link" in err and "xlate-stage" not in err
    assert leftovers(tmp_path) == [] and not out.exists()
