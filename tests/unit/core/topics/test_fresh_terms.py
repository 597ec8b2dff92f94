"""The terms of items worked out since the last full pass (schema 14): kept in a small index of their own beside
the big term index, read beside it when looking for candidates, moved into it by a full pass or a merge, and the
relations the same wherever they are; a library of schema 13 migrates to it. (``built`` and ``copy``: the sample
library with its relations worked out, conftest.py.)"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from earmark.core.db import relations as store
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.migrations.m014_fresh_terms import BY_TERM, FRESH
from earmark.core.models import EntryData, FeedData
from earmark.core.topics import build
from earmark.core.topics.build import update_relations

FIXTURES = Path(__file__).parents[3] / "fixtures" / "libraries"


def opened_copy(built: Path, target: Path) -> Database:
    shutil.copyfile(built, target)
    return open_library(target)


def add_episode(db: Database, n: int, text: str) -> int:
    feed = FeedData(title="Compiler Notes", entries=[EntryData(
        identity=f"guid:fresh-{n}", kind="episode", title=f"Fresh episode {n}", guid=f"fresh-{n}",
        enclosure_url=f"https://example.invalid/fresh{n}.mp3", description=f"<p>{text}</p>")])
    return store_feed(db, "https://example.invalid/compiler.xml", feed).new[0]


TREES = "CUDA graph trees and reduce-overhead mode: how CUDA graphs share memory pools."
INDUCTOR = "Inductor lowers the FX graph to loops; CUDA graph trees replay them. More on Inductor IR."


def fresh_of(db: Database, item: int) -> set[int]:
    return {row[0] for row in db.execute("SELECT fresh FROM item_terms WHERE item_id = ?", [item])}


def relations(db: Database) -> list[tuple[object, ...]]:
    return [tuple(row) for row in db.execute("SELECT * FROM relations ORDER BY item_id, other_id")]


def test_a_refreshed_item_is_found_through_the_small_index_and_after_the_merge(copy: Database) -> None:
    first = add_episode(copy, 1, TREES)
    assert not update_relations(copy).full
    assert fresh_of(copy, first) == {1} and store.fresh_terms(copy) > 0
    in_big = copy.execute("SELECT count(*) FROM item_terms INDEXED BY item_terms_by_term WHERE fresh = 0 AND "
                          "item_id = ?", [first]).fetchone()[0]
    assert in_big == 0
    terms = [tuple(row) for row in copy.execute(
        "SELECT term, weight FROM item_terms WHERE item_id = ? ORDER BY rank LIMIT 16", [first])]
    found = store.similar_by_terms(copy, terms, -1, 30)
    assert found[0][0] == first  # its own terms lead to it first
    store.merge_fresh_terms(copy)
    assert fresh_of(copy, first) == {0} and store.fresh_terms(copy) == 0
    assert store.similar_by_terms(copy, terms, -1, 30) == found


def test_relations_are_the_same_whether_the_fresh_terms_were_merged_or_not(built: Path, tmp_path: Path) -> None:
    kept, merged = opened_copy(built, tmp_path / "kept.db"), opened_copy(built, tmp_path / "merged.db")
    try:
        for db in (kept, merged):
            add_episode(db, 1, TREES)
            update_relations(db)
        store.merge_fresh_terms(merged)
        for db in (kept, merged):
            add_episode(db, 2, INDUCTOR)  # its candidates include the first, fresh in one library, merged in the other
            update_relations(db)
        assert relations(kept) == relations(merged)
        assert store.fresh_terms(kept) > store.fresh_terms(merged) > 0
    finally:
        kept.close()
        merged.close()


def test_an_update_merges_the_fresh_terms_past_their_limit(copy: Database,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    first = add_episode(copy, 1, TREES)
    update_relations(copy)
    monkeypatch.setattr(build, "FRESH_TERMS_LIMIT", 0)
    second = add_episode(copy, 2, INDUCTOR)
    assert "merge" in update_relations(copy).steps
    assert fresh_of(copy, first) == fresh_of(copy, second) == {0}  # its relations stored first, then all merged


def test_a_full_pass_leaves_no_fresh_terms(copy: Database) -> None:
    add_episode(copy, 1, TREES)
    update_relations(copy)
    assert update_relations(copy, full=True).full
    assert store.fresh_terms(copy) == 0


def index_sql(db: Database) -> dict[str, str]:
    return dict(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'item_terms'"
                           " AND sql IS NOT NULL").fetchall())


def test_a_schema_13_library_migrates_and_its_relations_are_found_as_before(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    shutil.copyfile(FIXTURES / "schema-v13.db", path)
    with sqlite3.connect(path) as old:
        before = old.execute("SELECT item_id, term, weight, rank FROM item_terms ORDER BY 1, 2").fetchall()
    db = open_library(path)
    try:
        assert index_sql(db) == {"item_terms_by_term": BY_TERM, "item_terms_fresh": FRESH}
        assert db.execute("SELECT item_id, term, weight, rank FROM item_terms ORDER BY 1, 2").fetchall() == before
        assert store.fresh_terms(db) == 0
        assert update_relations(db).full  # schema 15 asks for one: the concepts each title explains
        assert not update_relations(db).full and store.fresh_terms(db) == 0
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        db.close()


def test_a_schema_13_library_whose_pass_was_stopped_gets_the_new_index_definitions(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    shutil.copyfile(FIXTURES / "schema-v13.db", path)
    with sqlite3.connect(path) as old:  # as a full pass of schema 13 stopped midway leaves it
        found = old.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                            "AND tbl_name IN ('item_terms', 'relations')").fetchall()
        old.execute("INSERT INTO graph_state VALUES ('dropped indexes', ?)", [json.dumps(found)])
        for name, _sql in found:
            old.execute(f"DROP INDEX {name}")
    db = open_library(path)
    try:
        assert index_sql(db) == {}
        assert update_relations(db).full  # makes the dropped indexes again (a full pass: schema 15 asks for one)
        assert index_sql(db) == {"item_terms_by_term": BY_TERM, "item_terms_fresh": FRESH}
        assert "relations_by_other" in {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    finally:
        db.close()
