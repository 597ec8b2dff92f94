"""Items (episodes and articles): reading, listing, searching, and the user's progress on them."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter, order_parts, where_clause
from earmark.core.db.show_notes import markup
from earmark.core.db.tags import tags_for_items
from earmark.core.errors import NotFoundError
from earmark.core.models import Item, ProgressUpdate
from earmark.core.timefmt import now_iso

_LIST_COLUMNS = """i.id, i.kind, i.title, i.source_id, s.title AS source, i.url, i.enclosure_url, i.published,
    coalesce(i.media_duration, i.duration), i.position, i.played, '', '', i.last_played,
    coalesce(i.image_url, s.image_url),
    (SELECT c.file FROM covers c WHERE c.url = coalesce(i.image_url, s.image_url)), i.favourite"""
# the show notes, and the text they may be stored as a pattern over (core/db/show_notes.py)
_COLUMNS = _LIST_COLUMNS.replace("'', ''", "i.description, i.content") + ", i.text"
_FROM = "items i LEFT JOIN sources s ON s.id = i.source_id"
# An episode counts as played once it is within this many seconds of its end (whatever the setting says).
PLAYED_MARGIN = 1.0
# The ``playback.played_within`` margin is at most this share of the episode (short clips are not done at once).
PLAYED_MAX_SHARE = 0.1


def _item(row: sqlite3.Row | tuple, tags: list[str]) -> Item:
    (item_id, kind, title, source_id, source, url, enclosure, published, duration, position, played,
     description, content, last_played, image_url, cover_name, favourite) = row[:17]
    if len(row) > 17:
        description, content = markup(description, row[17]), markup(content, row[17])
    return Item(
        id=item_id, kind=kind, title=title, source_id=source_id, source=source, url=url,
        enclosure_url=enclosure, published=published, duration=duration, position=position or 0.0,
        played=bool(played), description=description, content=content, last_played=last_played, tags=tags,
        image_url=image_url, cover_name=cover_name, favourite=bool(favourite),
    )


def _with_tags(db: Database, rows: Sequence[tuple]) -> list[Item]:
    tags = tags_for_items(db, [row[0] for row in rows])
    return [_item(row, tags.get(row[0], [])) for row in rows]


def get_item(db: Database, item_id: int) -> Item:
    """The item with this id; NotFoundError when there is none."""
    row = db.execute(f"SELECT {_COLUMNS} FROM {_FROM} WHERE i.id = ?", [item_id]).fetchone()
    if row is None:
        raise NotFoundError(f"There is no item with id {item_id}.")
    return _with_tags(db, [row])[0]


def items_by_ids(db: Database, ids: Iterable[int], *, full: bool = True) -> dict[int, Item]:
    """The items with these ids that exist, keyed by id; ``full=False`` leaves out notes and article text."""
    id_list = list(ids)
    if not id_list:
        return {}
    marks = ",".join("?" * len(id_list))
    columns = _COLUMNS if full else _LIST_COLUMNS
    rows = db.execute(f"SELECT {columns} FROM {_FROM} WHERE i.id IN ({marks})", id_list).fetchall()
    return {item.id: item for item in _with_tags(db, rows)}


def warm_items(db: Database, ids: Sequence[int]) -> None:
    """Touch the listed columns of these items in one statement, so that reading them soon after finds them in
    memory: SQLite reads without holding Python's lock, and nothing is built of what it read."""
    if ids:
        marks = ",".join("?" * len(ids))
        db.execute(f"SELECT max(length(i.title) + length(i.published)) FROM {_FROM} WHERE i.id IN ({marks})",
                   list(ids)).fetchone()


def list_items(db: Database, flt: ItemFilter, limit: int | None = None) -> list[Item]:
    """Items matching the filter, newest first (best match first when it has search text)."""
    ids = item_ids(db, flt, limit)
    found = items_by_ids(db, ids, full=False)
    return [found[i] for i in ids if i in found]


def item_ids(db: Database, flt: ItemFilter, limit: int | None = None) -> list[int]:
    """Ids of the items matching the filter, in display order. Cheap enough for 100,000 items."""
    if flt.text.strip():  # text without a single word ("*", "()") matches nothing
        from earmark.core.db.search import search_ids  # deferred: a start shows its list before any search

        return search_ids(db, flt, limit)
    where, params = where_clause(flt)
    tail = "" if limit is None else f" LIMIT {int(limit)}"
    if flt.sort == "source":
        return _ids_by_source(db, flt, where, params, tail)
    ids: list[int] = []
    for condition, order in order_parts(flt):
        sql = f"SELECT i.id FROM items i WHERE {where} AND {condition} ORDER BY {order}{tail}"
        ids += [row[0] for row in db.execute(sql, params)]
    return ids if limit is None else ids[:limit]


