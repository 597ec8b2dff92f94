"""Issue 40: the upgrade to schema 19 (show notes kept once) loses nothing. On a copy of every earlier fixture library,
the upgraded library (show notes stored as patterns) and the same library with the show notes written back as the
earlier version stored them (the markup, as text) show the same: every item's show notes, search results and
snippets, Markdown and JSON exports, the JSON backup and the topic graph. The sqlite3 shell still updates,
vacuums and checks the file."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from earmark.cli import main
from earmark.core.db.compaction import compact, compaction_due
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.db.notes import NoteFilter
from earmark.core.db.search import snippets
from earmark.core.notes.backup import backup_document
from earmark.core.notes.collect import collect
from earmark.core.notes.export import render_json
from earmark.core.notes.markdown import render_markdown
from earmark.core.topics.corpus import read_docs

FOLDER = Path(__file__).parents[3] / "fixtures" / "libraries"
EARLIER = [path for path in sorted(FOLDER.glob("schema-v*.db")) if path.stem != "schema-v19"]
QUERIES = ("memory", "autograd", "graph", "tensor", "compiler", "CUDA", "dispatcher", "pytorch", "edward")
NOW = "2026-11-29T10:00:00+00:00"


def _raw_show_notes(path: Path) -> dict[int, tuple[str, str]]:
    conn = sqlite3.connect(path)
    try:
        return {row[0]: (row[1], row[2]) for row in conn.execute("SELECT id, description, content FROM items")}
    finally:
        conn.close()


def _with_a_note_on_every_item(path: Path) -> None:
    """Every item exported, and the next relation update a full pass (both libraries work every item out)."""
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO notes (item_id, at, text, created, updated) SELECT id, 1.0, 'noted', 'then', 'then' "
                 "FROM items WHERE NOT EXISTS (SELECT 1 FROM notes WHERE item_id = items.id)")
    conn.execute("DELETE FROM graph_state WHERE key = 'built'")
    conn.commit()
    conn.close()


def _seen(db: Database) -> dict[str, object]:
    """Everything a person sees of the items' show notes and text."""
    ids = [row[0] for row in db.execute("SELECT id FROM items ORDER BY id")]
    items = [get_item(db, item_id) for item_id in ids]
    found = {query: [item.id for item in list_items(db, ItemFilter(text=query))] for query in QUERIES}
    exported = collect(db, NoteFilter())
    return {
        "details": [(item.id, item.description, item.content) for item in items],
        "search": found,
        "snippets": {query: snippets(db, query, ids) for query in QUERIES},
        "markdown": [render_markdown(item, NOW) for item in exported],
        "json": render_json(exported, NOW),
        "backup": backup_document(db, NOW),
        "topics": read_docs(db),
    }


@pytest.mark.parametrize("fixture", EARLIER, ids=[path.stem for path in EARLIER])
def test_the_upgrade_shows_everything_as_the_earlier_version_did(fixture: Path, tmp_path: Path) -> None:
    once, twice = tmp_path / "once.db", tmp_path / "twice.db"
    shutil.copyfile(fixture, once)
    before = _raw_show_notes(once)
    db = open_library(once)  # upgrades
    db.close()
    _with_a_note_on_every_item(once)
    shutil.copyfile(once, twice)
    conn = sqlite3.connect(twice)
    conn.executemany("UPDATE items SET description = ?, content = ? WHERE id = ?",
                     [(description, content, item_id) for item_id, (description, content) in before.items()])
    conn.commit()
    conn.close()
    stored = sqlite3.connect(once).execute("SELECT typeof(description), count(*) FROM items GROUP BY 1").fetchall()
    assert dict(stored).get("blob", 0) >= 50  # the upgrade stored patterns (the sample's 54 items and more)
    assert main(["--library", str(once), "update-relations"]) == 0
    assert main(["--library", str(twice), "update-relations"]) == 0
    seen = []
    for path in (once, twice):
        db = open_library(path)
        try:
            seen.append(_seen(db))
            seen[-1]["relations"] = db.execute("SELECT * FROM relations ORDER BY 1, 2").fetchall()
        finally:
            db.close()
    assert seen[0]["details"] == [(item_id, *before[item_id]) for item_id in sorted(before)]
    for key in seen[0]:
        assert seen[0][key] == seen[1][key], key
    assert seen[0]["relations"] and all(seen[0]["search"].values())


def test_the_upgrade_asks_for_a_compaction_that_gives_the_space_back(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    shutil.copyfile(FOLDER / "schema-v18.db", path)
    db = open_library(path)
    assert compaction_due(db.conn)
    db.close()
    shares: list[float] = []
    result = compact(path, shares.append)
    assert result.after < result.before and shares[-1] == 1.0 and shares == sorted(shares)
    db = open_library(path)
    assert not compaction_due(db.conn)
    db.close()


SHELL = shutil.which("sqlite3")


@pytest.mark.skipif(SHELL is None, reason="the sqlite3 shell is not installed")
def test_the_sqlite3_shell_updates_vacuums_and_checks_the_upgraded_library(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    shutil.copyfile(FOLDER / "schema-v18.db", path)
    db = open_library(path)
    before = [(item.id, item.title, item.description) for item in map(lambda i: get_item(db, i), range(1, 57))]
    db.close()
    script = ("UPDATE items SET title = title || ' (edited)' WHERE id = 3;\n"
              "UPDATE items SET played = 1 WHERE id = 4;\n"
              "INSERT INTO notes (item_id, at, text, created, updated) VALUES (5, 2.0, 'by hand', 'now', 'now');\n"
              "VACUUM;\nPRAGMA integrity_check;\n"
              "INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1);\n"
              "SELECT typeof(description) FROM items WHERE id = 3;\n")
    done = subprocess.run([str(SHELL), "-bail", str(path)], input=script, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", "blob"]
    db = open_library(path)
    try:
        after = [(item.id, item.title, item.description) for item in map(lambda i: get_item(db, i), range(1, 57))]
        assert after[2] == (3, before[2][1] + " (edited)", before[2][2])
        assert after[:2] + after[3:] == before[:2] + before[3:]
        assert 5 in [item.id for item in list_items(db, ItemFilter(text="by hand"))]
    finally:
        db.close()
