"""Reading one file's text as Python: what Python rejects, what only LibCST rejects (said
plainly, naming the construct), and a deep stack for everything that recurses.

Note [deep nesting]
Python accepts expressions nested about 3000 deep (a `+` chain, `x.copy()` chained 1500
times) and `and`/`or` chains of any length, which LibCST holds as nested nodes. LibCST's
parser (native code) and the visitors (Python) recurse once or more per level: on the main
thread's 8 MiB stack and the default recursion limit, that is a RecursionError after a few
hundred levels, or a segmentation fault after some tens of thousands. So everything after
`ast.parse` runs on a thread with a 512 MiB stack (reserved, not committed until used) and a
recursion limit to match. `ast.parse` itself runs first, in the caller's thread under the
caller's recursion limit (its own limit scales with it): what it rejects there is what Python
rejects, and is reported as not parsing.
"""
from __future__ import annotations

import ast
import gc
import re
import sys
import threading
from typing import Any, Callable

import libcst as cst


class InputError(Exception):
    """The input cannot be converted at all (it does not parse, say)."""

    def __init__(self, path: str, line: int, col: int, message: str):
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path, self.line, self.col, self.message = path, line, col, message


def parse_python(source: str, path: str) -> ast.Module:
    """`ast.parse`, its errors as InputErrors (exact positions: LibCST's point at the next token)."""
    try:
        return ast.parse(source)
    except SyntaxError as e:
        message = f"does not parse: {e.msg}"
        if _python2(source, e):
            message += ("; this is Python 2 code, and xlate reads Python 3: port the file first "
                        "(2to3, futurize or by hand)")
        raise InputError(path, e.lineno or 1, e.offset or 1, message) from None
    except (RecursionError, MemoryError):
        raise InputError(path, 1, 1, "does not parse: nested too deeply for Python's parser") from None
    except ValueError as e:  # a NUL byte
        raise InputError(path, 1, 1, f"does not parse: {e}") from None


# Python 2 constructs, on the line Python stopped at (Python's own message names `print` and `exec`)
_PY2_MESSAGES = ("Missing parentheses in call to 'print'", "Missing parentheses in call to 'exec'",
                 "multiple exception types must be parenthesized")
_PY2_LINE = re.compile(r"""^\s*(raise\s+[\w.]+\s*,|except\s+[\w.]+\s*,\s*\w+\s*:|exec\s+["'\w])"""
                       r"""|`[^`]*`|<>|\b\d+[lL]\b|\bur["']""")


def _python2(source: str, error: SyntaxError) -> bool:
    if error.msg.startswith(_PY2_MESSAGES) or error.msg.startswith("leading zeros in decimal integer"):
        return True
    lines = source.splitlines()
    line = lines[error.lineno - 1] if error.lineno and error.lineno <= len(lines) else ""
    return bool(_PY2_LINE.search(line))


def parse_cst(source: str, path: str) -> cst.Module:
    """LibCST's tree of a file Python accepts. Where LibCST cannot read valid Python, the
    error names the construct, so that the user can change it (or leave the file out)."""
    try:
        return cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError, MemoryError) as e:
        line, what = _libcst_limit(source, e)
        raise InputError(path, line, 1, "valid Python that LibCST, the parser xlate uses, cannot read: " + what) \
            from None


_FORM_FEED = re.compile(r"^[ \t]*\x0c", re.M)
_LONE_BACKSLASH = re.compile(r"^[ \t\x0c]*\\\r?\n", re.M)


def _libcst_limit(source: str, error: Exception) -> tuple[int, str]:
    """(line, what) for the constructs LibCST is known to reject in valid Python."""
    m = _LONE_BACKSLASH.search(source)
    if m:
        return _line_of(source, m.start()), ("a line holding only a backslash continuation `\\`; "
                                            "delete it or join it to the line before")
    m = _FORM_FEED.search(source)
    if m:
        return _line_of(source, m.start()), "a form feed (\\f, ^L) in the indentation; delete it"
    if isinstance(error, (RecursionError, MemoryError)):
        return 1, "expressions nested too deeply for LibCST"
    line = getattr(error, "raw_line", 1) or 1
    message = str(getattr(error, "message", error)).splitlines()[0]
    return line, f"LibCST says: {message}"


def _line_of(source: str, offset: int) -> int:
    return len(re.findall(r"\r\n|\r|\n", source[:offset])) + 1


# -- Note [deep nesting] -------------------------------------------------------------------------
_STACK_BYTES = 512 << 20
_RECURSION_LIMIT = 400_000
_lock = threading.Lock()
_active = 0
_saved_limit = 0
_saved_gc: list = []
_THREAD = "xlate-convert"
_running: list = []  # one entry per conversion thread still at work (list.append/pop are atomic)

# Note [no cyclic GC while converting]
# LibCST makes millions of small objects (a node per token and per piece of whitespace). Each
# time enough of them have been made, Python's cyclic collector walks every object alive,
# so on a 50,000-line file the collections alone grow with the square of its length (2.5x
# the whole conversion). Syntax trees hold no cycles, and reference counting frees what a
# conversion drops: the collector stays off while one runs, and is switched back on after.


def deep(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """fn(*args, **kwargs) on a thread with a deep stack and a recursion limit to match, and the
    cyclic garbage collector off."""
    global _active, _saved_limit
    result: list = []

    def run() -> None:
        _running.append(None)
        try:
            result.append((True, fn(*args, **kwargs)))
        except BaseException as e:  # noqa: BLE001 -- handed to the caller's thread
            result.append((False, e))
        finally:
            _running.pop()

    with _lock:
        if _active == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, _RECURSION_LIMIT))
            _saved_gc[:] = [gc.isenabled()]
            gc.disable()  # Note [no cyclic GC while converting]
        _active += 1
    try:
        _start(run).join()
    finally:
        with _lock:
            _active -= 1
            if _active == 0:
                sys.setrecursionlimit(_saved_limit)
                if _saved_gc and _saved_gc[0]:
                    gc.enable()
    ok, value = result[0]
    if ok:
        return value
    raise value


def converting() -> bool:
    """Whether a conversion thread is running (after an interrupt of the thread waiting for it;
    Thread.is_alive() is not to be trusted then: an interrupted join() can mark it stopped)."""
    return bool(_running)


def _start(run: Callable[[], None]) -> threading.Thread:
    with _lock:  # the stack size is a setting for every thread started after it
        try:
            old_size = threading.stack_size(_STACK_BYTES)
        except (ValueError, RuntimeError):  # a platform where it cannot be set: the default stack
            old_size = None
        try:
            thread = threading.Thread(target=run, name=_THREAD, daemon=True)
            thread.start()
        finally:
            if old_size is not None:
                threading.stack_size(old_size)
    return thread
