"""Schema migrations: a ladder of named steps on PRAGMA user_version, each in one transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

Migration = Callable[[sqlite3.Connection], None]


def m001_initial(conn: sqlite3.Connection) -> None:
    """Sources, items (episodes and articles alike), tags, notes, settings and the search index."""
    statements = [
        """CREATE TABLE sources (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('podcast', 'site')),
            title TEXT NOT NULL,
            url TEXT UNIQUE,
            link TEXT,
            description TEXT NOT NULL DEFAULT '',
            author TEXT,
            image_url TEXT,
            etag TEXT,
            last_modified TEXT,
            status TEXT NOT NULL DEFAULT 'ok',
            last_error TEXT,
            last_checked TEXT,
            added TEXT NOT NULL
        )""",
        # Feed-owned columns are overwritten by a refresh; position, played, last_played and media_duration
        # (the length the player measured) belong to the user and are written only by playback and the user.
        """CREATE TABLE items (
            id INTEGER PRIMARY KEY,
            source_id INTEGER REFERENCES sources(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('episode', 'article')),
            identity TEXT NOT NULL,
            guid TEXT,
            title TEXT NOT NULL,
            url TEXT,
            enclosure_url TEXT,
            enclosure_type TEXT,
            published TEXT,
            duration REAL,
            author TEXT,
            description TEXT NOT NULL DEFAULT '',
            content TEXT NOT NULL DEFAULT '',
            text TEXT NOT NULL DEFAULT '',
            added TEXT NOT NULL,
            media_duration REAL,
            position REAL NOT NULL DEFAULT 0,
            played INTEGER NOT NULL DEFAULT 0,
            last_played TEXT,
            UNIQUE (source_id, identity)
        )""",
        "CREATE INDEX items_by_published ON items (published DESC, id DESC)",
        "CREATE INDEX items_by_source ON items (source_id, published DESC, id DESC)",
        "CREATE INDEX items_by_kind ON items (kind, published DESC, id DESC)",
        "CREATE INDEX items_by_enclosure ON items (source_id, enclosure_url)",
        """CREATE TABLE tags (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE
        )""",
        """CREATE TABLE item_tags (
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
            PRIMARY KEY (item_id, tag_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX item_tags_by_tag ON item_tags (tag_id, item_id)",
        """CREATE TABLE source_tags (
            source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
            tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
            PRIMARY KEY (source_id, tag_id)
        ) WITHOUT ROWID""",
        """CREATE TABLE notes (
            id INTEGER PRIMARY KEY,
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            at REAL,
            text TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )""",
        "CREATE INDEX notes_by_item ON notes (item_id, at)",
        """CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
        "CREATE VIRTUAL TABLE search_index USING fts5(title, text, notes, tokenize = 'unicode61 remove_diacritics 2')",
        """CREATE TRIGGER items_indexed AFTER INSERT ON items BEGIN
            INSERT INTO search_index (rowid, title, text, notes) VALUES (new.id, new.title, new.text, '');
        END""",
        """CREATE TRIGGER items_reindexed AFTER UPDATE OF title, text ON items BEGIN
            UPDATE search_index SET title = new.title, text = new.text WHERE rowid = new.id;
        END""",
        """CREATE TRIGGER items_unindexed AFTER DELETE ON items BEGIN
            DELETE FROM search_index WHERE rowid = old.id;
        END""",
    ]
    for statement in statements + _notes_triggers():
        conn.execute(statement)


def m002_refresh_and_podcast_namespaces(conn: sqlite3.Connection) -> None:
    """Per-feed refresh state (validators, credentials, back-off) and the iTunes/Podcasting 2.0 fields."""
    columns = {
        "sources": [
            "content_hash TEXT",  # of the last body parsed: an unchanged body is not parsed again
            "auth_user TEXT",
            "auth_password TEXT",
            "failures INTEGER NOT NULL DEFAULT 0",  # failed checks in a row, for the back-off
            "retry_after TEXT",  # automatic refreshes leave the feed alone until then
            "last_new TEXT",  # when the last new item arrived
            "podcast_guid TEXT",
            "itunes_type TEXT",
            "explicit INTEGER",
            "locked INTEGER",
            "funding TEXT NOT NULL DEFAULT '[]'",  # JSON lists, as the feed gave them
            "persons TEXT NOT NULL DEFAULT '[]'",
        ],
        "items": [
            "image_url TEXT",
            "season INTEGER",
            "episode INTEGER",
            "episode_type TEXT",
            "explicit INTEGER",
            "chapters_url TEXT",
            "chapters_type TEXT",
            "transcripts TEXT NOT NULL DEFAULT '[]'",
            "persons TEXT NOT NULL DEFAULT '[]'",
        ],
    }
    for table, definitions in columns.items():
        for definition in definitions:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {definition}")
    conn.execute("CREATE INDEX items_by_title ON items (source_id, title)")


def m003_tags_search_and_smart_lists(conn: sqlite3.Connection) -> None:
    """Tag colours, favourites, saved searches, sort indexes, and a search index with room for transcripts
    and highlights (FTS5 tables cannot gain columns, so the index is rebuilt from the items and notes)."""
    conn.execute("ALTER TABLE tags ADD COLUMN colour TEXT")
    conn.execute("ALTER TABLE items ADD COLUMN favourite INTEGER NOT NULL DEFAULT 0")
    conn.execute(
        """CREATE TABLE smart_lists (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            filter TEXT NOT NULL,
            created TEXT NOT NULL
        )"""
    )
    # One index per sort order, each carrying the columns filters test, so that listing 100,000 items in any
    # order with any filter reads only the index (a non-covering scan fetches every large row: 10x slower).
    carried = "kind, source_id, played, position, favourite, published, duration, media_duration, last_played"
    for name, key in (
        ("items_listing", "published DESC, id DESC"),
        ("items_by_title_sort", "title COLLATE NOCASE, id"),
        ("items_by_last_played", "last_played DESC, id DESC"),
        ("items_by_duration_up", "coalesce(media_duration, duration, 1e12), id"),  # unknown lengths last
        ("items_by_duration_down", "coalesce(media_duration, duration, -1) DESC, id DESC"),
    ):
        conn.execute(f"CREATE INDEX {name} ON items ({key}, {carried})")
    conn.execute("CREATE INDEX sources_by_title ON sources (title COLLATE NOCASE, id)")
    # Search results are filtered row by row: by id through this index instead of the wide rows (3-4x faster).
    conn.execute(f"CREATE INDEX items_filters ON items (id, {carried})")
    for trigger in ("items_indexed", "items_reindexed", "items_unindexed", "notes_insert_indexed",
                    "notes_update_indexed", "notes_delete_indexed"):
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("DROP TABLE search_index")
    conn.execute(
        "CREATE VIRTUAL TABLE search_index USING fts5(title, text, notes, transcript, highlights, "
        "prefix = '2 3', tokenize = 'unicode61 remove_diacritics 2')"  # prefix indexes: search as you type
    )
    conn.execute(
        """INSERT INTO search_index (rowid, title, text, notes, transcript, highlights)
           SELECT i.id, i.title, i.text,
                  coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.item_id = i.id), ''), '', ''
           FROM items i"""
    )
    for statement in _search_triggers():
        conn.execute(statement)


def _search_triggers() -> list[str]:
    """Keep the search index (five columns) in step with items (title, text) and notes."""
    statements = [
        """CREATE TRIGGER items_indexed AFTER INSERT ON items BEGIN
            INSERT INTO search_index (rowid, title, text, notes, transcript, highlights)
            VALUES (new.id, new.title, new.text, '', '', '');
        END""",
        """CREATE TRIGGER items_reindexed AFTER UPDATE OF title, text ON items BEGIN
            UPDATE search_index SET title = new.title, text = new.text WHERE rowid = new.id;
        END""",
        """CREATE TRIGGER items_unindexed AFTER DELETE ON items BEGIN
            DELETE FROM search_index WHERE rowid = old.id;
        END""",
    ]
    return statements + _notes_triggers()


def _notes_triggers() -> list[str]:
    """Keep the search index's notes column in step with the notes table."""
    return [
        f"""CREATE TRIGGER notes_{event.lower()}_indexed AFTER {event} ON notes BEGIN
            UPDATE search_index SET notes = coalesce(
                (SELECT group_concat(text, ' ') FROM notes WHERE item_id = {ref}.item_id), '')
            WHERE rowid = {ref}.item_id;
        END"""
        for event, ref in (("INSERT", "new"), ("UPDATE", "new"), ("DELETE", "old"))
    ]


