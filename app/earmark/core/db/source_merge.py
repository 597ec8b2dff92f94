"""Merging two subscriptions of one podcast into one: each episode's copies become one item, keeping every note,
highlight, tag, queue entry, download and play of either, the position of the copy played last winning. Used by the
migration that merges the duplicates libraries held (m015) and when a feed moves to an address another subscription
has."""

from __future__ import annotations

import sqlite3

from earmark.core.urls import address_key

# Rows that belong to an episode and move with it to the copy kept (when that copy has none of its own). Every other
# table referring to items holds what is worked out again from them (DERIVED); a test checks that each is one or the
# other, so that a new table of the user's is never dropped with a copy.
ITEM_STATE = ("notes", "item_tags", "play_history", "queue", "downloads", "transcripts", "silences",
              "transcribe_queue", "chapters_cache")
DERIVED = ("item_terms", "item_links", "item_keys", "item_concepts", "relations", "graph_index", "graph_layout",
           "sync_clock")


def referring(conn: sqlite3.Connection, table: str) -> list[tuple[str, str]]:
    """Every (table, column) whose foreign key names ``table``."""
    names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [(name, key[3]) for name in names
            for key in conn.execute(f"PRAGMA foreign_key_list('{name}')") if key[2] == table]


def merge_sources(conn: sqlite3.Connection, duplicate: int, kept: int) -> None:
    """Merge the subscription ``duplicate`` into ``kept``, then delete it (in the caller's transaction)."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
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
    for table in [name for name in (*ITEM_STATE, "sync_journal") if name in tables]:  # as the schema has them
        conn.execute(f"""UPDATE OR IGNORE {table} SET item_id = (SELECT kept FROM merged_items WHERE copy = item_id)
                         WHERE item_id IN (SELECT copy FROM merged_items)""")
    conn.execute("INSERT INTO graph_dirty (item_id) SELECT kept FROM merged_items")
    for table, column in referring(conn, "items"):  # what was not moved (the kept copy had its own) goes with the copy
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
