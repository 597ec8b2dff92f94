"""A list's current row survives its model being read again: after a note is edited or deleted, or an episode
taken off Up next, the row there (the next one after a delete) is current, so a keyboard user sees where they are
and the next key acts on it."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QAbstractItemView


class CurrentRow(QObject):
    """Keeps ``view``'s current row across its model's resets while the view has the keyboard."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self._view = view
        self._where: tuple[int, int] | None = None  # row and column
        model = view.model()
        model.modelAboutToBeReset.connect(self._remember)
        model.modelReset.connect(self._restore)

    def _remember(self) -> None:
        current = self._view.currentIndex()
        self._where = (current.row(), current.column()) if current.isValid() and self._view.hasFocus() else None

    def _restore(self) -> None:
        where, self._where = self._where, None
        rows = self._view.model().rowCount()
        if where is None or not rows or self._view.currentIndex().isValid():
            return
        index = self._view.model().index(min(where[0], rows - 1), where[1])
        self._view.setCurrentIndex(index)
        self._view.scrollTo(index)
