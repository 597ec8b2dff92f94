"""The window's keyboard help: the command palette, the cheat sheet, and changing shortcuts."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow

from earmark.core.db.database import Database
from earmark.gui.mainwindow.frame.actions import MENUS, SPECS, Actions
from earmark.gui.operations.records import store_setting
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.cheat_sheet import CheatSheet
from earmark.gui.views.command_palette import CommandPalette
from earmark.gui.views.shortcut_editor import ShortcutEditor


class HelpController(QObject):
    """Opens the palette, the cheat sheet and the shortcut editor over ``window``."""

    def __init__(self, window: QMainWindow, runner: TaskRunner, db: Database, actions: Actions) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._actions = actions
        self.palette: CommandPalette | None = None
        self.editor: ShortcutEditor | None = None
        self.cheat_sheet = CheatSheet(self.menus(), window)
        actions.command_palette.triggered.connect(self.open_palette)
        actions.cheat_sheet.triggered.connect(self.cheat_sheet.toggle)
        actions.edit_shortcuts.triggered.connect(self.edit_shortcuts)

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
        self.palette = CommandPalette(entries, self._window)
        self.palette.open()

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
