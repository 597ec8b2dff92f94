"""The Up Next queue, played marks, Continue listening, per-podcast settings and the m003 migration, on a real
library file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, item_ids, last_episode_left, mark_played, played_margin, save_progress
from earmark.core.db.migrations import MIGRATIONS, apply_migrations, schema_version
from earmark.core.db.podcast_prefs import auto_download_sources, get_prefs, set_prefs
from earmark.core.db.queue import (
    clear_queue,
    dequeue,
    enqueue,
    move_in_queue,
    next_in_queue,
    play_next,
    queue_ids,
    reorder_queue,
)
from earmark.core.errors import NotFoundError
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import PodcastPrefs, ProgressUpdate
from helpers.podcast import Episode, write_podcast


@pytest.fixture
def episodes(library: Database, tmp_path: Path) -> list[int]:
    """Five 600-second episodes (files are short; the feed's durations are what counts here), newest first."""
    feed = write_podcast(tmp_path / "cast", [Episode(f"Episode {n}", 0.2) for n in range(5)])
    subscribe(library, str(feed))
    ids = item_ids(library, ItemFilter())
    library.execute("UPDATE items SET duration = 600")
    return ids


def test_queue_adds_last_or_next_moves_and_removes(library: Database, episodes: list[int]) -> None:
    a, b, c, d, e = episodes
    enqueue(library, [a, b])
    enqueue(library, [c])
    assert queue_ids(library) == [a, b, c]
    play_next(library, [d], after=a)  # right after the episode playing
    assert queue_ids(library) == [a, d, b, c]
    play_next(library, [e], after=None)  # nothing queued plays: first
    assert queue_ids(library) == [e, a, d, b, c]
    enqueue(library, [e])  # already queued: moves to the end
    assert queue_ids(library) == [a, d, b, c, e]
    move_in_queue(library, c, -1)
    assert queue_ids(library) == [a, d, c, b, e]
    move_in_queue(library, a, -5)  # stops at the top
    move_in_queue(library, e, 3)  # and at the bottom
    assert queue_ids(library) == [a, d, c, b, e]
    reorder_queue(library, [e, a])
    assert queue_ids(library) == [e, a, d, c, b]
    dequeue(library, [d, c])
    assert queue_ids(library) == [e, a, b]
    assert next_in_queue(library, a) == b and next_in_queue(library, a, -1) == e
    assert next_in_queue(library, b) is None and next_in_queue(library, e, -1) is None
    assert next_in_queue(library, c) == e  # not queued: the first
    clear_queue(library)
    assert queue_ids(library) == [] and next_in_queue(library, None) is None


def test_the_queue_persists_and_forgets_deleted_items(library_file: Path, library: Database,
                                                     episodes: list[int]) -> None:
    enqueue(library, episodes[:3])
    enqueue(library, [999_999])  # no such item: ignored
    library.execute("DELETE FROM items WHERE id = ?", [episodes[1]])
    again = open_library(library_file)
    assert queue_ids(again) == [episodes[0], episodes[2]]
    again.close()


def test_mark_played_and_unplayed_for_many_items(library: Database, episodes: list[int]) -> None:
    save_progress(library, ProgressUpdate(episodes[0], 120.0))
    mark_played(library, episodes[:2], True)
    first = get_item(library, episodes[0])
    assert first.played and first.position == 0 and first.last_played
    assert item_ids(library, ItemFilter(state="unplayed")) == episodes[2:]
    mark_played(library, episodes[:2], False)
    assert item_ids(library, ItemFilter(state="unplayed")) == episodes


def test_continue_listening_lists_started_episodes_last_played_first(library: Database,
                                                                     episodes: list[int]) -> None:
    save_progress(library, ProgressUpdate(episodes[3], 30.0))
    save_progress(library, ProgressUpdate(episodes[1], 40.0))
    library.execute("UPDATE items SET last_played = '2020-01-01T00:00:00+00:00' WHERE id = ?", [episodes[3]])
    save_progress(library, ProgressUpdate(episodes[2], 600.0, ended=True))  # finished: not listed
    assert item_ids(library, ItemFilter(state="in_progress", sort="last_played")) == [episodes[1], episodes[3]]


def test_the_episode_left_part_way_last_is_the_one_a_restart_brings_back(library: Database,
                                                                         episodes: list[int]) -> None:
    assert last_episode_left(library) is None  # nothing heard yet
    save_progress(library, ProgressUpdate(episodes[3], 30.0))
    library.execute("UPDATE items SET last_played = '2020-01-01T00:00:00+00:00' WHERE id = ?", [episodes[3]])
    save_progress(library, ProgressUpdate(episodes[1], 40.0))
    left = last_episode_left(library)
    assert left is not None and (left.id, left.position) == (episodes[1], 40.0)
    save_progress(library, ProgressUpdate(episodes[1], 600.0, ended=True))  # the last one heard was finished
    assert last_episode_left(library) is None


@pytest.mark.parametrize(("position", "played"), [(560.0, False), (571.0, True), (599.5, True)])
def test_stopping_near_the_end_counts_as_played(library: Database, episodes: list[int],
                                                position: float, played: bool) -> None:
    save_progress(library, ProgressUpdate(episodes[0], position, 600.0), played_within=30.0)
    item = get_item(library, episodes[0])
    assert item.played is played
    assert item.position == (0.0 if played else position)


def test_the_played_margin_is_at_most_a_tenth_of_short_episodes() -> None:
    assert played_margin(600.0, 30.0) == 30.0
    assert played_margin(60.0, 30.0) == 6.0
    assert played_margin(6.0, 30.0) == 1.0  # never under a second
    assert played_margin(600.0, 0.0) == 1.0


def test_podcast_playback_settings_round_trip(library: Database, episodes: list[int]) -> None:
    source_id = get_item(library, episodes[0]).source_id
    assert source_id is not None
    assert get_prefs(library, source_id) == PodcastPrefs()
    set_prefs(library, source_id, PodcastPrefs(1.35, 12.0, 20.0, True, True))
    assert get_prefs(library, source_id) == PodcastPrefs(1.35, 12.0, 20.0, True, True)
    assert auto_download_sources(library) == {source_id}
    assert get_prefs(library, None) == PodcastPrefs()
    with pytest.raises(NotFoundError):
        set_prefs(library, 424242, PodcastPrefs())


def test_a_library_of_the_previous_schema_gains_the_new_tables_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    for number, migration in enumerate(MIGRATIONS[:-1], start=1):
        migration(conn)
        conn.execute(f"PRAGMA user_version = {number}")
    conn.execute("INSERT INTO sources (kind, title, url, added) VALUES ('podcast', 'Old', 'http://x/f', 'now')")
    conn.close()
    db = open_library(path)
    assert schema_version(db.conn) == len(MIGRATIONS)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"queue", "downloads", "chapters_cache"} <= tables
    assert get_prefs(db, 1) == PodcastPrefs()
    assert (tmp_path / f"old.db.v{len(MIGRATIONS) - 1}.bak").exists()
    apply_migrations(db.conn)  # idempotent
    db.close()
