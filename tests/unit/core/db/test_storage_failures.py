"""A full disk and a read-only library: one sentence, nothing corrupted or lost, and the library can still be
read. Real conditions where this machine allows them (a small tmpfs that fills up or is remounted read-only, a
chmod'ed file or folder with root's power to override permissions dropped); SQLite-level simulations always."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from earmark.cli import main
from earmark.core.db.connection import library_error, open_library, open_library_or_read_only
from earmark.core.db.database import Database
from earmark.core.db.migrations import MIGRATIONS, m001_initial
from earmark.core.db.notes import add_note
from earmark.core.db.show_notes_text import add_text_function
from earmark.core.errors import (
    LibraryBusyError,
    LibraryDamagedError,
    LibraryError,
    LibraryFullError,
    LibraryReadOnlyError,
)
from helpers.storage import fill, honouring_permissions, remount_read_only, remount_writable, small_disk


def _article(db: Database, title: str = "Kept") -> int:
    db.execute("INSERT INTO items (kind, identity, title, added) VALUES ('article', ?, ?, '2024-01-01')",
               [title, title])
    return int(db.execute("SELECT id FROM items WHERE title = ?", [title]).fetchone()[0])


def _notes(db: Database) -> list[str]:
    return [row[0] for row in db.execute("SELECT text FROM notes ORDER BY id")]


def _intact(path: Path) -> None:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    add_text_function(conn)  # the check reads the items' text, worked out from their show notes (schema 19)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()


def _one_sentence(message: str) -> None:
    assert message and "\n" not in message and "Traceback" not in message


def _prepared(path: Path, notes: int = 3) -> int:
    db = open_library(path)
    item = _article(db)
    for number in range(notes):
        add_note(db, item, f"note {number}")
    db.close()
    return item


# Simulated at the SQLite level (everywhere) -------------------------------------------------------------------


def test_a_full_disk_simulated_by_max_page_count_fails_the_write_and_keeps_everything(library_file: Path) -> None:
    item = _prepared(library_file)
    db = open_library(library_file)
    try:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(LibraryFullError) as info:
            add_note(db, item, "x" * 50_000)
        _one_sentence(str(info.value))
        assert "full" in str(info.value)
        assert not db.conn.in_transaction  # the connection is usable again, not stuck in a half transaction
        assert _notes(db) == ["note 0", "note 1", "note 2"]
        db.execute("PRAGMA max_page_count = 1073741823")  # room again
        add_note(db, item, "after")
        assert _notes(db) == ["note 0", "note 1", "note 2", "after"]
    finally:
        db.close()
    _intact(library_file)


def test_a_library_opened_read_only_reads_and_refuses_every_write_untouched(library_file: Path) -> None:
    item = _prepared(library_file)
    before = library_file.read_bytes()
    db = open_library(library_file, read_only=True)
    try:
        assert _notes(db) == ["note 0", "note 1", "note 2"]
        with pytest.raises(LibraryReadOnlyError) as info:
            add_note(db, item, "not kept")
        assert str(info.value) == "The library is read-only; nothing was changed."
        assert _notes(db) == ["note 0", "note 1", "note 2"]
    finally:
        db.close()
    assert library_file.read_bytes() == before


def test_a_read_only_open_of_an_older_library_says_it_must_be_upgraded(library_file: Path) -> None:
    raw = sqlite3.connect(library_file)
    m001_initial(raw)
    raw.execute("PRAGMA user_version = 1")
    raw.commit()
    raw.close()
    before = library_file.read_bytes()
    with pytest.raises(LibraryReadOnlyError, match="must be upgraded") as info:
        open_library(library_file, read_only=True)
    _one_sentence(str(info.value))
    assert library_file.read_bytes() == before


def test_a_writable_library_opens_for_writing(library_file: Path) -> None:
    db, reason = open_library_or_read_only(library_file)
    try:
        assert reason is None
        add_note(db, _article(db), "kept")
    finally:
        db.close()


# A real full disk (a small tmpfs) ------------------------------------------------------------------------------


def test_a_disk_that_fills_up_fails_writes_with_a_sentence_and_they_work_again_with_room(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "library.db"
        item = _prepared(path)
        db = open_library(path)
        try:
            filler = fill(disk)
            for attempt in range(3):  # a stuck transaction would make the second attempt differ
                with pytest.raises(LibraryFullError) as info:
                    add_note(db, item, f"too big {attempt} " + "x" * 20_000)
                assert str(info.value) == "The disk that holds the library is full; nothing was changed."
                assert not db.conn.in_transaction
            assert _notes(db) == ["note 0", "note 1", "note 2"]
            filler.unlink()
            add_note(db, item, "with room")
            assert _notes(db) == ["note 0", "note 1", "note 2", "with room"]
        finally:
            db.close()
        _intact(path)


def test_a_library_on_a_full_disk_is_said_to_be_full_and_opens_read_only(tmp_path: Path) -> None:
    """Regression: on a full disk SQLite cannot make the -shm file, and the library was refused with "The library
    … cannot be used: disk I/O error."; now the sentence says the disk is full and the library opens read-only."""
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "library.db"
        item = _prepared(path)
        fill(disk)
        with pytest.raises(LibraryFullError) as info:
            open_library(path)
        message = str(info.value)
        _one_sentence(message)
        assert "is full" in message and "disk I/O" not in message
        db, reason = open_library_or_read_only(path)
        try:
            assert reason == message
            assert _notes(db) == ["note 0", "note 1", "note 2"]
            with pytest.raises(LibraryReadOnlyError):
                add_note(db, item, "not kept")
        finally:
            db.close()
        (disk / "filler").unlink()  # SQLite cannot even read a WAL library on a full disk without immutable
        _intact(path)


