"""Issue 40: show notes are kept once (schema 19). An item's plain text is worked out from its markup where the
text stored before was exactly that, and kept where it differs; everything shown, searched, snippeted and
exported stays as it was.

Old against new: the newest fixture library, written by an earlier version (its text stored beside the markup),
read as it is and after the upgrade. The app's own reads are then compared between the upgraded library and a copy
of it that keeps every item's text stored (as before), so each read sees the two ways of keeping it."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.db.notes import NoteFilter
from earmark.core.db.search import snippets
from earmark.core.html import search_text
from earmark.core.notes.export import preview_export
from earmark.core.sample import load_sample

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "libraries"
NEWEST = max(FIXTURES.glob("schema-v*.db"), key=lambda path: int(path.stem.removeprefix("schema-v")))
# Words of the sample library's show notes, titles and notes, a prefix and a phrase among them.
QUERIES = ("memory", "graph", "tensor", "compil*", "cuda graph", "pool", "trees", "autograd", "the")
SNIPPETS = ", ".join(f"snippet(search_index, {n}, '[', ']', '…', 10)" for n in range(5))
NOW = "2026-11-29T00:00:00+00:00"


def raw_search(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    """Every query's matches, best first, with the snippet of each of the five columns."""
    return {query: conn.execute(f"SELECT rowid, {SNIPPETS} FROM search_index WHERE search_index MATCH ? "
                                "ORDER BY rank, rowid", [query]).fetchall() for query in QUERIES}


def app_reads(db: Database) -> dict[str, object]:
    """What the window and the command line show: search results and their snippets, each item's details, the
    Markdown and JSON exports."""
    ids = [row[0] for row in db.execute("SELECT id FROM items ORDER BY id")]
    found: dict[str, object] = {"details": [get_item(db, item_id) for item_id in ids]}
    for query in QUERIES:
        matches = [item.id for item in list_items(db, ItemFilter(text=query))]
        found[query] = (matches, snippets(db, query, matches))
    for kind in ("markdown", "json"):
        found[kind] = preview_export(db, kind, NoteFilter(), now=NOW)
    return found


@pytest.fixture
def upgraded(tmp_path: Path) -> tuple[Path, Database]:
    path = tmp_path / "library.db"
    shutil.copy(NEWEST, path)
    return path, open_library(path)


def test_an_upgraded_library_shows_and_finds_every_item_as_before(upgraded: tuple[Path, Database]) -> None:
    path, db = upgraded
    old = sqlite3.connect(f"file:{NEWEST}?mode=ro&immutable=1", uri=True)  # as it is: nothing written beside it
    try:
        old_text = dict(old.execute("SELECT id, text FROM items"))
        old_search = raw_search(old)
    finally:
        old.close()
    assert len(old_text) > 10 and any(old_search.values())
    assert dict(db.execute("SELECT id, text FROM items")) == old_text
    assert raw_search(db.conn) == old_search
    # The text is kept once: only where it is not what the markup gives (none in this library).
    stored = db.execute("SELECT count(*) FROM items WHERE own_text IS NOT NULL").fetchone()[0]
    derived = sum(text == search_text(d, c) for d, c, text in db.execute("SELECT description, content, text "
                                                                           "FROM items"))
    assert stored + derived >= len(old_text) and derived > 0
    db.execute("INSERT INTO search_index (search_index) VALUES ('integrity-check')")


def test_the_text_kept_once_reads_as_the_text_kept_twice(upgraded: tuple[Path, Database], tmp_path: Path) -> None:
    path, db = upgraded
    twice_path = tmp_path / "twice.db"
    db.close()
    shutil.copy(path, twice_path)
    db, twice = open_library(path), open_library(twice_path)
    twice.execute("UPDATE items SET own_text = text")
    assert twice.execute("SELECT count(*) FROM items WHERE own_text IS NULL").fetchone()[0] == 0
    assert app_reads(db) == app_reads(twice)


def test_text_that_differs_from_the_markup_is_kept(upgraded: tuple[Path, Database]) -> None:
    """A text an earlier version flattened otherwise (here: written by hand) survives, and is found."""
    _path, db = upgraded
    item_id = db.execute("SELECT min(id) FROM items WHERE description != ''").fetchone()[0]
    db.execute("UPDATE items SET own_text = 'zanzibar quokka' WHERE id = ?", [item_id])
    assert db.execute("SELECT text FROM items WHERE id = ?", [item_id]).fetchone()[0] == "zanzibar quokka"
    assert [item.id for item in list_items(db, ItemFilter(text="quokka"))] == [item_id]
    db.execute("UPDATE items SET own_text = NULL WHERE id = ?", [item_id])
    assert list_items(db, ItemFilter(text="quokka")) == []
    db.execute("INSERT INTO search_index (search_index) VALUES ('integrity-check')")


def test_a_new_library_stores_no_second_copy(tmp_path: Path) -> None:
    db = open_library(tmp_path / "library.db")
    load_sample(db)
    rows = db.execute("SELECT description, content, text, own_text FROM items").fetchall()
    assert rows and all(own is None and text == search_text(d, c) for d, c, text, own in rows)
    assert any(text for _d, _c, text, _own in rows)
    db.execute("INSERT INTO search_index (search_index) VALUES ('integrity-check')")
