"""The list's search box by keys: Esc clears the query (a second Esc goes on to the list, as Go to List does),
Down moves into the results (of what was typed: a search waiting for a pause in typing applies first); and a
search that finds nothing leaves no item in the details pane."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QTableView

from earmark.gui.models.items import ItemListModel
from earmark.gui.views.current_row import into_rows


class SearchKeys(QObject):
    """Watches ``search`` over ``table``; ``apply()`` applies a search still waiting, ``show_nothing()`` empties
    the panes beside the list."""

    def __init__(self, search: QLineEdit, table: QTableView, model: ItemListModel, apply: Callable[[], None],
                 show_nothing: Callable[[], None]) -> None:
        super().__init__(search)
        self._search = search
        self._apply = apply
        self._table = table
        self._model = model
        self._show_nothing = show_nothing
        search.installEventFilter(self)
        model.loaded.connect(self._on_loaded)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Esc with a query typed clears it (the window's Esc shortcut waits for the next one); Down (and PgDown)
        go to the list's current row, the first when none is."""
        if watched is not self._search or not isinstance(event, QKeyEvent):
            return False
        key = event.key()
        if event.type() == QEvent.Type.ShortcutOverride and key == Qt.Key.Key_Escape and self._search.text():
            event.accept()  # the box takes this Esc, not Go to List
            return True
        if event.type() != QEvent.Type.KeyPress or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        if key == Qt.Key.Key_Escape and self._search.text():
            self._search.clear()
            return True
        if key == Qt.Key.Key_Down:
            self._apply()
            return into_rows(self._table)
        return False

    def _on_loaded(self) -> None:
        if self._model.rowCount() == 0 and self._table.isVisible():
            self._show_nothing()
