"""Backup and restore: a backup restored into an empty library gives back every user-data table, row for row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import item_ids
from earmark.core.db.sources import set_credentials
from earmark.core.errors import BackupError, UnreachableError
from earmark.core.feeds.opml import read_opml
from earmark.core.notes.backup import TABLES, restore_backup, write_backup
from earmark.core.settings import set_setting
from helpers.notes_library import EXPORTED_AT, FixedLibrary, build


@pytest.fixture
def fixed(library: Database) -> FixedLibrary:
    fixed = build(library)
    set_setting(library, "playback.speed", 1.5)
    return fixed


def everything(db: Database) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every user-data table, all columns."""
    return {table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() for table in TABLES}


def test_backup_then_restore_into_an_empty_library_gives_back_the_same_library(
        library: Database, fixed: FixedLibrary, tmp_path: Path) -> None:
    result = write_backup(library, tmp_path / "backup.json", now=EXPORTED_AT)
    assert result.counts["notes"] == 8 and result.counts["items"] == 5  # notes include two highlights
    restored = open_library(tmp_path / "restored.db")
    counts = restore_backup(restored, tmp_path / "backup.json")
    assert counts == result.counts
    assert everything(restored) == everything(library)
    assert {table: len(rows) for table, rows in everything(restored).items()} == result.counts
    assert item_ids(restored, ItemFilter(text="tile sizes")) == [fixed.video]  # the search index is rebuilt
    assert item_ids(restored, ItemFilter(text="graph capture")) == item_ids(library, ItemFilter(text="graph capture"))
    feeds = read_opml((tmp_path / "backup.opml").read_bytes(), "backup.opml").feeds
    assert sorted((feed.url, feed.title, feed.tags) for feed in feeds) == [
        ("file:///home/ana/podcasts/recordings.xml", "Ana's recordings", ["tech", "tech/deep & nested"]),
        ("https://example.com/compiler.xml", "Compiler Cast", ["podcasts"])]
    assert restored.execute("SELECT title FROM sources WHERE user_title").fetchall() == [("Ana's recordings",)]


def test_feed_passwords_stay_out_of_backups(library: Database, fixed: FixedLibrary,
                                            tmp_path: Path) -> None:
    set_setting(library, "secrets.store_in_library", True)  # kept in the file by choice: still not in backups
    set_credentials(library, fixed.podcast, "ana", "s3cret")
    write_backup(library, tmp_path / "backup.json")
    assert "s3cret" not in (tmp_path / "backup.json").read_text(encoding="utf-8")
    restored = open_library(tmp_path / "restored.db")
    restore_backup(restored, tmp_path / "backup.json")
    assert set(restored.execute("SELECT auth_user, auth_password FROM sources").fetchall()) == {(None, None)}


def test_restore_refuses_a_library_that_is_not_empty(library: Database, fixed: FixedLibrary,
                                                     tmp_path: Path) -> None:
    write_backup(library, tmp_path / "backup.json")
    before = everything(library)
    with pytest.raises(BackupError, match="This library is not empty .*Nothing was changed"):
        restore_backup(library, tmp_path / "backup.json")
    assert everything(library) == before


def damaged(document: dict) -> None:  # type: ignore[type-arg]
    document["tables"]["notes"]["rows"][0][1] = 999_999  # a note on an item that does not exist


def wrong_width(document: dict) -> None:  # type: ignore[type-arg]
    document["tables"]["items"]["rows"][0].pop()


def unknown_column(document: dict) -> None:  # type: ignore[type-arg]
    document["tables"]["notes"]["columns"].append("mood")
    for row in document["tables"]["notes"]["rows"]:
        row.append("happy")


def nested_value(document: dict) -> None:  # type: ignore[type-arg]
    document["tables"]["tags"]["rows"][0][1] = ["a", "list"]


def newer(document: dict) -> None:  # type: ignore[type-arg]
    document["version"] = 99


@pytest.mark.parametrize("change, sentence", [
    (damaged, "is damaged \\(notes: FOREIGN KEY"),
    (wrong_width, "the table items is not a list of rows of its columns"),
    (unknown_column, "has data this Earmark does not know \\(notes: mood\\)"),
    (nested_value, "is damaged \\(tags: a value of the wrong kind\\)"),
    (newer, "written by a newer version of Earmark"),
])
def test_a_bad_backup_is_refused_and_leaves_the_library_empty(library: Database, fixed: FixedLibrary,
                                                              tmp_path: Path, change, sentence: str) -> None:  # noqa: ANN001
    path = write_backup(library, tmp_path / "backup.json").path
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    empty = open_library(tmp_path / "empty.db")
    before = everything(empty)
    with pytest.raises(BackupError, match=sentence):
        restore_backup(empty, path)
    assert everything(empty) == before


@pytest.mark.parametrize("content, error, sentence", [
    (b"not json at all", BackupError, "is not an Earmark backup \\(it is not JSON\\)"),
    (b'{"format": "earmark-notes", "version": 1, "items": []}', BackupError, "is not an Earmark backup"),
    (b'[1, 2]', BackupError, "is not an Earmark backup"),
    (b'{"format": "earmark-backup", "version": 1, "tables": {"secrets": {}}}', BackupError, "tables are not"),
])
def test_files_that_are_not_backups(tmp_path: Path, library: Database, content: bytes,
                                    error: type[Exception], sentence: str) -> None:
    path = tmp_path / "file.json"
    path.write_bytes(content)
    with pytest.raises(error, match=sentence):
        restore_backup(library, path)
    with pytest.raises(UnreachableError, match="There is no file"):
        restore_backup(library, tmp_path / "missing.json")


def test_backup_name_must_leave_room_for_the_opml(library: Database, tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="ending in .json"):
        write_backup(library, tmp_path / "feeds.opml")
    assert not (tmp_path / "feeds.opml").exists()
