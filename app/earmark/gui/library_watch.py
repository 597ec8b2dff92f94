"""Noticing a library changed by another process (``earmark subscribe`` in a terminal, a cron refresh): the
writer's connection asks SQLite's ``PRAGMA data_version`` every few seconds, which changes only when another
connection committed (this process writes through that very connection)."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from earmark.core.db.database import Database
from earmark.gui.tasks import TaskRunner

POLL_MS = 2000


def data_version(db: Database) -> int:
    """SQLite's count of commits by other connections, as this connection sees it."""
    return int(db.execute("PRAGMA data_version").fetchone()[0])


class LibraryWatch(QObject):
    """Polls the library in the runner's writer thread (the GUI thread never waits for it).

    Signal: ``changed_elsewhere()`` when another process changed the library.
    """

    changed_elsewhere = Signal()

    def __init__(self, runner: TaskRunner, parent: QObject | None = None, interval_ms: int = POLL_MS) -> None:
        super().__init__(parent)
        self._runner = runner
        self._version: int | None = None
        self._asking = False
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._ask)
        self._timer.start()
        self._ask()

    @Slot()
    def _ask(self) -> None:
        if self._asking:  # a long write holds the writer: one question at a time
            return
        try:
            self._runner.on_writer(data_version, on_done=self._answered, on_error=self._unanswered)
        except RuntimeError:  # the runner was shut down (the window is closing)
            self._timer.stop()
            return
        self._asking = True

    def _answered(self, version: int) -> None:
        self._asking = False
        if self._version is not None and version != self._version:
            self.changed_elsewhere.emit()
        self._version = version

    def _unanswered(self, _message: str) -> None:
        self._asking = False  # asked again at the next tick; a question is not worth a dialog

