"""The system tray icon (where the desktop has a tray): play/pause, next, show/hide, quit, and the
notification about new episodes after a refresh."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMainWindow, QMenu, QSystemTrayIcon

from earmark.gui.icons import app_icon

NEXT_ACTION = "next_in_queue"  # the window action the tray's Next triggers, when the window has one
NOTIFY_MS = 8000


class TrayIcon(QObject):
    """Puts ``window``'s play/pause, next, show/hide and quit in the tray. ``next_action`` is the queue's
    "next" action (Next is hidden without one). The icon shows only while enabled and the desktop has a tray.
    """

    def __init__(self, window: QMainWindow, play_pause: QAction, quit_action: QAction,
                 next_action: QAction | None = None) -> None:
        super().__init__(window)
        self._window = window
        self.icon = QSystemTrayIcon(app_icon(), self)
        self.icon.setToolTip("Earmark")
        self.menu = QMenu()
        self.menu.setAccessibleName("Earmark tray menu")
        self.play_pause = self.menu.addAction("Play/Pause")
        self.play_pause.triggered.connect(play_pause.trigger)
        self.next = self.menu.addAction("Next in Up Next")
        self.next.setVisible(next_action is not None)
        if next_action is not None:
            self.next.triggered.connect(next_action.trigger)
        self.show_hide = self.menu.addAction("Hide Earmark")
        self.show_hide.triggered.connect(self.toggle_window)
        self.menu.aboutToShow.connect(self._update_texts)
        self.menu.addSeparator()
        self.quit = self.menu.addAction("Quit")
        self.quit.triggered.connect(quit_action.trigger)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._on_activated)
        self.last_message = ""
        self.last_icon: QIcon | None = None

    @staticmethod
    def available() -> bool:
        """Whether the desktop shows tray icons."""
        return QSystemTrayIcon.isSystemTrayAvailable()

    def set_enabled(self, enabled: bool) -> None:
        """Show the icon (when the desktop has a tray) or remove it."""
        self.icon.setVisible(enabled and self.available())

    @Slot()
    def toggle_window(self) -> None:
        """Hide the window, or show it again and bring it to the front."""
        if self._window.isVisible() and not self._window.isMinimized():
            self._window.hide()
        else:
            raise_window(self._window)

    def notify(self, title: str, message: str, icon: QIcon | None = None) -> None:
        """Show a desktop notification with ``icon`` (Earmark's by default), only through a visible tray icon;
        remembered in ``last_message`` and ``last_icon``."""
        self.last_message, self.last_icon = message, icon
        if self.icon.isVisible() and QSystemTrayIcon.supportsMessages():
            self.icon.showMessage(title, message, icon or app_icon(), NOTIFY_MS)

    def _update_texts(self) -> None:
        self.show_hide.setText("Hide Earmark" if self._window.isVisible() else "Show Earmark")

    def _on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.toggle_window()
        elif reason == QSystemTrayIcon.ActivationReason.MiddleClick:
            self.play_pause.trigger()


def raise_window(window: QMainWindow) -> None:
    """Show ``window``, un-minimised, in front, with the keyboard focus."""
    window.show()
    window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMinimized)
    window.raise_()
    window.activateWindow()
