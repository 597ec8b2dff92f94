"""The item list model: ids of the matching items, rows fetched lazily in pages of SQL."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QModelRoleData,
    QModelRoleDataSpan,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QFont

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import item_ids
from earmark.core.models import Item
from earmark.core.timefmt import format_clock
from earmark.gui.models.item_pages import ItemPages
from earmark.gui.tasks import TaskRunner

if TYPE_CHECKING:  # the search's parts load with the first search: a start shows its list before any
    from earmark.core.db.search import RankedHead, Snippet
    from earmark.gui.covers.cache import CoverCache

COL_TITLE, COL_SOURCE, COL_PUBLISHED, COL_DURATION, COL_PROGRESS, COL_MATCH = range(6)
HEADERS = ("Title", "Source", "Published", "Duration", "Progress", "Match")
# The sort key of each sortable column, and whether its natural order (Qt's indicator) is descending.
SORT_COLUMNS: dict[int, tuple[str, bool]] = {
    COL_TITLE: ("title", False), COL_SOURCE: ("source", False), COL_PUBLISHED: ("published", True),
    COL_DURATION: ("duration", False), COL_PROGRESS: ("last_played", True),
}
SnippetRole = Qt.ItemDataRole.UserRole + 2
ItemIdRole = Qt.ItemDataRole.UserRole + 1
# What data() answers; every other role (decoration, colours, check state, ...) is None at once: a table asks
# each visible cell for a dozen roles as it paints, and a start's first frame made ~900 such calls.
_ANSWERED = frozenset(int(role) for role in (
    ItemIdRole, SnippetRole, Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.DecorationRole))
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_DISPLAY, _DECORATION, _ALIGNMENT, _FONT, _TOOLTIP, _ITEM_ID, _SNIPPET = (int(role) for role in (
    Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ToolTipRole, ItemIdRole, SnippetRole))
# The roles QStyledItemDelegate asks each cell for, in its order (Qt 6's initStyleOption), and which of them
# each column answers: the title its cover, the times their alignment, every cell its text (the row playing its font).
_DELEGATE_ROLES = tuple(int(role) for role in (
    Qt.ItemDataRole.FontRole, Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.CheckStateRole, Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.BackgroundRole))
_DELEGATE_SLOTS = {COL_TITLE: (4, 5), COL_SOURCE: (5,), COL_PUBLISHED: (5,), COL_DURATION: (1, 5),
                   COL_PROGRESS: (1, 5)}
_PLAYING_SLOTS = {column: (0, *slots) for column, slots in _DELEGATE_SLOTS.items()}
# A start reads this many ids first and paints them, then the whole list: more rows than a tall window shows.
FIRST_PAGE = 200
ROW_COVER = 22  # logical pixels: a cover beside each row's title (appearance.list_covers)
Index = QModelIndex | QPersistentModelIndex


class ItemListModel(QAbstractTableModel):
    """Items matching a filter. Holds their ids; rows are read in pages on demand and cached.

    The id list is (re)loaded in a worker; a ranked search shows its best matches first and appends the
    rest when they arrive. Signals: ``loaded()`` after each reload is applied; ``sort_changed(ItemFilter)``
    when the user sorts by a column.
    """

    loaded = Signal()
    sort_changed = Signal(object)

    def __init__(self, runner: TaskRunner, db: Database, parent: Any = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._db = db
        self._filter = ItemFilter()
        self._ids: list[int] = []
        self._covers: CoverCache | None = None
        self._repaint = QTimer(self)
        self._repaint.setSingleShot(True)
        self._repaint.setInterval(40)
        self._repaint.timeout.connect(self._covers_changed)
        self._rows: dict[int, int] | None = None  # id -> row, built when first needed
        self._pages = ItemPages(runner, db, lambda: self._ids)
        self._generation = 0
        self._playing: int | None = None
        self._snippets: dict[int, Snippet | None] = {}
        self._first_page: int | None = None  # the reload whose first page alone is shown (the rest on its way)
        self._holding = False  # a start: the whole list is read once its first frame is painted (see hold_rest)
        self._held: Callable[[], object] | None = None

    def show_covers(self, covers: CoverCache | None) -> None:
        """A cover beside each row's title from ``covers`` (None: none); a cover that arrives repaints the rows
        shown (the view asks only the rows it shows: the model stays lazy)."""
        if self._covers is not None:
            self._covers.changed.disconnect(self._cover_arrived)
        self._covers = covers
        if covers is not None:
            covers.changed.connect(self._cover_arrived)
        self._covers_changed()

    def _cover_arrived(self, _url: str) -> None:
        if not self._repaint.isActive():  # covers arrive in bursts: one repaint for each
            self._repaint.start()

    def _covers_changed(self) -> None:
        if self._ids:
            self.dataChanged.emit(self.index(0, COL_TITLE), self.index(len(self._ids) - 1, COL_TITLE),
                                  [Qt.ItemDataRole.DecorationRole])

    @property
    def item_filter(self) -> ItemFilter:
        """The filter the model shows."""
        return self._filter

    def set_filter(self, flt: ItemFilter, load: bool = True) -> None:
        """Show the items matching ``flt`` (loaded in the background; later, with ``load`` false)."""
        self._filter = flt
        if load:
            self.reload()

    def reload(self) -> None:
        """Re-read which items match (after items were added or removed). An empty list shows its first page
        from one indexed query (what a start shows first), then the whole list."""
        self._generation += 1
        generation, flt = self._generation, self._filter
        if flt.ranked:
            from earmark.core.db.search import ranked_head

            self._runner.read(ranked_head, flt, on_done=lambda head: self._apply_head(generation, head))
            return
        if self._ids:
            self._runner.read(item_ids, flt, on_done=lambda ids: self._apply(generation, ids))
        else:
            self._runner.read(item_ids, flt, FIRST_PAGE,
                              on_done=lambda ids: self._show_first_page(generation, flt, ids))

    def _show_first_page(self, generation: int, flt: ItemFilter, ids: list[int]) -> None:
        """The first page, then the whole list is read (``loaded`` waits for it). One after the other, not both
        at once: on two cores the whole list's read took CPU from the window's first frame."""
        if generation != self._generation:
            return  # a newer reload is on its way
        if len(ids) < FIRST_PAGE:  # the whole list already
            self._apply(generation, ids)
            return
        self.beginResetModel()
        self._ids, self._first_page = ids, generation
        self._rows = None
        self.endResetModel()
        read_rest = partial(self._runner.read, item_ids, flt, on_done=lambda whole: self._apply(generation, whole))
        if self._holding:
            self._held = read_rest
        else:
            read_rest()

    def hold_rest(self) -> None:
        """A start: after the first page, the whole list is read once ``release_rest`` is called (its read and
        the 100,000 rows it adds were done before the window's first frame, which waits for the display)."""
        self._holding = True
        self._pages.ahead = False

    def release_rest(self) -> None:
        """Read the whole list now if a first page is waiting for it, and from now on at once."""
        self._holding = False
        self._pages.ahead = True
        held, self._held = self._held, None
        if held is not None:
            held()

    def _apply(self, generation: int, ids: list[int]) -> None:
        if generation != self._generation:
            return  # a newer reload is on its way
        first_page, self._first_page = self._first_page, None
        if first_page == generation and ids[:len(self._ids)] == self._ids:  # the rest goes below the first page
            self._append(generation, ids[len(self._ids):])
            self.loaded.emit()
            return
        self.beginResetModel()
        self._ids = ids
        self._rows = None
        self._pages.clear()
        self._snippets.clear()
        self.endResetModel()
        self.loaded.emit()

    def _apply_head(self, generation: int, head: RankedHead) -> None:
        self._apply(generation, head.ids)
        if generation == self._generation and head.boundary is not None:
            from earmark.core.db.search import remaining_matches

            self._runner.read(remaining_matches, self._filter, head.boundary,
                              on_done=lambda ids: self._append(generation, ids))

    def _append(self, generation: int, ids: list[int]) -> None:
        if generation != self._generation or not ids:
            return
        self.beginInsertRows(QModelIndex(), len(self._ids), len(self._ids) + len(ids) - 1)
        self._ids = self._ids + ids
        self._rows = None
        self.endInsertRows()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by a column's key, in SQL; the Match column means "best match first"."""
        if column in SORT_COLUMNS:
            key, descending = SORT_COLUMNS[column]
            reverse = (order == Qt.SortOrder.DescendingOrder) != descending
            flt = replace(self._filter, sort=key, reverse=reverse)  # type: ignore[arg-type]
        else:
            flt = replace(self._filter, sort="default", reverse=False)
        if flt != self._filter:
            self.set_filter(flt)
            self.sort_changed.emit(flt)

    def sort_indicator(self) -> tuple[int, Qt.SortOrder] | None:
        """The column and order a header should show for the current sort (None: the default order)."""
        for column, (key, descending) in SORT_COLUMNS.items():
            if key == self._filter.sort:
                shown_descending = descending != self._filter.reverse
                return column, Qt.SortOrder.DescendingOrder if shown_descending else Qt.SortOrder.AscendingOrder
        return None

    def set_playing(self, item_id: int | None) -> None:
        """Mark the row of the item in the player (shown in bold)."""
        previous, self._playing = self._playing, item_id
        rows = self._row_map()
        for row in sorted(rows[i] for i in (previous, item_id) if i is not None and i in rows):
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(HEADERS) - 1), [Qt.ItemDataRole.FontRole])

    def refresh_items(self, ids: set[int]) -> None:
        """Re-read these items' rows (their data changed, not their membership)."""
        rows = self._row_map()
        touched = sorted(rows[i] for i in ids if i in rows)
        self._pages.forget(touched)
        for row in touched:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(HEADERS) - 1))

    def _row_map(self) -> dict[int, int]:
        if self._rows is None:
            self._rows = {item_id: row for row, item_id in enumerate(self._ids)}
        return self._rows

    def row_of(self, item_id: int) -> int | None:
        """The row showing ``item_id``, if it is in the list."""
        return self._row_map().get(item_id)

    def item_at(self, row: int) -> Item | None:
        """The item shown in ``row`` (read from the library when not cached)."""
        if not 0 <= row < len(self._ids):
            return None
        return self._pages.item(row)

    def _snippet(self, item_id: int) -> Snippet | None:
        """Where a search result matched, read once per row shown (a single FTS lookup)."""
        if not self._filter.text.strip():
            return None
        if item_id not in self._snippets:
            from earmark.core.db.search import snippets
            from earmark.core.db.spoken_search import spoken_moment

            found = snippets(self._db, self._filter.text, [item_id]).get(item_id)
            if found is not None and found.field == "transcript":  # where it is said: Enter plays from there
                found = replace(found, at=spoken_moment(self._db, item_id, found))
            self._snippets[item_id] = found
        return self._snippets[item_id]

    def moment(self, row: int) -> float | None:
        """For a search result matched in its transcript: the second where the matched words are said."""
        item = self.item_at(row)
        snippet = self._snippet(item.id) if item is not None else None
        return snippet.at if snippet is not None else None

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        """Qt's own asks ``rowCount`` and ``columnCount`` first: two more calls into Python for every cell a
        table paints, where one will do."""
        if 0 <= row < len(self._ids) and 0 <= column < len(HEADERS) and not parent.isValid():
            return self.createIndex(row, column)
        return QModelIndex()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ANSWERED or not index.isValid():
            return None
        item = self.item_at(index.row())
        return None if item is None else self._answer(item, index.column(), role)

    def multiData(self, index: Index,  # noqa: N802 - Qt's name
                  roleDataSpan: QModelRoleDataSpan | QModelRoleData) -> None:  # noqa: N803 - Qt's name
        """Every role a cell is painted with, in one call: a table's delegate asks each cell shown for seven
        roles at once, which Qt's own multiData made seven calls into Python (most of a scrolled page's work).
        Each step across to Qt costs about a microsecond: the delegate's roles, in its order, are answered
        from the slots that can hold an answer (each slot's role checked), every other span role by role."""
        item = self.item_at(index.row())  # None for an invalid index (row -1)
        if item is None:
            return
        column = index.column()
        span: Any = roleDataSpan  # indexable and sized, which its stubs do not say
        if len(span) == len(_DELEGATE_ROLES) and column != COL_MATCH:
            wanted = _DELEGATE_SLOTS[column] if item.id != self._playing else _PLAYING_SLOTS[column]
            for number in range(len(_DELEGATE_ROLES)):
                slot = span[number]
                if number not in wanted:
                    slot.clearData()  # the delegate keeps one span for every cell: no answer left from the last
                    continue
                role = slot.role()
                if role != _DELEGATE_ROLES[number]:
                    break  # not the delegate's span: role by role below
                _fill(slot, self._answer(item, column, role))
            else:
                return
        for number in range(len(span)):
            slot = span[number]
            role = slot.role()
            _fill(slot, self._answer(item, column, role) if role in _ANSWERED else None)

    def _answer(self, item: Item, column: int, role: int) -> Any:
        """What ``item``'s cell in ``column`` shows for ``role`` (None: nothing). The roles are compared as
        ints: naming Qt's enum members on every cell painted made a page's frame ~1 ms longer."""
        if role == _DISPLAY:
            return _display(item, column) if column != COL_MATCH else self._match_text(item)
        if role == _DECORATION:
            covers = self._covers if column == COL_TITLE else None
            return covers.pixmap(item.image_url, item.source or item.title, ROW_COVER) if covers else None
        if role == _ALIGNMENT:
            return _RIGHT if column in (COL_DURATION, COL_PROGRESS) else None
        if role == _FONT:
            return _bold() if item.id == self._playing else None
        if role == _ITEM_ID:
            return item.id
        if role == _SNIPPET:
            return self._snippet(item.id) if column == COL_MATCH else None
        if role == _TOOLTIP:
            if column == COL_MATCH:
                return self._match_text(item)  # whole, as it is cut
            if column in (COL_TITLE, COL_SOURCE):
                return _display(item, column)  # whole, where a long one is cut short
            if column == COL_PROGRESS and item.favourite:
                return "★ A favourite (F marks or unmarks it)"
        return None

    def _match_text(self, item: Item) -> str | None:
        snippet = self._snippet(item.id)
        return None if snippet is None else f"{snippet.where}: {snippet.marked('', '')}"


