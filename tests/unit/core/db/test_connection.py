"""Opening library files: pragmas, schema version, and refusing files that are not libraries untouched."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from earmark.core.db import connection, migrations
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.migrations import MIGRATIONS
from earmark.core.db.tags import tag_counts, tag_item
from earmark.core.errors import LibraryError, LibraryTooNewError
from earmark.core.settings import get_setting, set_setting


def _pragma(db: Database, name: str) -> object:
    return db.execute(f"PRAGMA {name}").fetchone()[0]


def _files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def _assert_one_sentence(message: str) -> None:
    assert message and "\n" not in message
    assert "Traceback" not in message


def test_new_library_uses_wal_foreign_keys_and_the_latest_schema(library: Database) -> None:
    assert str(_pragma(library, "journal_mode")).lower() == "wal"
    assert _pragma(library, "foreign_keys") == 1
    assert _pragma(library, "user_version") == len(MIGRATIONS)
    tables = {row[0] for row in library.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"sources", "items", "tags", "item_tags", "notes", "settings", "search_index"} <= tables


def test_new_library_creates_missing_folders(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "library.db"
    db = open_library(path)
    db.close()
    assert path.is_file()
    assert path.read_bytes().startswith(b"SQLite format 3\x00")


def test_reopening_keeps_data_and_makes_no_backup(library_file: Path) -> None:
    db = open_library(library_file)
    set_setting(db, "playback.speed", 1.5)
    db.close()
    db = open_library(library_file)
    try:
        assert get_setting(db, "playback.speed") == 1.5
        assert _pragma(db, "user_version") == len(MIGRATIONS)
    finally:
        db.close()
    assert not [name for name in _files(library_file.parent) if name.endswith(".bak")]


_NOT_SQLITE = {
    "html": b"<!DOCTYPE html>\n<html><head><title>Feed</title></head><body><p>Not a database</p></body></html>\n",
    "random": random.Random(1234).randbytes(8192),
    "text": b"just some notes\n",
    "one byte": b"S",
    "truncated header": b"SQLite format",
    "zip": b"PK\x03\x04" + bytes(200),
}


@pytest.mark.parametrize("content", list(_NOT_SQLITE.values()), ids=list(_NOT_SQLITE))
def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "library.db"
    path.write_bytes(content)
    with pytest.raises(LibraryError) as info:
        open_library(path)
    assert not isinstance(info.value, LibraryTooNewError)
    _assert_one_sentence(str(info.value))
    assert "not an Earmark library" in str(info.value)
    assert path.read_bytes() == content
    assert _files(tmp_path) == {"library.db"}


def test_a_corrupt_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    content = b"SQLite format 3\x00" + random.Random(99).randbytes(4096)
    path.write_bytes(content)
    with pytest.raises(LibraryError) as info:
        open_library(path)
    _assert_one_sentence(str(info.value))
    assert path.read_bytes() == content


def test_an_empty_existing_file_becomes_a_library(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    path.write_bytes(b"")
    db = open_library(path)
    try:
        assert _pragma(db, "user_version") == len(MIGRATIONS)
        assert db.execute("SELECT 1 FROM sqlite_master WHERE name = 'items'").fetchone()
    finally:
        db.close()
    assert path.read_bytes().startswith(b"SQLite format 3\x00")


def test_a_library_from_a_newer_version_is_refused_untouched(library_file: Path) -> None:
    open_library(library_file).close()
    raw = sqlite3.connect(library_file)
    raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    raw.close()
    before = library_file.read_bytes()
    with pytest.raises(LibraryTooNewError) as info:
        open_library(library_file)
    assert isinstance(info.value, LibraryError)
    message = str(info.value)
    _assert_one_sentence(message)
    assert "newer version" in message
    assert library_file.read_bytes() == before


def test_a_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "library.db"
    folder.mkdir()
    with pytest.raises(LibraryError) as info:
        open_library(folder)
    _assert_one_sentence(str(info.value))
    assert "folder" in str(info.value)
    assert list(folder.iterdir()) == []


def test_a_path_below_a_regular_file_is_refused_with_a_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder")
    with pytest.raises(LibraryError):
        open_library(blocker / "library.db")


def _foreign_sqlite(path: Path, statement: str) -> bytes:
    raw = sqlite3.connect(path)
    raw.execute(statement)
    raw.execute("INSERT INTO " + statement.split()[2] + " VALUES (1, 'x')")
    raw.commit()
    raw.close()
    return path.read_bytes()


@pytest.mark.parametrize("name, statement", [
    ("other-app.sqlite", "CREATE TABLE sources (id INTEGER PRIMARY KEY, name TEXT)"),  # a table name we use too
    ("places.sqlite", "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)"),
])
def test_another_programs_sqlite_database_is_refused_untouched(tmp_path: Path, name: str, statement: str) -> None:
    path = tmp_path / name
    before = _foreign_sqlite(path, statement)
    with pytest.raises(LibraryError, match="another program"):
        open_library(path)
    assert path.read_bytes() == before


def test_two_connections_see_each_others_writes(library_file: Path) -> None:
    first = open_library(library_file)
    second = open_library(library_file)
    try:
        set_setting(first, "playback.skip_back", 7.0)
        assert get_setting(second, "playback.skip_back") == 7.0
        set_setting(second, "playback.skip_back", 3.0)
        assert get_setting(first, "playback.skip_back") == 3.0

        second.execute(
            "INSERT INTO items (kind, identity, title, added) VALUES ('article', 'x', 'Shared', '2024-01-01')"
        )
        item_id = second.execute("SELECT id FROM items WHERE identity = 'x'").fetchone()[0]
        tag_item(second, item_id, ["shared"])
        assert tag_counts(first) == [("shared", 1)]
        assert first.execute("SELECT title FROM items WHERE id = ?", [item_id]).fetchone()[0] == "Shared"
    finally:
        first.close()
        second.close()


def test_migrating_an_older_library_backs_it_up_first(library_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = open_library(library_file)
    db.execute("INSERT INTO tags (name) VALUES ('kept')")
    db.close()

    def m_example(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE tags ADD COLUMN example TEXT")

    current = len(MIGRATIONS)
    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, m_example])
    monkeypatch.setattr(connection, "SCHEMA_VERSION", current + 1)
    migrated = open_library(library_file)
    assert migrated.execute("PRAGMA user_version").fetchone()[0] == current + 1
    assert migrated.execute("SELECT name, example FROM tags").fetchall() == [("kept", None)]
    backup = library_file.with_name(f"{library_file.name}.v{current}.bak")
    old = sqlite3.connect(backup)
    assert old.execute("PRAGMA user_version").fetchone()[0] == current
    assert old.execute("SELECT name FROM tags").fetchall() == [("kept",)]
    old.close()


def test_a_version_1_library_gains_the_refresh_columns_and_keeps_its_rows(library_file: Path) -> None:
    raw = sqlite3.connect(library_file)
    migrations.m001_initial(raw)
    raw.execute("PRAGMA user_version = 1")
    raw.execute("INSERT INTO sources (kind, title, url, added) VALUES ('podcast', 'Old', 'https://x/f', 'then')")
    raw.execute("INSERT INTO items (source_id, kind, identity, title, added, position) "
                "VALUES (1, 'episode', 'guid:a', 'Kept', 'then', 42.5)")
    raw.commit()
    raw.close()
    db = open_library(library_file)
    rows = db.execute("SELECT title, position, transcripts, season FROM items").fetchall()
    assert rows == [("Kept", 42.5, "[]", None)]
    assert db.execute("SELECT failures, funding, etag FROM sources").fetchall() == [(0, "[]", None)]
    assert library_file.with_name(f"{library_file.name}.v1.bak").exists()
    db.close()


def test_opening_the_library_again_keeps_this_process_s_locks(library_file: Path) -> None:
    """Regression: reading the file header with open()/close() dropped the process's POSIX locks, so another
    process closing its connection took the library for unused, reset the WAL, and our connections kept
    reading a stale snapshot."""
    first = open_library(library_file)
    first.execute("INSERT INTO tags (name) VALUES ('before')")
    second = open_library(library_file)  # e.g. a new worker thread opening its connection
    script = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
              "c.execute(\"INSERT INTO tags (name) VALUES ('from the other process')\"); c.commit(); c.close()")
    subprocess.run([sys.executable, "-c", script, str(library_file)], check=True)
    try:
        assert library_file.with_name(library_file.name + "-wal").exists()  # we still use it: not cleaned up
        for db in (first, second):
            names = [row[0] for row in db.execute("SELECT name FROM tags ORDER BY id")]
            assert names == ["before", "from the other process"]
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("content", [b"SQLite format 3\x00" + bytes(range(256)) * 64, b"<html>" * 200],
                         ids=["sqlite header, garbage after", "not sqlite"])
def test_a_broken_library_keeps_its_wal(tmp_path: Path, content: bytes) -> None:
    """Regression: the connection that found the file broken deleted its -wal (which may hold its last changes)
    when it closed."""
    path = tmp_path / "library.db"
    path.write_bytes(content)
    wal = tmp_path / "library.db-wal"
    wal.write_bytes(b"the last changes, maybe")
    with pytest.raises(LibraryError):
        open_library(path)
    assert path.read_bytes() == content
    assert wal.read_bytes() == b"the last changes, maybe"


def test_the_schema_version_is_the_last_migrations_number() -> None:
    """Opening a library compares its version with SCHEMA_VERSION, without loading the migrations: a migration
    added without raising it would never run."""
    from earmark.core.db.schema import SCHEMA_VERSION

    assert len(MIGRATIONS) == SCHEMA_VERSION
