"""Building the application: the library connection, workers, player and main window; and running it as
the one instance for its library."""

from __future__ import annotations

import signal
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSocketNotifier, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from earmark import __version__
from earmark.core.db.connection import open_library
from earmark.core.errors import EarmarkError
from earmark.gui.icons import APP_ICON_NAME, app_icon
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.operations.library import store_progress
from earmark.gui.preferences import DesktopSettings, Preferences
from earmark.gui.single_instance import claim_or_hand_over, hand_over, server_name
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
    app.setDesktopFileName(APP_ICON_NAME)
    app.setWindowIcon(app_icon())
    return app


def build(library_path: Path, vlc_args: tuple[str, ...] = (), desktop: DesktopSettings | None = None) -> Parts:
    """Open the library and build the main window (raises EarmarkError when the library is unusable).
    ``desktop`` holds the desktop settings (default: $EARMARK_CONFIG, else the user's configuration)."""
    db = open_library(library_path)
    runner = TaskRunner(library_path)
    player = VlcPlayer(vlc_args)

    def save(update: object) -> None:
        runner.write(store_progress, update, on_done=lambda changes: window.apply_changes(changes))

    session = PlaybackSession(player, save)
    preferences = Preferences(db, runner, desktop or DesktopSettings())
    window = MainWindow(runner, db, session, preferences)
    preferences.setParent(window)
    return Parts(window, runner, session)


def run(library_path: Path, arguments: list[str] | None = None) -> int:
    """Show the main window on ``library_path`` and run the event loop; when a window already has this
    library open, hand it ``arguments`` (feed URLs, .opml files) and return at once."""
    arguments = arguments or []
    name = server_name(library_path)
    if hand_over(name, arguments):  # the quick way, before Qt's GUI starts
        return _handed_over(library_path)
    app = application()
    server = claim_or_hand_over(name, arguments)
    if server is None:
        return _handed_over(library_path)
    try:
        parts = build(library_path)
    except EarmarkError as exc:
        server.close()
        QMessageBox.critical(None, "Earmark cannot open the library", str(exc))
        return 1
    window = parts.window
    server.setParent(window)
    server.arguments_received.connect(window.open_arguments)
    window.commands.quit.triggered.connect(app.quit, Qt.ConnectionType.QueuedConnection)  # also when hidden
    _close_on_signals(window)
    window.show()
    if arguments:
        window.open_arguments(arguments)
    status = app.exec()
    server.close()
    return status


def _handed_over(library_path: Path) -> int:
    print(f"Earmark already has {library_path} open: its window comes to the front.", file=sys.stderr)
    return 0


def _close_on_signals(window: MainWindow) -> None:
    """Close the window properly (saving the position) on SIGTERM, SIGINT and SIGHUP (logout, Ctrl+C)."""
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    reader.setblocking(False)
    signal.set_wakeup_fd(writer.fileno())
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, lambda *_args: None)  # Python notes it; the wake-up byte reaches Qt below
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, window)

    def on_signal() -> None:
        try:
            reader.recv(64)
        except BlockingIOError:
            return
        window.close()
        QApplication.quit()

    notifier.activated.connect(on_signal)
    def close_sockets() -> None:
        signal.set_wakeup_fd(-1)
        reader.close()
        writer.close()

    window.destroyed.connect(close_sockets)
