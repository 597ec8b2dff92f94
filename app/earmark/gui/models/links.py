"""The links model: an item's links with a check box each, for choosing which to save as articles."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from earmark.core.articles.links import Link

UrlRole = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex


class LinkListModel(QAbstractListModel):
    """Links in the order the item has them; links already saved are shown but cannot be chosen."""

    def __init__(self, links: list[Link], parent: Any = None) -> None:
        super().__init__(parent)
        self._links = list(links)
        self._checked = [False] * len(links)

    def chosen(self) -> list[Link]:
        """The checked links, in order."""
        return [link for link, checked in zip(self._links, self._checked, strict=True) if checked]

    def set_all(self, checked: bool, rows: list[int] | None = None) -> None:
        """Check (or uncheck) these rows, or every row, leaving saved links alone."""
        for row in range(len(self._links)) if rows is None else rows:
            if not self._links[row].saved:
                self._checked[row] = checked
        if self._links:
            self.dataChanged.emit(self.index(0), self.index(len(self._links) - 1), [Qt.ItemDataRole.CheckStateRole])

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._links)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if self._links[index.row()].saved:
            return Qt.ItemFlag.ItemIsSelectable
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        link = self._links[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{link.text}{'   (saved)' if link.saved else ''}\n{link.url}"
        if role == Qt.ItemDataRole.CheckStateRole:
            return Qt.CheckState.Checked if self._checked[index.row()] else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            return link.url
        if role == UrlRole:
            return link.url
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.CheckStateRole or self._links[index.row()].saved:
            return False
        self._checked[index.row()] = Qt.CheckState(value) == Qt.CheckState.Checked
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        return True