def m004_notes_transcripts_and_history(conn: sqlite3.Connection) -> None:
    """Transcript quotes on notes, the cache of fetched transcripts (searchable), and the listening history."""
    statements = [
        # The transcript sentences around the note's time, kept with the note (the transcript may change).
        "ALTER TABLE notes ADD COLUMN quote TEXT NOT NULL DEFAULT ''",
        "CREATE INDEX notes_by_created ON notes (created DESC, id DESC)",
        # A cache: transcripts are fetched once per item; ``cues`` is JSON [[start, end, text, speaker]...].
        """CREATE TABLE transcripts (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            type TEXT NOT NULL DEFAULT '',
            fetched TEXT NOT NULL,
            cues TEXT NOT NULL DEFAULT '[]',
            skipped INTEGER NOT NULL DEFAULT 0,
            error TEXT
        )""",
        # One row per listening session: what was played, when, and from where to where.
        """CREATE TABLE play_history (
            id INTEGER PRIMARY KEY,
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            started TEXT NOT NULL,
            updated TEXT NOT NULL,
            start_position REAL NOT NULL DEFAULT 0,
            position REAL NOT NULL DEFAULT 0,
            finished INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX play_history_by_item ON play_history (item_id, updated)",
        "CREATE INDEX play_history_by_time ON play_history (updated DESC, id DESC)",
    ]
    # The transcript's text goes into the search index's transcript column (m003), kept in step with the cache.
    spoken = ("CASE WHEN json_valid(new.cues) THEN coalesce((SELECT group_concat(json_extract(value, '$[2]'), ' ') "
              "FROM json_each(new.cues)), '') ELSE '' END")
    for event in ("INSERT", "UPDATE OF cues"):
        statements.append(
            f"""CREATE TRIGGER transcripts_{event.split()[0].lower()}_indexed AFTER {event} ON transcripts BEGIN
                UPDATE search_index SET transcript = {spoken} WHERE rowid = new.item_id;
            END"""
        )
    statements.append(
        """CREATE TRIGGER transcripts_delete_indexed AFTER DELETE ON transcripts BEGIN
            UPDATE search_index SET transcript = '' WHERE rowid = old.item_id;
        END"""
    )
    for statement in statements:
        conn.execute(statement)


def m005_queue_downloads_playback_prefs(conn: sqlite3.Connection) -> None:
    """The "Up next" queue, episode downloads, cached podcast:chapters and per-podcast playback settings."""
    statements = [
        """CREATE TABLE queue (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            rank REAL NOT NULL
        )""",
        "CREATE INDEX queue_by_rank ON queue (rank)",
        # status: queued, downloading, paused, done, failed. ``received`` bytes are on disk in ``path``
        # (a .part file until done), so a paused or interrupted download resumes with an HTTP Range request.
        """CREATE TABLE downloads (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            path TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'queued',
            size INTEGER,
            received INTEGER NOT NULL DEFAULT 0,
            error TEXT,
            added TEXT NOT NULL,
            finished TEXT
        )""",
        "CREATE INDEX downloads_by_status ON downloads (status)",
        # podcast:chapters JSON fetched from ``url`` (refetched when the feed names another URL).
        """CREATE TABLE chapters_cache (
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            chapters TEXT NOT NULL,
            fetched TEXT NOT NULL
        )""",
        "ALTER TABLE sources ADD COLUMN playback_speed REAL",  # NULL: the global playback.speed
        "ALTER TABLE sources ADD COLUMN skip_intro REAL NOT NULL DEFAULT 0",
        "ALTER TABLE sources ADD COLUMN skip_outro REAL NOT NULL DEFAULT 0",
        "ALTER TABLE sources ADD COLUMN voice_boost INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE sources ADD COLUMN auto_download INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX items_in_progress ON items (last_played) WHERE position > 0 AND played = 0",
    ]
    for statement in statements:
        conn.execute(statement)


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



def m007_reading_list(conn: sqlite3.Connection) -> None:
    """The reading list: archived articles, images allowed per article, why a saved article is only a link,
    reading time for the articles already stored, and highlights (notes anchored to quoted article text)."""
    statements = [
        "ALTER TABLE items ADD COLUMN archived INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE items ADD COLUMN images_allowed INTEGER NOT NULL DEFAULT 0",  # remote images: per article
        "ALTER TABLE items ADD COLUMN fetch_problem TEXT",  # set while a saved article is only its link
        # The Archive lists few items out of many: a partial index walks only those, in order (Continue Reading
        # has items_in_progress, of m005).
        "CREATE INDEX items_archived ON items (kind, published DESC, id DESC) WHERE archived = 1",
        # A highlight is a note whose ``quote`` is the highlighted text and ``anchor`` (JSON: prefix, suffix and
        # start of the quote in the article's text) finds that text again when the article is rendered anew.
        "ALTER TABLE notes ADD COLUMN anchor TEXT",
        # An article's estimated reading time is its duration (230 words a minute; words counted by spaces here,
        # by Python's split() for articles stored from now on).
        """UPDATE items SET duration = round((length(text) - length(replace(replace(text, char(10), ''), ' ', ''))
                                              + 1) * 60.0 / 230)
           WHERE kind = 'article' AND duration IS NULL AND trim(text) != ''""",
    ]
    # The search index's highlights column (m003) holds the highlighted text, kept in step with the notes.
    highlighted = ("coalesce((SELECT group_concat(quote, ' ') FROM notes "
                   "WHERE item_id = {ref}.item_id AND anchor IS NOT NULL), '')")
    for event, ref in (("INSERT", "new"), ("UPDATE OF quote, anchor", "new"), ("DELETE", "old")):
        statements.append(
            f"""CREATE TRIGGER notes_{event.split()[0].lower()}_highlighted AFTER {event} ON notes BEGIN
                UPDATE search_index SET highlights = {highlighted.format(ref=ref)} WHERE rowid = {ref}.item_id;
            END"""
        )
    for statement in statements:
        conn.execute(statement)


MIGRATIONS: list[Migration] = [
    m001_initial,
    m002_refresh_and_podcast_namespaces,
    m003_tags_search_and_smart_lists,
    m004_notes_transcripts_and_history,
    m005_queue_downloads_playback_prefs,
    m006_topic_graph,
    m007_reading_list,
]


def schema_version(conn: sqlite3.Connection) -> int:
    """The library's schema version (0 for a new, empty file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def apply_migrations(conn: sqlite3.Connection) -> None:
    """Run every migration the library has not had yet, each in its own transaction."""
    for number, migration in enumerate(MIGRATIONS, start=1):
        if schema_version(conn) >= number:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(conn) < number:  # another process may have migrated while we waited
                migration(conn)
            conn.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
