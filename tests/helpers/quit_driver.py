"""Drive the real app in its own process for the quitting test: the window (offscreen) on a library, as
``earmark`` starts it (signals close it, Ctrl+Q quits), playing one item through VLC; it prints the player's
position and the relation pass's progress, and on a line on standard input presses Ctrl+Q ("ctrl-q") or closes
the window ("close"). As in the real app, a closing that hangs ends the process (gui/mainwindow/frame/quit_watchdog.py);
with "hang", the player's engine never lets go on quit (as libVLC's stop can block for good).

Usage: python quit_driver.py LIBRARY ITEM_ID [hang]
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSocketNotifier, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from earmark.core.db.items import get_item  # noqa: E402 - after the platform is chosen
from earmark.gui.application import Launcher, _close_on_signals, application  # noqa: E402


class WindowsShown(QObject):
    """Prints each window as it shows (a dialog would take the keys: the test then says which)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and isinstance(watched, QWidget) and watched.isWindow():
            text = getattr(watched, "text", lambda: "")()
            print(f"shown {type(watched).__name__} {watched.windowTitle()!r} {text!r}", flush=True)
        return False


def main(library: Path, item_id: int, hang: bool) -> int:
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # the test asks where a quit that hangs is stuck
    app = application()
    shown = WindowsShown()
    app.installEventFilter(shown)
    launcher = Launcher(library, vlc_args=("--aout=dummy",))
    launcher.watch_quits = True  # as `earmark` does
    parts = launcher.open()
    assert parts is not None
    window = parts.window
    window.menu_actions.quit.triggered.connect(app.quit, Qt.ConnectionType.QueuedConnection)
    _close_on_signals(window)
    window.show()
    window.activateWindow()
    window.playback.play(get_item(window._db, item_id))
    player = parts.session.player
    if hang:
        player.shutdown = lambda: time.sleep(3600)  # type: ignore[method-assign]
    window.graph.relation_pass.progress.connect(lambda share, _what: print(f"pass {share:.3f}", flush=True))
    window.menu_actions.quit.triggered.connect(lambda: print("quit triggered", flush=True))
    app.aboutToQuit.connect(lambda: print("about to quit", flush=True))

    def report() -> None:
        print(f"position {player.state} {player.position():.3f}", flush=True)

    timer = QTimer()
    timer.timeout.connect(report)
    timer.start(200)

    def command() -> None:
        line = sys.stdin.readline().strip()
        print(f"command {line}, active window {type(app.activeWindow()).__name__}", flush=True)
        if line == "ctrl-q":
            QTest.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
        elif line == "close":
            window.close()

    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(command)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:] == ["hang"]))
