"""Filters that combine with search, sorting, ranked search at its cap, snippets, and smart lists."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from earmark.core.db import search
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import count_items, item_ids, list_items, save_progress, set_favourite
from earmark.core.db.migrations import MIGRATIONS, m001_initial, m002_refresh_and_podcast_namespaces
from earmark.core.db.search import ranked_head, snippets
from earmark.core.db.smart_lists import delete_smart_list, list_smart_lists, save_smart_list
from earmark.core.db.transcripts import store_transcript
from earmark.core.errors import EarmarkError, NotFoundError
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Cue, ProgressUpdate, Transcript
from helpers.feed_server import rss
from helpers.small_library import NEWEST_FIRST, Library, build_library


@pytest.fixture
def lib(library: Database, tmp_path: Path) -> Library:
    return build_library(library, tmp_path)


def titles(lib: Library, flt: ItemFilter) -> list[str]:
    return [item.title for item in list_items(lib.db, flt)]


def test_state_filters(lib: Library) -> None:
    save_progress(lib.db, ProgressUpdate(lib.ids["Quantization basics"], 300.0))
    save_progress(lib.db, ProgressUpdate(lib.ids["Weekly roundup"], 600.0, ended=True))
    assert titles(lib, ItemFilter(state="in_progress")) == ["Quantization basics"]
    assert titles(lib, ItemFilter(state="played")) == ["Weekly roundup"]
    assert "Weekly roundup" not in titles(lib, ItemFilter(state="unplayed"))
    assert "Quantization basics" in titles(lib, ItemFilter(state="unplayed"))  # started is not finished


def test_favourites(lib: Library) -> None:
    set_favourite(lib.db, [lib.ids["Compilers"], lib.ids["Weekly roundup"]], True)
    assert titles(lib, ItemFilter(favourite=True)) == ["Weekly roundup", "Compilers"]
    set_favourite(lib.db, [lib.ids["Compilers"]], False)
    assert titles(lib, ItemFilter(favourite=True, kind="episode")) == ["Weekly roundup"]
    with pytest.raises(NotFoundError):
        set_favourite(lib.db, [987654], True)


def test_date_range_is_inclusive_days(lib: Library) -> None:
    flt = ItemFilter(published_from="2024-02-01", published_to="2024-03-01")
    assert titles(lib, flt) == ["Inference at scale", "Notes on Größe", "Quantization basics"]
    assert titles(lib, ItemFilter(published_to="2023-12-31")) == ["Compilers"]
    with pytest.raises(EarmarkError, match="YYYY-MM-DD"):
        ItemFilter(published_from="last week")


def test_duration_range(lib: Library) -> None:
    assert titles(lib, ItemFilter(duration_min=15 * 60)) == ["Inference at scale", "Quantization basics"]
    assert titles(lib, ItemFilter(duration_min=15 * 60, duration_max=25 * 60)) == ["Quantization basics"]


@pytest.mark.parametrize(("sort", "reverse", "expected"), [
    ("default", False, NEWEST_FIRST),
    ("published", True, ["Undated episode", *reversed(NEWEST_FIRST[:-1])]),
    ("title", False, ["Compilers", "Inference at scale", "Notes on Größe", "Quantization basics", "Undated episode",
                      "Weekly roundup"]),
    # An article's duration is its reading time (seconds here); unknown durations last.
    ("duration", False, ["Notes on Größe", "Compilers", "Weekly roundup", "Quantization basics",
                         "Inference at scale", "Undated episode"]),
    ("duration", True, ["Inference at scale", "Quantization basics", "Weekly roundup", "Compilers",
                        "Notes on Größe", "Undated episode"]),
])
def test_sorting(lib: Library, sort: str, reverse: bool, expected: list[str]) -> None:
    assert titles(lib, ItemFilter(sort=sort, reverse=reverse)) == expected  # type: ignore[arg-type]


def test_sort_by_source_and_last_played(lib: Library) -> None:
    by_source = titles(lib, ItemFilter(sort="source"))
    assert by_source[:2] == ["Notes on Größe", "Compilers"]  # "Blog" before "Test podcast"
    for title, when in (("Weekly roundup", "2024-05-01T10:00:00+00:00"), ("Compilers", "2024-05-02T10:00:00+00:00")):
        lib.db.execute("UPDATE items SET last_played = ? WHERE id = ?", [when, lib.ids[title]])
    assert titles(lib, ItemFilter(sort="last_played"))[:2] == ["Compilers", "Weekly roundup"]  # most recent first
    assert titles(lib, ItemFilter(sort="last_played", reverse=True))[-2:] == ["Weekly roundup", "Compilers"]


def test_unknown_state_or_sort_is_a_sentence() -> None:
    with pytest.raises(EarmarkError, match="not a state"):
        ItemFilter(state="halfway")  # type: ignore[arg-type]
    with pytest.raises(EarmarkError, match="not a sort order"):
        ItemFilter(sort="colour")  # type: ignore[arg-type]


def test_filters_combine_with_search_and_sorting(lib: Library) -> None:
    assert titles(lib, ItemFilter(text="quantization")) == ["Quantization basics", "Weekly roundup"]
    assert titles(lib, ItemFilter(text="quantization", duration_max=15 * 60)) == ["Weekly roundup"]
    assert titles(lib, ItemFilter(text="quantization", sort="title", reverse=True)) == ["Weekly roundup",
                                                                                          "Quantization basics"]
    assert titles(lib, ItemFilter(text="inference", kind="article")) == ["Compilers"]


@pytest.fixture
def many(library: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Database:
    """25 episodes mentioning "graphs", one of them in its title; the ranking cap lowered to 10."""
    entries = [{"title": f"Episode {n}", "guid": f"g{n}", "enclosure": f"https://example.com/{n}.mp3",
                "pubDate": f"Mon, {n + 1:02d} Jan 2024 10:00:00 +0000",
                "description": f"We talk about graphs and other things, part {n}."} for n in range(25)]
    entries[3]["title"] = "CUDA graphs"
    feed = tmp_path / "many.xml"
    feed.write_bytes(rss("Many", entries))
    subscribe(library, str(feed))
    monkeypatch.setattr(search, "CANDIDATES", 10)
    return library


def test_a_common_word_ranks_the_newest_candidates_and_lists_every_match(many: Database) -> None:
    head = ranked_head(many, ItemFilter(text="graphs"))
    assert len(head.ids) == 10 and head.boundary is not None
    ids = item_ids(many, ItemFilter(text="graphs"))
    assert len(ids) == len(set(ids)) == 25  # the head, then every other match, none twice
    assert ids[:10] == head.ids
    assert count_items(many, ItemFilter(text="graphs")) == 25
    title_match = item_ids(many, ItemFilter(text="cuda graphs"))
    assert len(title_match) == 1


def test_a_rare_word_ranks_all_its_matches_title_first(many: Database) -> None:
    many.execute("INSERT INTO notes (item_id, at, text, created, updated) VALUES "
                 "((SELECT id FROM items WHERE title = 'Episode 0'), 5, 'memory pools', 'now', 'now')")
    head = ranked_head(many, ItemFilter(text="graphs cuda"))
    assert head.boundary is None
    assert [i.title for i in list_items(many, ItemFilter(text="memory"))] == ["Episode 0"]  # notes are searched


def test_snippets_say_which_field_matched(many: Database) -> None:
    many.execute("INSERT INTO notes (item_id, at, text, created, updated) VALUES "
                 "((SELECT id FROM items WHERE title = 'Episode 7'), 5, 'remember the allocator', 'now', 'now')")
    ids = {row[0]: row[1] for row in many.execute("SELECT title, id FROM items")}
    found = snippets(many, "cuda", [ids["CUDA graphs"]])
    assert found[ids["CUDA graphs"]].field == "title"
    assert found[ids["CUDA graphs"]].marked() == "[CUDA] graphs"
    notes = snippets(many, "allocator", [ids["Episode 7"], ids["Episode 8"]])
    assert list(notes) == [ids["Episode 7"]]  # only items that match get a snippet
    assert notes[ids["Episode 7"]].field == "notes" and "[allocator]" in notes[ids["Episode 7"]].marked()
    text = snippets(many, "thin", [ids["Episode 9"]])[ids["Episode 9"]]
    assert text.field == "text" and "[things]" in text.marked()  # the last word matches as a prefix


@pytest.mark.parametrize("query", ['"', "(", ")", "*", "AND", "OR NOT", "a AND (b", 'x"y', "-", "c++", "NEAR(a b)",
                                   "title:foo", "^", "🎧", "'; DROP TABLE items; --", "\x00", "a" * 5000])
def test_odd_queries_never_raise_and_filters_still_apply(lib: Library, query: str) -> None:
    found = list_items(lib.db, ItemFilter(text=query, kind="episode", state="unplayed"))
    assert all(item.kind == "episode" for item in found)
    snippets(lib.db, query, list(lib.ids.values()))


def test_smart_lists_are_saved_listed_replaced_and_deleted(lib: Library) -> None:
    flt = ItemFilter(text="quantization", kind="episode", duration_max=25 * 60.0, sort="title")
    list_id = save_smart_list(lib.db, "  Short   quantization ", flt)
    [smart] = list_smart_lists(lib.db)
    assert (smart.id, smart.name, smart.filter) == (list_id, "Short quantization", flt)
    assert save_smart_list(lib.db, "short QUANTIZATION", ItemFilter(tag="x")) == list_id  # same name: replaced
    assert list_smart_lists(lib.db)[0].filter == ItemFilter(tag="x")
    lib.db.execute("INSERT INTO smart_lists (name, filter, created) VALUES ('Broken', '{not json', 'now')")
    assert [s.name for s in list_smart_lists(lib.db)] == ["Short quantization"]  # the unreadable one is skipped
    delete_smart_list(lib.db, list_id)
    with pytest.raises(NotFoundError):
        delete_smart_list(lib.db, list_id)
    with pytest.raises(EarmarkError):
        save_smart_list(lib.db, "   ", flt)


def test_filter_json_ignores_keys_from_a_newer_version() -> None:
    flt = ItemFilter(tag="inductor", state="unplayed", published_from="2024-01-01")
    text = flt.to_json().replace("{", '{"colour": "red", ', 1)
    assert ItemFilter.from_json(text) == flt


def test_a_version_2_library_keeps_its_search_after_the_upgrade(library_file: Path) -> None:
    raw = sqlite3.connect(library_file)
    m001_initial(raw)
    m002_refresh_and_podcast_namespaces(raw)
    raw.execute("PRAGMA user_version = 2")
    raw.execute("INSERT INTO items (kind, identity, title, text, added) VALUES "
                "('article', 'a', 'Old article', 'about tensors', 'then')")
    raw.execute("INSERT INTO notes (item_id, at, text, created, updated) VALUES (1, NULL, 'my own remark', 'x', 'x')")
    raw.commit()
    raw.close()
    db = open_library(library_file)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    for query in ("tensors", "remark", "old"):
        assert [i.title for i in list_items(db, ItemFilter(text=query))] == ["Old article"]
    db.execute("UPDATE items SET title = 'Renamed' WHERE id = 1")
    assert [i.title for i in list_items(db, ItemFilter(text="renamed"))] == ["Renamed"]
    db.close()


def test_a_cached_transcript_is_searched_and_named_as_the_match(lib: Library) -> None:
    item_id = lib.ids["Weekly roundup"]
    cues = [Cue(0.0, 4.0, "Welcome back to the show."), Cue(4.0, 9.0, "Today: speculative decoding explained.")]
    store_transcript(lib.db, item_id, "https://example.com/t.vtt", Transcript(cues, "vtt"))
    assert titles(lib, ItemFilter(text="speculative decoding")) == ["Weekly roundup"]
    found = snippets(lib.db, "speculative", [item_id])[item_id]
    assert found.field == "transcript" and "[speculative]" in found.marked()
    store_transcript(lib.db, item_id, "https://example.com/t.vtt", Transcript([Cue(0.0, 1.0, "Other words.")], "vtt"))
    assert titles(lib, ItemFilter(text="speculative")) == []  # the index follows the cache
    store_transcript(lib.db, item_id, "https://example.com/t.vtt", None, "The transcript could not be read.")
    assert titles(lib, ItemFilter(text="other words")) == []
