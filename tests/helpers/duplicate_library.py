"""Libraries as Earmark left them before it knew one podcast by all its addresses (the schema before
``m015_one_subscription_per_podcast``): the same podcast subscribed to twice or three times, the user's state
spread over the copies of its episodes. Written with plain SQL, as that version's code stored its rows."""

from __future__ import annotations

import random
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from earmark.core.db.migrations import MIGRATIONS
from earmark.core.db.migrations.m015_one_subscription_per_podcast import m015_one_subscription_per_podcast

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "libraries"
BEFORE = MIGRATIONS.index(m015_one_subscription_per_podcast)  # the schema version without it
GRAPH_CAST = "https://graphcast.example.com/feed.xml"
HTTP_COPY = "http://www.graphcast.example.com/feed.xml/"  # the same address written otherwise
MIRROR = "https://mirror.example.net/graphcast.xml"  # another address, the same podcast:guid


@dataclass(slots=True)
class Expected:
    """What the merged library holds, by (episode identity, title): positions, notes, tags, queue, downloads."""

    sources: int = 0
    items: int = 0
    positions: dict[str, float] = field(default_factory=dict)  # identity -> position after the merge
    notes: dict[str, set[str]] = field(default_factory=dict)  # identity -> note texts
    tags: dict[str, set[str]] = field(default_factory=dict)  # identity -> tag names
    queued: set[str] = field(default_factory=set)
    downloaded: dict[str, str] = field(default_factory=dict)  # identity -> download status
    plays: dict[str, int] = field(default_factory=dict)  # identity -> rows of listening history


def copy_source(conn: sqlite3.Connection, source_id: int, url: str, identities: list[str] | None = None) -> int:
    """Subscribe to the podcast ``source_id`` again at ``url``, as earlier versions did: a new source and a copy
    of each of its episodes (of ``identities`` only, when given), without the user's state."""
    columns = [row[1] for row in conn.execute("PRAGMA table_info(sources)") if row[1] not in ("id", "url")]
    names = ", ".join(columns)
    cursor = conn.execute(f"INSERT INTO sources ({names}, url) SELECT {names}, ? FROM sources WHERE id = ?",
                          [url, source_id])
    copy = int(cursor.lastrowid or 0)
    fresh = {"position": "0", "played": "0", "last_played": "NULL", "favourite": "0", "source_id": str(copy)}
    columns = [row[1] for row in conn.execute("PRAGMA table_info(items)") if row[1] != "id"]
    chosen = f" AND identity IN ({', '.join('?' * len(identities))})" if identities else ""
    conn.execute(f"""INSERT INTO items ({', '.join(columns)}) SELECT {', '.join(fresh.get(c, c) for c in columns)}
                     FROM items WHERE source_id = ?{chosen} ORDER BY id""", [source_id, *(identities or [])])
    return copy


def item_of(conn: sqlite3.Connection, source_id: int, identity: str) -> int:
    return int(conn.execute("SELECT id FROM items WHERE source_id = ? AND identity = ?",
                            [source_id, identity]).fetchone()[0])


