"""Automatic backups of the library file (core/db/backups.py): daily copies with rotation, checked before old
ones go; restoring moves the current library aside (never deletes it); an interrupted copy or restore is never
taken for a good one."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from earmark.core.db.backup_files import backups_folder, restoring_path
from earmark.core.db.backups import (
    check_backup,
    daily_backup,
    list_backups,
    make_backup,
    restore_backup,
)
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.migrations import MIGRATIONS, m001_initial
from earmark.core.db.notes import add_note
from earmark.core.errors import BackupError, LibraryDamagedError

DAY = datetime(2024, 5, 20, 9, 30)


def _library(path: Path, notes: list[str]) -> Database:
    db = open_library(path)
    db.execute("INSERT INTO items (kind, identity, title, added) VALUES ('article', 'a', 'An article', '2024-01-01')")
    for text in notes:
        add_note(db, 1, text)
    return db


def _notes_in(path: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [row[0] for row in conn.execute("SELECT text FROM notes ORDER BY id")]
    finally:
        conn.close()


def _damage(path: Path) -> None:
    """Overwrite pages in the middle of the file (the header stays: SQLite opens it, then finds the damage)."""
    size = path.stat().st_size
    with path.open("r+b") as handle:
        for offset in range(4096 * 2, size - 4096, 4096 * 3):
            handle.seek(offset)
            handle.write(random.Random(offset).randbytes(4096))


def test_a_daily_backup_is_made_once_a_day_while_others_keep_writing(library_file: Path) -> None:
    db = _library(library_file, ["first"])
    try:
        made = daily_backup(library_file, keep=7, now=DAY)
        assert made is not None and made.kind == "daily"
        assert made.path.parent == backups_folder(library_file) == library_file.parent / "backups"
        assert made.path.name == "library-2024-05-20-093000-daily.db"
        add_note(db, 1, "second")  # the library is still open and written: the backup is a snapshot
        assert daily_backup(library_file, keep=7, now=DAY + timedelta(hours=10)) is None  # same day
        assert _notes_in(made.path) == ["first"]
        later = daily_backup(library_file, keep=7, now=DAY + timedelta(days=1))
        assert later is not None and _notes_in(later.path) == ["first", "second"]
        assert [b.path for b in list_backups(library_file)] == [later.path, made.path]
        assert not list(backups_folder(library_file).glob("*.partial"))
    finally:
        db.close()


def test_an_empty_library_waits_for_its_first_item_before_the_days_backup(library_file: Path) -> None:
    open_library(library_file).close()  # a new library: its settings, no source, no item
    assert daily_backup(library_file, keep=7, now=DAY) is None
    assert list_backups(library_file) == []
    db = _library(library_file, ["first"])  # then something to keep, the same day
    db.close()
    made = daily_backup(library_file, keep=7, now=DAY + timedelta(hours=1))
    assert made is not None and _notes_in(made.path) == ["first"]


def test_only_the_newest_daily_backups_are_kept_and_other_kinds_never_rotate(library_file: Path) -> None:
    _library(library_file, ["kept"]).close()
    manual = make_backup(library_file, now=DAY - timedelta(days=30))
    for day in range(5):
        daily_backup(library_file, keep=3, now=DAY + timedelta(days=day))
    backups = list_backups(library_file)
    assert [(b.kind, b.created.date().isoformat()) for b in backups] == [
        ("daily", "2024-05-24"), ("daily", "2024-05-23"), ("daily", "2024-05-22"), ("manual", "2024-04-20")]
    assert manual.path.exists()
    assert daily_backup(library_file, keep=0, now=DAY + timedelta(days=9)) is None  # 0: no daily backups


def test_a_damaged_library_is_not_backed_up_and_the_good_backups_stay(library_file: Path) -> None:
    db = _library(library_file, [f"note {n} " + "x" * 300 for n in range(400)])
    db.close()
    daily_backup(library_file, keep=1, now=DAY)
    good = list_backups(library_file)
    _damage(library_file)
    with pytest.raises(LibraryDamagedError) as info:
        daily_backup(library_file, keep=1, now=DAY + timedelta(days=1))
    assert "earlier backups were kept" in str(info.value) and "\n" not in str(info.value)
    assert list_backups(library_file) == good  # the one good backup was not rotated out
    assert sorted(p.name for p in backups_folder(library_file).iterdir()) == [good[0].path.name]


def test_restoring_moves_the_current_library_and_its_wal_aside(library_file: Path) -> None:
    db = _library(library_file, ["in the backup"])
    backup = make_backup(library_file, now=DAY)
    add_note(db, 1, "only in the library")
    db.close()
    # A crash leaves the latest changes in the -wal: they must go aside with the library, not be lost.
    crash = ("import os, signal, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_autocheckpoint"
             " = 0'); c.execute(\"INSERT INTO tags (name) VALUES ('only in the wal')\"); c.commit(); "
             "os.kill(os.getpid(), signal.SIGKILL)")
    subprocess.run([sys.executable, "-c", crash, str(library_file)], check=False)
    assert library_file.with_name("library.db-wal").stat().st_size > 0
    aside = restore_backup(library_file, backup.path, now=DAY + timedelta(hours=1))
    assert aside is not None and aside.parent == backups_folder(library_file) and "before-restore" in aside.name
    assert not library_file.with_name("library.db-wal").exists()  # nothing of it is left to mix with the restored
    assert aside.with_name(aside.name + "-wal").stat().st_size > 0  # it went along with its library
    assert _notes_in(library_file) == ["in the backup"]
    assert _notes_in(aside) == ["in the backup", "only in the library"]
    conn = sqlite3.connect(aside)
    assert conn.execute("SELECT name FROM tags").fetchall() == [("only in the wal",)]
    conn.close()
    assert [b.kind for b in list_backups(library_file)] == ["before-restore", "manual"]
    db = open_library(library_file)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()


def test_restoring_an_older_schema_upgrades_it_on_open(library_file: Path, tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    raw = sqlite3.connect(old)
    m001_initial(raw)
    raw.execute("PRAGMA user_version = 1")
    raw.execute("INSERT INTO items (kind, identity, title, added) VALUES ('article', 'o', 'Old one', 'then')")
    raw.commit()
    raw.close()
    _library(library_file, []).close()
    assert check_backup(old) == 1
    restore_backup(library_file, old)
    db = open_library(library_file)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert db.execute("SELECT title FROM items").fetchall() == [("Old one",)]
    db.close()


@pytest.mark.parametrize("kind", ["not sqlite", "another program", "damaged", "newer", "missing"])
def test_a_bad_backup_is_refused_and_nothing_is_touched(library_file: Path, tmp_path: Path, kind: str) -> None:
    _library(library_file, ["mine"]).close()
    before = library_file.read_bytes()
    bad = tmp_path / "bad.db"
    if kind == "not sqlite":
        bad.write_bytes(b"<html>nope</html>" * 100)
    elif kind == "another program":
        raw = sqlite3.connect(bad)
        raw.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY)")
        raw.close()
    elif kind == "damaged":
        db = _library(bad, [f"n{n} " + "y" * 300 for n in range(400)])
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        _damage(bad)
    elif kind == "newer":
        _library(bad, []).close()
        raw = sqlite3.connect(bad)
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        raw.close()
    with pytest.raises(BackupError) as info:
        restore_backup(library_file, bad)
    assert "\n" not in str(info.value) and str(info.value)
    assert library_file.read_bytes() == before
    assert not restoring_path(library_file).exists()
    assert not backups_folder(library_file).exists()


def test_a_restore_stopped_between_its_steps_is_finished_or_undone_on_the_next_open(library_file: Path) -> None:
    db = _library(library_file, ["old"])
    backup = make_backup(library_file, now=DAY)
    add_note(db, 1, "current")
    db.close()
    # Stopped after the copy, before anything moved: that restore did not happen; the copy is dropped.
    restoring_path(library_file).write_bytes(backup.path.read_bytes())
    open_library(library_file).close()
    assert _notes_in(library_file) == ["old", "current"] and not restoring_path(library_file).exists()
    # Stopped after the library was moved aside: the copy takes its place.
    restoring_path(library_file).write_bytes(backup.path.read_bytes())
    aside = backups_folder(library_file) / "library-2024-05-21-080000-before-restore.db"
    library_file.replace(aside)
    open_library(library_file).close()
    assert _notes_in(library_file) == ["old"] and _notes_in(aside) == ["old", "current"]
    # Stopped after the -wal went aside, before the library followed it: the library follows, then the copy.
    db = open_library(library_file)
    add_note(db, 1, "newest")
    db.close()
    restoring_path(library_file).write_bytes(backup.path.read_bytes())
    second = backups_folder(library_file) / "library-2024-05-22-080000-before-restore.db"
    second.with_name(second.name + "-wal").write_bytes(b"")  # (its -wal, moved first)
    open_library(library_file).close()
    assert second.exists() and _notes_in(second) == ["old", "newest"]
    assert _notes_in(library_file) == ["old"]


def test_a_copy_interrupted_before_the_migration_is_replaced_by_a_complete_one(library_file: Path) -> None:
    raw = sqlite3.connect(library_file)
    m001_initial(raw)
    raw.execute("PRAGMA user_version = 1")
    raw.execute("INSERT INTO items (kind, identity, title, added) VALUES ('article', 'o', 'Old one', 'then')")
    raw.commit()
    raw.close()
    bak = library_file.with_name("library.db.v1.bak")
    partial = bak.with_name(bak.name + ".4242-1.partial")
    partial.write_bytes(library_file.read_bytes()[:1024])  # what a kill during the copy leaves
    fresh = bak.with_name(bak.name + ".4243-1.partial")  # another program's copy, under way
    fresh.write_bytes(b"")
    an_hour_ago = time.time() - 3700
    os.utime(partial, (an_hour_ago, an_hour_ago))
    open_library(library_file).close()
    assert not partial.exists() and fresh.exists()
    assert check_backup(bak) == 1
    assert [b.kind for b in list_backups(library_file)] == ["before-migration"]


def test_two_programs_making_the_daily_backup_at_once_both_succeed(library_file: Path) -> None:
    db = _library(library_file, [f"note {n}" for n in range(200)])
    errors: list[BaseException] = []

    def back_up() -> None:
        try:
            daily_backup(library_file, keep=2, now=DAY)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=back_up) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    db.close()
    assert errors == []
    backups = list_backups(library_file)
    assert backups and {b.kind for b in backups} == {"daily"}
    for backup in backups:
        assert check_backup(backup.path) == len(MIGRATIONS)
    assert not list(backups_folder(library_file).glob("*.partial"))


def test_a_library_open_in_another_program_is_not_restored_over(library_file: Path, tmp_path: Path) -> None:
    _library(library_file, ["mine"]).close()
    backup = make_backup(library_file, now=DAY)
    script = ("import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT 1 FROM notes')"
              ".fetchall(); print('open', flush=True); time.sleep(30)")
    other = subprocess.Popen([sys.executable, "-c", script, str(library_file)], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "open\n"
        with pytest.raises(BackupError, match="open in another program"):
            restore_backup(library_file, backup.path)
    finally:
        other.kill()
        other.wait()
        assert other.stdout is not None
        other.stdout.close()
    assert _notes_in(library_file) == ["mine"] and [b.kind for b in list_backups(library_file)] == ["manual"]
    restore_backup(library_file, backup.path)  # closed: now it can be


def test_a_backup_is_written_compact_without_the_librarys_free_pages(tmp_path: Path) -> None:
    library = tmp_path / "library.db"
    db = _library(library, [f"note {n} " + "words " * 2000 for n in range(60)])
    db.execute("DELETE FROM notes WHERE id > 5")  # free pages the library keeps until a VACUUM
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    db.close()
    made = make_backup(library, "manual", DAY)
    conn = sqlite3.connect(f"file:{made.path}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA freelist_count").fetchone()[0] == 0 < free
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        conn.close()
    assert made.path.stat().st_size < library.stat().st_size
    assert _notes_in(made.path) == _notes_in(library) and len(_notes_in(library)) == 5
