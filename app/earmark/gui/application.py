"""Building the application: the library connection, workers, player and main window; running it as the one
instance for its library; recovering from a library that cannot be opened, and swapping the window when a
backup is restored."""

from __future__ import annotations

import gc
import signal
import socket
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSocketNotifier, Qt
from PySide6.QtWidgets import QApplication

from earmark import __version__
from earmark.core.db.connection import open_library_or_read_only
from earmark.core.db.items import has_items
from earmark.core.db.private_files import tighten_data
from earmark.core.errors import EarmarkError
from earmark.core.logs import log_to_file
from earmark.core.records import record
from earmark.gui.icons import APP_ICON_NAME, app_icon
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.operations.records import store_progress
from earmark.gui.preferences import DesktopSettings, Preferences
from earmark.gui.single_instance import claim_or_hand_over, hand_over, server_name
from earmark.gui.tasks import TaskRunner

if TYPE_CHECKING:
    from earmark.gui.views.recovery import RecoveryDialogs
    from earmark.playback.progress import PlaybackSession


@record
class Parts:
    """The pieces of a running app, for the entry point, the smoke test and GUI tests."""

    window: MainWindow
    runner: TaskRunner

    @property
    def session(self) -> PlaybackSession:
        """The player's session (the window makes it when it is whole)."""
        return self.window.session


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


def build(library_path: Path, vlc_args: tuple[str, ...] = (), desktop: DesktopSettings | None = None,
          dialogs: RecoveryDialogs | None = None, list_first: bool = False) -> Parts:
    """Open the library and build the main window (raises EarmarkError when the library is unusable). A library
    that cannot be written opens read-only, the window saying why. ``desktop`` holds the desktop settings
    (default: $EARMARK_CONFIG, else the user's configuration); ``list_first``: see MainWindow."""
    db, read_only_reason = open_library_or_read_only(library_path)
    if read_only_reason is None:
        tighten_data(db)  # what an older version left readable by others
    runner = TaskRunner(library_path, read_only=read_only_reason is not None)

    def save(update: object) -> None:
        runner.write(store_progress, update, on_done=lambda changes: window.apply_changes(changes))

    def make_session() -> PlaybackSession:
        """The player and its session, made when the window is whole: a start's first frame plays nothing, and
        their modules (~8 ms of imports) load after it."""
        from earmark.playback.progress import PlaybackSession
        from earmark.playback.vlc_player import VlcPlayer

        return PlaybackSession(VlcPlayer(vlc_args), save)

    preferences = Preferences(db, runner, desktop or DesktopSettings())
    # An empty library shows its welcome screen, keyboard ready, with the whole window: no list to show first.
    window = MainWindow(runner, db, make_session, preferences, read_only_reason=read_only_reason, dialogs=dialogs,
                        list_first=list_first and has_items(db))
    preferences.setParent(window)
    return Parts(window, runner)


class Launcher(QObject):
    """Opens the main window on a library. When the library cannot be opened (not a library, damaged, too new)
    it says why and offers to open another library or restore a backup, never touching the broken file; when
    the user restores a backup from the window, it closes the window, restores, and opens a new window."""

    def __init__(self, library_path: Path, dialogs: RecoveryDialogs | None = None,
                 vlc_args: tuple[str, ...] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library_path = library_path
        self._dialogs = dialogs
        self.vlc_args = vlc_args
        self.parts: Parts | None = None
        self.watch_quits = False  # the real app: a closing that hangs ends the process (see quit_watchdog.py)

    def open(self, list_first: bool = False) -> Parts | None:
        """Build the window (not shown yet; with ``list_first`` up to its list, see MainWindow), asking the user
        how to go on while the library cannot be opened; None when they chose to quit."""
        while True:
            try:
                parts = build(self.library_path, self.vlc_args, dialogs=self._dialogs, list_first=list_first)
            except EarmarkError as exc:
                if not self._recover(str(exc)):
                    return None
                continue
            parts.window.when_built(partial(self._offer_restore, parts.window))
            if self.watch_quits:
                parts.window.quit_watchdog.enable()
            self.parts = parts
            return parts

    def _offer_restore(self, window: MainWindow) -> None:
        window.backups.restore_requested.connect(self.restore)

    @property
    def dialogs(self) -> RecoveryDialogs:
        """The recovery dialogs (made, and their module loaded, when first needed: a start that opens its library
        asks nothing, and the window makes its own when it is whole)."""
        if self._dialogs is None:
            from earmark.gui.views.recovery import RecoveryDialogs

            self._dialogs = RecoveryDialogs()
        return self._dialogs

    def _recover(self, message: str) -> bool:
        """Ask what to do about an unusable library; False to quit."""
        from earmark.core.db.backups import list_backups
        from earmark.gui.views.recovery import OPEN_ANOTHER, RESTORE

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
        from earmark.core.db.backups import restore_backup

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


def run(library_path: Path, arguments: list[str] | None = None, minimised: bool = False) -> int:
    """Show the main window on ``library_path`` (``minimised``: in the tray) and run the event loop; when a
    window already has this library open, hand it ``arguments`` (feed URLs, .opml files) and return at once.
    A library that cannot be opened is explained, with the offer to open another one or restore a backup."""
    arguments = arguments or []
    name = server_name(library_path)
    if hand_over(name, arguments):  # the quick way, before Qt's GUI starts
        return _handed_over(library_path)
    app = application()
    server = claim_or_hand_over(name, arguments)
    if server is None:
        return _handed_over(library_path)
    log_to_file()  # the window's warnings, where Help ▸ About says (standard error is unseen from the desktop)
    launcher = Launcher(library_path)
    launcher.watch_quits = True
    parts = launcher.open(list_first=not minimised)
    if parts is None:
        server.close()
        return 1
    window = parts.window
    server.setParent(window)
    server.arguments_received.connect(lambda given: window.when_built(lambda: window.open_arguments(given)))
    window.menu_actions.quit.triggered.connect(app.quit, Qt.ConnectionType.QueuedConnection)  # also when hidden
    window.when_built(lambda: _started(window, arguments, minimised))
    window.when_built(gc.enable)  # off while the program started (see earmark.__main__)
    status = app.exec()
    server.close()
    return status


def _started(window: MainWindow, arguments: list[str], minimised: bool) -> None:
    """The whole window is built: it closes properly on signals, shows as asked, opens what it was given."""
    _close_on_signals(window)
    window.desktop.show_at_start(minimised)
    if arguments:
        window.open_arguments(arguments)


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
        window.quit_earmark()
        QApplication.quit()

    notifier.activated.connect(on_signal)
    def close_sockets() -> None:
        signal.set_wakeup_fd(-1)
        reader.close()
        writer.close()

    window.destroyed.connect(close_sockets)
