"""Schema 15: one subscription per podcast.

Earlier versions subscribed to a podcast again when its address was written differently (``http://`` for
``https://``, a ``www.``, a trailing slash...) or carried the same ``podcast:guid``, doubling its episodes.
``source_addresses`` now keeps the other addresses a subscription is known by (core/feeds/identity.py), and the
duplicates already in a library are merged into one subscription (core/db/source_merge.py): each episode's copies
become one, keeping every note, highlight, tag, queue entry, download and play of either, the position of the copy
played last winning."""

from __future__ import annotations

import sqlite3

from earmark.core.db.search_words import learn_pending
from earmark.core.db.source_merge import merge_sources
from earmark.core.urls import address_key


def m015_one_subscription_per_podcast(conn: sqlite3.Connection) -> None:
    """Create ``source_addresses`` and merge the subscriptions that name one podcast."""
    conn.execute("""CREATE TABLE source_addresses (
        address TEXT PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE
    ) WITHOUT ROWID""")
    conn.execute("CREATE INDEX source_addresses_by_source ON source_addresses (source_id)")
    for duplicate, kept in _duplicates(conn):
        merge_sources(conn, duplicate, kept)
    learn_pending(conn)  # the words of the notes that moved, as every write transaction does


def _duplicates(conn: sqlite3.Connection) -> list[tuple[int, int]]:
    """(duplicate, kept) subscriptions: those with one address key or one podcast guid form a group, whose first
    working subscription is kept."""
    rows = conn.execute("SELECT id, url, podcast_guid, status FROM sources WHERE url IS NOT NULL").fetchall()
    group = {int(row[0]): int(row[0]) for row in rows}

    def root(source_id: int) -> int:
        while group[source_id] != source_id:
            source_id = group[source_id]
        return source_id

    first: dict[tuple[str, str], int] = {}
    for source_id, url, guid, _status in rows:
        for key in (("address", address_key(url)), ("guid", guid.strip() if guid else "")):
            if key[1]:
                other = first.setdefault(key, source_id)
                group[root(source_id)] = root(other)
    status = {int(row[0]): str(row[3]) for row in rows}
    members: dict[int, list[int]] = {}
    for source_id in sorted(group):
        members.setdefault(root(source_id), []).append(source_id)
    pairs = []
    for ids in members.values():
        kept = min(ids, key=lambda source_id: (status[source_id] != "ok", source_id))
        pairs += [(source_id, kept) for source_id in ids if source_id != kept]
    return pairs