def test_the_command_line_on_a_full_disk_lists_and_says_why_a_note_fails(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "library.db"
        item = _prepared(path)
        fill(disk)
        capsys.readouterr()
        assert main(["--library", str(path), "notes", "--json"]) == 0
        assert [note["text"] for note in json.loads(capsys.readouterr().out)] == ["note 2", "note 1", "note 0"]
        assert main(["--library", str(path), "note", str(item), "lost?"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("earmark: The disk that holds the library") and "is full" in err
        assert err.count("\n") == 1
        (disk / "filler").unlink()  # SQLite cannot even read a WAL library on a full disk without immutable
        _intact(path)


# A real read-only disk (the tmpfs remounted read-only) ------------------------------------------------------------


def test_a_library_on_a_read_only_disk_opens_read_only_with_the_reason(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "library.db"
        item = _prepared(path)
        before = path.read_bytes()
        remount_read_only(disk)
        try:
            with pytest.raises(LibraryReadOnlyError) as info:
                open_library(path)
            _one_sentence(str(info.value))
            assert "mounted read-only" in str(info.value)
            db, reason = open_library_or_read_only(path)
            try:
                assert reason == str(info.value)
                assert _notes(db) == ["note 0", "note 1", "note 2"]
                with pytest.raises(LibraryReadOnlyError):
                    add_note(db, item, "not kept")
            finally:
                db.close()
            assert path.read_bytes() == before
        finally:
            remount_writable(disk)
        _intact(path)


def test_a_new_library_on_a_read_only_disk_is_refused_with_a_sentence(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        remount_read_only(disk)
        try:
            with pytest.raises(LibraryError) as info:
                open_library_or_read_only(disk / "library.db")
            _one_sentence(str(info.value))
            assert "cannot be created" in str(info.value)
        finally:
            remount_writable(disk)


# Real permissions (a chmod'ed file or folder; as root, with the override capability dropped) ---------------------


def _earmark(library: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [*honouring_permissions(), sys.executable, "-m", "earmark", "--library", str(library), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=dict(os.environ))


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_file_or_folder_is_listed_and_a_note_is_refused_with_the_reason(tmp_path: Path,
                                                                                    what: str) -> None:
    folder = tmp_path / "lib"
    folder.mkdir()
    path = folder / "library.db"
    item = _prepared(path)
    before = path.read_bytes()
    target = path if what == "file" else folder
    mode = target.stat().st_mode
    target.chmod(0o444 if what == "file" else 0o555)
    try:
        listed = _earmark(path, "notes", "--json")
        assert listed.returncode == 0, listed.stderr
        assert [note["text"] for note in json.loads(listed.stdout)] == ["note 2", "note 1", "note 0"]
        noted = _earmark(path, "note", str(item), "not kept")
        assert noted.returncode == 1
        assert noted.stderr.startswith("earmark: The library") and "is read-only" in noted.stderr
        assert ("the file is read-only" if what == "file" else "folder") in noted.stderr
        assert noted.stderr.count("\n") == 1 and "Traceback" not in noted.stderr
    finally:
        target.chmod(mode)
    assert path.read_bytes() == before
    _intact(path)
    assert open_library(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


@pytest.mark.parametrize("message, kind, words", [
    ("database is locked", LibraryBusyError, "another program kept it locked"),
    ("database or disk is full", LibraryFullError, "is full"),
    ("attempt to write a readonly database", LibraryReadOnlyError, "read-only"),
    ("database disk image is malformed", LibraryDamagedError, "File → Restore from Backup…"),
    ("file is not a database", LibraryDamagedError, "earmark restore-backup"),
])
def test_database_failures_become_sentences_the_user_can_act_on(message: str, kind: type, words: str) -> None:
    error = library_error(sqlite3.OperationalError(message))
    assert type(error) is kind and words in str(error)
    _one_sentence(str(error))
