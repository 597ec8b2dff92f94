"""The window's life on the desktop: settings applied as they change, the settings dialog, the layout
remembered across restarts, and the tray icon with its notifications."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from earmark.core.plurals import counted
from earmark.core.records import record
from earmark.gui.dialogs.settings_dialog import SettingsDialog
from earmark.gui.feed_refresh import RefreshSummary
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.mainwindow.frame.feedback import Feedback
from earmark.gui.mainwindow.frame.layout_memory import WindowLayout, restore_layout, save_layout
from earmark.gui.mainwindow.library.feeds import FeedsController
from earmark.gui.mainwindow.listening.player_bar import PlayerBar
from earmark.gui.mainwindow.reading.reading import ReadingController
from earmark.gui.preferences import Preferences
from earmark.gui.theme import Appearance
from earmark.gui.tray import NEXT_ACTION, TrayIcon
from earmark.playback.progress import PlaybackSession


@record(frozen=True)
class Followers:
    """The parts of the window that follow settings as they change."""

    feeds: FeedsController
    session: PlaybackSession
    player_bar: PlayerBar
    reading: ReadingController
    feedback: Feedback


class DesktopController(QObject):
    """Keeps the window of ``layout`` in step with its settings and its desktop (see the module docstring)."""

    def __init__(self, layout: WindowLayout, preferences: Preferences, actions: Actions,
                 followers: Followers) -> None:
        super().__init__(layout.window)
        self._window = layout.window
        self._layout = layout
        self._followers = followers
        self.preferences = preferences
        self.settings_dialog: SettingsDialog | None = None
        self.tray = TrayIcon(layout.window, actions.play_pause, actions.quit, actions.all.get(NEXT_ACTION))
        self.tray.set_enabled(bool(preferences.value("appearance.tray_icon")))
        self.news_icon: Callable[[], QIcon | None] = lambda: None  # a notification's icon (the covers set it)
        self.quitting = False  # Quit was chosen: closing the window ends Earmark even with close to tray
        self._told_about_tray = False
        preferences.changed.connect(self._on_setting_changed)
        followers.feeds.refreshed.connect(self._on_refreshed)
        self.apply_appearance()

    # Settings -----------------------------------------------------------------------------------------

    @Slot()
    def show_settings(self) -> None:
        """Open the settings dialog (one at a time; it stays open beside the window)."""
        if self.settings_dialog is None:
            self.settings_dialog = SettingsDialog(self.preferences, self._window)
            self.settings_dialog.finished.connect(self._forget_dialog)
        else:
            self.settings_dialog.load()
        self.settings_dialog.show()
        self.settings_dialog.raise_()
        self.settings_dialog.activateWindow()

    def show_setting(self, key: str) -> None:
        """Open the settings dialog on the setting ``key``."""
        self.show_settings()
        if self.settings_dialog is not None:
            self.settings_dialog.show_setting(key)

    def _forget_dialog(self, _result: int) -> None:
        if self.settings_dialog is not None:
            self.settings_dialog.deleteLater()
            self.settings_dialog = None

    def apply_appearance(self) -> None:
        """Use the theme and font size settings."""
        app = QApplication.instance()
        if isinstance(app, QApplication):
            Appearance.of(app).apply(str(self.preferences.value("appearance.theme")),
                                     int(self.preferences.value("appearance.font_size")))  # type: ignore[call-overload]

    @Slot(str)
    def _on_setting_changed(self, key: str) -> None:
        parts = self._followers
        session = parts.session
        if key.startswith("appearance.") and key != "appearance.tray_icon":
            self.apply_appearance()
        elif key == "appearance.tray_icon":
            self.tray.set_enabled(bool(self.preferences.value(key)))
        elif key == "feeds.refresh_interval":
            parts.feeds.apply_refresh_interval()
        elif key == "playback.speed" and session.prefs.speed is None:  # the podcast's own speed wins
            session.player.set_rate(float(self.preferences.value(key)))  # type: ignore[arg-type]
            parts.player_bar.show_speed(session.player.rate())
        elif key == "playback.volume":
            session.player.set_volume(int(self.preferences.value(key)))  # type: ignore[call-overload]
        elif key == "playback.time_left_at_speed":
            parts.player_bar.time_left_at_speed = bool(self.preferences.value(key))
        elif key in ("reader.font_size", "reader.dark"):
            parts.reading.apply_style_settings()
        elif key == "library.path":
            parts.feedback.status("The new library opens the next time Earmark starts.", 10000)

    # Tray ---------------------------------------------------------------------------------------------

    def in_tray(self) -> bool:
        """Whether the window lives on in the tray icon: its icon shows (the desktop has a tray)."""
        return self.tray.icon.isVisible()

    def hide_to_tray(self) -> bool:
        """Closing the window (not quitting) with close to tray on and a tray icon shown: hide it instead, and
        say so the first time; True when hidden."""
        if self.quitting or not self.preferences.value("appearance.close_to_tray") or not self.in_tray():
            return False
        self._window.hide()
        if not self._told_about_tray:
            self._told_about_tray = True
            self.tray.notify("Earmark", "Earmark goes on in the tray: choose Quit there (or Ctrl+Q) to end it.")
        return True

    def show_at_start(self, minimised: bool) -> None:
        """Show the window as Earmark starts: in the tray when asked to start minimised (``minimised``, or the
        setting) and a tray icon shows, minimised where there is none, else normally."""
        if not (minimised or self.preferences.value("appearance.start_minimised")):
            self._window.show()
        elif not self.in_tray():
            self._window.showMinimized()

    @Slot(object)
    def _on_refreshed(self, summary: RefreshSummary) -> None:
        if summary.new and not summary.error and self.preferences.value("feeds.notify_new"):
            arrived = counted(summary.new, "new episode or article", "new episodes and articles")
            self.tray.notify("Earmark", f"{arrived} arrived.", self.news_icon())

    # Layout -----------------------------------------------------------------------------------------

    def restore_layout(self) -> None:
        """Give the window the size, place, pane sizes and column widths it had when it closed."""
        restore_layout(self._layout, self.preferences)

    def save_layout(self) -> None:
        """Remember the window's size and place, pane sizes and column widths."""
        save_layout(self._layout, self.preferences)

    def shutdown(self) -> None:
        """Remember the layout and leave the desktop: settings dialog closed, tray icon gone."""
        self.save_layout()
        if self.settings_dialog is not None:
            self.settings_dialog.reject()
        self.tray.set_enabled(False)
