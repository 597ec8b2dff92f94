"""Libraries written by every released schema version (kept under tests/fixtures/libraries, each created by the
code of its version) open in this version with everything the user had.

Every fixture holds what schema-v1.db holds; the fixture of version N also holds a row in each table and column
that versions up to N added (tests/fixtures/libraries/make_fixture.py writes it), checked by VERSION_CHECKS."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from earmark.core.chapters import cached_chapters
from earmark.core.db.compaction import compaction_due
from earmark.core.db.connection import open_library
from earmark.core.db.covers import cover_state
from earmark.core.db.database import Database
from earmark.core.db.downloads import get_download, list_downloads
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.db.listening_stats import listening_stats
from earmark.core.db.migrations import MIGRATIONS
from earmark.core.db.notes import list_notes
from earmark.core.db.podcast_prefs import auto_download_sources, get_prefs
from earmark.core.db.queue import queue_ids
from earmark.core.db.relations import pending_item_ids, related_items, similar_by_terms
from earmark.core.db.silences import get_silences
from earmark.core.db.smart_lists import list_smart_lists
from earmark.core.db.sources import list_sources
from earmark.core.db.tags import tag_colours, tags_for_sources
from earmark.core.db.transcribe_queue import waiting
from earmark.core.db.transcripts import stored_transcript
from earmark.core.feeds.identity import find_subscription
from earmark.core.html import search_text
from earmark.core.models import Chapter, PodcastPrefs
from earmark.core.secrets.feeds import feed_key
from earmark.core.secrets.store import Secrets
from earmark.core.settings import get_setting
from earmark.core.sync.account import get_account
from earmark.core.topics.layout import stored_positions
from helpers.search_index import assert_index_in_step

FOLDER = Path(__file__).parents[3] / "fixtures" / "libraries"


def version_of(path: Path) -> int:
    return int(path.stem.removeprefix("schema-v"))


FIXTURES = sorted(FOLDER.glob("schema-v*.db"), key=version_of)
SAMPLE_ITEMS = 54  # the sample library's episodes and articles, in every fixture


def test_there_is_a_fixture_for_the_first_schema() -> None:
    assert [path.name for path in FIXTURES][:1] == ["schema-v1.db"]


def test_there_is_a_fixture_for_the_current_schema() -> None:
    assert (FOLDER / f"schema-v{len(MIGRATIONS)}.db").exists(), (
        "a new schema version needs its fixture: run `PYTHONPATH=app python tests/fixtures/libraries/make_fixture.py`"
        " and add its checks to VERSION_CHECKS")


def check_v1(db: Database) -> None:
    """What schema-v1.db holds: the sample library with a tag, a position, a played item, a note, a setting."""
    items = list_items(db, ItemFilter())
    assert len([item for item in items if item.source != "Graph Cast"]) == SAMPLE_ITEMS
    by_title = {item.title: item.id for item in items}
    trees = get_item(db, by_title["CUDA graph trees"])
    assert {"memory", "to revisit"} <= set(trees.tags)  # beside the subjects the sample tags it with since
    assert trees.position == 42.5 and not trees.played
    assert get_item(db, by_title["Reference counting"]).played
    assert (12.0, "Trees share memory pools") in db.execute("SELECT at, text FROM notes").fetchall()
    assert get_setting(db, "playback.speed") == 1.5
    # The search index was rebuilt on the way (schema 3): titles, show notes and notes are found again.
    assert [item.title for item in list_items(db, ItemFilter(text="memory pools"))] == ["CUDA graph trees"]
    assert [item.title for item in list_items(db, ItemFilter(text="cuda graph trees"))][0] == "CUDA graph trees"
    assert [item.title for item in list_items(db, ItemFilter(text="reference counting"))][:2] == [
        "Reference counting", "Weak references"]  # show notes are indexed too


def check_v6(db: Database) -> None:
    """What make_fixture.py adds for schemas 2 to 6 (schema-v6.db and later)."""
    ids = {item.title: item.id for item in list_items(db, ItemFilter())}
    tracing, optimising, vmap, strides = (ids[title] for title in (
        "Tracing tensor programs", "Optimising the recorded graph", "vmap", "Strides"))
    # Schema 2: the podcast's namespace fields, per feed and per item.
    cast = next(source for source in list_sources(db) if source.title == "Graph Cast")
    row = db.execute("SELECT podcast_guid, itunes_type, locked, funding, persons, podroll FROM sources WHERE id = ?",
                     [cast.id]).fetchone()
    assert row[:3] == ("9b1c6f3e-graph-cast", "episodic", 1)
    assert json.loads(row[3])[0]["url"] == "https://graphcast.example.com/support"
    assert json.loads(row[4]) == [{"name": "Ana Ruiz", "role": "host"}] and json.loads(row[5])[0]["feedGuid"]
    row = db.execute("SELECT season, episode, chapters_url, transcripts, persons, image_url FROM items WHERE id = ?",
                     [tracing]).fetchone()
    assert row[:3] == (1, 1, "https://graphcast.example.com/1/chapters.json")
    assert json.loads(row[3]) == [{"type": "text/vtt", "url": "https://graphcast.example.com/1.vtt"}]
    assert json.loads(row[4])[0]["name"] == "Ben Okafor" and row[5] == "https://graphcast.example.com/art/1.png"
    # Schema 3: tag colours, source tags, favourites, smart lists.
    assert tag_colours(db) == {"to revisit": "#d1495b", "graphs": "#2a6f97"}
    assert sorted(tags_for_sources(db)[cast.id]) == ["compilers", "graphs"]
    assert {item.title for item in list_items(db, ItemFilter(favourite=True))} == {"vmap", "Tracing tensor programs"}
    smart = {smart.name: smart.filter for smart in list_smart_lists(db)}
    assert smart == {"Long favourites": ItemFilter(favourite=True, duration_min=600.0, sort="duration"),
                     "Unplayed graphs": ItemFilter(tag="graphs", state="unplayed")}
    assert [item.title for item in list_items(db, smart["Unplayed graphs"])] == [
        "Optimising the recorded graph", "Tracing tensor programs"]  # by the source's tag and the item's own
    # Schema 4: notes with quotes, the transcript cache (searchable), the listening history.
    quoted = {note.text: note for note in list_notes(db)}
    assert quoted["The tracer is the recorder"].quote == (
        "Welcome to Graph Cast. Today: how a tracer records every tensor operation.")
    assert quoted["Ask about fusion limits"].at is None
    stored = stored_transcript(db, tracing)
    assert stored is not None and stored.transcript is not None and len(stored.transcript.cues) == 3
    assert [item.title for item in list_items(db, ItemFilter(text="compiler can optimise"))] == [
        "Tracing tensor programs"]
    history = db.execute("SELECT item_id, position, finished FROM play_history WHERE item_id IN (?, ?) ORDER BY id",
                         [tracing, optimising]).fetchall()
    assert history == [(tracing, 300.0, 0), (optimising, 1802.0, 1)]
    # Schema 5: the queue, downloads, cached chapters, per-podcast playback settings.
    assert queue_ids(db) == [optimising, vmap, strides]
    done, paused = get_download(db, tracing), get_download(db, strides)
    assert done is not None and (done.status, done.size) == ("done", 28_000_000)
    assert paused is not None and (paused.status, paused.received, paused.size) == ("paused", 1_000_000, 9_000_000)
    assert cached_chapters(db, tracing) == [Chapter(0.0, "Welcome"),
                                            Chapter(240.0, "Tracing", "https://graphcast.example.com/tracing")]
    assert get_prefs(db, cast.id) == PodcastPrefs(1.25, 15.0, 30.0, True, True)
    assert auto_download_sources(db) == {cast.id}
    assert get_setting(db, "keyboard.shortcuts") == {"play_pause": ["Ctrl+Space"]}
    assert get_setting(db, "list.sorts") == {"all": ["title", False]} and get_setting(db, "downloads.retries") == 5
    # Schema 6: the topic graph, its layout, and the item changed since the last build.
    assert related_items(db, tracing)
    assert len(stored_positions(db)) == len(ids)
    assert pending_item_ids(db) == [optimising]


def check_v7(db: Database) -> None:
    """Schema 7 (the reading list) on top of schema 6's content: nothing archived, and every stored article
    got its reading time (the migration fills it in for articles saved before)."""
    assert db.execute("SELECT count(*) FROM items WHERE archived = 1").fetchone()[0] == 0
    articles = db.execute("SELECT title, duration FROM items WHERE kind = 'article'").fetchall()
    assert articles and all(duration and duration > 0 for _title, duration in articles)


def check_v8(db: Database) -> None:
    """Schema 8: the feed password kept in the library by choice, the sync account and its journal."""
    cast = next(source for source in list_sources(db) if source.title == "Graph Cast")
    assert cast.has_credentials
    assert Secrets(db).get(feed_key(cast.url or "", "ana")) == "fixture-password"
    account = get_account(db)
    assert account is not None and (account.user, account.device) == ("ana", "earmark-fixture")
    journal = db.execute("SELECT action, count(*) FROM sync_journal GROUP BY action ORDER BY action").fetchall()
    assert [action for action, _count in journal] == ["play", "subscribe"]
    assert db.execute("SELECT count(*) FROM sync_seen").fetchone()[0] == 1
    assert db.execute("SELECT episode FROM sync_waiting").fetchall() == [("https://elsewhere.example.com/1.mp3",)]


def check_v9(db: Database) -> None:
    """Schema 9: the search vocabulary, learnt from a note like everything else (compound names, an acronym)."""
    assert [item.title for item in list_items(db, ItemFilter(text="helper"))] == ["vmap"]  # BatchRulesHelper
    assert [item.title for item in list_items(db, ItemFilter(text="batching rule registry"))] == ["vmap"]
    assert [item.title for item in list_items(db, ItemFilter(text="BRR"))] == ["vmap"]


def check_v10(db: Database) -> None:
    """Schema 10: the subscription whose title the user chose (imported from an OPML list) is marked so."""
    rows = db.execute("SELECT title, user_title FROM sources WHERE url = ?",
                      ["https://renamed.example.com/feed.xml"]).fetchall()
    assert rows == [("Ana's compiler picks", 1)]
    # the other subscriptions follow their feeds' titles
    assert db.execute("SELECT count(*) FROM sources WHERE user_title = 1").fetchone()[0] == 1


def check_v11(db: Database) -> None:
    """Schema 11: the lengths of the episode files, as the feeds announce them (the sample's feed gives them)."""
    lengths = db.execute("SELECT guid, enclosure_length FROM items WHERE guid LIKE 'gc-%' ORDER BY guid").fetchall()
    assert lengths == [("gc-1", 28_000_001), ("gc-2", 28_000_002)]
    episodes = db.execute("SELECT count(*), count(enclosure_length) FROM items WHERE enclosure_url IS NOT NULL")
    assert len(set(episodes.fetchone())) == 1
    [tracing] = [d for d in list_downloads(db) if d.title == "Tracing tensor programs"]
    assert tracing.enclosure_length == 28_000_001  # what a download is checked against


def check_listening(db: Database) -> None:
    """Schema 12: a session's speed and silence skipped count in the statistics, an episode's silent spans and a
    podcast's skip-silence level are kept."""
    stats = listening_stats(db)
    assert stats.saved_by_silence_seconds == 12.0
    vmap = next(item.id for item in list_items(db, ItemFilter(text="vmap")) if item.title == "vmap")
    session = db.execute("SELECT speed, silence_saved FROM play_history WHERE item_id = ?", [vmap]).fetchone()
    assert session == (1.5, 12.0)
    [(item_id,)] = db.execute("SELECT item_id FROM silences").fetchall()
    assert get_silences(db, item_id).spans == [(10.0, 11.5), (300.25, 303.0)]  # type: ignore[union-attr]
    assert db.execute("SELECT skip_silence FROM sources WHERE skip_silence != 'off'").fetchall() == [("strong",)]
    # sessions from before schema 12 played at 1x and skipped nothing
    assert db.execute("SELECT count(*) FROM play_history WHERE speed = 1 AND silence_saved = 0").fetchone()[0] >= 2


def check_v13(db: Database) -> None:
    """Schema 13: the transcript made here (found by what it says), the queue with its failure, the podcast
    whose new episodes are transcribed."""
    episode = "Optimising the recorded graph"
    assert [item.title for item in list_items(db, ItemFilter(text="rewritten"))] == [episode]
    assert db.execute("SELECT t.url, t.type FROM transcripts t JOIN items i ON i.id = t.item_id WHERE i.title = ?",
                      [episode]).fetchone() == ("generated:tiny.en", "generated")
    assert [(w.title, w.error) for w in waiting(db)] == [
        ("vmap", None), ("CUDA graph trees", "CUDA graph trees.mp3 is not audio Earmark can read.")]
    assert db.execute("SELECT count(*) FROM sources WHERE transcribe_new IS NOT NULL").fetchone()[0] == 1


def check_v14(db: Database) -> None:
    """Schema 14: the item worked out again since the full pass keeps its terms in the small index of fresh ones,
    and they lead to it."""
    vmap = next(item.id for item in list_items(db, ItemFilter(text="vmap")) if item.title == "vmap")
    assert {row[0] for row in db.execute("SELECT fresh FROM item_terms WHERE item_id = ?", [vmap])} == {1}
    terms = db.execute("SELECT term, weight FROM item_terms WHERE item_id = ? ORDER BY rank", [vmap]).fetchall()
    assert similar_by_terms(db, terms, -1, 1)[0][0] == vmap


def check_v15(db: Database) -> None:
    """Schema 15: Graph Cast is known by the address it was read from before, however that is written."""
    known = find_subscription(db, ["https://graphcast.example.com/old/feed.xml/"])
    assert known is not None and known.title == "Graph Cast"


def check_v16(db: Database) -> None:
    """Schema 16: a cover fetched once keeps its file and the validators of its conditional GET."""
    state = cover_state(db, "https://graphcast.example.com/cover.png")
    assert (state.file, state.etag, state.checked) == ("graphcast.png", '"cover-1"', "2025-05-01T08:00:00+00:00")


def check_v17(db: Database) -> None:
    """Schema 17: the library's own id (its default device id's ending) and the address the server knows a
    moved feed by."""
    (uid,) = db.execute("SELECT uid FROM sync_library").fetchone()
    assert len(uid) == 6 and int(uid, 16) >= 0
    assert db.execute("SELECT url FROM sync_known_as").fetchall() == [("http://graphcast.example.com/feed.xml",)]


def check_v18(db: Database) -> None:
    """Schema 18: the concepts each title explains, kept by the full pass for learning paths."""
    assert db.execute("""SELECT c.strength FROM item_concepts c JOIN items i ON i.id = c.item_id
                         WHERE i.title = 'AOTAutograd' AND c.term = 'aotautograd'""").fetchone() == (1.0,)


def check_v19(db: Database) -> None:
    """Schema 19: show notes kept once, as a pattern over the item's text (core/db/show_notes.py), and given back as
    the markup whose text that is; a library made at 19 has no compaction due."""
    rows = db.execute("SELECT id, typeof(description), typeof(content), text FROM items").fetchall()
    assert sum(1 for _id, description, content, _text in rows if "blob" in (description, content)) >= SAMPLE_ITEMS
    for item_id, _description, _content, text in rows:
        item = get_item(db, item_id)
        assert search_text(item.description or "", item.content or "") == text
    assert not compaction_due(db.conn)


# The checks of version N apply to the fixtures of version N and later (make_fixture.py only ever adds content).
VERSION_CHECKS: dict[int, Callable[[Database], None]] = {1: check_v1, 6: check_v6, 7: check_v7,
                                                                      8: check_v8, 9: check_v9, 10: check_v10,
                                                                      11: check_v11, 12: check_listening,
                                                                      13: check_v13, 14: check_v14,
                                                                      15: check_v15, 16: check_v16, 17: check_v17,
                                                                      18: check_v18, 19: check_v19}


def test_every_fixture_version_has_its_checks() -> None:
    assert {version_of(path) for path in FIXTURES} <= set(VERSION_CHECKS)


@pytest.mark.parametrize("fixture", FIXTURES, ids=[path.stem for path in FIXTURES])
def test_an_old_library_migrates_with_everything_intact(fixture: Path, tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    shutil.copyfile(fixture, path)
    version = version_of(fixture)
    db = open_library(path)
    try:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        for since, check in VERSION_CHECKS.items():
            if since <= version:
                check(db)
        # Every library searches technical names from schema 9 on, its index equal to a rebuild.
        assert "AOTAutograd" in [item.title for item in list_items(db, ItemFilter(text="autograd"))]
        assert "TensorAccessor" in [item.title for item in list_items(db, ItemFilter(text="accessor"))]
        assert_index_in_step(db)
        if version == 1:  # the first fixture has only its one note
            assert db.execute("SELECT at, text FROM notes").fetchall() == [(12.0, "Trees share memory pools")]
        if version < len(MIGRATIONS):
            assert path.with_name(f"{path.name}.v{version}.bak").exists()  # the backup before migrating
    finally:
        db.close()
