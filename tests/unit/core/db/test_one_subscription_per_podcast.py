"""The migration ``m015_one_subscription_per_podcast``: a library holding the same podcast two or three times (its
address written otherwise, a mirror with its podcast:guid) opens with one subscription, one item per episode, and
every note, highlight, tag, queue entry, download and play kept, the position of the copy heard last winning."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.db.migrations import MIGRATIONS
from earmark.core.db.migrations.m015_one_subscription_per_podcast import m015_one_subscription_per_podcast
from earmark.core.db.sources import list_sources
from earmark.core.feeds.identity import find_subscription
from helpers.duplicate_library import (
    BEFORE,
    GRAPH_CAST,
    HTTP_COPY,
    MIRROR,
    big_library_with_duplicates,
    check_merged,
    fixture_with_duplicates,
)
from helpers.search_index import assert_index_in_step


def test_the_fixture_holds_the_duplicates_before(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    fixture_with_duplicates(path)
    conn = sqlite3.connect(path)
    urls = [row[0] for row in conn.execute("SELECT url FROM sources WHERE title = 'Graph Cast' ORDER BY id")]
    assert conn.execute("PRAGMA user_version").fetchone()[0] == BEFORE
    conn.close()
    assert urls == [GRAPH_CAST, HTTP_COPY, MIRROR]


def test_a_library_holding_one_podcast_three_times_opens_with_one(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    expected = fixture_with_duplicates(path)
    db = open_library(path)
    try:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        [cast] = [source for source in list_sources(db) if source.title == "Graph Cast"]
        assert (cast.url, cast.item_count) == (GRAPH_CAST, 3)
        for address in (HTTP_COPY, MIRROR):  # subscribing by them again finds it
            known = find_subscription(db, [address])
            assert known is not None and known.source_id == cast.id
        found = list_items(db, ItemFilter(text="Heard on the mirror"))  # the search index follows the notes
        assert [item.title for item in found] == ["Optimising the recorded graph"]
        assert [item.source for item in list_items(db, ItemFilter(text="mirror-only"))] == ["Graph Cast"]
        assert list_items(db, ItemFilter(favourite=True, source_id=cast.id))  # a favourite on a copy stays one
        assert_index_in_step(db)
        dirty = {row[0] for row in db.execute("SELECT item_id FROM graph_dirty")}
        items = {row[0] for row in db.execute("SELECT id FROM items")}
        assert dirty <= items  # the merged episodes are worked out again; none of the copies left
    finally:
        db.close()
    check_merged(path, expected)
    assert path.with_name(f"library.db.v{BEFORE}.bak").exists()  # the library as it was, copied first


def test_many_duplicates_merge_with_the_newest_positions(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    expected = big_library_with_duplicates(path, podcasts=3, episodes=60)
    open_library(path).close()
    check_merged(path, expected)


def test_a_library_without_duplicates_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    db = open_library(path)
    db.execute("INSERT INTO sources (kind, title, url, added) VALUES ('podcast', 'A', 'https://a.example/feed', 'x'),"
               " ('podcast', 'B', 'https://a.example/feed?b', 'x'), ('site', 'C', NULL, 'x'), ('site', 'D', NULL, 'x')")
    db.execute("UPDATE sources SET podcast_guid = '' ")
    before = db.execute("SELECT * FROM sources ORDER BY id").fetchall()
    db.execute("DROP TABLE source_addresses")
    db.conn.execute("BEGIN IMMEDIATE")
    m015_one_subscription_per_podcast(db.conn)  # as the upgrade from schema 14 runs it
    db.conn.execute("COMMIT")
    assert db.execute("SELECT * FROM sources ORDER BY id").fetchall() == before
    db.close()
