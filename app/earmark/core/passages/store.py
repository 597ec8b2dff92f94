"""The passage index: a SQLite file of its own beside the library (derived data, rebuilt when its version
changes), written by one indexing process at a time and read by any.

Words go into a contentless FTS5 table (porter stems, bm25: which needs the positions, detail=full), the
passage's text in its first column and the title in the second: FTS5 writes a column's number beside each word's
positions for any column but the first, and the text holds most words (put second, it made the words' part of the
index 60% larger). A passage keeps only where it is (item, source, seconds or offset, note), its text is read from
the library when it is shown. SQLite before 3.43 cannot take a row out of a contentless table without its words,
so a changed or deleted item's passages leave their words behind, unreachable (searches join the live passages);
when they come to a quarter of the live ones, the index is made again. Vectors of meaning, when a model made them,
are kept as bits (one per dimension: the sign), 32 bytes a passage for the default 256-dimension model (48 for
all-MiniLM-L6-v2's 384); the model that made an item's is kept beside it, and a question is compared only with
the vectors of the model that reads it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

from earmark.core.passages.cutting import Passage

VERSION = "5"  # 5: the default model's vectors are 256 bits (all-MiniLM-L6-v2's were 384)
STALE_SHARE = 0.25  # stale words (of passages gone) to live passages at which the index is made again
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS indexed (item_id INTEGER PRIMARY KEY, stamp TEXT NOT NULL,
                                    model TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS passages (id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL, source TEXT NOT NULL,
                                     at REAL, "end" REAL, "offset" INTEGER, note_id INTEGER, bits BLOB);
CREATE INDEX IF NOT EXISTS passages_item ON passages (item_id);
CREATE TABLE IF NOT EXISTS common_words (term TEXT PRIMARY KEY, doc INTEGER NOT NULL) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS passage_words USING fts5 (
    text, title, content='', tokenize='porter unicode61 remove_diacritics 2');
"""


def passages_path(library: Path) -> Path:
    """Where the library's passage index lives: beside it, ``NAME.passages.sqlite``."""
    return library.with_name(library.stem + ".passages.sqlite")


def open_index(path: Path) -> sqlite3.Connection:
    """The passage index at ``path``, made (or made again, when it is of another version) as needed."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    if _meta(conn, "version") not in (None, VERSION):
        reset(conn)
    conn.executescript(_SCHEMA)
    conn.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", [VERSION])
    return conn


def reset(conn: sqlite3.Connection) -> None:
    """Empty the whole index (every item is then indexed again)."""
    conn.executescript("DROP TABLE IF EXISTS passage_words; DROP TABLE IF EXISTS passages; "
                       "DROP TABLE IF EXISTS indexed; DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS common_words;")
    conn.executescript(_SCHEMA)
    conn.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", [VERSION])


def _meta(conn: sqlite3.Connection, key: str) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
    except sqlite3.OperationalError:  # a new file: no table yet
        return None
    return str(row[0]) if row else None


def stamps(conn: sqlite3.Connection) -> dict[int, tuple[str, str]]:
    """Each indexed item's stamp (what it held when indexed) and the model that gave its vectors ('' for none)."""
    return {item_id: (stamp, model) for item_id, stamp, model in
            conn.execute("SELECT item_id, stamp, model FROM indexed")}


def replace_item(conn: sqlite3.Connection, item_id: int, stamp: str, title: str, passages: Sequence[Passage],
                 bits: Sequence[bytes] | None, model: str) -> None:
    """The item's passages (and their vectors' bits) in place of those it had (in the caller's transaction). The
    title's words go with its text's paragraphs and notes, not with each of an hour's 80 transcript windows (a
    third of the index's words, on bench/ask_scale.py's library); its show notes carry it."""
    drop_items(conn, [item_id])
    for number, passage in enumerate(passages):
        cursor = conn.execute(
            'INSERT INTO passages (item_id, source, at, "end", "offset", note_id, bits) VALUES (?, ?, ?, ?, ?, ?, ?)',
            [item_id, passage.source, passage.at, passage.end, passage.offset, passage.note_id,
             bits[number] if bits else None])
        conn.execute("INSERT INTO passage_words (rowid, text, title) VALUES (?, ?, ?)",
                     [cursor.lastrowid, passage.text, "" if passage.source == "transcript" else title])
    conn.execute("INSERT INTO indexed VALUES (?, ?, ?)", [item_id, stamp, model if bits else ""])


def drop_items(conn: sqlite3.Connection, item_ids: Iterable[int]) -> None:
    """Take the items' passages out of the index (their words stay behind, stale: see the module's docstring)."""
    stale = 0
    for item_id in item_ids:
        stale += conn.execute("DELETE FROM passages WHERE item_id = ?", [item_id]).rowcount
        conn.execute("DELETE FROM indexed WHERE item_id = ?", [item_id])
    if stale:
        conn.execute("INSERT INTO meta VALUES ('stale', ?) ON CONFLICT (key) DO UPDATE SET value = value + ?",
                     [stale, stale])


def worn(conn: sqlite3.Connection) -> bool:
    """Whether stale words have come to STALE_SHARE of the live passages (the index is then made again)."""
    stale = int(_meta(conn, "stale") or 0)
    return stale > 0 and stale >= STALE_SHARE * conn.execute("SELECT count(*) FROM passages").fetchone()[0]
