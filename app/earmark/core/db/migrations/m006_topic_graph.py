"""Schema 6: the topic graph (feed-declared relations, key terms, links, relations, layout)."""

from __future__ import annotations

import sqlite3


def m006_topic_graph(conn: sqlite3.Connection) -> None:
    """The topic graph: feed-declared relations (podcast:remoteItem, podcast:podroll), each item's key terms,
    links and names, the related items worked out from them, which items need working out again, and the
    graph's layout."""
    statements = [
        "ALTER TABLE items ADD COLUMN remote_items TEXT NOT NULL DEFAULT '[]'",  # JSON, as the feed gave them
        "ALTER TABLE sources ADD COLUMN podroll TEXT NOT NULL DEFAULT '[]'",
        # An item's strongest TF-IDF terms and key phrases (rank 0 first): its text vector and its topics.
        """CREATE TABLE item_terms (
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            term TEXT NOT NULL,
            weight REAL NOT NULL,
            rank INTEGER NOT NULL,
            PRIMARY KEY (item_id, term)
        ) WITHOUT ROWID""",
        "CREATE INDEX item_terms_by_term ON item_terms (term, item_id, weight)",
        # How many items had each term when the vectors were last built in full (for weighting new items).
        """CREATE TABLE term_counts (
            term TEXT PRIMARY KEY,
            items INTEGER NOT NULL,
            label TEXT,  -- how the term is usually written, when that differs (``cuda graphs`` for ``cuda graph``)
            topic INTEGER NOT NULL DEFAULT 0  -- whether the term names a topic (not just any word)
        ) WITHOUT ROWID""",
        # What an item's text points at ('url:…', 'slug:…', 'title:…'), and how: 'link' (it links there),
        # 'first' (take that first), 'before' (take this before that), 'remote' (podcast:remoteItem).
        """CREATE TABLE item_links (
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            target TEXT NOT NULL,
            how TEXT NOT NULL,
            PRIMARY KEY (item_id, target, how)
        ) WITHOUT ROWID""",
        "CREATE INDEX item_links_by_target ON item_links (target)",
        # The names an item answers to, in the same form as item_links.target.
        """CREATE TABLE item_keys (
            key TEXT NOT NULL,
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            PRIMARY KEY (key, item_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX item_keys_by_item ON item_keys (item_id)",
        # Resolved citations: ``item_id`` points at ``cited_id`` in the way ``how`` says.
        """CREATE VIEW citations AS
            SELECT DISTINCT l.item_id AS item_id, k.item_id AS cited_id, l.how AS how
            FROM item_links l JOIN item_keys k ON k.key = l.target WHERE k.item_id != l.item_id""",
        # Each item's most related items, strongest first; ``reasons`` is a JSON list of sentences-in-brief.
        """CREATE TABLE relations (
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            other_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            score REAL NOT NULL,
            reasons TEXT NOT NULL DEFAULT '[]',
            PRIMARY KEY (item_id, other_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX relations_by_other ON relations (other_id)",
        # Items whose terms, links and relations are worked out; changes since are queued in graph_dirty.
        """CREATE TABLE graph_index (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            indexed TEXT NOT NULL
        )""",
        "CREATE TABLE graph_dirty (seq INTEGER PRIMARY KEY AUTOINCREMENT, item_id INTEGER NOT NULL)",
        "CREATE TABLE graph_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        # Where each item's node sits, so that the picture stays the same from one session to the next.
        """CREATE TABLE graph_layout (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            x REAL NOT NULL,
            y REAL NOT NULL
        )""",
        """CREATE TRIGGER items_graph_dirty AFTER UPDATE OF title, text, description, content, remote_items ON items
           WHEN new.title IS NOT old.title OR new.text IS NOT old.text OR new.description IS NOT old.description
                OR new.content IS NOT old.content OR new.remote_items IS NOT old.remote_items BEGIN
            INSERT INTO graph_dirty (item_id) VALUES (new.id);
        END""",
    ]
    for event in ("INSERT", "UPDATE OF cues"):
        statements.append(
            f"""CREATE TRIGGER transcripts_{event.split()[0].lower()}_graph_dirty AFTER {event} ON transcripts BEGIN
                INSERT INTO graph_dirty (item_id) VALUES (new.item_id);
            END"""
        )
    for event, ref in (("INSERT", "new"), ("DELETE", "old")):
        statements.append(
            f"""CREATE TRIGGER item_tags_{event.lower()}_graph_dirty AFTER {event} ON item_tags BEGIN
                INSERT INTO graph_dirty (item_id) VALUES ({ref}.item_id);
            END"""
        )
        statements.append(
            f"""CREATE TRIGGER source_tags_{event.lower()}_graph_dirty AFTER {event} ON source_tags BEGIN
                INSERT INTO graph_dirty (item_id) SELECT id FROM items WHERE source_id = {ref}.source_id;
            END"""
        )
    for statement in statements:
        conn.execute(statement)
