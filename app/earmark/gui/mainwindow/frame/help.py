"""The window's help: the command palette, the cheat sheet, changing shortcuts, the user guide and About."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import QMainWindow

from earmark.core.db.database import Database
from earmark.core.logs import log_path
from earmark.gui.dialogs.settings_dialog import pages
from earmark.gui.mainwindow.frame.actions import MENUS, SPECS, Actions
from earmark.gui.operations.records import store_setting
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.about import AboutDialog, guide_url
from earmark.gui.views.cheat_sheet import CheatSheet
from earmark.gui.views.command_palette import CommandPalette
from earmark.gui.views.shortcut_editor import ShortcutEditor


class HelpController(QObject):
    """Opens the palette, the cheat sheet, the shortcut editor, the user guide and About over ``window``;
    ``open_setting(key)`` opens Settings on a setting the palette offered."""

    def __init__(self, window: QMainWindow, runner: TaskRunner, db: Database, actions: Actions,
                 open_setting: Callable[[str], None]) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._actions = actions
        self._open_setting = open_setting
        self.palette: CommandPalette | None = None
        self.editor: ShortcutEditor | None = None
        self.about: AboutDialog | None = None
        self.cheat_sheet = CheatSheet(self.menus(), window)
        actions.command_palette.triggered.connect(self.open_palette)
        actions.cheat_sheet.triggered.connect(self.cheat_sheet.toggle)
        actions.edit_shortcuts.triggered.connect(self.edit_shortcuts)
        actions.user_guide.triggered.connect(lambda: QDesktopServices.openUrl(guide_url()))
        actions.about.triggered.connect(self.show_about)

    def menus(self) -> dict[str, list[QAction]]:
        """The actions menu by menu, in menu order."""
        menus: dict[str, list[QAction]] = {menu: [] for menu in MENUS}
        for spec in SPECS:
            menus[spec.menu].append(self._actions.all[spec.name])
        return menus

    def open_palette(self) -> None:
        """Show the command palette with every action."""
        entries = [(menu, action) for menu, actions in self.menus().items() for action in actions]
        if self.palette is not None:
            self.palette.deleteLater()
        settings = [(page, setting.title, setting.key) for page, group in pages() for setting in group]
        self.palette = CommandPalette(entries, self._window, settings)
        self.palette.setting_chosen.connect(self._open_setting)
        self.palette.open()

    def show_about(self) -> None:
        """Help ▸ About Earmark: the version, licence, where the library and the log are, the user guide."""
        library = Path(self._db.execute("PRAGMA database_list").fetchone()[2])
        if self.about is not None:
            self.about.deleteLater()
        self.about = AboutDialog(library, log_path(), self._window)
        self.about.open()

    def edit_shortcuts(self) -> None:
        """Let the user change shortcuts; saved in the library and applied at once."""
        current = {spec.name: self._actions.shortcuts(spec.name) for spec in SPECS}
        self.editor = ShortcutEditor(current, self._window)
        self.editor.accepted.connect(lambda: self.apply(self.editor.overrides if self.editor else {}))
        self.editor.open()

    def apply(self, overrides: dict[str, list[str]]) -> None:
        """Use and remember these shortcuts (the ones that differ from the defaults)."""
        self._actions.apply_shortcuts(overrides)
        self.cheat_sheet.fill(self.menus())
        self._runner.write(store_setting, "keyboard.shortcuts", overrides)
