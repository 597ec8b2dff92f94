"""The command palette (Ctrl+K): every action, found by fuzzy search, run with Enter; when no action matches, it
says so and offers the settings that match (Enter opens Settings there)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QDialog, QHeaderView, QLineEdit, QTreeView, QVBoxLayout, QWidget

from earmark.gui.fuzzy import fuzzy_sorted
from earmark.gui.mainwindow.frame.actions import label

ActionRole = Qt.ItemDataRole.UserRole + 1
SettingRole = Qt.ItemDataRole.UserRole + 2
SettingEntry = tuple[str, str, str]  # the settings page, the setting's title, its key
KEYS_OF_OURS = (Qt.Key.Key_Escape, Qt.Key.Key_Return, Qt.Key.Key_Enter)


class CommandPalette(QDialog):
    """A search box over a list of "Menu: Action | Shortcut" rows; Up/Down pick, Enter runs, Escape closes.

    Signal: ``setting_chosen(str)``, a setting's key, when a "Settings: Page ▸ Setting" row is run."""

    setting_chosen = Signal(str)

    def __init__(self, actions: list[tuple[str, QAction]], parent: QWidget | None = None,
                 settings: list[SettingEntry] | None = None) -> None:
        super().__init__(parent)
        self._settings = settings or []
        self.setObjectName("commandPalette")
        self.setWindowTitle("Command Palette")
        self.resize(560, 420)
        self._actions = [(menu, label(action.text()), action) for menu, action in actions]
        self.search = QLineEdit()
        self.search.setObjectName("paletteSearch")
        self.search.setPlaceholderText("Type a command…")
        self.search.setAccessibleName("Command")
        self.model = QStandardItemModel(self)
        self.list = QTreeView()
        self.list.setObjectName("paletteList")
        self.list.setModel(self.model)
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.list.setUniformRowHeights(True)
        self.list.setRootIsDecorated(False)
        self.list.setHeaderHidden(True)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.activated.connect(lambda _index: self.run_current())
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.list)
        self.search.textChanged.connect(self.filter)
        self.search.installEventFilter(self)
        self.filter("")

    def filter(self, query: str) -> None:
        """Show the actions matching ``query``, best first, the first one that can run now current."""
        self.model.clear()
        for index in fuzzy_sorted(query, [(name, menu) for menu, name, _action in self._actions]):
            menu, name, action = self._actions[index]
            title = QStandardItem(f"{menu}: {name}")
            title.setData(action, ActionRole)
            keys = QStandardItem(", ".join(s.toString() for s in action.shortcuts()))
            keys.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            for cell in (title, keys):
                cell.setEnabled(action.isEnabled())
            self.model.appendRow([title, keys])
        if self.model.rowCount() == 0 and query.strip():
            self._offer_settings(query)
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self._go_to(0)

    def _offer_settings(self, query: str) -> None:
        """No action matches: say so, and list the settings that do ("theme": Appearance ▸ Theme)."""
        settings = fuzzy_sorted(query, [(title, page) for page, title, _key in self._settings])
        found = " Settings that match:" if settings else ""
        none = QStandardItem(f"No command matches “{' '.join(query.split())}”.{found}")
        none.setEnabled(False)
        self.model.appendRow([none, QStandardItem()])
        for index in settings:
            page, title, key = self._settings[index]
            row = QStandardItem(f"Settings: {page} ▸ {title}")
            row.setData(key, SettingRole)
            self.model.appendRow([row, QStandardItem()])

    def _runnable_rows(self) -> list[int]:
        """The rows of actions that can run now (the others are shown greyed, and the keys pass them by)."""
        return [row for row in range(self.model.rowCount()) if self.model.item(row, 0).isEnabled()]

    def _go_to(self, position: int) -> None:
        """Make the ``position``-th runnable row current (kept within the list); none when no row can run."""
        rows = self._runnable_rows()
        if rows:
            self.list.setCurrentIndex(self.model.index(rows[max(0, min(len(rows) - 1, position))], 0))
        else:
            self.list.setCurrentIndex(self.model.index(-1, -1))

    def rows(self) -> list[str]:
        """The rows shown, as text: "Menu: Action" and the shortcuts, tab-separated."""
        return ["\t".join(filter(None, (self.model.item(row, 0).text(), self.model.item(row, 1).text())))
                for row in range(self.model.rowCount())]

    def run_current(self) -> None:
        """Close and trigger the current action."""
        index = self.list.currentIndex()
        action = index.siblingAtColumn(0).data(ActionRole) if index.isValid() else None
        setting = index.siblingAtColumn(0).data(SettingRole) if index.isValid() else None
        self.accept()
        if isinstance(action, QAction) and action.isEnabled():
            action.trigger()
        elif isinstance(setting, str):
            self.setting_chosen.emit(setting)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Up/Down/PgUp/PgDn in the search box move in the list; Enter runs; Escape closes."""
        if watched is not self.search or not isinstance(event, QKeyEvent):
            return super().eventFilter(watched, event)
        steps = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -10, Qt.Key.Key_PageDown: 10}
        key = Qt.Key(event.key())
        if event.type() == QEvent.Type.ShortcutOverride and (key in steps or key in KEYS_OF_OURS):
            event.accept()  # the main window's shortcuts (PgUp: chapter, Escape: go to list) must not fire here
            return True
        if event.type() == QEvent.Type.KeyPress:
            if key == Qt.Key.Key_Escape:
                self.reject()
                return True
            if key in steps:
                rows = self._runnable_rows()
                current = self.list.currentIndex().row()
                self._go_to(rows.index(current) + steps[key] if current in rows else 0)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.run_current()
                return True
        return super().eventFilter(watched, event)
