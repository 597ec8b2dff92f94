"""The Related pane's model: an item's related items, best first, each with its reasons."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from earmark.core.models import Related

ItemIdRole = Qt.ItemDataRole.UserRole + 1
ReasonsRole = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex


class RelatedModel(QAbstractListModel):
    """A short list (at most a few dozen rows), replaced as a whole when another item is shown."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Related] = []

    def set_related(self, rows: list[Related]) -> None:
        """Show ``rows``."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def related_at(self, row: int) -> Related | None:
        """The related item of ``row``."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's default argument
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        related = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            kind = "" if related.kind == "episode" else "  [article]"
            return f"{related.title}{kind}\n    {', '.join(related.reasons)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{related.title}\nscore {related.score:.2f}: {', '.join(related.reasons)}"
        if role == ItemIdRole:
            return related.id
        if role == ReasonsRole:
            return list(related.reasons)
        return None
