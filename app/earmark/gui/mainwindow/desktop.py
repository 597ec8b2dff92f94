"""The window's life on the desktop: settings applied as they change, the settings dialog, the layout and
view remembered across restarts, the tray icon and its notifications, and arguments from other launches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from PySide6.QtCore import QModelIndex, QObject, QUrl, Slot
from PySide6.QtWidgets import QApplication

from earmark.core.db.queries import ItemFilter
from earmark.gui.dialogs.settings_dialog import SettingsDialog
from earmark.gui.feed_refresh import RefreshSummary
from earmark.gui.models.items import COL_TITLE
from earmark.gui.models.sidebar import FilterRole, SidebarModel, SmartListRole
from earmark.gui.preferences import Preferences
from earmark.gui.theme import Appearance
from earmark.gui.tray import NEXT_ACTION, TrayIcon, raise_window

if TYPE_CHECKING:
    from earmark.gui.mainwindow.window import MainWindow

FEED_SCHEMES = ("http", "https", "feed", "itpc", "pcast", "podcast")


class DesktopController(QObject):
    """Keeps ``window`` in step with its settings and its desktop (see the module docstring)."""

    def __init__(self, window: MainWindow, preferences: Preferences) -> None:
        super().__init__(window)
        self._window = window
        self.preferences = preferences
        self._pending_view: str | None = str(preferences.value("window.view")) or None
        self.settings_dialog: SettingsDialog | None = None
        commands = window.commands
        self.tray = TrayIcon(window, commands.play_pause, commands.quit, commands.all.get(NEXT_ACTION))
        self.tray.set_enabled(bool(preferences.value("appearance.tray_icon")))
        preferences.changed.connect(self._on_setting_changed)
        window.feeds.refreshed.connect(self._on_refreshed)
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
        window = self._window
        if key.startswith("appearance.") and key != "appearance.tray_icon":
            self.apply_appearance()
        elif key == "appearance.tray_icon":
            self.tray.set_enabled(bool(self.preferences.value(key)))
        elif key == "feeds.refresh_interval":
            window.feeds.apply_refresh_interval()
        elif key == "playback.speed" and window.session.prefs.speed is None:  # the podcast's own speed wins
            window.session.player.set_rate(float(self.preferences.value(key)))  # type: ignore[arg-type]
            window.player_bar.show_speed(window.session.player.rate())
        elif key == "playback.volume":
            window.session.player.set_volume(int(self.preferences.value(key)))  # type: ignore[call-overload]
        elif key == "playback.time_left_at_speed":
            window.player_bar.time_left_at_speed = bool(self.preferences.value(key))
        elif key in ("reader.font_size", "reader.dark"):
            window.reading.apply_style_settings()
        elif key == "library.path":
            window.statusBar().showMessage("The new library opens the next time Earmark starts.", 10000)

    # Tray ---------------------------------------------------------------------------------------------

    @Slot(object)
    def _on_refreshed(self, summary: RefreshSummary) -> None:
        if summary.new and not summary.error and self.preferences.value("feeds.notify_new"):
            self.tray.notify("Earmark", f"{summary.new} new episode(s) and article(s) arrived.")

    # Layout and view ----------------------------------------------------------------------------------

    def restore_layout(self) -> None:
        """Give the window the size, place, pane sizes and column widths it had when it closed."""
        window, prefs = self._window, self.preferences
        geometry = prefs.value("window.geometry")
        if isinstance(geometry, bytes) and geometry:
            window.restoreGeometry(geometry)
        splitters = prefs.value("window.splitters")
        if isinstance(splitters, list):
            for splitter, sizes in zip((window.splitter, window.item_side), splitters, strict=False):
                if (isinstance(sizes, list) and len(sizes) == splitter.count()
                        and all(isinstance(s, int) and s >= 0 for s in sizes) and sum(sizes) > 0):
                    splitter.setSizes(sizes)
        columns = prefs.value("window.columns")
        header = window.item_list.horizontalHeader()
        if isinstance(columns, list):
            for entry in columns:
                if (isinstance(entry, list) and len(entry) == 2 and all(isinstance(v, int) for v in entry)
                        and 0 <= entry[0] < header.count() and entry[0] != COL_TITLE and entry[1] > 10):
                    header.resizeSection(entry[0], entry[1])

    def save_layout(self) -> None:
        """Remember the window's size and place, pane sizes, column widths and the selected view."""
        window, prefs = self._window, self.preferences
        prefs.set_value("window.geometry", bytes(window.saveGeometry().data()))
        prefs.set_value("window.splitters", [window.splitter.sizes(), window.item_side.sizes()])
        header = window.item_list.horizontalHeader()
        widths = [[column, header.sectionSize(column)] for column in range(header.count())
                  if column != COL_TITLE and not header.isSectionHidden(column) and header.sectionSize(column) > 0]
        previous = {entry[0]: entry for entry in prefs.value("window.columns") or []  # type: ignore[attr-defined]
                    if isinstance(entry, list) and len(entry) == 2}
        previous.update({entry[0]: entry for entry in widths})  # a hidden column keeps its last width
        prefs.set_value("window.columns", sorted(previous.values()))
        prefs.set_value("window.view", view_key(window.sidebar.currentIndex()))

    def restore_view(self) -> None:
        """Select the view that was selected when the window closed (once, after the sidebar first fills)."""
        key, self._pending_view = self._pending_view, None
        if not key:
            return
        index = find_view(self._window.sidebar_model, key)
        if index is not None and index != self._window.sidebar.currentIndex():
            self._window.sidebar.setCurrentIndex(index)

    def shutdown(self) -> None:
        """Remember the layout and leave the desktop: settings dialog closed, tray icon gone."""
        self.save_layout()
        if self.settings_dialog is not None:
            self.settings_dialog.reject()
        self.tray.set_enabled(False)

    # Arguments ------------------------------------------------------------------------------------------

    @Slot(list)
    def open_arguments(self, arguments: list[str]) -> None:
        """Raise the window, then subscribe to each feed URL and import each .opml file in ``arguments``."""
        raise_window(self._window)
        for argument in arguments:
            self.open_argument(argument)

    def open_argument(self, argument: str) -> None:
        """A feed URL (http(s), feed:, itpc:, podcast:) subscribes; an .opml file imports; another file is
        read as a feed."""
        window = self._window
        if argument.lower().startswith("file:"):
            argument = QUrl(argument).toLocalFile()
        scheme = urlsplit(argument).scheme.lower()
        if scheme in FEED_SCHEMES:
            window.subscribe(argument)
        elif Path(argument).suffix.lower() == ".opml":
            window.feeds.import_opml(Path(argument))
        elif argument.strip():
            window.subscribe(argument)


def view_key(index: QModelIndex) -> str:
    """The sidebar row ``index`` as text that survives a restart ("" for none)."""
    smart = index.data(SmartListRole)
    if isinstance(smart, int):
        return json.dumps({"smart": smart})
    flt = index.data(FilterRole)
    if isinstance(flt, ItemFilter):
        return json.dumps({"filter": json.loads(flt.to_json())})
    if isinstance(flt, str):
        return json.dumps({"view": flt})
    return ""


def find_view(model: SidebarModel, key: str) -> QModelIndex | None:
    """The sidebar row a ``view_key`` names, if it is still there."""
    try:
        wanted = json.loads(key)
    except ValueError:
        return None
    pending = [model.invisibleRootItem()]
    while pending:
        parent = pending.pop()
        for row in range(parent.rowCount()):
            child = parent.child(row)
            pending.append(child)
            if view_key(child.index()) == json.dumps(wanted):
                return child.index()
    return None
