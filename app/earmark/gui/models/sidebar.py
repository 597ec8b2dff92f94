"""The sidebar model: All, Podcasts (each podcast), Articles (Archive, each site), Tags, Continue listening and
reading, Downloaded, Notes, Topic Graph, Statistics,
Subscriptions; each row is a filter or a view."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from functools import partial
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon, QStandardItemModel

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import count_items
from earmark.core.db.notes import count_notes
from earmark.core.db.smart_lists import SmartList, list_smart_lists
from earmark.core.db.sources import list_sources
from earmark.core.db.tags import tag_colours, tag_counts
from earmark.core.models import ItemKind, Source
from earmark.core.records import record
from earmark.gui.icons import colour_dot, warning_icon
from earmark.gui.mainwindow.places import GRAPH, NOTES, PODCASTS, STATISTICS, SUBSCRIPTIONS, GoTo, entry_place
from earmark.gui.models.standard_tree import Row, rebuild, same_rows, update

ShowsRole = Qt.ItemDataRole.UserRole + 1  # what a row shows: an ItemFilter for the list, or a view's name
TagRole = Qt.ItemDataRole.UserRole + 2  # the tag a Tags row shows
SmartListRole = Qt.ItemDataRole.UserRole + 3  # the id of a smart list row
CONTINUE_LISTENING = ItemFilter(kind="episode", state="in_progress", sort="last_played")
DOWNLOADED = ItemFilter(kind="episode", downloaded=True)
DOWNLOADING = ItemFilter(kind="episode", downloading=True)
DOWNLOAD_FAILED = ItemFilter(kind="episode", download_failed=True)
CONTINUE_READING = ItemFilter(kind="article", state="in_progress", archived=False, sort="last_played")
ARCHIVE = ItemFilter(kind="article", archived=True)
CoverIcon = Callable[[Source], tuple[object, Callable[[], QIcon]]]  # a podcast's icon: its key and its maker
ENTRIES_GO_TO = (  # the sidebar entries the Go menu has, with their keys
    GoTo("continue_listening", "Go", "&Continue Listening", ("Ctrl+Shift+L",), entry_place(CONTINUE_LISTENING)),
    GoTo("continue_reading", "Go", "Continue &Reading", ("Ctrl+Shift+R",), entry_place(CONTINUE_READING)),
    GoTo("downloaded", "Go", "&Downloaded Episodes", ("Ctrl+Alt+D",), entry_place(DOWNLOADED)),
)


@record
class SidebarData:
    """What the sidebar lists, read in a worker."""

    total: int
    episodes: int
    articles: int
    sources: list[Source]
    tags: list[tuple[str, int]]
    colours: dict[str, str] = field(default_factory=dict)
    smart_lists: list[tuple[SmartList, int]] = field(default_factory=list)  # with their item counts
    notes: int = 0
    in_progress: int = 0
    downloaded: int = 0  # complete downloads: files on disk
    downloading: int = 0  # queued, under way or paused
    download_failed: int = 0
    reading: int = 0  # articles in Continue reading
    archived: int = 0


def read_sidebar(db: Database) -> SidebarData:
    """Counts, sources and tags for the sidebar (runs in a worker)."""
    counts = dict(db.execute("SELECT kind, count(*) FROM items GROUP BY kind").fetchall())
    return SidebarData(
        total=sum(counts.values()),
        episodes=counts.get("episode", 0),
        articles=counts.get("article", 0),
        sources=list_sources(db),
        tags=[(name, count) for name, count in tag_counts(db) if count],
        colours=tag_colours(db),
        smart_lists=[(smart, count_items(db, smart.filter)) for smart in list_smart_lists(db)],
        notes=count_notes(db),
        in_progress=count_items(db, CONTINUE_LISTENING),
        **_download_counts(db),
        reading=count_items(db, CONTINUE_READING),
        archived=count_items(db, ARCHIVE),
    )


def _download_counts(db: Database) -> dict[str, int]:
    counts = dict(db.execute("SELECT status, count(*) FROM downloads GROUP BY status").fetchall())
    return {"downloaded": counts.get("done", 0), "download_failed": counts.get("failed", 0),
            "downloading": sum(counts.get(status, 0) for status in ("queued", "downloading", "paused"))}


class SidebarModel(QStandardItemModel):
    """A small tree (a few hundred rows at most) made from SidebarData; each row's ShowsRole is an ItemFilter for
    the item list, headings have none. A reload whose rows are the same ones changes their texts in place."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.total = 0
        self._shown: list[Row] = []
        self.cover: CoverIcon | None = None  # set once the window's covers are ready

    def populate(self, data: SidebarData) -> bool:
        """Show ``data``; True when that made the rows anew (other rows than before), False when only their
        texts, icons or tooltips changed."""
        self.total = data.total
        rows = sidebar_rows(data, self.cover)
        rebuilt = not self._shown or not same_rows(rows, self._shown)
        if rebuilt:
            rebuild(self, rows)
        else:
            update(self.invisibleRootItem(), rows, self._shown)
        self._shown = rows
        return rebuilt

    def index_for(self, flt: ItemFilter | str) -> Any:
        """The index of the row whose filter is ``flt`` (the All row when there is none)."""
        pending = [self.invisibleRootItem()]
        while pending:
            parent = pending.pop()
            for row in range(parent.rowCount()):
                child = parent.child(row)
                if child.data(ShowsRole) == flt:
                    return child.index()
                pending.append(child)
        return self.index(0, 0)


