"""What a start shows first: the window is built up to its list and shown, and the rest of it is built once the
list has painted its first rows, so that the library shows before everything that is not needed to show it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer

from earmark.gui.mainwindow.navigation.item_list import ListController

LONGEST_WAIT_MS = 1000  # an empty library, or a list that could not be read: the rest is built all the same


class _FirstRows(QObject):
    """Calls ``then`` once, just after the list has first painted rows, or found none (or after
    LONGEST_WAIT_MS)."""

    def __init__(self, lists: ListController, then: Callable[[], None]) -> None:
        super().__init__(lists)
        self._lists = lists
        lists.model.hold_rest()  # the whole list after the first frame
        self._table = lists.table
        self._then: Callable[[], None] | None = then
        self._table.viewport().installEventFilter(self)
        lists.model.loaded.connect(self._on_loaded)
        QTimer.singleShot(LONGEST_WAIT_MS, self, self._go)

    def _on_loaded(self) -> None:
        if self._table.model().rowCount() == 0:  # nothing to show: the welcome screen comes with the rest
            QTimer.singleShot(0, self, self._go)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._table.model().rowCount() > 0:
            self._table.viewport().removeEventFilter(self)
            QTimer.singleShot(0, self, self._go)  # once this paint has finished
        return False

    def _go(self) -> None:
        then, self._then = self._then, None
        if then is not None:
            self._table.viewport().removeEventFilter(self)
            self._lists.model.release_rest()
            then()


def after_first_paint(lists: ListController, then: Callable[[], None]) -> None:
    """Run ``then`` once the list has shown its first rows (or found none), or after a second at the most."""
    _FirstRows(lists, then)
