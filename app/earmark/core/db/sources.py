"""Sources (podcasts, feeds, sites) and the merge of a feed's entries into the library."""

from __future__ import annotations

import sqlite_utils

from earmark.core.db.connection import write_transaction
from earmark.core.errors import NotFoundError
from earmark.core.html import to_text
from earmark.core.models import EntryData, FeedData, Source, SubscribeResult
from earmark.core.timefmt import now_iso

# Feed-owned item columns: a re-read overwrites these and nothing else.
_FEED_FIELDS = ("kind", "guid", "title", "url", "enclosure_url", "enclosure_type", "published", "duration",
                "author", "description", "content")


_SOURCE_QUERY = """SELECT s.id, s.kind, s.title, s.url, s.link, s.status, s.last_error, s.last_checked,
    (SELECT count(*) FROM items i WHERE i.source_id = s.id) FROM sources s"""


def list_sources(db: sqlite_utils.Database) -> list[Source]:
    """Every source with its item count, by title."""
    return [Source(*row) for row in db.execute(f"{_SOURCE_QUERY} ORDER BY s.title COLLATE NOCASE, s.id")]


def get_source(db: sqlite_utils.Database, source_id: int) -> Source:
    """The source with this id; NotFoundError when there is none."""
    row = db.execute(f"{_SOURCE_QUERY} WHERE s.id = ?", [source_id]).fetchone()
    if row is None:
        raise NotFoundError(f"There is no source with id {source_id}.")
    return Source(*row)


def site_source(db: sqlite_utils.Database, title: str, link: str | None = None) -> int:
    """The id of the site source with this title, created when new (sites have no feed URL)."""
    row = db.execute("SELECT id FROM sources WHERE kind = 'site' AND url IS NULL AND title = ?", [title]).fetchone()
    if row:
        return int(row[0])
    cursor = db.execute(
        "INSERT INTO sources (kind, title, link, added) VALUES ('site', ?, ?, ?)", [title, link, now_iso()]
    )
    return int(cursor.lastrowid or 0)


def store_feed(db: sqlite_utils.Database, url: str, feed: FeedData) -> SubscribeResult:
    """Create or update the source for ``url`` and merge the feed's entries, in one transaction.

    Items keep the user's state (position, played, tags, notes); only feed-owned fields change.
    """
    with write_transaction(db):
        checked = now_iso()
        row = db.execute("SELECT id FROM sources WHERE url = ?", [url]).fetchone()
        values = [feed.kind, feed.title, feed.link, feed.description, feed.author, feed.image_url, checked]
        if row:
            source_id = int(row[0])
            db.execute(
                """UPDATE sources SET kind = ?, title = ?, link = ?, description = ?, author = ?, image_url = ?,
                       last_checked = ?, status = 'ok', last_error = NULL WHERE id = ?""",
                [*values, source_id],
            )
        else:
            cursor = db.execute(
                """INSERT INTO sources (kind, title, link, description, author, image_url, last_checked, url, added)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                [*values, url, checked],
            )
            source_id = int(cursor.lastrowid or 0)
        result = SubscribeResult(source_id=source_id, title=feed.title)
        result.item_ids = merge_entries(db, source_id, feed.entries, result)
    return result


def merge_entries(db: sqlite_utils.Database, source_id: int | None, entries: list[EntryData],
                  result: SubscribeResult) -> dict[str, int]:
    """Insert new entries and update changed ones; unchanged ones cost no write.

    Returns the item id of every entry, keyed by identity.
    """
    existing = {
        row[0]: (row[1], tuple(row[2:]))
        for row in db.execute(
            f"SELECT identity, id, {', '.join(_FEED_FIELDS)} FROM items WHERE source_id IS ?", [source_id]
        )
    }
    ids: dict[str, int] = {}
    for entry in entries:
        if entry.identity in ids:  # a feed that repeats an item: the first one wins
            continue
        values = tuple(getattr(entry, name) for name in _FEED_FIELDS)
        if entry.identity not in existing:
            cursor = db.execute(
                f"""INSERT INTO items (source_id, identity, {', '.join(_FEED_FIELDS)}, text, added)
                    VALUES (?, ?, {', '.join('?' * len(_FEED_FIELDS))}, ?, ?)""",
                [source_id, entry.identity, *values, _search_text(entry), now_iso()],
            )
            ids[entry.identity] = int(cursor.lastrowid or 0)
            result.new.append(ids[entry.identity])
            continue
        item_id, stored = existing[entry.identity]
        ids[entry.identity] = item_id
        if stored != values:
            assignments = ", ".join(f"{name} = ?" for name in _FEED_FIELDS)
            db.execute(
                f"UPDATE items SET {assignments}, text = ? WHERE id = ?",
                [*values, _search_text(entry), item_id],
            )
            result.updated.append(item_id)
    return ids


def _search_text(entry: EntryData) -> str:
    return "\n\n".join(part for part in (to_text(entry.description), to_text(entry.content)) if part)


def record_failure(db: sqlite_utils.Database, url: str, message: str) -> None:
    """Note on an already subscribed source that its last check failed (new sources are not created)."""
    with write_transaction(db):
        db.execute(
            "UPDATE sources SET status = 'error', last_error = ?, last_checked = ? WHERE url = ?",
            [message, now_iso(), url],
        )
