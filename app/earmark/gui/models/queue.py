"""The "Up next" model: the queued episodes in order, reordered by drag and drop."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QByteArray, QMimeData, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QFont

from earmark.core.db.database import Database
from earmark.core.db.items import items_by_ids
from earmark.core.models import Item
from earmark.core.timefmt import format_clock

ItemIdRole = Qt.ItemDataRole.UserRole + 1
MIME_TYPE = "application/x-earmark-queue-ids"
Index = QModelIndex | QPersistentModelIndex


class QueueModel(QAbstractListModel):
    """The queue (a short, user-made list: every row is held). Signal: ``reorder_requested(list)`` with the
    new order of item ids after a drop; the controller stores it and calls ``populate``."""

    reorder_requested = Signal(list)

    def __init__(self, db: Database, parent: Any = None) -> None:
        super().__init__(parent)
        self._db = db
        self._items: list[Item] = []
        self._playing: int | None = None

    @property
    def ids(self) -> list[int]:
        """The queued item ids, in order."""
        return [item.id for item in self._items]

    def populate(self, ids: list[int]) -> None:
        """Show the queue ``ids`` (rows read from the library)."""
        found = items_by_ids(self._db, ids, full=False)
        self.beginResetModel()
        self._items = [found[i] for i in ids if i in found]
        self.endResetModel()

    def refresh_items(self, item_ids: set[int]) -> None:
        """Read the queued items among ``item_ids`` again (their length, title…), keeping the rows as they are."""
        rows = [row for row, item in enumerate(self._items) if item.id in item_ids]
        found = items_by_ids(self._db, [self._items[row].id for row in rows], full=False)
        for row in rows:
            if self._items[row].id in found:
                self._items[row] = found[self._items[row].id]
                self.dataChanged.emit(self.index(row), self.index(row))

    def set_playing(self, item_id: int | None) -> None:
        """Mark the episode in the player (bold)."""
        self._playing = item_id
        if self._items:
            self.dataChanged.emit(self.index(0), self.index(len(self._items) - 1), [Qt.ItemDataRole.FontRole])

    def row_of(self, item_id: int) -> int | None:
        """The row of a queued item."""
        return next((row for row, item in enumerate(self._items) if item.id == item_id), None)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._items)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item = self._items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            length = f"  ({format_clock(item.duration)})" if item.duration else ""
            return f"{item.title}{length}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{item.title} — {item.source or ''}"
        if role == ItemIdRole:
            return item.id
        if role == Qt.ItemDataRole.FontRole and item.id == self._playing:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsDropEnabled
        if not index.isValid():
            return base
        return base | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [MIME_TYPE]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:  # type: ignore[override]  # PySide's stub
        mime = QMimeData()
        ids = [str(self._items[i.row()].id) for i in sorted(indexes, key=lambda i: i.row()) if i.isValid()]
        mime.setData(MIME_TYPE, QByteArray(",".join(ids).encode()))
        return mime

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index) -> bool:
        if action != Qt.DropAction.MoveAction or not data.hasFormat(MIME_TYPE):
            return False
        moved = [int(t) for t in bytes(data.data(MIME_TYPE).data()).decode().split(",") if t.isdigit()]
        if row < 0:
            row = parent.row() if parent.isValid() else len(self._items)
        before = [i for i in self.ids[:row] if i not in moved]
        after = [i for i in self.ids[row:] if i not in moved]
        self.reorder_requested.emit([*before, *moved, *after])
        return True
