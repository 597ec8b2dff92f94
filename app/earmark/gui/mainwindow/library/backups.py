"""The window's backups: the daily backup (soon after the window opens, after each refresh or import, and hourly;
after the compaction an upgrade asked for, library/compaction.py)
and File → Restore from Backup…, which asks, checks and confirms, then hands the restore to the application (the
window must close first: no connection may hold the library while it is moved aside)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal, SignalInstance, Slot
from PySide6.QtWidgets import QMainWindow

from earmark.core.db.backups import Backup, backup_counts, check_backup, daily_backup, list_backups
from earmark.core.db.database import Database
from earmark.core.errors import EarmarkError, LibraryDamagedError
from earmark.core.settings import get_setting
from earmark.gui.mainwindow.frame.feedback import remark
from earmark.gui.mainwindow.library.compaction import Compaction
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.recovery import RecoveryDialogs

START_DELAY_MS = 2000  # after the window has settled
CHECK_INTERVAL_MS = 3_600_000  # a window left open for days still makes its daily backup


class BackupsController(QObject):
    """Makes the daily backup and runs File → Restore from Backup….

    ``on_error(message, title)`` shows a sentence; ``refreshed``, when given, is emitted as a refresh or import
    ends: the day's backup is checked then too, so that a new library's first import is kept the same day (an
    empty library is not copied). Signals: ``backed_up(object)`` with the Backup made,
    ``restore_requested(object)`` with the Path of the backup the user chose and confirmed.
    """

    backed_up = Signal(object)
    restore_requested = Signal(object)

    def __init__(self, window: QMainWindow, runner: TaskRunner, db: Database, dialogs: RecoveryDialogs,
                 on_error: Callable[[str, str], None], read_only: bool,
                 refreshed: SignalInstance | None = None) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._dialogs = dialogs
        self._on_error = on_error
        self.compaction = Compaction(window, runner, db)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.backup_if_due)
        self._start_timer = QTimer(self)  # a member, so that closing the window cancels it
        self._start_timer.setSingleShot(True)
        self._start_timer.timeout.connect(self.backup_if_due)
        if not read_only:  # a read-only library's folder takes no backups (and the library cannot change)
            self._timer.start(CHECK_INTERVAL_MS)
            self._start_timer.start(START_DELAY_MS)
            if refreshed is not None:
                refreshed.connect(self._after_refresh)

    @Slot()
    def backup_if_due(self) -> None:
        """Make today's backup in the background unless there is one (setting ``backups.keep``), after the
        compaction an upgrade asked for."""
        self.compaction.run_if_due(self._backup_if_due)

    def _backup_if_due(self) -> None:
        keep = int(get_setting(self._db, "backups.keep"))  # type: ignore[call-overload]
        self._runner.compute(_daily, self._runner.library_path, keep, on_done=self._on_backup,
                             on_error=lambda message: self._window.statusBar().showMessage(
                                 f"The daily backup was not made: {message}", 15000))

    @Slot(object)
    def _after_refresh(self, _summary: object) -> None:
        self.backup_if_due()

    def _on_backup(self, result: Backup | LibraryDamagedError | None) -> None:
        if isinstance(result, LibraryDamagedError):
            self._on_error(str(result), "The library is damaged")
        elif result is not None:
            remark(self._window, f"Backed up the library to {result.path}.")
            self.backed_up.emit(result)

    @Slot()
    def ask_restore(self) -> None:
        """Choose a backup, check it, confirm, then ask the application to restore it."""
        library = self._runner.library_path
        chosen = self._dialogs.choose_backup(self._window, library, list_backups(library))
        if chosen is None:
            return
        try:
            check_backup(chosen)
            counts = backup_counts(chosen)
        except EarmarkError as exc:
            self._on_error(str(exc), "Cannot restore that backup")
            return
        if self._dialogs.confirm_restore(self._window, library, chosen, counts):
            self.restore_requested.emit(chosen)

    def shutdown(self) -> None:
        """Stop checking (the window is closing)."""
        self._timer.stop()
        self._start_timer.stop()


def _daily(library: Path, keep: int) -> Backup | LibraryDamagedError | None:
    """daily_backup, with a damaged library as a result to show rather than a failure to log."""
    try:
        return daily_backup(library, keep)
    except LibraryDamagedError as exc:
        return exc
