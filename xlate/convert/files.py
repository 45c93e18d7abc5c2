"""Reading inputs, converting them (in parallel for trees) and writing outputs atomically."""
from __future__ import annotations

import os
import shutil
import stat
import tempfile
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

from xlate.convert.engine import InputError, convert_source
from xlate.convert.package import FileContext
from xlate.convert.placement import HelperImport
from xlate.convert.report import FileResult

SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache"}


@dataclass(frozen=True)
class Job:
    source: Path  # file to read
    display: str  # path shown in the report
    target: Optional[Path]  # where the converted text goes (None: stdout / diff only)
    helper_import: Optional[HelperImport] = None  # a tree's file: how it imports the helper module
    context: Optional[FileContext] = None  # a tree's file: what the rest of the tree defines


def _read(path: Path, display: str) -> tuple[str, bool]:
    """The file's text without a byte order mark, and whether it had one."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(display, 1, 1, f"cannot read: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(display, line, 1, f"not UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start})") from None
    bom = text.startswith("\ufeff")
    return (text[1:] if bom else text), bom


def walk(root: Path, *, check_other: bool = True) -> tuple[list[Path], list[Path]]:
    """(python files, other files) under root, sorted, skipping VCS and virtualenv folders.

    Every file that will be read (the Python ones, and the others when `check_other`, as
    they are to be copied) must be a readable regular file: a FIFO would block the read
    forever and a broken link would fail half-way through writing the output tree.
    """
    py, other = [], []
    for dirpath, dirnames, filenames in os.walk(root, onerror=_raise):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            path = Path(dirpath) / name
            is_py = name.endswith(".py")
            if is_py or check_other:
                _check_readable(path)
            (py if is_py else other).append(path)
    return py, other


def _check_readable(path: Path) -> None:
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # follows links
            raise InputError(str(path), 1, 1, "not a regular file (a FIFO, socket or device)")
        with open(path, "rb"):
            pass
    except OSError as e:
        raise InputError(str(path), 1, 1, f"cannot read: {e.strerror or e}") from None


def _raise(error: OSError) -> None:
    raise InputError(str(error.filename), 1, 1, f"cannot read directory: {error.strerror}")


def _convert_one(args) -> FileResult | tuple:
    job, select, ignore, options = args
    try:
        text, bom = _read(job.source, job.display)
        if job.helper_import is not None or job.context is not None:
            options = {**(options or {}), "helper_import": job.helper_import, "context": job.context}
        result = convert_source(text, path=job.display, select=select, ignore=ignore, options=options)
    except InputError as e:
        # InputError does not survive pickling (its __init__ takes four arguments, its
        # args hold one string): a worker process hands back the fields instead.
        return (e.path, e.line, e.col, e.message)
    except Exception as e:  # a bug in xlate: say which file, exit 2 (not 1, "manual items left")
        traceback.print_exc()
        return (job.display, 1, 1, f"internal error, please report it: {type(e).__name__}: {e}")
    if bom:  # the parser gets the text without its byte order mark; the output keeps it
        result.source, result.output = "\ufeff" + result.source, "\ufeff" + result.output
    return result


def _unpack(result) -> FileResult | InputError:
    return InputError(*result) if isinstance(result, tuple) else result


def convert_all(jobs: list[Job], *, select, ignore, workers: int, options: dict | None = None,
                progress: Optional[Callable[[int], None]] = None) -> list[FileResult | InputError]:
    """Every job's result in the jobs' order; `progress(n)` is told after each of the n done."""
    args = [(job, select, ignore, options) for job in jobs]
    if workers <= 1 or len(jobs) < 4:
        return _collect(map(_convert_one, args), progress)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        chunks = pool.map(_convert_one, args, chunksize=max(1, len(args) // (workers * 4)))
        return _collect(chunks, progress)


def _collect(results: Iterable, progress: Optional[Callable[[int], None]]) -> list[FileResult | InputError]:
    done = []
    for r in results:
        done.append(_unpack(r))
        if progress is not None:
            progress(len(done))
    return done


def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder and rename: never a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".xlate-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        if path.exists():
            shutil.copymode(path, tmp)
        else:  # mkstemp makes 0600; a new file gets the mode any other new file would
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def publish_tree(out_root: Path, files: Iterable[tuple[Path, str]], copies: Iterable[tuple[Path, Path]]) -> None:
    """Build a whole output tree in a sibling temporary folder, then move it into place.

    A new output folder appears complete or not at all; an existing one is updated file by
    file, each file atomically.
    """
    if out_root.exists():
        for target, text in files:
            write_atomic(target, text)
        for src, target in copies:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
        return
    out_root.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_root.name}.", dir=out_root.parent))
    try:
        for target, text in files:
            dest = staging / target.relative_to(out_root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(text, encoding="utf-8", newline="")
        for src, target in copies:
            dest = staging / target.relative_to(out_root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
        os.replace(staging, out_root)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
