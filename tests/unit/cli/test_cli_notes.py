"""The note commands of the command line: note, notes, export-notes, export-history, backup and restore."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.notes.backup import TABLES
from helpers.cli import Cli
from helpers.feed_server import rss

EPISODES = [
    {"title": "Graph capture basics", "guid": "g1", "pubDate": "Mon, 06 May 2024 10:00:00 +0000",
     "duration": "12:30", "enclosure": "https://example.com/1.mp3", "link": "https://example.com/1"},
    {"title": "Graph capture in depth", "guid": "g2", "pubDate": "Mon, 13 May 2024 10:00:00 +0000",
     "enclosure": "https://example.com/2.mp3"},
]


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    cli = Cli(tmp_path / "library.db", capsys)
    feed = tmp_path / "feed.xml"
    feed.write_bytes(rss("Notes Cast", EPISODES))
    assert cli("subscribe", str(feed))[0] == 0
    return cli


def ids(cli: Cli) -> dict[str, int]:
    return {str(item["title"]): int(item["id"]) for item in cli.json("list")}  # type: ignore[call-overload]


def test_note_and_list_notes(cli: Cli) -> None:
    basics = ids(cli)["Graph capture basics"]
    code, out, err = cli("note", str(basics), "first note", "--at", "65")
    assert (code, err) == (0, "") and "“Graph capture basics” at 1:05" in out
    assert cli("note", str(basics), "later", "--at", "1:02:03")[0] == 0
    assert cli("note", str(basics), "on the whole episode")[0] == 0
    notes = cli.json("notes")
    assert [(n["text"], n["at"]) for n in notes] == [("on the whole episode", None), ("later", 3723.0),
                                                     ("first note", 65.0)]
    assert {"id", "item_id", "item_title", "source", "at", "text", "quote", "created", "updated"} <= set(notes[0])
    assert cli.json("notes", "--search", "LATER")[0]["text"] == "later"
    code, out, _ = cli("notes")
    assert "Graph capture basics: [1:05] first note" in out


@pytest.mark.parametrize("args, message", [
    (("999", "text"), "earmark: There is no item with id 999.\n"),
    (("{basics}", "   "), "earmark: A note needs some text; empty notes are not kept.\n"),
])
def test_note_errors_are_one_sentence(cli: Cli, args: tuple[str, ...], message: str) -> None:
    basics = ids(cli)["Graph capture basics"]
    code, out, err = cli("note", *(a.format(basics=basics) for a in args))
    assert (code, out, err) == (1, "", message)
    assert cli.json("notes") == []


def test_a_time_that_is_not_one_is_a_usage_error(cli: Cli, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli("note", "1", "text", "--at", "soon")
    assert caught.value.code == 2 and "'soon' is not a time" in capsys.readouterr().err


def test_export_each_format(cli: Cli, tmp_path: Path) -> None:
    basics = ids(cli)["Graph capture basics"]
    cli("note", str(basics), "first note", "--at", "65")
    code, out, _ = cli("export-notes", "--format", "markdown", "--out", str(tmp_path / "vault"))
    written = tmp_path / "vault" / "Graph capture basics.md"
    assert code == 0 and out == f"Exported 1 note on 1 item to {written}.\n"
    text = written.read_text(encoding="utf-8")
    assert "?t=65) ([web](https://example.com/1.mp3#t=65)) first note" in text
    assert cli("export-notes", "--format", "json", "--out", str(tmp_path / "n.json"))[0] == 0
    assert json.loads((tmp_path / "n.json").read_text())["items"][0]["notes"][0]["text"] == "first note"
    code, out, _ = cli("export-notes", "--format", "csv", "--out", "-", "--item", str(basics))
    [header, row] = list(csv.reader(io.StringIO(out)))
    assert header == ["Highlight", "Title", "Author", "URL", "Note", "Location", "Date"]
    assert row[:6] == ["first note", "Graph capture basics", "Notes Cast", "https://example.com/1", "", "65"]
    assert datetime.fromisoformat(row[6]).tzinfo is not None  # when the note was taken
    code, out, _ = cli("export-notes", "--format", "csv", "--out", str(tmp_path / "none.csv"), "--tag", "nothing")
    assert code == 0 and "no notes to export" in out
    assert (tmp_path / "none.csv").read_text() == "Highlight,Title,Author,URL,Note,Location,Date\n"
    code, out, err = cli("export-notes", "--format", "markdown", "--out", "-")
    assert (code, out) == (1, "") and "written into a folder" in err


def test_export_history(cli: Cli, tmp_path: Path) -> None:
    code, out, _ = cli("export-history", "--format", "csv", "--out", "-")
    assert (code, out.splitlines()) == (0, ["item_id,kind,title,source,url,started,updated,start_position,position,"
                                            "duration,finished"])
    code, out, _ = cli("export-history", "--format", "json", "--out", str(tmp_path / "h.json"))
    assert code == 0 and out == f"Wrote 0 listening sessions to {tmp_path / 'h.json'}.\n"
    assert json.loads((tmp_path / "h.json").read_text())["sessions"] == []


def test_backup_and_restore(cli: Cli, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    basics = ids(cli)["Graph capture basics"]
    cli("note", str(basics), "keep me", "--at", "3")
    cli("tag", str(basics), "compiler")
    code, out, _ = cli("backup", str(tmp_path / "backup.json"))
    assert code == 0 and "2 items, 1 note and 1 source" in out
    assert (tmp_path / "backup.opml").is_file()
    restored = Cli(tmp_path / "restored.db", capsys)
    code, out, _ = restored("restore", str(tmp_path / "backup.json"))
    assert code == 0 and out.startswith("Restored 2 items, 1 note and 1 source")
    assert restored.json("notes") == cli.json("notes")
    assert restored.json("list", "--tag", "compiler") == cli.json("list", "--tag", "compiler")
    original, copy = open_library(cli.library), open_library(restored.library)
    for table in TABLES:
        query = f"SELECT * FROM {table} ORDER BY 1, 2"
        assert copy.execute(query).fetchall() == original.execute(query).fetchall(), table
    code, out, err = cli("restore", str(tmp_path / "backup.json"))
    assert (code, out) == (1, "") and err.startswith("earmark: This library is not empty")
