"""Building the application: the library connection, workers, player and main window."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

from earmark import __version__
from earmark.core.db.connection import open_library
from earmark.core.errors import EarmarkError
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.operations.library import store_progress
from earmark.gui.tasks import TaskRunner
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


def build(library_path: Path, vlc_args: tuple[str, ...] = ()) -> Parts:
    """Open the library and build the main window (raises EarmarkError when the library is unusable)."""
    db = open_library(library_path)
    runner = TaskRunner(library_path)
    player = VlcPlayer(vlc_args)

    def save(update: object) -> None:
        runner.write(store_progress, update, on_done=lambda changes: window.apply_changes(changes))

    session = PlaybackSession(player, save)
    window = MainWindow(runner, db, session)
    return Parts(window, runner, session)


def run(library_path: Path) -> int:
    """Show the main window on ``library_path`` and run the event loop."""
    app = application()
    try:
        parts = build(library_path)
    except EarmarkError as exc:
        QMessageBox.critical(None, "Earmark cannot open the library", str(exc))
        return 1
    parts.window.show()
    return app.exec()
