"""``earmark backups`` and ``earmark restore-backup``: they work even when the library cannot be opened, and the
daily backup that ``earmark refresh`` (what cron runs) makes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from earmark.core.db.backup_files import backups_folder
from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from helpers.cli import Cli
from helpers.old_library import copies_of_the_v18_fixture


def _noted(cli: Cli, *texts: str) -> None:
    db = open_library(cli.library)
    db.execute("INSERT INTO items (kind, identity, title, added) VALUES ('article', 'a', 'An article', '2024')")
    db.close()
    for text in texts:
        code, _out, err = cli("note", "1", text)
        assert code == 0, err


def _note_texts(path: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [row[0] for row in conn.execute("SELECT text FROM notes ORDER BY id")]
    finally:
        conn.close()


def test_backups_lists_nothing_then_what_now_made(cli: Cli) -> None:
    _noted(cli, "one")
    code, out, _err = cli("backups")
    assert code == 0 and out == f"There are no backups of {cli.library} yet.\n"
    code, out, _err = cli("backups", "--now")
    assert code == 0 and out.startswith("Backed up the library to ")
    listed = cli.json("backups")
    assert [(b["kind"], Path(str(b["path"])).parent) for b in listed] == [("manual", backups_folder(cli.library))]
    assert set(listed[0]) == {"path", "created", "kind", "size"} and int(str(listed[0]["size"])) > 0


def test_restore_backup_by_number_keeps_the_current_library_aside(cli: Cli) -> None:
    _noted(cli, "kept in the backup")
    assert cli("backups", "--now")[0] == 0
    assert cli("note", "1", "after the backup")[0] == 0
    code, out, err = cli("restore-backup", "1")
    assert code == 0, err
    assert "The library as it was is kept as" in out
    assert _note_texts(cli.library) == ["kept in the backup"]
    aside = next(b for b in cli.json("backups") if b["kind"] == "before-restore")
    assert _note_texts(Path(str(aside["path"]))) == ["kept in the backup", "after the backup"]


def test_a_damaged_library_can_still_list_and_restore_its_backups(cli: Cli) -> None:
    _noted(cli, "safe")
    assert cli("backups", "--now")[0] == 0
    broken = b"SQLite format 3\x00" + bytes(range(256)) * 64
    cli.library.write_bytes(broken)
    wal = cli.library.with_name("library.db-wal")
    wal.write_bytes(b"whatever the crash left")
    code, _out, err = cli("list")
    assert code == 1 and err.startswith("earmark: ") and "Traceback" not in err
    assert cli.library.read_bytes() == broken  # refused, untouched
    assert len(cli.json("backups")) == 1
    code, out, err = cli("restore-backup", "1")
    assert code == 0, err
    assert _note_texts(cli.library) == ["safe"]
    aside = Path(out.split("kept as ")[1].strip().rstrip("."))
    assert aside.read_bytes() == broken  # the broken file was moved aside, not overwritten
    assert aside.with_name(aside.name + "-wal").read_bytes() == b"whatever the crash left"  # its -wal went along
    assert not wal.exists() or wal.read_bytes() != b"whatever the crash left"


def test_restore_backup_refuses_a_wrong_number_or_file_with_a_sentence(cli: Cli, tmp_path: Path) -> None:
    _noted(cli, "mine")
    before = cli.library.read_bytes()
    code, _out, err = cli("restore-backup", "3")
    assert code == 1 and err == "earmark: There is no backup number 3: `earmark backups` lists 0.\n"
    (tmp_path / "notes.txt").write_text("hello " * 200)
    code, _out, err = cli("restore-backup", str(tmp_path / "notes.txt"))
    assert code == 1 and "nothing was restored" in err and err.count("\n") == 1
    assert cli.library.read_bytes() == before


def test_refresh_makes_the_daily_backup_once(cli: Cli) -> None:
    _noted(cli, "n")
    assert cli("refresh")[0] == 0
    assert cli("refresh")[0] == 0
    assert [b["kind"] for b in cli.json("backups")] == ["daily"]
    db = open_library(cli.library)
    set_setting(db, "backups.keep", 0)
    db.close()
    for backup in backups_folder(cli.library).iterdir():
        backup.unlink()
    assert cli("refresh")[0] == 0
    assert cli.json("backups") == []


def test_backups_json_is_an_array_even_when_empty(cli: Cli) -> None:
    code, out, _err = cli("backups", "--json")
    assert code == 0 and json.loads(out) == []


def test_compact_gives_back_the_space_an_upgrade_freed(cli: Cli) -> None:
    copies_of_the_v18_fixture(cli.library, 100)  # 5,656 items at schema 18, their show notes stored twice
    code, out, err = cli("compact")
    assert code == 0, err
    assert out.startswith(f"Compacted {cli.library}: ") and "Compacting the library: 100 %" in err
    before, after = (float(size) for size in out.split(": ")[1].removesuffix(" MB.\n").split(" MB -> "))
    assert before - after > 0.8  # MB: 5,600 items' show notes (~200 bytes each) kept once
    code, out, err = cli("compact", "--json")
    assert code == 0 and json.loads(out)["was_due"] is False and json.loads(out)["after"] < (after + 0.1) * 1e6