def _ids_by_source(db: Database, flt: ItemFilter, where: str, params: list[object],
                   tail: str) -> list[int]:
    """Sources by title, each one's items newest first: a walk of two indexes instead of sorting every row."""
    direction = "DESC" if flt.reverse else "ASC"
    sql = (f"SELECT i.id FROM sources s JOIN items i ON i.source_id = s.id WHERE {where} "
           f"ORDER BY s.title COLLATE NOCASE {direction}, s.id {direction}, i.published DESC, i.id DESC{tail}")
    ids = [row[0] for row in db.execute(sql, params)]
    orphans = db.execute(f"SELECT i.id FROM items i WHERE i.source_id IS NULL AND {where} "
                         f"ORDER BY i.published DESC, i.id DESC{tail}", params)
    return ids + [row[0] for row in orphans]


def last_episode_left(db: Database) -> Item | None:
    """The episode listened to last, if it was left part-way (not played to its end): a restart brings it
    back paused there."""
    row = db.execute(f"SELECT {_COLUMNS} FROM {_FROM} WHERE i.kind = 'episode' AND i.last_played IS NOT NULL "
                     "ORDER BY i.last_played DESC, i.id DESC LIMIT 1").fetchone()
    if row is None or row[10] or row[9] <= 0:  # played, or never got past its start
        return None
    return _with_tags(db, [row])[0]


def has_items(db: Database) -> bool:
    """Whether the library holds any item at all (one row read, whatever its size)."""
    return db.execute("SELECT 1 FROM items LIMIT 1").fetchone() is not None


def count_items(db: Database, flt: ItemFilter) -> int:
    """How many items match the filter."""
    if flt.text.strip():
        return len(item_ids(db, flt))
    where, params = where_clause(flt)
    return int(db.execute(f"SELECT count(*) FROM items i WHERE {where}", params).fetchone()[0])


def played_margin(duration: float, played_within: float) -> float:
    """How close to its end an episode of ``duration`` seconds counts as played."""
    return max(PLAYED_MARGIN, min(played_within, duration * PLAYED_MAX_SHARE))


def save_progress(db: Database, update: ProgressUpdate, played_within: float = 0.0) -> None:
    """Store a playback position; an episode that reached its end (or within ``played_within`` seconds of
    it, see played_margin) is marked played and rewound."""
    from earmark.core.sample_clips import clips_prefix  # importlib.resources: with the first progress saved

    duration = update.duration if update.duration and update.duration > 0 else None
    with write_transaction(db):
        if duration is None:
            row = db.execute("SELECT coalesce(media_duration, duration) FROM items WHERE id = ?",
                             [update.item_id]).fetchone()
            known = row[0] if row else None
        else:
            known = duration
        at_end = update.ended or (known is not None and update.position >= known - played_margin(known, played_within))
        from earmark.core.db.history import record_play  # deferred: a start plays nothing before its first frame

        record_play(db, update.item_id, max(0.0, update.position), at_end, speed=update.speed,
                    silence_saved=update.silence_saved)
        cursor = db.execute(
            """UPDATE items SET position = ?, last_played = ?,
                   played = CASE WHEN ? THEN 1 ELSE played END,
                   media_duration = CASE WHEN substr(coalesce(enclosure_url, ''), 1, ?) = ? THEN media_duration
                                         ELSE coalesce(?, media_duration) END
               WHERE id = ?""",  # a sample clip's length is not its episode's: the feed's duration stays
            [0.0 if at_end else max(0.0, update.position), now_iso(), at_end, len(clips_prefix()), clips_prefix(),
             duration, update.item_id],
        )
        if cursor.rowcount == 0:
            raise NotFoundError(f"There is no item with id {update.item_id}.")



def mark_played(db: Database, item_ids: Iterable[int], played: bool) -> None:
    """Mark items played (rewound, as if played to the end) or unplayed (the position is kept)."""
    ids = [(i,) for i in item_ids]
    with write_transaction(db):
        if played:
            now = now_iso()
            db.conn.executemany("UPDATE items SET played = 1, position = 0, last_played = ? WHERE id = ?",
                                [(now, *i) for i in ids])
        else:
            db.conn.executemany("UPDATE items SET played = 0 WHERE id = ?", ids)


def set_favourite(db: Database, item_ids: Iterable[int], favourite: bool) -> None:
    """Mark items as favourites (or not)."""
    with write_transaction(db):
        for item_id in item_ids:
            if db.execute("UPDATE items SET favourite = ? WHERE id = ?", [favourite, item_id]).rowcount == 0:
                raise NotFoundError(f"There is no item with id {item_id}.")
