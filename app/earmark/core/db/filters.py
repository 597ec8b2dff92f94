"""Item filters shared by listings, search, smart lists and the GUI's lazy models: built into parameterised SQL."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, fields
from typing import Literal, get_args

from earmark.core.db.search_words import query_words
from earmark.core.db.tags import normalize_tag
from earmark.core.errors import EarmarkError
from earmark.core.models import ItemKind, ItemState
from earmark.core.records import record

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")

State = Literal["unplayed", "in_progress", "played"]
SortKey = Literal["default", "published", "title", "duration", "source", "last_played"]
STATES: tuple[str, ...] = get_args(State)
SORT_KEYS: tuple[str, ...] = get_args(SortKey)
_DURATION = "coalesce(i.media_duration, i.duration)"
_SOURCE_TITLE = "(SELECT s.title FROM sources s WHERE s.id = i.source_id) COLLATE NOCASE"
# Each sort key's ORDER BY in its natural direction and reversed; every one is served by an index of m003.
_ORDERS: dict[str, tuple[str, str]] = {
    "published": ("i.published DESC, i.id DESC", "i.published ASC, i.id ASC"),
    "title": ("i.title COLLATE NOCASE ASC, i.id ASC", "i.title COLLATE NOCASE DESC, i.id DESC"),
    "duration": ("coalesce(i.media_duration, i.duration, 1e12) ASC, i.id ASC",
                 "coalesce(i.media_duration, i.duration, -1) DESC, i.id DESC"),
    "last_played": ("i.last_played DESC, i.id DESC", "i.last_played ASC, i.id ASC"),
    # Search results only: plain listings walk the sources instead (items._ids_by_source).
    "source": (f"{_SOURCE_TITLE} ASC, i.published DESC, i.id DESC",
               f"{_SOURCE_TITLE} DESC, i.published DESC, i.id DESC"),
}


@record(frozen=True)
class ItemFilter:
    """What a list of items shows and in which order. Empty fields do not filter.

    ``published_from``/``published_to`` are days (YYYY-MM-DD, inclusive); durations are seconds.
    ``sort`` "default" means newest first, or best match first when there is search text.
    """

    kind: ItemKind | None = None
    source_id: int | None = None
    tag: str | None = None
    state: State | None = None
    favourite: bool = False
    archived: bool | None = None  # True: only the archive; False: only what is not archived
    published_from: str | None = None
    published_to: str | None = None
    duration_min: float | None = None
    duration_max: float | None = None
    text: str = ""
    downloaded: bool = False  # only episodes downloaded completely (their file is on disk)
    downloading: bool = False  # only episodes whose download is queued, under way or paused
    download_failed: bool = False  # only episodes whose download failed
    sort: SortKey = "default"
    reverse: bool = False

    def __post_init__(self) -> None:
        if self.state is not None and self.state not in STATES:
            raise EarmarkError(f"{self.state!r} is not a state; use one of {', '.join(STATES)}.")
        if self.sort not in SORT_KEYS:
            raise EarmarkError(f"{self.sort!r} is not a sort order; use one of {', '.join(SORT_KEYS)}.")
        for day in (self.published_from, self.published_to):
            if day is not None and not _DAY.match(day):
                raise EarmarkError(f"{day!r} is not a day; write it as YYYY-MM-DD.")

    def reads(self) -> set[ItemState]:
        """The kinds of item state that decide which items this filter lists, and in which order."""
        wanted = {ItemState.TEXT} if self.text else set()
        if self.state or self.sort == "last_played":
            wanted |= {ItemState.PLAYED, ItemState.POSITION}
        wanted |= {state for state, used in ((ItemState.TAGS, self.tag), (ItemState.FAVOURITE, self.favourite),
                                             (ItemState.ARCHIVED, self.archived is not None),
                                             (ItemState.DOWNLOADS, self.downloaded or self.downloading
                                              or self.download_failed)) if used}
        return wanted

    @property
    def ranked(self) -> bool:
        """Whether the order is by relevance (search text with the default order)."""
        return bool(fts_query(self.text)) and self.sort == "default"

    def to_json(self) -> str:
        """The filter as JSON (how smart lists are stored)."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ItemFilter:
        """A filter read back from ``to_json``; unknown keys (from a newer Earmark) are ignored."""
        data = json.loads(text)
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})