def _bold() -> QFont:
    font = QFont()
    font.setBold(True)
    return font

def _fill(slot: QModelRoleData, value: Any) -> None:
    """A role's slot given ``value``, or emptied (None): as Qt's own multiData leaves a role the model does not
    answer."""
    if value is None:
        slot.clearData()
    else:
        slot.setData(value)


def _display(item: Item, column: int) -> str:
    if column == COL_TITLE:
        return item.title
    if column == COL_SOURCE:
        return item.source or ""
    if column == COL_PUBLISHED:
        return (item.published or "")[:10]
    if column == COL_DURATION:
        if not item.duration:
            return ""
        return f"{max(1, round(item.duration / 60))} min" if item.kind == "article" else format_clock(item.duration)
    return f"★ {progress_text(item)}".rstrip() if item.favourite else progress_text(item)


def progress_text(item: Item) -> str:
    """``played``/``read``, ``12:30 left`` (an article: ``45% read``), or nothing for an untouched item."""
    if item.played:
        return "played" if item.kind == "episode" else "read"
    if item.kind == "article":
        return f"{min(99, round(100 * item.position / item.duration))}% read" if item.position and item.duration else ""
    if item.position > 0:
        if item.duration:
            return f"{format_clock(max(0.0, item.duration - item.position))} left"
        return f"at {format_clock(item.position)}"
    return ""
