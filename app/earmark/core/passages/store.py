"""The passage index: a SQLite file of its own beside the library (derived data, rebuilt when its version
changes), written by one indexing process at a time and read by any.

Words go into a contentless FTS5 table (porter stems, bm25); the passages' text is kept once, zlib-compressed,
to show answers and to take a passage's words out of the index again. Vectors of meaning, when a model made
them, are kept as bits (one per dimension: the sign), 48 bytes a passage for a 384-dimension model."""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from earmark.core.passages.cutting import Passage

VERSION = "1"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS indexed (item_id INTEGER PRIMARY KEY, stamp TEXT NOT NULL, title TEXT NOT NULL,
                                    model TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS passages (id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL, source TEXT NOT NULL,
                                     at REAL, "end" REAL, "offset" INTEGER, note_id INTEGER, text BLOB NOT NULL,
                                     bits BLOB);
CREATE INDEX IF NOT EXISTS passages_item ON passages (item_id);
CREATE VIRTUAL TABLE IF NOT EXISTS passage_words USING fts5 (title, text, content='',
                                                             tokenize='porter unicode61 remove_diacritics 2');
"""


def passages_path(library: Path) -> Path:
    """Where the library's passage index lives: beside it, ``NAME.passages.sqlite``."""
    return library.with_name(library.stem + ".passages.sqlite")


def open_index(path: Path) -> sqlite3.Connection:
    """The passage index at ``path``, made (or made again, when it is of another version) as needed."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    if _version(conn) not in (None, VERSION):
        conn.executescript("DROP TABLE IF EXISTS passage_words; DROP TABLE IF EXISTS passages; "
                           "DROP TABLE IF EXISTS indexed; DROP TABLE IF EXISTS meta;")
    conn.executescript(_SCHEMA)
    conn.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", [VERSION])
    return conn


def _version(conn: sqlite3.Connection) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    except sqlite3.OperationalError:  # a new file: no table yet
        return None
    return str(row[0]) if row else None


def stamps(conn: sqlite3.Connection) -> dict[int, tuple[str, str]]:
    """Each indexed item's stamp (what it held when indexed) and the model that gave its vectors ('' for none)."""
    return {item_id: (stamp, model) for item_id, stamp, model in
            conn.execute("SELECT item_id, stamp, model FROM indexed")}


def replace_item(conn: sqlite3.Connection, item_id: int, stamp: str, title: str, passages: Sequence[Passage],
                 bits: Sequence[bytes] | None, model: str) -> None:
    """The item's passages (and their vectors' bits) in place of those it had (in the caller's transaction)."""
    drop_items(conn, [item_id])
    for number, passage in enumerate(passages):
        cursor = conn.execute(
            'INSERT INTO passages (item_id, source, at, "end", "offset", note_id, text, bits) '
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [item_id, passage.source, passage.at, passage.end, passage.offset, passage.note_id,
             zlib.compress(passage.text.encode()), bits[number] if bits else None])
        conn.execute("INSERT INTO passage_words (rowid, title, text) VALUES (?, ?, ?)",
                     [cursor.lastrowid, title, passage.text])
    conn.execute("INSERT INTO indexed VALUES (?, ?, ?, ?)", [item_id, stamp, title, model if bits else ""])


def drop_items(conn: sqlite3.Connection, item_ids: Iterable[int]) -> None:
    """Take the items' passages out of the index (their words too: a contentless table is told them again)."""
    for item_id in item_ids:
        row = conn.execute("SELECT title FROM indexed WHERE item_id = ?", [item_id]).fetchone()
        if row is None:
            continue
        for passage_id, text in conn.execute("SELECT id, text FROM passages WHERE item_id = ?", [item_id]):
            conn.execute("INSERT INTO passage_words (passage_words, rowid, title, text) VALUES ('delete', ?, ?, ?)",
                         [passage_id, row[0], unpack(text)])
        conn.execute("DELETE FROM passages WHERE item_id = ?", [item_id])
        conn.execute("DELETE FROM indexed WHERE item_id = ?", [item_id])


def unpack(text: bytes) -> str:
    return zlib.decompress(text).decode()
