"""A list's current row survives its model being read again: after a note is edited or deleted, or an episode
taken off Up next, the row there (the next one after a delete) is current, so a keyboard user sees where they are
and the next key acts on it. And the keyboard goes into a list (from the box that filters it) on its current row."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
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


def into_rows(view: QAbstractItemView) -> bool:
    """The keyboard to ``view`` on its current row, the first when none is (Down from the box that searches or
    filters it); False, and the keyboard left where it is, when the view has no rows."""
    model = view.model()
    if not model.rowCount():
        return False
    if not view.currentIndex().isValid():
        view.setCurrentIndex(model.index(0, 0))
    view.setFocus(Qt.FocusReason.OtherFocusReason)
    return True
