"""Background work that waits for a refresh or an import to end (a relation pass, passage indexing): what came due
meanwhile runs once after it, not feed after feed beside it, taking the CPU the refresh needs."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import SignalInstance


class RefreshHold:
    """Between a refresh's ``started`` and ``ended`` signals, ``defer`` says to wait (and remembers the work was
    due); after ``ended``, ``run`` is called once if it was."""

    def __init__(self, run: Callable[[], None]) -> None:
        self._run = run
        self._held = False
        self._due = False

    def follow(self, started: SignalInstance, ended: SignalInstance) -> None:
        started.connect(self._hold)
        ended.connect(self._release)

    def defer(self) -> bool:
        """True while a refresh runs: the work is remembered and run after it."""
        if self._held:
            self._due = True
        return self._held

    def _hold(self) -> None:
        self._held = True

    def _release(self, _summary: object = None) -> None:
        self._held = False
        if self._due:
            self._due = False
            self._run()
