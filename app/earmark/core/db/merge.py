"""Storing a parsed feed: the source's fields and a diff-based merge of its entries into the library."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from earmark.core.db.bulk import ItemKey, insert_items, settle, update_items
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.search_words import learnt
from earmark.core.db.show_notes import pack, same_markup
from earmark.core.db.sources import follow_feed_title
from earmark.core.html import search_text
from earmark.core.models import EntryData, FeedData, SubscribeResult
from earmark.core.records import record
from earmark.core.timefmt import now_iso

# Feed-owned item columns: a re-read overwrites these and nothing else.
FEED_FIELDS = ("kind", "guid", "title", "url", "enclosure_url", "enclosure_type", "published", "duration",
               "author", "description", "content", "image_url", "season", "episode", "episode_type", "explicit",
               "chapters_url", "chapters_type", "transcripts", "persons", "remote_items", "enclosure_length")
# Of those, the last ones are no news: when only they change (items stored before schema 11 learning their
# enclosure's length), they are written alone, not counted as updated nor searched and related again.
_QUIET = len(FEED_FIELDS) - 1
_SOURCE_FIELDS = ("kind", "title", "link", "description", "author", "image_url", "podcast_guid", "itunes_type",
                  "explicit", "locked", "funding", "persons", "podroll")
_KEEP_USERS = {"title": "title = CASE WHEN user_title THEN title ELSE ? END"}  # a title the user chose stays
_ENCLOSURE = FEED_FIELDS.index("enclosure_url")
_TITLE = FEED_FIELDS.index("title")
_PUBLISHED = FEED_FIELDS.index("published")
_DESCRIPTION, _CONTENT = FEED_FIELDS.index("description"), FEED_FIELDS.index("content")
_feed_values: Callable[[EntryData], tuple[object, ...]] = attrgetter(*FEED_FIELDS)


@record
class CacheState:
    """What the next conditional fetch of a feed needs: the server's validators and the body's hash."""

    etag: str | None = None
    last_modified: str | None = None
    content_hash: str | None = None


def store_feed(db: Database, url: str, feed: FeedData, cache: CacheState | None = None) -> SubscribeResult:
    """Create or update the source for ``url`` and merge the feed's entries, in one transaction.

    Items keep the user's state (position, played, tags, notes); only feed-owned fields change. A
    successful read clears the source's error and back-off.
    """
    cache = cache or CacheState()
    with write_transaction(db):
        checked = now_iso()
        row = db.execute("SELECT id FROM sources WHERE url = ?", [url]).fetchone()
        values = [getattr(feed, name) for name in _SOURCE_FIELDS]
        state = [checked, cache.etag, cache.last_modified, cache.content_hash]
        if row:
            source_id = int(row[0])
            follow_feed_title(db, source_id, feed.title)
            assignments = ", ".join(_KEEP_USERS.get(name, f"{name} = ?") for name in _SOURCE_FIELDS)
            db.execute(
                f"""UPDATE sources SET {assignments}, last_checked = ?, etag = ?, last_modified = ?,
                       content_hash = ?, status = 'ok', last_error = NULL, failures = 0, retry_after = NULL
                    WHERE id = ?""",
                [*values, *state, source_id],
            )
        else:
            columns = ", ".join(_SOURCE_FIELDS)
            cursor = db.execute(
                f"""INSERT INTO sources ({columns}, last_checked, etag, last_modified, content_hash, url, added)
                    VALUES ({', '.join('?' * (len(_SOURCE_FIELDS) + 6))})""",
                [*values, *state, url, checked],
            )
            source_id = int(cursor.lastrowid or 0)
        shown = db.execute("SELECT title FROM sources WHERE id = ?", [source_id]).fetchone()[0]
        result = SubscribeResult(source_id=source_id, title=shown)
        result.item_ids = merge_entries(
            db, source_id, feed.entries, result, rematch=True,
            on_new=lambda: db.execute("UPDATE sources SET last_new = ? WHERE id = ?", [checked, source_id]))
    return result


def merge_entries(db: Database, source_id: int | None, entries: list[EntryData],
                  result: SubscribeResult, rematch: bool = False,
                  on_new: Callable[[], object] | None = None) -> dict[str, int]:
    """Insert new entries and update changed ones, each kind with one statement (core/db/bulk.py); unchanged ones
    cost no write.

    With ``rematch`` (``entries`` is a whole feed), an entry whose identity is unknown may take over a stored
    item that the feed no longer names, matched by enclosure URL or by title and day: a feed that changes
    its guid scheme keeps its back catalogue instead of doubling it. Returns every entry's item id by identity,
    in the entries' order. Inside ``bulk.inserted_together`` the new items are inserted with the batch's: their
    ids (in the dict returned and in ``result.new``) are filled in then, and ``on_new`` (called once new items
    are inserted) runs then.
    """
    settle(db, source_id)  # a feed stored twice in one batch: its items of the first time count as existing
    existing = {
        row[0]: (row[1], tuple(row[2:]))
        for row in db.execute(
            f"SELECT identity, id, {', '.join(FEED_FIELDS)} FROM items WHERE source_id IS ?", [source_id]
        )
    }
    named = {entry.identity for entry in entries}
    # Only items the feed no longer names can be taken over (none for a feed stored for the first time).
    orphans = _Orphans(existing, named) if rematch and existing.keys() - named else None
    order: dict[str, EntryData] = {}
    new: list[EntryData] = []
    rows: list[tuple[object, ...]] = []
    changed: list[list[object]] = []
    quiet: list[list[object]] = []
    added = now_iso()
    for entry in entries:
        if entry.identity in order:  # a feed that repeats an item: the first one wins
            continue
        order[entry.identity] = entry
        values = _feed_values(entry)
        if entry.identity not in existing and orphans is not None:
            orphans.adopt(db, entry, values)
        if entry.identity not in existing:
            new.append(entry)
            text = _search_text(entry)
            rows.append((source_id, entry.identity, *_to_store(entry, values, text), text, added))
            continue
        item_id, stored = existing[entry.identity]
        values = _as_stored(stored, values)
        if stored[:_QUIET] == values[:_QUIET] and stored != values:
            quiet.append([item_id, *values[_QUIET:]])
        elif stored != values:
            text = _search_text(entry)
            changed.append([item_id, *_to_store(entry, values, text), text])
            result.updated.append(item_id)
    if quiet:
        update_items(db, FEED_FIELDS[_QUIET:], quiet)
    if changed:
        update_items(db, (*FEED_FIELDS, "text"), changed)
    ids = {identity: existing[identity][0] if identity in existing else 0 for identity in order}
    if not rows:
        return ids

    def found(inserted: dict[ItemKey, int]) -> None:
        for entry in new:
            ids[entry.identity] = inserted[(source_id, entry.identity)]
        result.new.extend(ids[entry.identity] for entry in new)
        learnt(db.conn, [(ids[entry.identity], entry.vocabulary) for entry in new
                         if entry.vocabulary is not None and entry.text is not None])
        if on_new is not None:
            on_new()

    insert_items(db, ("source_id", "identity", *FEED_FIELDS, "text", "added"), rows, found)
    return ids


class _Orphans:
    """Stored items the feed no longer names, findable by enclosure URL or by title and day."""

    def __init__(self, existing: dict[str, tuple[int, tuple[object, ...]]], named: set[str]) -> None:
        self._existing = existing
        self._by_key: dict[tuple[str, object], str] | None = None
        self._named = named

    def adopt(self, db: Database, entry: EntryData, values: tuple[object, ...]) -> None:
        """Re-key a matching orphan to ``entry.identity`` (in the library and in ``existing``)."""
        if self._by_key is None:  # built on the first unknown entry only: most refreshes never need it
            self._by_key = {}
            for identity, (_, stored) in self._existing.items():
                if identity not in self._named:
                    for key in _keys(stored):
                        self._by_key.setdefault(key, identity)
        for key in _keys(values):
            old = self._by_key.pop(key, None)
            if old is not None and old in self._existing:
                db.execute("UPDATE items SET identity = ? WHERE id = ?", [entry.identity, self._existing[old][0]])
                self._existing[entry.identity] = self._existing.pop(old)
                return


def _keys(values: tuple[object, ...]) -> list[tuple[str, object]]:
    keys: list[tuple[str, object]] = []
    if values[_ENCLOSURE]:
        keys.append(("enclosure", values[_ENCLOSURE]))
    published = values[_PUBLISHED]
    if isinstance(published, str) and published:
        keys.append(("title+day", (values[_TITLE], published[:10])))
    return keys


def _as_stored(stored: tuple[object, ...], values: tuple[object, ...]) -> tuple[object, ...]:
    """An entry's feed fields to compare with a row's: its show notes as the row stores them where they are the
    same (stored once, as a pattern: core/db/show_notes.py)."""
    description, content = stored[_DESCRIPTION], stored[_CONTENT]
    if not isinstance(description, bytes) and not isinstance(content, bytes):
        return values
    compared = list(values)
    for at, kept in ((_DESCRIPTION, description), (_CONTENT, content)):
        if isinstance(kept, bytes) and same_markup(kept, values[at]):  # type: ignore[arg-type]
            compared[at] = kept
    return tuple(compared)


def _to_store(entry: EntryData, values: tuple[object, ...], text: str) -> list[object]:
    """The entry's feed fields as stored: its show notes as a pattern over its text where that is smaller."""
    stored = list(values)
    if entry.stored_markup is not None and entry.text == text:
        stored[_DESCRIPTION], stored[_CONTENT] = entry.stored_markup
    else:
        stored[_DESCRIPTION], stored[_CONTENT] = pack(entry.description, text), pack(entry.content, text)
    return stored


def _search_text(entry: EntryData) -> str:
    return entry.text if entry.text is not None else search_text(entry.description, entry.content)