def sidebar_rows(data: SidebarData, cover: CoverIcon | None = None) -> list[Row]:
    """The sidebar's rows for ``data``, top to bottom; ``cover`` gives each podcast and site its cover."""
    podcasts = _row(f"Podcasts ({data.episodes})", ItemFilter(kind="episode"))
    articles = _row(f"Articles ({data.articles})", ItemFilter(kind="article"))
    articles.add(_row(f"Archive ({data.archived})", ARCHIVE))
    failing = 0
    for source in data.sources:
        kind: ItemKind = "episode" if source.kind == "podcast" else "article"
        row = _row(f"{source.title} ({source.item_count})", ItemFilter(kind=kind, source_id=source.id))
        row.whole_in_tooltip()
        if cover is not None:
            row.with_icon(*cover(source))
        if source.status != "ok":
            failing += 1
            row.with_icon("warning", warning_icon)
            row.tooltip = f"{row.text}\n{source.last_error or 'Its last check failed.'}"
        (podcasts if source.kind == "podcast" else articles).add(row)
    smart = _row("Smart Lists", None).add(*(
        _row(f"{smart_list.name} ({count})", smart_list.filter, {SmartListRole: smart_list.id}).whole_in_tooltip()
        for smart_list, count in data.smart_lists))
    tags = _row("Tags", None)
    for name, count in data.tags:
        row = _row(f"{name} ({count})", ItemFilter(tag=name), {TagRole: name}).whole_in_tooltip()
        if name in data.colours:
            row.with_icon(data.colours[name], partial(colour_dot, data.colours[name]))
        tags.add(row)
    downloaded = _row(f"Downloaded ({data.downloaded})", DOWNLOADED)
    if data.downloading:
        downloaded.add(_row(f"Downloading ({data.downloading})", DOWNLOADING))
    if data.download_failed:  # failures apart: "Downloaded" is what is on disk
        downloaded.add(_row(f"Failed downloads ({data.download_failed})", DOWNLOAD_FAILED).with_icon(
            "warning", warning_icon))
    feeds = _row(f"Subscriptions ({failing} failing)" if failing else "Subscriptions", SUBSCRIPTIONS)
    if failing:
        feeds.with_icon("warning", warning_icon)
        feeds.tooltip = f"{failing} feed{'s' if failing != 1 else ''} failing: Subscriptions shows why"
    return [
        _row(f"All ({data.total})", ItemFilter()),
        *(heading for heading in (podcasts, articles, smart, tags) if heading is not smart or smart.children),
        _row(f"Continue listening ({data.in_progress})", CONTINUE_LISTENING),
        _row(f"Continue reading ({data.reading})", CONTINUE_READING),
        downloaded,
        _row(f"Notes ({data.notes})", NOTES),
        _row("My Podcasts", PODCASTS),
        _row("Topic Graph", GRAPH),
        _row("Statistics", STATISTICS),
        feeds,
    ]


def _row(text: str, flt: ItemFilter | str | None, more: dict[int, object] | None = None) -> Row:
    return Row(text, {ShowsRole: flt, **(more or {})}, selectable=flt is not None)
