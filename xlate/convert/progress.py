"""A one-line progress counter for long conversions, shown only on a terminal.

A tree of hundreds of files takes seconds to minutes. On a terminal the user sees
`xlate: 37/140 files converted`, rewritten in place and erased before the report is printed;
anywhere else (a pipe, a file, CI's log) nothing at all is written, so logs and redirected
reports stay exactly what they were.
"""
from __future__ import annotations

import time
from typing import Optional, TextIO

ERASE = "\r\x1b[K"  # back to the start of the line, clear to its end


class Progress:
    """Call with the number of files done; `close()` (or leaving the `with`) erases the line."""

    def __init__(self, stream: TextIO, total: int, *, interval: float = 0.1) -> None:
        self.stream, self.total, self.interval = stream, total, interval
        self._last = float("-inf")
        self._shown = False

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done < self.total and now - self._last < self.interval:  # a terminal redraw costs
            return
        self._last = now
        self.stream.write(f"{ERASE}xlate: {done}/{self.total} files converted")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        if self._shown:
            self.stream.write(ERASE)
            self.stream.flush()
            self._shown = False

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def on_terminal(stream: TextIO, total: int) -> Optional[Progress]:
    """A Progress for `stream` when it is a terminal and there is more than one file, else None."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        tty = False
    return Progress(stream, total) if tty and total > 1 else None
