"""Schema 15: one subscription per podcast.

Earlier versions subscribed to a podcast again when its address was written differently (``http://`` for
``https://``, a ``www.``, a trailing slash...) or carried the same ``podcast:guid``, doubling its episodes.
``source_addresses`` now keeps the other addresses a subscription is known by (core/feeds/identity.py), and the
duplicates already in a library are merged into one subscription: each episode's copies become one, keeping every
note, highlight, tag, queue entry, download and play of either, the position of the copy played last winning."""

from __future__ import annotations

import sqlite3

from earmark.core.db.search_words import learn_pending
from earmark.core.urls import address_key

# Rows that belong to an episode and move with it to the copy kept (when that copy has none of its own).
_ITEM_STATE = ("notes", "item_tags", "play_history", "queue", "downloads", "transcripts", "silences",
               "transcribe_queue", "chapters_cache")


def m015_one_subscription_per_podcast(conn: sqlite3.Connection) -> None:
    """Create ``source_addresses`` and merge the subscriptions that name one podcast."""
    conn.execute("""CREATE TABLE source_addresses (
        address TEXT PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE
    ) WITHOUT ROWID""")
    conn.execute("CREATE INDEX source_addresses_by_source ON source_addresses (source_id)")
    item_tables = _referring(conn, "items")
    for duplicate, kept in _duplicates(conn):
        _merge(conn, duplicate, kept, item_tables)
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


def _referring(conn: sqlite3.Connection, table: str) -> list[tuple[str, str]]:
    """Every (table, column) whose foreign key names ``table``."""
    names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [(name, key[3]) for name in names
            for key in conn.execute(f"PRAGMA foreign_key_list('{name}')") if key[2] == table]


def _merge(conn: sqlite3.Connection, duplicate: int, kept: int, item_tables: list[tuple[str, str]]) -> None:
    """Merge the subscription ``duplicate`` into ``kept``, then delete it."""
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS merged_items (copy INTEGER PRIMARY KEY, kept INTEGER NOT NULL)")
    conn.execute("DELETE FROM merged_items")
    conn.execute("""INSERT INTO merged_items SELECT d.id, k.id FROM items d JOIN items k
                    ON k.source_id = ? AND k.identity = d.identity WHERE d.source_id = ?""", [kept, duplicate])
    conn.execute("""UPDATE items SET position = d.position, played = d.played, last_played = d.last_played,
                        media_duration = coalesce(d.media_duration, items.media_duration)
                    FROM merged_items m JOIN items d ON d.id = m.copy
                    WHERE items.id = m.kept AND coalesce(d.last_played, '') > coalesce(items.last_played, '')""")
    conn.execute("""UPDATE items SET favourite = 1 FROM merged_items m JOIN items d ON d.id = m.copy
                    WHERE items.id = m.kept AND d.favourite AND NOT items.favourite""")
    conn.execute("""DELETE FROM downloads WHERE status != 'done' AND item_id IN (SELECT m.kept FROM merged_items m
                    JOIN downloads d ON d.item_id = m.copy AND d.status = 'done')""")  # a finished file wins
    conn.execute("""UPDATE queue SET rank = min(rank, (SELECT q.rank FROM merged_items m JOIN queue q
                    ON q.item_id = m.copy WHERE m.kept = queue.item_id))
                    WHERE item_id IN (SELECT m.kept FROM merged_items m JOIN queue q ON q.item_id = m.copy)""")
    for table in (*_ITEM_STATE, "sync_journal"):
        conn.execute(f"""UPDATE OR IGNORE {table} SET item_id = (SELECT kept FROM merged_items WHERE copy = item_id)
                         WHERE item_id IN (SELECT copy FROM merged_items)""")
    conn.execute("INSERT INTO graph_dirty (item_id) SELECT kept FROM merged_items")
    for table, column in item_tables:  # what was not moved (the kept copy had its own) goes with the copy
        conn.execute(f"DELETE FROM {table} WHERE {column} IN (SELECT copy FROM merged_items)")
    for table in ("search_pending", "graph_dirty"):  # no foreign key: their rows of the copies go by hand
        conn.execute(f"DELETE FROM {table} WHERE item_id IN (SELECT copy FROM merged_items)")
    conn.execute("DELETE FROM items WHERE id IN (SELECT copy FROM merged_items)")
    conn.execute("UPDATE items SET source_id = ? WHERE source_id = ?", [kept, duplicate])
    conn.execute("UPDATE OR IGNORE source_tags SET source_id = ? WHERE source_id = ?", [kept, duplicate])
    conn.execute("DELETE FROM source_tags WHERE source_id = ?", [duplicate])
    url = conn.execute("SELECT url FROM sources WHERE id = ?", [duplicate]).fetchone()[0]
    conn.execute("INSERT OR IGNORE INTO source_addresses (address, source_id) VALUES (?, ?)", [address_key(url), kept])
    conn.execute("DELETE FROM sources WHERE id = ?", [duplicate])
    conn.execute("DROP TABLE merged_items")