def fixture_with_duplicates(path: Path) -> Expected:
    """The released fixture of the schema before (everything an Earmark library holds), with Graph Cast subscribed
    to twice more: by its http:// address with ``www.`` and a slash, and by a mirror carrying its podcast:guid.
    The copies hold newer and older positions, notes, a highlight, tags, a queue entry, a download, a play."""
    shutil.copyfile(FIXTURES / f"schema-v{BEFORE}.db", path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    cast = int(conn.execute("SELECT id FROM sources WHERE url = ?", [GRAPH_CAST]).fetchone()[0])
    sources, items = conn.execute("SELECT (SELECT count(*) FROM sources WHERE url IS NOT NULL), (SELECT count(*) "
                                  "FROM items)").fetchone()
    identities = [row[0] for row in conn.execute("SELECT identity FROM items WHERE source_id = ? ORDER BY id", [cast])]
    tracing, optimising = identities[:2]
    http_copy = copy_source(conn, cast, HTTP_COPY)
    mirror = copy_source(conn, cast, MIRROR, [optimising])
    conn.execute("INSERT INTO items (source_id, kind, identity, guid, title, added) VALUES "
                 "(?, 'episode', 'guid:gc-mirror-only', 'gc-mirror-only', 'A mirror-only episode', '2025-05-01')",
                 [mirror])
    # Tracing: heard further on the http copy, later; optimising: heard longer ago on the mirror.
    conn.execute("UPDATE items SET position = 300, last_played = '2025-03-02T08:00:00+00:00' WHERE id = ?",
                 [item_of(conn, cast, tracing)])
    conn.execute("UPDATE items SET position = 1500, last_played = '2025-06-01T08:00:00+00:00' WHERE id = ?",
                 [item_of(conn, http_copy, tracing)])
    conn.execute("UPDATE items SET last_played = '2025-05-01T08:00:00+00:00' WHERE id = ?",
                 [item_of(conn, cast, optimising)])
    conn.execute("UPDATE items SET position = 20, last_played = '2025-01-01T08:00:00+00:00', favourite = 1 "
                 "WHERE id = ?", [item_of(conn, mirror, optimising)])
    copied = item_of(conn, http_copy, tracing)
    conn.execute("INSERT INTO notes (item_id, at, text, created, updated) VALUES (?, 1400, 'Heard on the http copy', "
                 "'2025-06-01T08:00:00+00:00', '2025-06-01T08:00:00+00:00')", [copied])
    conn.execute("INSERT INTO notes (item_id, text, quote, anchor, created, updated) VALUES (?, '', 'every tensor "
                 "operation', '{\"start\": 10, \"end\": 30}', '2025-06-01T08:00:00+00:00', "
                 "'2025-06-01T08:00:00+00:00')", [copied])
    conn.execute("INSERT OR IGNORE INTO tags (name) VALUES ('from the copy')")
    conn.execute("INSERT INTO item_tags (item_id, tag_id) SELECT ?, id FROM tags WHERE name IN ('from the copy', "
                 "'graphs')", [copied])  # "graphs" is on the original too: once after the merge
    conn.execute("INSERT INTO queue (item_id, rank) VALUES (?, 99)", [copied])
    conn.execute("INSERT INTO play_history (item_id, started, updated, position) VALUES "
                 "(?, '2025-06-01T08:00:00+00:00', '2025-06-01T08:30:00+00:00', 1500)", [copied])
    mirrored = item_of(conn, mirror, optimising)
    conn.execute("INSERT INTO downloads (item_id, url, path, status, size, received, added, finished) VALUES "
                 "(?, 'https://graphcast.example.com/2.mp3', '/tmp/earmark-fixture/2.mp3', 'done', 5, 5, "
                 "'2025-01-01', '2025-01-01')", [mirrored])
    conn.execute("INSERT INTO notes (item_id, at, text, created, updated) VALUES (?, 5, 'Heard on the mirror', "
                 "'2025-01-01T08:00:00+00:00', '2025-01-01T08:00:00+00:00')", [mirrored])
    conn.execute("COMMIT")
    conn.close()
    return Expected(
        sources=sources, items=items + 1,  # the mirror-only episode joins the podcast
        positions={tracing: 1500.0, optimising: 95.0},
        notes={tracing: {"The tracer is the recorder", "Heard on the http copy", ""},
               optimising: {"Ask about fusion limits", "Heard on the mirror"}},
        tags={tracing: {"graphs", "tracing", "from the copy"}, optimising: {"fusion"}},
        queued={tracing, optimising},
        downloaded={tracing: "done", optimising: "done"},
        plays={tracing: 2, optimising: 1},
    )


def big_library_with_duplicates(path: Path, podcasts: int = 20, episodes: int = 500, seed: int = 1) -> Expected:
    """A library of the schema before, of ``podcasts`` podcasts each subscribed to twice (https and http), every
    episode in both; on the copies a tenth of the episodes have a newer position, a note or a tag, and some are
    queued. Merging it takes long enough to be killed part-way."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    for number, migration in enumerate(MIGRATIONS[:BEFORE], start=1):
        conn.execute("BEGIN")
        migration(conn)
        conn.execute(f"PRAGMA user_version = {number}")
        conn.execute("COMMIT")
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO sources (id, kind, title, url, added) VALUES (?, 'podcast', ?, ?, '2024-01-01')",
                     [(n, f"Podcast {n}", f"https://example.com/{n}.xml") for n in range(1, podcasts + 1)])
    conn.executemany("INSERT INTO items (source_id, kind, identity, guid, title, enclosure_url, text, added) VALUES "
                     "(?, 'episode', ?, ?, ?, ?, ?, '2024-01-02')",
                     [(p, f"guid:{p}-{n}", f"{p}-{n}", f"Podcast {p} episode {n}", f"https://example.com/{p}/{n}.mp3",
                       f"Show notes of episode {n}: kernels graphs tensors") for p in range(1, podcasts + 1)
                      for n in range(episodes)])
    expected = Expected(sources=podcasts, items=podcasts * episodes)
    conn.execute("INSERT INTO tags (name) VALUES ('later')")
    for podcast in range(1, podcasts + 1):
        copy = copy_source(conn, podcast, f"http://example.com/{podcast}.xml")
        for n in rng.sample(range(episodes), episodes // 10):
            identity = f"guid:{podcast}-{n}"
            kept, copied = item_of(conn, podcast, identity), item_of(conn, copy, identity)
            older, newer = float(rng.randint(1, 1000)), float(rng.randint(1001, 3000))
            conn.execute("UPDATE items SET position = ?, last_played = '2025-01-01T00:00:00+00:00' WHERE id = ?",
                         [older, kept])
            conn.execute("UPDATE items SET position = ?, last_played = '2025-02-01T00:00:00+00:00' WHERE id = ?",
                         [newer, copied])
            conn.execute("INSERT INTO notes (item_id, at, text, created, updated) VALUES (?, 1, ?, 'then', 'then')",
                         [copied, f"note {identity}"])
            conn.execute("INSERT INTO item_tags (item_id, tag_id) SELECT ?, id FROM tags WHERE name = 'later'",
                         [copied])
            expected.positions[identity] = newer
            expected.notes[identity] = {f"note {identity}"}
            expected.tags[identity] = {"later"}
            if n % 3 == 0:
                conn.execute("INSERT INTO queue (item_id, rank) VALUES (?, ?)", [copied, n])
                expected.queued.add(identity)
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    return expected


def check_merged(path: Path, expected: Expected) -> None:
    """One subscription per podcast, one item per episode, and the user's state as ``expected`` (plain connection)."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT count(*) FROM sources WHERE url IS NOT NULL").fetchone()[0] == expected.sources
        assert conn.execute("SELECT count(*) FROM items").fetchone()[0] == expected.items
        assert conn.execute("SELECT count(*) FROM (SELECT identity FROM items GROUP BY identity HAVING count(*) > 1)"
                            ).fetchone()[0] == 0
        by_identity = dict(conn.execute("SELECT identity, id FROM items"))
        for identity, position in expected.positions.items():
            assert conn.execute("SELECT position FROM items WHERE id = ?", [by_identity[identity]]).fetchone()[0] == (
                position), identity
        notes: dict[int, set[str]] = {}
        for item_id, text in conn.execute("SELECT item_id, text FROM notes"):
            notes.setdefault(item_id, set()).add(text)
        assert {identity: notes.get(by_identity[identity]) for identity in expected.notes} == expected.notes
        tags = {identity: {row[0] for row in conn.execute(
            "SELECT t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE it.item_id = ?",
            [by_identity[identity]])} for identity in expected.tags}
        assert tags == expected.tags
        queued = {row[0] for row in conn.execute("SELECT item_id FROM queue")}
        assert {identity for identity in expected.queued if by_identity[identity] in queued} == expected.queued
        for identity, status in expected.downloaded.items():
            assert conn.execute("SELECT status FROM downloads WHERE item_id = ?",
                                [by_identity[identity]]).fetchone() == (status,), identity
        for identity, plays in expected.plays.items():
            assert conn.execute("SELECT count(*) FROM play_history WHERE item_id = ?",
                                [by_identity[identity]]).fetchone()[0] == plays, identity
    finally:
        conn.close()
