"""Reading inputs, converting them (in parallel for trees) and writing outputs atomically."""
from __future__ import annotations

import io
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
import threading
import tokenize
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Callable, Iterable, Optional

from xlate.convert import package
from xlate.convert.engine import InputError, convert_source
from xlate.convert.package import FileContext
from xlate.convert.parsing import no_gc
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
    tree: Optional[int] = None  # a tree's file: which of convert_all's trees (its package pass gives the context)


def _read(path: Path, display: str) -> tuple[str, bool, str, bytes]:
    """The file's text without a byte order mark, whether it had one, its encoding (PEP 263:
    a `# -*- coding: latin-1 -*-` line, read as Python reads it; UTF-8 without one), and its
    bytes."""
    try:
        # O_NONBLOCK: a FIFO given by name opens at once (and is refused) instead of blocking
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise InputError(display, 1, 1, "not a regular file (a FIFO, socket or device)")
            data = fh.read()
    except OSError as e:
        raise InputError(display, 1, 1, f"cannot read: {e.strerror or e}") from None
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError as e:  # an unknown codec, or a declaration that contradicts a BOM
        raise InputError(display, 1, 1, f"does not parse: {e.msg if hasattr(e, 'msg') else e}") from None
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        what = "UTF-8" if encoding == "utf-8" else f"{encoding} (its coding declaration)"
        raise InputError(display, line, 1, f"not {what} (byte 0x{data[e.start]:02x} at offset {e.start})") from None
    bom = text.startswith("\ufeff")
    return (text[1:] if bom else text), bom, encoding, data


def walk(root: Path, *, check_other: bool = True) -> tuple[list[Path], list[Path]]:
    """(python files, other files) under root, sorted, skipping VCS and virtualenv folders.

    Every file that will be read (the Python ones, and the others when `check_other`, as
    they are to be copied) must be a readable regular file: a FIFO would block the read
    forever and a broken link would fail half-way through writing the output tree.
    """
    py, other = [], []
    for dirpath, dirnames, filenames in os.walk(root, onerror=_raise):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not _STAGING.match(d))
        for name in sorted(filenames):
            if name.endswith(_TMP_SUFFIX):
                continue  # a file an interrupted run of xlate was writing
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


def read_bytes(path: Path) -> Optional[bytes]:
    try:
        return path.read_bytes()
    except OSError:
        return None


# Note [one analysis per file] (xlate/convert/package.py): (tree, source path) -> (its bytes,
# its names.Analysis) from this process's share of the package pass, for the conversions of
# this run (Note [package pass in shares]).
_KEPT: dict = {}


def _convert_one(args) -> FileResult | tuple:
    job, select, ignore, options = args
    try:
        text, bom, encoding, data = _read(job.source, job.display)
        kept = _KEPT.pop((job.tree, job.source), None)
        analysis = kept[1] if kept is not None and kept[0] == data else None  # the same bytes
        if job.helper_import is not None or job.context is not None:
            options = {**(options or {}), "helper_import": job.helper_import, "context": job.context}
        result = convert_source(text, path=job.display, select=select, ignore=ignore, options=options,
                                analysis=analysis)
        result.encoding = encoding
        _check_encodable(result)
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


def _check_encodable(result: FileResult) -> None:
    try:
        result.output.encode(result.encoding)
    except UnicodeEncodeError as e:
        line = result.output[: e.start].count("\n") + 1
        raise InputError(result.path, line, 1, f"the converted code holds {e.object[e.start]!r}, which its "
                                               f"encoding ({result.encoding}) cannot write") from None


def _unpack(result) -> FileResult | InputError:
    return InputError(*result) if isinstance(result, tuple) else result


def convert_all(jobs: list[Job], *, select, ignore, workers: int, options: dict | None = None,
                progress: Optional[Callable[[int], None]] = None,
                trees: Iterable[tuple[Path, list[Path]]] = ()) -> list[FileResult | InputError]:
    """Every job's result in the jobs' order; `progress(n)` is told after each of the n done.
    `trees`: (root, its Python files) of each tree converted; a job with `tree=t` is a file of
    trees[t], whose package pass (Note [package facts]) gives its context."""
    global _KEPT
    _KEPT = {}
    trees = list(trees)
    try:
        # Note [no cyclic GC while converting], from the package pass to the last file: the
        # kept analyses are millions of objects the collector would walk again and again (and,
        # in a forked worker, copy page by page); the workers inherit the collector off
        with no_gc():
            if workers <= 1 or len(jobs) < 4:
                jobs = _with_contexts(jobs, _serial_contexts(trees))
                args = [(job, select, ignore, options) for job in jobs]
                return _collect(map(_convert_one, args), progress)
            _warm()
            return _Lanes(jobs, trees, min(workers, len(jobs)), (select, ignore, options), progress).run()
    finally:
        _KEPT = {}


