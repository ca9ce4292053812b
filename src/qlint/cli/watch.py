"""``check --watch``: check, then check again each time a bank file or a config file changes, as ruff's watch mode.

Changes are found by polling: a walk of what the check reads and a ``stat`` of each file, no file opened. Polls
are spaced by at least ``INTERVAL`` seconds and by ``PACE`` times as long as the last one took, so that watching a
big bank costs a bounded share of one core, whatever its size. No file-system event library is needed.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Hashable
from typing import TextIO

INTERVAL = 0.5   # seconds between polls, at least
PACE = 10        # ... and ten times the last poll's own time: watching costs at most a tenth of a core


def watch(check: Callable[[], None], snapshot: Callable[[], Hashable], out: TextIO, *,
          wait: Callable[[float], bool] | None = None, clock: Callable[[], float] = time.monotonic) -> int:
    """Run ``check``, then again whenever ``snapshot()`` differs from what it was after the last check, until
    Ctrl-C (exit 0) or until ``wait`` (which sleeps, by default) returns False (tests stop it so)."""
    wait = wait or _sleep
    screen = hasattr(out, "isatty") and out.isatty()
    _say(out, "Starting qlint in watch mode...")
    try:
        while True:
            check()
            before = snapshot()
            _say(out, "Watching for file changes (Ctrl-C stops).")
            while True:
                started = clock()
                now = snapshot()
                pause = max(INTERVAL, PACE * (clock() - started))
                if now != before:
                    break
                if not wait(pause):
                    return 0
            if screen:
                out.write("\033[2J\033[H")   # a terminal shows the new run alone, as ruff's watch mode does
            _say(out, "File change detected...")
    except KeyboardInterrupt:
        return 0


def _sleep(seconds: float) -> bool:
    time.sleep(seconds)
    return True


def _say(out: TextIO, text: str) -> None:
    out.write(f"[{time.strftime('%H:%M:%S')}] {text}\n")
    out.flush()


def signature(paths) -> frozenset:
    """What the files are now, as far as a stat tells: their size, times and identity (a missing file counts)."""
    found = []
    for path in paths:
        try:
            info = os.stat(path)
            found.append((os.fspath(path), info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino))
        except OSError:
            found.append((os.fspath(path), None))
    return frozenset(found)
