"""The Podcasts view's model: one tile per podcast (a few hundred at most, held whole), its cover from the
cover cache, its title and unplayed count as text."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from earmark.core.db.podcast_grid import PodcastTile
from earmark.core.plurals import counted
from earmark.gui.covers.cache import CoverCache

SourceIdRole = Qt.ItemDataRole.UserRole + 1
UnplayedRole = Qt.ItemDataRole.UserRole + 2
TILE_COVER = 132  # logical pixels
Index = QModelIndex | QPersistentModelIndex


class PodcastGridModel(QAbstractListModel):
    """Podcast tiles; a cover that arrives repaints its tiles."""

    def __init__(self, covers: CoverCache, parent: Any = None) -> None:
        super().__init__(parent)
        self._covers = covers
        self._tiles: list[PodcastTile] = []
        covers.changed.connect(self._on_cover)

    def populate(self, tiles: list[PodcastTile]) -> None:
        """Show ``tiles`` (the view keeps its current podcast by id: see PodcastsView)."""
        self.beginResetModel()
        self._tiles = tiles
        self.endResetModel()

    def tile_at(self, row: int) -> PodcastTile | None:
        """The podcast in ``row``."""
        return self._tiles[row] if 0 <= row < len(self._tiles) else None

    def row_of(self, source_id: int) -> int | None:
        """The row of the podcast with this id."""
        return next((row for row, tile in enumerate(self._tiles) if tile.source_id == source_id), None)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(self._tiles)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        tile = self.tile_at(index.row()) if index.isValid() else None
        if tile is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return tile.title
        if role == Qt.ItemDataRole.DecorationRole:
            return self._covers.pixmap(tile.image_url, tile.title, TILE_COVER)
        if role == UnplayedRole:
            return tile.unplayed
        if role == SourceIdRole:
            return tile.source_id
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            unplayed = f"{tile.unplayed} unplayed" if tile.unplayed else "all played"
            return f"{tile.title}: {counted(tile.episodes, 'episode')}, {unplayed}"
        return None

    def _on_cover(self, url: str) -> None:
        for row, tile in enumerate(self._tiles):
            if tile.image_url == url:
                index = self.index(row)
                self.dataChanged.emit(index, index, [Qt.ItemDataRole.DecorationRole])