def _serial_contexts(trees: list) -> dict:
    contexts = {}
    for t, (root, files) in enumerate(trees):
        kept: dict = {}
        for path, context in package.tree_contexts(root, files, read_bytes, keep=kept).items():
            contexts[t, path] = context
        _KEPT.update(((t, path), value) for path, value in kept.items())
    return contexts


def _with_contexts(jobs: list[Job], contexts: dict) -> list[Job]:
    return [replace(job, context=contexts.get((job.tree, job.source))) if job.tree is not None else job
            for job in jobs]


# -- the package pass in shares (Note [package pass in shares]): a worker's side -----------------
_SHARES: dict = {}  # tree -> this worker's package.Share of it


def _share_start(t: int, root: Path, files: list[Path], mine: list[Path]) -> None:
    _SHARES[t] = package.Share(root, files, mine, read_bytes)


def _share_step(t: int, updates: dict) -> list:
    return _SHARES[t].step(updates)


def _share_finish(t: int) -> dict:
    return _finish(t, _SHARES.pop(t))


def _finish(t: int, share: package.Share) -> dict:
    """(tree, path) -> FileContext of the share's files, whose analyses this process keeps."""
    kept: dict = {}
    contexts = share.finish(kept)
    _KEPT.update(((t, path), value) for path, value in kept.items())
    return {(t, path): context for path, context in contexts.items()}


