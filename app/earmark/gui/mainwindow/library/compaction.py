"""The compaction an upgrade asked for (schema 19 keeps show notes once: core/db/compaction.py), run in the
background soon after the window opens, its progress in the status bar. The window goes on reading meanwhile;
a compaction cut short (the window closed, the program killed) is run again at the next start."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QMainWindow

from earmark.core.db.compaction import Compacted, compact, compaction_due
from earmark.core.db.database import Database
from earmark.gui.tasks import TaskRunner


class Compaction(QObject):
    """Runs a due compaction once; ``then`` is called when it is over (or when none was due)."""

    progressed = Signal(float)  # emitted from the worker thread, shown on the window's

    def __init__(self, window: QMainWindow, runner: TaskRunner, db: Database) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._shown = -1
        self.running = False
        self.progressed.connect(self._show)

    def run_if_due(self, then: Callable[[], None]) -> None:
        if self.running or not compaction_due(self._db.conn):
            then()
            return
        self.running = True

        def done(result: Compacted | None) -> None:
            self.running = False
            if result is not None:
                self._window.statusBar().showMessage(  # in place of its progress
                    f"Compacted the library: {result.before / 1e6:.1f} MB → {result.after / 1e6:.1f} MB.", 8000)
            then()

        def failed(message: str) -> None:  # still due: the next start tries again
            self.running = False
            self._window.statusBar().showMessage(f"The library was not compacted: {message}", 15000)
            then()

        self._runner.compute(_compact, self._runner.library_path, self.progressed.emit, on_done=done,
                             on_error=failed)

    @Slot(float)
    def _show(self, share: float) -> None:
        percent = int(share * 100)
        if percent != self._shown:
            self._shown = percent
            self._window.statusBar().showMessage(f"Compacting the library… {percent} %", 5000)


def _compact(library: Path, progress: Callable[[float], object]) -> Compacted:
    return compact(library, progress)
