"""Building the application: the library connection, workers, player and main window; recovering from a
library that cannot be opened, and swapping the window when a backup is restored."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from earmark import __version__
from earmark.core.db.backups import list_backups, restore_backup
from earmark.core.db.connection import open_library_or_read_only
from earmark.core.errors import EarmarkError
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.operations.library import store_progress
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.recovery import OPEN_ANOTHER, RESTORE, RecoveryDialogs
from earmark.playback.progress import PlaybackSession
from earmark.playback.vlc_player import VlcPlayer


@dataclass(slots=True)
class Parts:
    """The pieces of a running app, for the entry point, the smoke test and GUI tests."""

    window: MainWindow
    runner: TaskRunner
    session: PlaybackSession


def application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once per process)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    app = QApplication(argv or [sys.argv[0]])
    app.setApplicationName("Earmark")
    app.setOrganizationName("Earmark")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("earmark")
    return app


def build(library_path: Path, vlc_args: tuple[str, ...] = (), dialogs: RecoveryDialogs | None = None) -> Parts:
    """Open the library and build the main window (raises EarmarkError when the library is unusable). A library
    that cannot be written opens read-only, the window saying why."""
    db, read_only_reason = open_library_or_read_only(library_path)
    runner = TaskRunner(library_path, read_only=read_only_reason is not None)
    player = VlcPlayer(vlc_args)

    def save(update: object) -> None:
        runner.write(store_progress, update, on_done=lambda changes: window.apply_changes(changes))

    session = PlaybackSession(player, save)
    window = MainWindow(runner, db, session, read_only_reason=read_only_reason, dialogs=dialogs)
    return Parts(window, runner, session)


class Launcher(QObject):
    """Opens the main window on a library. When the library cannot be opened (not a library, damaged, too new)
    it says why and offers to open another library or restore a backup, never touching the broken file; when
    the user restores a backup from the window, it closes the window, restores, and opens a new window."""

    def __init__(self, library_path: Path, dialogs: RecoveryDialogs | None = None,
                 vlc_args: tuple[str, ...] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library_path = library_path
        self.dialogs = dialogs or RecoveryDialogs()
        self.vlc_args = vlc_args
        self.parts: Parts | None = None

    def open(self) -> Parts | None:
        """Build the window (not shown yet), asking the user how to go on while the library cannot be
        opened; None when they chose to quit."""
        while True:
            try:
                parts = build(self.library_path, self.vlc_args, self.dialogs)
            except EarmarkError as exc:
                if not self._recover(str(exc)):
                    return None
                continue
            parts.window.backups.restore_requested.connect(self.restore)
            self.parts = parts
            return parts

    def _recover(self, message: str) -> bool:
        """Ask what to do about an unusable library; False to quit."""
        choice = self.dialogs.startup_problem(self.library_path, message)
        if choice == OPEN_ANOTHER:
            chosen = self.dialogs.choose_library(self.library_path)
            if chosen is not None:
                self.library_path = chosen
            return True
        if choice == RESTORE:
            backup = self.dialogs.choose_backup(None, self.library_path, list_backups(self.library_path))
            if backup is not None:
                self._restore_file(backup)
            return True
        return False

    def _restore_file(self, backup: Path) -> bool:
        try:
            aside = restore_backup(self.library_path, backup)
        except EarmarkError as exc:
            self.dialogs.report(None, "The backup was not restored", str(exc))
            return False
        kept = f" The library as it was is kept as {aside}." if aside is not None else ""
        self.dialogs.report(None, "Backup restored", f"Restored {backup.name}.{kept}")
        return True

    def restore(self, backup: Path) -> None:
        """Replace the open library with ``backup``: close the window (saving everything and closing every
        connection), restore, and show a new window on the restored library."""
        app = QApplication.instance()
        quits = isinstance(app, QApplication) and app.quitOnLastWindowClosed()
        if isinstance(app, QApplication):
            app.setQuitOnLastWindowClosed(False)  # between the two windows there is none
        try:
            if self.parts is not None:
                self.parts.window.release_library()
                self.parts = None
            self._restore_file(backup)
            parts = self.open()
            if parts is not None:
                parts.window.show()
            elif isinstance(app, QApplication):
                app.quit()
        finally:
            if isinstance(app, QApplication):
                app.setQuitOnLastWindowClosed(quits)


def run(library_path: Path) -> int:
    """Show the main window on ``library_path`` and run the event loop."""
    app = application()
    launcher = Launcher(library_path)
    parts = launcher.open()
    if parts is None:
        return 1
    parts.window.show()
    return app.exec()
