"""A big library in the first schema (as Earmark 1 wrote it), generated fast, for killing migrations part-way:
with enough rows, upgrading it takes long enough to be interrupted at many points."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from earmark.core.db.migrations import MIGRATIONS, m001_initial

WORDS = ("graph memory tensor kernel compile quantize export trace lowering fusion cache shard gradient batch "
         "layout stride dispatch autograd module buffer stream device").split()


@dataclass(frozen=True, slots=True)
class OldLibrary:
    """What the generated library holds, to check after the upgrade."""

    items: int
    notes: dict[int, str]  # item id -> note text
    positions: dict[int, float]  # item id -> position
    tagged: dict[int, str]  # item id -> tag name


def build_v1_library(path: Path, items: int = 20_000, seed: int = 1) -> OldLibrary:
    """Write a schema-1 library of ``items`` episodes over 20 podcasts, with notes, positions and tags."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN")
    m001_initial(conn)
    conn.execute("PRAGMA user_version = 1")
    conn.executemany("INSERT INTO sources (id, kind, title, url, added) VALUES (?, 'podcast', ?, ?, '2020-01-01')",
                     [(n, f"Podcast {n}", f"https://example.com/{n}.xml") for n in range(1, 21)])

    def text(count: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(count))

    rows = [(n, 1 + n % 20, "episode", f"guid:{n}", f"guid-{n}", f"Episode {n}: {text(4)}",
             f"https://example.com/{n}.mp3", f"2020-01-01T00:00:{n % 60:02d}+00:00", text(40), "2020-01-02")
            for n in range(1, items + 1)]
    conn.executemany("INSERT INTO items (id, source_id, kind, identity, guid, title, enclosure_url, published, text, "
                     "added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    chosen = rng.sample(range(1, items + 1), 300)
    notes = {item: f"note on {item}: {text(6)}" for item in chosen[:100]}
    positions = {item: float(rng.randint(1, 3000)) for item in chosen[100:200]}
    tagged = {item: rng.choice(["later", "favourite talk", "memory"]) for item in chosen[200:]}
    conn.executemany("INSERT INTO notes (item_id, at, text, created, updated) VALUES (?, 12.0, ?, 'then', 'then')",
                     list(notes.items()))
    conn.executemany("UPDATE items SET position = ? WHERE id = ?", [(p, i) for i, p in positions.items()])
    conn.executemany("INSERT OR IGNORE INTO tags (name) VALUES (?)", [(name,) for name in set(tagged.values())])
    conn.executemany("INSERT INTO item_tags (item_id, tag_id) SELECT ?, id FROM tags WHERE name = ?",
                     list(tagged.items()))
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")  # as a released version left it: one self-contained file
    conn.close()
    return OldLibrary(items, notes, positions, tagged)


def check_upgraded(path: Path, expected: OldLibrary) -> None:
    """Everything the old library held is there after the upgrade (read with a plain connection)."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT count(*) FROM items").fetchone()[0] == expected.items
        assert dict(conn.execute("SELECT item_id, text FROM notes").fetchall()) == expected.notes
        assert dict(conn.execute("SELECT id, position FROM items WHERE position > 0").fetchall()) == expected.positions
        assert dict(conn.execute("SELECT it.item_id, t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id")
                    .fetchall()) == expected.tagged
        some = next(iter(expected.notes.items()))
        found = conn.execute("SELECT rowid FROM search_index WHERE search_index MATCH ?",
                             [f'notes:"{some[1].split(": ")[1]}"']).fetchall()
        assert (some[0],) in found  # the search index was rebuilt with the notes
    finally:
        conn.close()


def library_with_plain_passwords(path: Path) -> None:
    """A library as version 7 left it: a feed password in its row, another inside an address."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    for number, migration in enumerate(MIGRATIONS[:7], start=1):
        conn.execute("BEGIN")
        migration(conn)
        conn.execute(f"PRAGMA user_version = {number}")
        conn.execute("COMMIT")
    conn.execute("""INSERT INTO sources (kind, title, url, auth_user, auth_password, added) VALUES
                    ('podcast', 'Private', 'https://feeds.example.com/private.xml', 'alice', 'plain-row-pw',
                     '2025-01-01T00:00:00+00:00'),
                    ('podcast', 'Token', 'https://bob:plain-url-pw@other.example.com/feed.xml', NULL, NULL,
                     '2025-01-01T00:00:00+00:00')""")
    conn.close()


FIXTURES = Path(__file__).parents[1] / "fixtures" / "libraries"


def copies_of_the_v18_fixture(path: Path, copies: int) -> None:
    """The schema-18 fixture library with its items ``copies`` more times (56 × (copies + 1) items), their show notes
    stored twice as schema 18 did: an upgrade to schema 19 frees space that a compaction gives back."""
    source = sqlite3.connect(FIXTURES / "schema-v18.db")
    target = sqlite3.connect(path)
    source.backup(target)
    source.close()
    columns = "source_id, kind, title, url, published, description, content, text, added"
    for copy in range(copies):
        target.execute(f"INSERT INTO items (identity, {columns}) SELECT identity || '-{copy}', {columns} FROM items "
                       "WHERE identity NOT LIKE '%-%'")
    target.commit()
    target.close()