def fts_query(text: str) -> str:
    """An FTS5 MATCH expression for whatever the user typed, taken literally: every word must occur, the last
    (of two letters or more) as a prefix. (Searches add compound names and aliases: core/db/search_query.py.)

    Quotes, operators and parentheses in the input are treated as separators, so no input can raise.
    """
    words = query_words(text)
    if not words:
        return ""
    terms = [f'"{word}"' for word in words]
    if len(words[-1]) >= 2:  # a one-letter prefix matches nearly everything: it would only cost time
        terms[-1] += "*"
    return " ".join(terms)


def where_clause(flt: ItemFilter) -> tuple[str, list[object]]:
    """SQL conditions on ``items`` (aliased ``i``) and their parameters; ``1`` when nothing filters."""
    conditions: list[str] = []
    params: list[object] = []
    if flt.kind:
        conditions.append("i.kind = ?")
        params.append(flt.kind)
    if flt.source_id is not None:
        conditions.append("i.source_id = ?")
        params.append(flt.source_id)
    if flt.tag:
        conditions.append(
            """(i.id IN (SELECT it.item_id FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE t.name = ?)
               OR i.source_id IN (SELECT st.source_id FROM source_tags st JOIN tags t ON t.id = st.tag_id
                                  WHERE t.name = ?))"""
        )
        tag = normalize_tag(flt.tag)
        params += [tag, tag]
    if flt.state == "unplayed":
        conditions.append("i.played = 0")
    elif flt.state == "in_progress":
        conditions.append("i.played = 0 AND i.position > 0")
    elif flt.state == "played":
        conditions.append("i.played = 1")
    if flt.favourite:
        conditions.append("i.favourite = 1")
    if flt.archived is not None:  # a literal, so that the partial index of the archive (m007) serves it
        conditions.append(f"i.archived = {int(bool(flt.archived))}")
    if flt.published_from:
        conditions.append("i.published >= ?")
        params.append(flt.published_from)
    if flt.published_to:
        conditions.append("i.published < date(?, '+1 day')")
        params.append(flt.published_to)
    if flt.duration_min is not None:  # float(): an integer beyond 64 bits made sqlite3 raise OverflowError (fuzzing)
        conditions.append(f"{_DURATION} >= ?")
        params.append(float(flt.duration_min))
    if flt.duration_max is not None:
        conditions.append(f"{_DURATION} <= ?")
        params.append(float(flt.duration_max))
    for wanted, statuses in ((flt.downloaded, "'done'"), (flt.downloading, "'queued', 'downloading', 'paused'"),
                             (flt.download_failed, "'failed'")):
        if wanted:
            conditions.append(f"i.id IN (SELECT item_id FROM downloads WHERE status IN ({statuses}))")
    return (" AND ".join(conditions) or "1"), params


def order_clause(flt: ItemFilter) -> str:
    """ORDER BY terms for a listing (not for ranked search, which orders by relevance)."""
    natural, reversed_ = _ORDERS["published" if flt.sort == "default" else flt.sort]
    return reversed_ if flt.reverse else natural


_KNOWN_DURATION = "coalesce(i.media_duration, i.duration, 1e12) < 1e12"
# Orders whose unknown values (no duration, never played) come last whichever way, listed in two parts that one
# index each serves (schema 9): (condition, ORDER BY) for the known values, then for the unknown ones.
_PARTS: dict[tuple[str, bool], tuple[tuple[str, str], tuple[str, str]]] = {
    ("duration", True): ((_KNOWN_DURATION, "coalesce(i.media_duration, i.duration, 1e12) DESC, i.id DESC"),
                         (f"NOT {_KNOWN_DURATION}", "coalesce(i.media_duration, i.duration, 1e12) DESC, i.id DESC")),
    ("last_played", False): (("i.last_played IS NOT NULL", "i.last_played DESC, i.id DESC"),
                             ("i.last_played IS NULL", "i.id DESC")),
    ("last_played", True): (("i.last_played IS NULL", "i.id ASC"),
                            ("i.last_played IS NOT NULL", "i.last_played ASC, i.id ASC")),
}


def order_parts(flt: ItemFilter) -> tuple[tuple[str, str], ...]:
    """A listing's order as parts to list one after the other: (condition, ORDER BY) pairs. One part (condition
    ``1``) for most orders; two where an index serves each part but not both in one walk."""
    return _PARTS.get((flt.sort, flt.reverse), (("1", order_clause(flt)),))
