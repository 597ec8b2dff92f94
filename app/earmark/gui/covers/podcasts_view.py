"""The Podcasts view: a grid of covers, each with its title and a badge of its unplayed episodes (as Kasts and
gPodder show them). The arrow keys move between covers, Enter (or a double click) opens the podcast's episodes.
Signal: ``opened(int)`` with the podcast's source id."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from earmark.gui.covers.podcasts_model import TILE_COVER, PodcastGridModel, SourceIdRole, UnplayedRole

TILE = QSize(TILE_COVER + 28, TILE_COVER + 58)  # the cover, two lines of title, margins


class TileDelegate(QStyledItemDelegate):
    """Paints a tile: the cover, the unplayed count on its corner, the title under it (two lines at most)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        return TILE

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        painter.save()
        palette = option.palette
        rect: QRect = option.rect
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(rect.adjusted(2, 2, -2, -2), palette.color(QPalette.ColorRole.Highlight))
        cover = index.data(Qt.ItemDataRole.DecorationRole)
        left = rect.x() + (rect.width() - TILE_COVER) // 2
        if isinstance(cover, QPixmap):
            painter.drawPixmap(QRect(left, rect.y() + 8, TILE_COVER, TILE_COVER), cover)
        unplayed = int(index.data(UnplayedRole) or 0)
        if unplayed:
            self._badge(painter, QRect(left, rect.y() + 8, TILE_COVER, TILE_COVER), unplayed)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.setPen(palette.color(role))
        text_rect = QRect(rect.x() + 6, rect.y() + TILE_COVER + 12, rect.width() - 12, rect.height() - TILE_COVER - 14)
        title = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        metrics = painter.fontMetrics()
        lines = _two_lines(title, metrics.horizontalAdvance, text_rect.width(),
                           lambda text: metrics.elidedText(text, Qt.TextElideMode.ElideRight, text_rect.width()))
        painter.drawText(text_rect, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop), "\n".join(lines))
        painter.restore()

    @staticmethod
    def _badge(painter: QPainter, cover: QRect, count: int) -> None:
        font = QFont(painter.font())
        font.setBold(True)
        painter.setFont(font)
        text = f"{count:,}" if count < 1000 else "999+"
        width = painter.fontMetrics().horizontalAdvance(text) + 12
        height = painter.fontMetrics().height() + 4
        badge = QRect(cover.right() - width - 4, cover.top() + 4, width, height)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QColor(255, 255, 255, 200))  # on any cover, in either theme: white on near black
        painter.setBrush(QColor(0, 0, 0, 190))
        painter.drawRoundedRect(badge, height / 2, height / 2)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(badge, int(Qt.AlignmentFlag.AlignCenter), text)
        font.setBold(False)
        painter.setFont(font)


def _two_lines(title: str, width_of: Callable[[str], int], width: int, elide: Callable[[str], str]) -> list[str]:
    """The title wrapped at words onto two lines, the second cut short with "…" when it is longer."""
    words, first = title.split(), ""
    while words and width_of((first + " " + words[0]).strip()) <= width:
        first = (first + " " + words.pop(0)).strip()
    if not first:  # one long word: cut it
        return [elide(title)]
    return [first, elide(" ".join(words))] if words else [first]


class PodcastsView(QWidget):
    """The grid over a PodcastGridModel, with a line that says how many podcasts there are."""

    opened = Signal(int)

    def __init__(self, model: PodcastGridModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("podcastsView")
        self.model = model
        self.summary = QLabel()
        self.summary.setObjectName("podcastsSummary")
        self.grid = QListView()
        self.grid.setObjectName("podcastGrid")
        self.grid.setAccessibleName("Podcasts")
        self.grid.setAccessibleDescription("Each podcast's cover with its unplayed episodes: the arrow keys move "
                                           "between them, Enter opens a podcast's episodes")
        self.grid.setModel(model)
        self.grid.setViewMode(QListView.ViewMode.IconMode)
        self.grid.setResizeMode(QListView.ResizeMode.Adjust)
        self.grid.setMovement(QListView.Movement.Static)
        self.grid.setUniformItemSizes(True)
        self.grid.setGridSize(TILE + QSize(8, 8))
        self.grid.setWrapping(True)
        self.grid.setSpacing(0)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setItemDelegate(TileDelegate(self.grid))
        self.grid.activated.connect(self._open)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.grid, 1)
        model.modelReset.connect(self._on_reset)
        self._kept: int | None = None  # the podcast that was current before a reload

    def _open(self, index: QModelIndex) -> None:
        source_id = index.data(SourceIdRole)
        if isinstance(source_id, int):
            self.opened.emit(source_id)

    def current_source_id(self) -> int | None:
        """The podcast whose cover has the keyboard."""
        value = self.grid.currentIndex().data(SourceIdRole)
        return value if isinstance(value, int) else None

    def keep_current(self) -> None:
        """Remember the current podcast, to make it current again after the next reload."""
        self._kept = self.current_source_id() if self.grid.currentIndex().isValid() else self._kept

    def _on_reset(self) -> None:
        count = self.model.rowCount()
        self.summary.setText(f"{count:,} podcast{'s' if count != 1 else ''} · Enter opens one's episodes"
                             if count else "No podcasts yet: File ▸ Add Podcast… (Ctrl+N) subscribes to one.")
        row = self.model.row_of(self._kept) if self._kept is not None else None
        index = self.model.index(row if row is not None else 0)
        if index.isValid():
            self.grid.setCurrentIndex(index)