# Note [this process converts too]
# With -j N there are N lanes: this process and N - 1 workers (one pool of one process each,
# so that a task can go to the worker that holds what it needs). The files are dealt out by
# size, and each lane parses and analyses its own files in the package pass (Note [package
# pass in shares]) and converts them, largest first, with the analyses it kept. A lane that
# has converted all of its own takes the smallest file left to the lane with the most work
# left, and analyses it again (no lane is left alone with a big file at the end). This
# process would otherwise sit waiting on a core of its own. Each worker has at most two files
# in flight: when one comes back, its next goes out (in the pool's thread, under the lock
# that this process's own taking also holds, so that once every queue is empty nothing more
# is sent).
class _Lanes:
    IN_FLIGHT = 2  # files sent ahead to each worker

    def __init__(self, jobs: list[Job], trees: list, workers: int, settings: tuple, progress):
        self.jobs, self.trees, self.settings, self.progress = list(jobs), trees, settings, progress
        sizes = [_size(job.source) for job in jobs]
        self.queues: list[list[int]] = [[] for _ in range(workers)]  # each popped from the end
        self.left = [0] * workers  # bytes left in each queue
        for i in sorted(range(len(jobs)), key=lambda i: -sizes[i]):
            lane = min(range(workers), key=self.left.__getitem__)
            self.queues[lane].append(i)
            self.left[lane] += sizes[i]
        for queue in self.queues:
            queue.reverse()
        self.sizes = sizes
        self.results: list = [None] * len(jobs)
        self.sent: dict = {}  # future -> job index
        # reentrant: a future done before its callback is added calls it in the sending thread
        self.lock = threading.RLock()
        self.done = 0
        self.workers = workers
        self.pools: list = []

    def run(self) -> list:
        try:  # from the forks on: a Ctrl-C anywhere after them stops the workers
            self.pools = [ProcessPoolExecutor(max_workers=1, initializer=_worker_start, initargs=(os.getpid(),))
                          for _ in range(self.workers - 1)]
            _fork_ignoring_ctrl_c(self.pools)
            contexts: dict = {}
            for t, (root, files) in enumerate(self.trees):
                contexts.update(self._package_pass(t, root, files))
            self.jobs = _with_contexts(self.jobs, contexts)
            self.args = [(job, *self.settings) for job in self.jobs]
            with self.lock:
                for lane in range(1, len(self.queues)):
                    for _ in range(self.IN_FLIGHT):
                        self._send(lane)
            while True:
                with self.lock:
                    i = self._next(0)
                if i is None:
                    break
                self.results[i] = _unpack(_convert_one(self.args[i]))
                self._tell()
            with self.lock:  # every queue is empty now: nothing more is sent
                sent = list(self.sent)
            for future in as_completed(sent):
                self.results[self.sent[future]] = _unpack(future.result())
                self._tell()
        except BaseException:  # Ctrl-C, SIGTERM: the workers go now, not after their queue
            for pool in self.pools:
                _stop(pool)
            raise
        for pool in self.pools:
            pool.shutdown()
        return self.results

    def _package_pass(self, t: int, root: Path, files: list[Path]) -> dict:
        parts = [[self.jobs[i].source for i in queue if self.jobs[i].tree == t] for queue in self.queues]
        started = [pool.submit(_share_start, t, root, files, part) for pool, part in zip(self.pools, parts[1:])]
        share = package.Share(root, files, parts[0], read_bytes)
        for future in started:
            future.result()
        updates: dict = {}
        for _ in range(package.ROUNDS):
            steps = [pool.submit(_share_step, t, updates) for pool in self.pools]
            updates = package.merge([share.step(updates)] + [future.result() for future in steps])
            if not updates:
                break
        finished = [pool.submit(_share_finish, t) for pool in self.pools]
        contexts = _finish(t, share)
        for future in finished:
            contexts.update(future.result())
        return contexts

    def _next(self, lane: int) -> Optional[int]:
        """The next file for `lane` (the lock held): its own largest, else the smallest of the
        lane with the most work left."""
        queue = self.queues[lane]
        if not queue:
            # among the lanes with files left: a lane of empty files (`__init__.py`) has 0 bytes
            # left and still holds work, which this process must take before it stops waiting
            # for more (`run` waits only for what was sent by then)
            waiting = [other for other in range(len(self.queues)) if self.queues[other]]
            if not waiting:
                return None
            busiest = max(waiting, key=self.left.__getitem__)
            queue = self.queues[busiest]
            i = queue.pop(0)
            self.left[busiest] -= self.sizes[i]
            return i
        i = queue.pop()
        self.left[lane] -= self.sizes[i]
        return i

    def _send(self, lane: int) -> None:
        """The next file to a worker's lane (the lock held)."""
        i = self._next(lane)
        if i is None:
            return
        try:
            future = self.pools[lane - 1].submit(_convert_one, self.args[i])
        except Exception:  # noqa: BLE001 -- the pool is broken or shut down: this process converts it
            self.queues[0].append(i)
            self.left[0] += self.sizes[i]
            return
        job = self.jobs[i]
        _KEPT.pop((job.tree, job.source), None)  # a file of this lane's: its analysis can go
        self.sent[future] = i
        future.add_done_callback(partial(self._returned, lane))

    def _returned(self, lane: int, future) -> None:
        with self.lock:
            self._send(lane)

    def _tell(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _warm() -> None:
    """Load once, before the workers fork, what every conversion needs: the catalogue and the
    helper sources (each worker would otherwise load its own). The rules' transform modules
    are not: each converter imports the ones its files need, while the others convert
    (importing all of them here, before any file, took a quarter of a second of the run)."""
    from xlate.convert import catalogue
    from xlate.runtime import sources

    catalogue.load()
    sources()


def _collect(results: Iterable, progress: Optional[Callable[[int], None]]) -> list[FileResult | InputError]:
    done = []
    for r in results:
        done.append(_unpack(r))
        if progress is not None:
            progress(len(done))
    return done


# Note [workers die with their parent]
# Workers are forked: a SIGKILL of the main process leaves them running, blocked on a queue
# nobody reads. Each asks the kernel for SIGKILL when its parent dies (Linux), and watches
# its parent's pid besides (elsewhere). Ctrl-C reaches the whole process group: workers
# ignore it, and the main process stops them.
def _fork_ignoring_ctrl_c(pools: list) -> None:
    """Forks each pool's worker now, with SIGINT blocked: a Ctrl-C that comes before a worker's
    _worker_start has ignored it stays pending there, and ignoring it discards it. (Unblocked,
    it raised KeyboardInterrupt in a worker still starting and printed its traceback.) A
    pool forks in the thread that first submits to it."""
    if not pools or not hasattr(signal, "pthread_sigmask"):
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for pool in pools:
            pool.submit(int)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _worker_start(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by _fork_ignoring_ctrl_c
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # it died before that
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        threading.Event().wait(1.0)
    os._exit(1)


def _stop(pool: ProcessPoolExecutor) -> None:
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()
    # waits for the pool's thread, which sees its worker gone and closes its pipe: left running,
    # it raced the interpreter's exit hook, which writes to that pipe ("Bad file descriptor")
    pool.shutdown(wait=True, cancel_futures=True)


# -- writing ----------------------------------------------------------------------------------
# Temporary files and staging folders carry the writing process's pid, so that a later run
# can tell the ones an interrupted run left (its pid is gone) and remove them.
_TMP_SUFFIX = ".xlate-tmp"
_STALE_TMP = re.compile(r"^\..+\.xlate(\d+)\.[^.]+\.xlate-tmp$")
_STAGING = re.compile(r"^\..+\.xlate-stage(\d+)\.[^.]+$")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process
        return True
    return True


def clean_stale(folder: Path) -> None:
    """Remove what an interrupted run of xlate left in `folder`."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        m = _STALE_TMP.match(name) or _STAGING.match(name)
        if m and not _alive(int(m.group(1))):
            path = folder / name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    path.unlink()
                except OSError:
                    pass


def _encoded(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8")


def _stage(path: Path, data: bytes) -> str:
    """Write `data` to a new temporary file next to `path`, with the mode `path` has or would get."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.xlate{os.getpid()}.", suffix=_TMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if path.exists():
            shutil.copymode(path, tmp)
        else:  # mkstemp makes 0600; a new file gets the mode any other new file would
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write via a temporary file in the same folder and rename: never a half-written file."""
    write_all([(path, text)])


def write_all(files: Iterable[tuple[Path, str | bytes]]) -> None:
    """Write several files, each atomically, in two steps: every file is first written under a
    temporary name next to its target, and only then are they renamed into place. An error or
    an interrupt before the renames leaves every target as it was."""
    files = list(files)
    for folder in {path.parent for path, _ in files}:
        clean_stale(folder)
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in files:
            staged.append((_stage(path, _encoded(text)), path))
        while staged:
            tmp, path = staged[0]
            os.replace(tmp, path)
            staged.pop(0)
    finally:
        for tmp, _ in staged:
            _unlink(tmp)


def publish_tree(out_root: Path, files: Iterable[tuple[Path, str | bytes]], copies: Iterable[tuple[Path, Path]]) -> None:
    """Build a whole output tree in a sibling temporary folder, then move it into place.

    A new output folder appears complete or not at all; in an existing one the converted files
    are written as write_all does, then the other files copied. Errors name the user's paths,
    never the staging folder (Note [concurrent runs]).
    """
    files, copies = list(files), list(copies)
    if out_root.exists() or not _publish_new(out_root, files, copies):
        write_all(files)
        for src, target in copies:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


# Note [concurrent runs]
# Two runs into the same new `-o` folder (a build started twice) both find it missing and
# stage a tree; the first rename puts its tree in place and the second fails ("Directory not
# empty"). The second run then writes into the folder that is there now, as into any existing
# tree: both succeed, and the folder holds a whole conversion. An error while staging is
# reported at the path the user gave, not at the staging folder, which is removed.
def _publish_new(out_root: Path, files: list, copies: list) -> bool:
    """Stage a new tree beside `out_root` and rename it into place; False when another run
    created `out_root` meanwhile (nothing is written then)."""
    out_root.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(out_root.parent)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_root.name}.xlate-stage{os.getpid()}.", dir=out_root.parent))
    try:
        # mkdtemp makes 0700; the published folder gets the mode any new folder would
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(staging, 0o777 & ~umask)
        for target, text in files:
            dest = staging / target.relative_to(out_root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(_encoded(text))
        for src, target in copies:
            dest = staging / target.relative_to(out_root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
        try:
            os.replace(staging, out_root)
        except OSError:
            if out_root.is_dir():  # another run's tree got there first (Note [concurrent runs])
                shutil.rmtree(staging, ignore_errors=True)
                return False
            raise
    except BaseException as e:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(e, OSError):
            for attr in ("filename", "filename2"):
                name = getattr(e, attr, None)
                if isinstance(name, str) and name.startswith(str(staging)):
                    setattr(e, attr, str(out_root) + name[len(str(staging)):])
        raise
    return True
