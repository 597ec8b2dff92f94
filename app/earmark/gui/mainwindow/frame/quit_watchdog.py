"""Quitting never hangs: the watchdog over the window's closing (MainWindow.closeEvent saves the playing position
first, then each part stops its work and the library is released).

libVLC's stop can block for good (a stream whose server stalls, a sound device gone: a known libVLC fault), a
transfer can wait on a silent server, and a process that never ends keeps its library open and the
single-instance socket taken: the next start only hands its window over to one that is gone. So in the real app
(``QuitWatchdog.enable``) the process ends anyway once closing has taken HANG_AFTER_S, saying where it hung;
what was saved by then stays saved (the library is an SQLite file: nothing half-written is ever read back).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import traceback
from collections.abc import Callable

HANG_AFTER_S = 10.0  # the longest stop that may take its time (a sync told to stop) takes 4 s

log = logging.getLogger(__name__)
Ending = Callable[[float, threading.Thread], None]  # (seconds waited, the thread that hung)


class QuitWatchdog:
    """Ends the process if closing hangs. Off until ``enable``d (the window in a test process must never end it)."""

    def __init__(self) -> None:
        self._after_s: float | None = None
        self._end: Ending = _end_anyway
        self._timer: threading.Timer | None = None

    def enable(self, after_s: float = HANG_AFTER_S, end: Ending | None = None) -> None:
        """Watch each closing from now on (``end``: what to do when one hangs, a test's stand-in for the ending)."""
        self._after_s = after_s
        self._end = end or _end_anyway

    @property
    def armed(self) -> bool:
        """Whether a closing is being watched."""
        return self._timer is not None

    def arm(self) -> None:
        """Closing starts: end the process if it is still here ``after_s`` seconds from now."""
        if self._after_s is not None and self._timer is None:
            self._timer = threading.Timer(self._after_s, self._end, [self._after_s, threading.main_thread()])
            self._timer.daemon = True  # it never keeps a process alive that ends by itself
            self._timer.start()

    def disarm(self) -> None:
        """Closing is over and the process goes on (a restore opens a new window)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def _end_anyway(after_s: float, main: threading.Thread) -> None:
    frame = sys._current_frames().get(main.ident or 0)
    where = "".join(traceback.format_stack(frame)) if frame is not None else "(unknown)\n"
    log.error("Quitting hung for %.0f s; Earmark ended anyway. It was waiting in:\n%s", after_s, where.rstrip())
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stderr.flush()
    os._exit(0)  # the person asked to quit, and it quit
