"""The subscriptions model: every feed with its refresh status, last check and last error."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from earmark.core.db.database import Database
from earmark.core.db.sources import list_sources
from earmark.core.models import Source
from earmark.core.timefmt import format_ago, now_iso
from earmark.gui.icons import warning_icon

if TYPE_CHECKING:
    from earmark.gui.covers.cache import CoverCache

COL_TITLE, COL_STATUS, COL_ITEMS, COL_CHECKED, COL_NEW, COL_ERROR = range(6)
HEADERS = ("Feed", "Status", "Items", "Last checked", "Last new item", "Last error")
SourceIdRole = Qt.ItemDataRole.UserRole + 1
ROW_COVER = 20  # logical pixels
Index = QModelIndex | QPersistentModelIndex


def read_subscriptions(db: Database) -> list[Source]:
    """Every source that has a feed (runs in a worker)."""
    return [source for source in list_sources(db) if source.url]


def status_text(source: Source) -> str:
    """The status column's words for a feed."""
    if source.status == "gone":
        return "Gone"
    if source.status == "auth":
        return "Needs password"
    if source.status == "error":
        return f"Failing ({source.failures}×)" if source.failures > 1 else "Failed"
    return "OK" if source.last_checked else "Not checked yet"


def short_error(source: Source) -> str:
    """The last error without the feed's address in front (the row already names the feed)."""
    error = source.last_error or ""
    if source.url and error.startswith(source.url + " "):
        rest = error[len(source.url) + 1:]
        return rest[:1].upper() + rest[1:]
    return error


class SourceTableModel(QAbstractTableModel):
    """A few hundred feeds at most: held in full, replaced by ``populate`` after each read."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._sources: list[Source] = []
        self._covers: CoverCache | None = None

    def use_covers(self, covers: CoverCache) -> None:
        """Show each feed's cover beside its title; a cover that arrives repaints its rows."""
        self._covers = covers
        covers.changed.connect(self._on_cover)

    def _on_cover(self, url: str) -> None:
        for row, source in enumerate(self._sources):
            if source.image_url == url:
                index = self.index(row, COL_TITLE)
                self.dataChanged.emit(index, index, [Qt.ItemDataRole.DecorationRole])

    def populate(self, sources: list[Source]) -> None:
        """Show ``sources`` (rows of feeds that stay keep their place; the view keeps its selection by id)."""
        self.beginResetModel()
        self._sources = sources
        self.endResetModel()

    def source_at(self, row: int) -> Source | None:
        """The feed shown in ``row``."""
        return self._sources[row] if 0 <= row < len(self._sources) else None

    def row_of(self, source_id: int) -> int | None:
        """The row showing the feed with this id."""
        return next((row for row, source in enumerate(self._sources) if source.id == source_id), None)

    def sources(self) -> list[Source]:
        """Every feed shown, in row order."""
        return list(self._sources)

    def failing(self) -> list[Source]:
        """Feeds whose last check failed."""
        return [source for source in self._sources if source.status != "ok"]

    def left_out(self) -> list[Source]:
        """Feeds the automatic refreshes leave out: gone, or waiting after failures (F5 checks them)."""
        now = now_iso()
        return [source for source in self._sources
                if source.status == "gone" or (source.retry_after is not None and source.retry_after > now)]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(self._sources)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt's name
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section] if 0 <= section < len(HEADERS) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        source = self.source_at(index.row()) if index.isValid() else None
        if source is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(source, column)
        if role == SourceIdRole:
            return source.id
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(source)
        if role == Qt.ItemDataRole.DecorationRole and column == COL_STATUS and source.status != "ok":
            return warning_icon()
        if role == Qt.ItemDataRole.DecorationRole and column == COL_TITLE and self._covers is not None:
            return self._covers.pixmap(source.image_url, source.title, ROW_COVER)
        if role == Qt.ItemDataRole.TextAlignmentRole and column == COL_ITEMS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _display(source: Source, column: int) -> str | int | None:
        if column == COL_TITLE:
            return source.title
        if column == COL_STATUS:
            return status_text(source)
        if column == COL_ITEMS:
            return source.item_count
        if column == COL_CHECKED:
            return format_ago(source.last_checked)
        if column == COL_NEW:
            return format_ago(source.last_new)
        if column == COL_ERROR:
            return short_error(source)
        return None

    @staticmethod
    def _tooltip(source: Source) -> str:
        lines = [source.url or ""]
        if source.last_error:
            lines.append(source.last_error)
        if source.retry_after:
            lines.append(f"Automatic refreshes wait until {source.retry_after.replace('T', ' ')[:16]} UTC.")
        return "\n".join(lines)
