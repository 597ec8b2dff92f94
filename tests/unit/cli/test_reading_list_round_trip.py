"""Earmark's reading-list JSON imported into a new library gives the same reading list: text, highlights with
their notes and anchors, other notes, and the reader's state (on the command line, as a person moves libraries)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from helpers.cli import Cli
from helpers.notes_library import build

LIBRARY_IDS = ("id", "source_id")  # numbers each library gives its own rows


def comparable(export: dict[str, object]) -> list[dict[str, object]]:
    """The items of an export without the ids that only mean something inside one library."""
    items = export["items"]
    assert isinstance(items, list)
    return [{key: value for key, value in item.items() if key not in LIBRARY_IDS} for item in items]


def test_the_json_export_imports_back_whole(cli: Cli, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = open_library(cli.library)
    try:
        fixed = build(db)  # an article with its text, two highlights (one with a note) and a note
        db.execute("UPDATE items SET position = 40, last_played = '2024-05-22T07:00:00+00:00', archived = 1, "
                   "favourite = 1, images_allowed = 1 WHERE id = ?", [fixed.article])
        db.conn.commit()
    finally:
        db.close()
    exported = tmp_path / "list.json"
    assert cli("export-reading-list", "--format", "json", "--out", str(exported))[0] == 0
    first = json.loads(exported.read_text(encoding="utf-8"))

    fresh = Cli(tmp_path / "fresh.db", capsys)
    code, out, err = fresh("import-reading-list", str(exported))
    assert (code, out, err) == (0, "Imported 1 new article; 0 were in the library already.\n", "")
    again = tmp_path / "again.json"
    assert fresh("export-reading-list", "--format", "json", "--out", str(again))[0] == 0

    [article] = comparable(json.loads(again.read_text(encoding="utf-8")))
    assert [article] == comparable(first)
    assert "Compiled autograd landed" in str(article["content"])
    assert [(h["quote"], h["note"]) for h in article["highlights"]] == [  # type: ignore[attr-defined]
        ("Compiled autograd landed", "Try it on the big model."), ("the new CI is faster", "")]
    assert [n["text"] for n in article["notes"]] == ["Follow the links on compiled autograd."]  # type: ignore[attr-defined]
    assert (article["position"], article["archived"], article["favourite"], article["fetch_problem"]) == (
        40.0, True, True, None)
    [listed] = fresh.json("notes")[:1]
    assert listed["item_title"] == "Ünïcode / slashes: a “quoted” title?"
