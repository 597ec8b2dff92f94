"""The podcasts a search found in the directories (a few dozen at most): merged as each directory answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QIcon, QPixmap

from earmark.core.directory.configured import LABELS
from earmark.core.directory.results import DirectoryResult, merged
from earmark.core.directory.subscribed import subscribed_source
from earmark.core.feeds.identity import KnownFeeds
from earmark.core.plurals import counted

if TYPE_CHECKING:
    from earmark.gui.covers.cache import CoverCache

Index = QModelIndex | QPersistentModelIndex
FeedUrlRole = Qt.ItemDataRole.UserRole + 1
SubscribedRole = Qt.ItemDataRole.UserRole + 2
ImageUrlRole = Qt.ItemDataRole.UserRole + 3  # the cover's address (its picture is the DecorationRole)
RESULT_COVER = 40  # logical pixels


def facts(result: DirectoryResult, subscribed: bool) -> str:
    """The line under a result's title: episodes, latest date, where it was found, whether it is subscribed."""
    parts = [counted(result.episodes, "episode")] if result.episodes is not None else []
    parts += [f"latest {result.latest[:10]}"] if result.latest else []
    names = [LABELS.get(d, d) for d in (result.directory, *result.also_in)]
    parts.append(names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])
    if subscribed:
        parts.append("subscribed")
    return " · ".join(parts)


class DirectoryResultsModel(QAbstractListModel):
    """One row per podcast found, in the order the directories answered; ``library`` holds what the library's
    subscriptions are known by (see core/feeds/identity.py), to say which are subscribed already."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.results: list[DirectoryResult] = []
        self.library = KnownFeeds({}, {})
        self._covers: CoverCache | None = None

    def use_covers(self, covers: CoverCache) -> None:
        """Show each podcast's cover (its initials until it arrives); a cover that arrives repaints its rows."""
        self._covers = covers
        covers.changed.connect(self._on_cover)

    def _on_cover(self, url: str) -> None:
        for row, result in enumerate(self.results):
            if result.image == url:
                self.dataChanged.emit(self.index(row), self.index(row), [Qt.ItemDataRole.DecorationRole])

    def source_of(self, row: int) -> int | None:
        """The subscription the podcast in ``row`` is, or None when it is not subscribed."""
        return subscribed_source(self.library, self.results[row]) if 0 <= row < len(self.results) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802  # Qt's signature
        return 0 if parent.isValid() else len(self.results)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.results):
            return None
        result = self.results[index.row()]
        subscribed = self.source_of(index.row()) is not None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{result.title}\n{result.author or 'Unknown author'} · {facts(result, subscribed)}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{result.title}, by {result.author or 'an unknown author'}: {facts(result, subscribed)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return result.description or result.feed_url
        if role == FeedUrlRole:
            return result.feed_url
        if role == SubscribedRole:
            return subscribed
        if role == ImageUrlRole:
            return result.image
        if role == Qt.ItemDataRole.DecorationRole and self._covers is not None:
            return _untinted(self._covers.pixmap(result.image, result.title, RESULT_COVER))
        return None

    def clear(self) -> None:
        """No results (a new search begins)."""
        self.beginResetModel()
        self.results = []
        self.endResetModel()

    def add(self, found: list[DirectoryResult]) -> None:
        """Merge another directory's answer in: rows already listed stay where they are (filled in where the new
        answer knows more), new ones follow."""
        combined = merged([*self.results, *found])
        old = len(self.results)
        if len(combined) > old:
            self.beginInsertRows(QModelIndex(), old, len(combined) - 1)
            self.results = combined
            self.endInsertRows()
        else:
            self.results = combined
        if old:
            self.dataChanged.emit(self.index(0), self.index(old - 1))


def _untinted(cover: QPixmap) -> QIcon:
    """The cover as an icon that looks the same on the selected row (Qt tints a selected icon's pixmap)."""
    icon = QIcon(cover)
    icon.addPixmap(cover, QIcon.Mode.Selected)
    return icon
