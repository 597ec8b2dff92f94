"""Every CSV Earmark writes (Readwise notes, listening history, reading list) neutralises cells a spreadsheet
would run as a formula (OWASP: a leading =, +, -, @, tab or carriage return gets a ' in front); Earmark's own
reading-list CSV imports back to the same text."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from earmark.core.csvcells import plain_cell, safe_cell
from earmark.core.db.connection import open_library
from earmark.core.db.history import record_play
from earmark.core.db.merge import store_feed
from earmark.core.models import EntryData, FeedData
from helpers.cli import Cli
from helpers.feed_server import FeedServer
from helpers.reading import long_article

FORMULAS = ["=HYPERLINK(\"https://evil.example\",\"click\")", "+1+1", "-2+3", "@SUM(A1:A2)", "\t=1", "\r=1",
            "'=already quoted"]
RUNS = re.compile(r"^[=+\-@\t\r]")


def cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def dangerous(text: str) -> list[str]:
    return [cell for cell in cells(text) if RUNS.match(cell)]


@pytest.fixture
def formulas(cli: Cli, feed_server: FeedServer) -> Cli:
    """A library whose episode title, notes and article are formulas."""
    db = open_library(cli.library)
    try:
        result = store_feed(db, "https://example.com/feed.xml", FeedData(title="=cmd|' /C calc'!A0", entries=[
            EntryData(identity="guid:1", kind="episode", title="-Intro", guid="1",
                      enclosure_url="https://cdn.example.com/1.mp3")]))
        record_play(db, result.item_ids["guid:1"], 30.0, False, now=datetime(2024, 5, 1, tzinfo=UTC))
        db.conn.commit()
    finally:
        db.close()
    for text in FORMULAS:
        assert cli("note", "1", "--at", "5", "--", text)[0] == 0
    page = feed_server.serve_body("/page.html", long_article("=1+2 in a title", 6), "text/html; charset=utf-8")
    assert cli("add-article", page)[0] == 0
    return cli


def test_readwise_csv_neutralises_formulas(formulas: Cli, tmp_path: Path) -> None:
    out = tmp_path / "readwise.csv"
    assert formulas("export-notes", "--format", "csv", "--out", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    assert dangerous(text) == []
    notes = {text.strip() for text in FORMULAS}  # notes are kept without surrounding space
    assert set(cells(text)) >= {safe_cell(note) for note in notes} | {"'-Intro", "'=cmd|' /C calc'!A0"}
    assert safe_cell("'=already quoted") == "''=already quoted" and safe_cell("=1") == "'=1"


def test_history_csv_neutralises_formulas(formulas: Cli, tmp_path: Path) -> None:
    out = tmp_path / "history.csv"
    assert formulas("export-history", "--format", "csv", "--out", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    assert dangerous(text) == [] and "'-Intro" in cells(text) and "'=cmd|' /C calc'!A0" in cells(text)


def test_reading_list_csv_neutralises_formulas_and_imports_back(formulas: Cli, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "list.csv"
    assert formulas("export-reading-list", "--format", "csv", "--out", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    assert dangerous(text) == [] and "'=1+2 in a title" in cells(text)
    fresh = Cli(tmp_path / "fresh.db", capsys)
    assert fresh("import-reading-list", str(out))[0] == 0
    assert [item["title"] for item in fresh.json("list", "--kind", "article")] == ["=1+2 in a title"]


@given(st.text())
def test_neutralising_is_undone_exactly(text: str) -> None:
    assert plain_cell(safe_cell(text)) == text
    assert not RUNS.match(safe_cell(text))
