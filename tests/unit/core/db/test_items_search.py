"""Listing, filtering and searching items, and the user's playback progress on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import count_items, get_item, items_by_ids, list_items, save_progress, warm_items
from earmark.core.db.tags import tag_item, untag_item
from earmark.core.errors import NotFoundError
from earmark.core.models import ProgressUpdate
from earmark.core.timefmt import now_iso
from helpers.small_library import NEWEST_FIRST, Library, build_library


@pytest.fixture
def lib(library: Database, tmp_path: Path) -> Library:
    return build_library(library, tmp_path)


def _titles(lib: Library, flt: ItemFilter) -> list[str]:
    return [item.title for item in list_items(lib.db, flt)]


def test_list_is_newest_first_with_undated_last(lib: Library) -> None:
    assert _titles(lib, ItemFilter()) == NEWEST_FIRST
    assert count_items(lib.db, ItemFilter()) == 6


def test_filter_by_kind(lib: Library) -> None:
    assert _titles(lib, ItemFilter(kind="article")) == ["Notes on Größe", "Compilers"]
    assert _titles(lib, ItemFilter(kind="episode")) == [t for t in NEWEST_FIRST if t not in ("Notes on Größe",
                                                                                             "Compilers")]


def test_filter_by_source(lib: Library) -> None:
    assert _titles(lib, ItemFilter(source_id=lib.site_id)) == ["Notes on Größe", "Compilers"]
    assert len(list_items(lib.db, ItemFilter(source_id=lib.podcast_id))) == 4
    assert list_items(lib.db, ItemFilter(source_id=999)) == []


def test_filter_by_tag(lib: Library) -> None:
    tag_item(lib.db, lib.ids["Weekly roundup"], ["News", "  roundups  "])
    tag_item(lib.db, lib.ids["Compilers"], ["news"])
    assert _titles(lib, ItemFilter(tag="news")) == ["Weekly roundup", "Compilers"]
    assert _titles(lib, ItemFilter(tag="unicode")) == ["Notes on Größe"]  # from the article's own tags
    assert _titles(lib, ItemFilter(tag="news", kind="episode")) == ["Weekly roundup"]
    assert get_item(lib.db, lib.ids["Weekly roundup"]).tags == ["news", "roundups"]
    untag_item(lib.db, lib.ids["Weekly roundup"], ["NEWS"])
    assert _titles(lib, ItemFilter(tag="news")) == ["Compilers"]
    assert list_items(lib.db, ItemFilter(tag="nothing-has-this")) == []


def test_filter_by_tag_accepts_the_name_as_it_was_typed(lib: Library) -> None:
    item_id = lib.ids["Weekly roundup"]
    tag_item(lib.db, item_id, ["CUDA  Graphs", "Ärger"])
    assert _titles(lib, ItemFilter(tag="CUDA  Graphs")) == ["Weekly roundup"]
    assert _titles(lib, ItemFilter(tag="Ärger")) == ["Weekly roundup"]


def test_filter_unplayed(lib: Library) -> None:
    save_progress(lib.db, ProgressUpdate(item_id=lib.ids["Inference at scale"], position=0, ended=True))
    assert "Inference at scale" not in _titles(lib, ItemFilter(state="unplayed"))
    assert len(list_items(lib.db, ItemFilter(state="unplayed"))) == 5
    assert count_items(lib.db, ItemFilter(state="unplayed", kind="episode")) == 3


def test_limit_keeps_the_order(lib: Library) -> None:
    assert [item.title for item in list_items(lib.db, ItemFilter(), limit=2)] == NEWEST_FIRST[:2]


def test_listed_items_carry_source_and_feed_fields(lib: Library) -> None:
    [item] = [i for i in list_items(lib.db, ItemFilter()) if i.title == "Inference at scale"]
    assert (item.kind, item.source, item.source_id) == ("episode", "Test podcast", lib.podcast_id)
    assert (item.enclosure_url, item.duration, item.published) == (
        "https://example.com/e1.mp3", 1800, "2024-03-01T09:00:00+00:00")
    assert (item.position, item.played, item.tags) == (0.0, False, [])
    assert get_item(lib.db, item.id).description == "How to serve models quickly."


# Search.


def test_title_match_ranks_above_body_match(lib: Library) -> None:
    assert _titles(lib, ItemFilter(text="quantization")) == ["Quantization basics", "Weekly roundup"]
    assert count_items(lib.db, ItemFilter(text="quantization")) == 2


def test_search_is_case_insensitive_and_combines_with_filters(lib: Library) -> None:
    assert _titles(lib, ItemFilter(text="QUANTIZATION", kind="episode")) == ["Quantization basics",
                                                                              "Weekly roundup"]
    assert _titles(lib, ItemFilter(text="inference", kind="article")) == ["Compilers"]
    assert _titles(lib, ItemFilter(text="quantization", source_id=lib.site_id)) == []


def test_every_word_must_match(lib: Library) -> None:
    assert _titles(lib, ItemFilter(text="quantization passing")) == ["Weekly roundup"]
    assert list_items(lib.db, ItemFilter(text="quantization lighthouse")) == []


def test_last_word_is_a_prefix(lib: Library) -> None:
    assert set(_titles(lib, ItemFilter(text="infer"))) == {"Inference at scale", "Compilers"}
    assert _titles(lib, ItemFilter(text="types infer")) == ["Compilers"]
    assert list_items(lib.db, ItemFilter(text="infer types")) == []  # only the last word is a prefix


def test_unicode_search(lib: Library) -> None:
    assert _titles(lib, ItemFilter(text="Größe")) == ["Notes on Größe"]
    assert _titles(lib, ItemFilter(text="größe")) == ["Notes on Größe"]
    assert _titles(lib, ItemFilter(text="cafe")) == ["Notes on Größe"]  # diacritics are ignored
    assert _titles(lib, ItemFilter(text="tags")) == ["Notes on Größe"]  # entities were indexed as text


@pytest.mark.parametrize(
    "query",
    ['"(', "AND", "*", "foo AND", "((", "NEAR(", "-", "'", "Größe", "🎧", "🎧🎧 quantization", '"', '""', "OR",
     "NOT quantization", "quantization NOT", "title:quantization", "^", "a*b", "x" * 500, "\x00", "  ", "_", "日本語",
     "'; DROP TABLE items; --", "quantization)", "NEAR(quantization roundup, 2)", "\\", "%", "$1"],
)
def test_odd_queries_never_raise(lib: Library, query: str) -> None:
    found = list_items(lib.db, ItemFilter(text=query))
    assert isinstance(found, list)
    assert count_items(lib.db, ItemFilter(text=query)) == len(found)
    assert count_items(lib.db, ItemFilter()) == 6  # and the library is still there


def test_operators_are_plain_words(lib: Library) -> None:
    assert _titles(lib, ItemFilter(text="NOT quantization")) == []  # "not" is a word no item contains
    assert _titles(lib, ItemFilter(text="quantization)")) == ["Quantization basics", "Weekly roundup"]
    assert list_items(lib.db, ItemFilter(text="🎧")) == []


def _add_note(db: Database, item_id: int, text: str) -> int:
    cursor = db.execute(
        "INSERT INTO notes (item_id, at, text, created, updated) VALUES (?, ?, ?, ?, ?)",
        [item_id, 12.5, text, now_iso(), now_iso()],
    )
    return int(cursor.lastrowid or 0)


def test_notes_are_searchable_and_kept_in_sync(lib: Library) -> None:
    item_id = lib.ids["Weekly roundup"]
    note_id = _add_note(lib.db, item_id, "remember the lighthouse keeper")
    _add_note(lib.db, item_id, "and the albatross")
    assert [i.id for i in list_items(lib.db, ItemFilter(text="lighthouse"))] == [item_id]
    assert [i.id for i in list_items(lib.db, ItemFilter(text="albatross lighthouse"))] == [item_id]

    lib.db.execute("UPDATE notes SET text = 'remember the harbour' WHERE id = ?", [note_id])
    assert list_items(lib.db, ItemFilter(text="lighthouse")) == []
    assert [i.id for i in list_items(lib.db, ItemFilter(text="harbour"))] == [item_id]

    lib.db.execute("DELETE FROM notes WHERE id = ?", [note_id])
    assert list_items(lib.db, ItemFilter(text="harbour")) == []
    assert [i.id for i in list_items(lib.db, ItemFilter(text="albatross"))] == [item_id]


def test_deleted_item_leaves_search(lib: Library) -> None:
    item_id = lib.ids["Weekly roundup"]
    _add_note(lib.db, item_id, "lighthouse")
    lib.db.execute("DELETE FROM items WHERE id = ?", [item_id])
    assert list_items(lib.db, ItemFilter(text="lighthouse")) == []
    assert _titles(lib, ItemFilter(text="quantization")) == ["Quantization basics"]
    assert lib.db.execute("SELECT count(*) FROM search_index WHERE rowid = ?", [item_id]).fetchone()[0] == 0
    assert lib.db.execute("SELECT count(*) FROM notes WHERE item_id = ?", [item_id]).fetchone()[0] == 0


# Progress.


def test_progress_is_stored(lib: Library) -> None:
    item_id = lib.ids["Quantization basics"]
    save_progress(lib.db, ProgressUpdate(item_id=item_id, position=321.5, duration=1200))
    item = get_item(lib.db, item_id)
    assert (item.position, item.played, item.duration) == (321.5, False, 1200)
    assert item.last_played is not None


def test_progress_updates_the_duration_the_player_measured(lib: Library) -> None:
    item_id = lib.ids["Undated episode"]
    assert get_item(lib.db, item_id).duration is None
    save_progress(lib.db, ProgressUpdate(item_id=item_id, position=5, duration=95.5))
    assert get_item(lib.db, item_id).duration == 95.5
    save_progress(lib.db, ProgressUpdate(item_id=item_id, position=6))  # unknown duration keeps the known one
    assert get_item(lib.db, item_id).duration == 95.5


@pytest.mark.parametrize(
    ("position", "duration", "ended", "played"),
    [
        (1199.0, 1200.0, False, True),  # within the last second
        (1200.0, 1200.0, False, True),
        (1250.0, 1200.0, False, True),
        (1198.9, 1200.0, False, False),
        (10.0, 1200.0, True, True),  # the player said it ended
        (10.0, None, True, True),
        (5000.0, None, False, True),  # the player knows no duration: the stored one (20:00) counts
    ],
)
def test_reaching_the_end_marks_played_and_rewinds(lib: Library, position: float, duration: float | None,
                                                   ended: bool, played: bool) -> None:
    item_id = lib.ids["Quantization basics"]
    save_progress(lib.db, ProgressUpdate(item_id=item_id, position=position, duration=duration, ended=ended))
    item = get_item(lib.db, item_id)
    assert item.played is played
    assert item.position == (0.0 if played else position)


def test_played_stays_played_when_listening_again(lib: Library) -> None:
    item_id = lib.ids["Quantization basics"]
    save_progress(lib.db, ProgressUpdate(item_id=item_id, position=0, ended=True))
    save_progress(lib.db, ProgressUpdate(item_id=item_id, position=30.0, duration=1200.0))
    item = get_item(lib.db, item_id)
    assert (item.played, item.position) == (True, 30.0)


def test_negative_position_is_stored_as_zero(lib: Library) -> None:
    item_id = lib.ids["Quantization basics"]
    save_progress(lib.db, ProgressUpdate(item_id=item_id, position=-3.0, duration=1200.0))
    assert get_item(lib.db, item_id).position == 0.0


def test_unknown_item_is_not_found(lib: Library) -> None:
    with pytest.raises(NotFoundError, match="no item with id 987654"):
        save_progress(lib.db, ProgressUpdate(item_id=987654, position=1.0))
    with pytest.raises(NotFoundError, match="no item with id 987654"):
        get_item(lib.db, 987654)
    assert items_by_ids(lib.db, [987654, lib.ids["Compilers"]]).keys() == {lib.ids["Compilers"]}
    assert items_by_ids(lib.db, []) == {}


def test_warming_items_reads_their_rows_in_one_statement_and_changes_nothing(lib: Library) -> None:
    """What the item list's worker runs on the pages ahead: one statement over the listed columns of the items
    (SQLite reading them without Python's lock), nothing built, nothing written; unknown ids are no error."""
    ids = [item.id for item in list_items(lib.db, ItemFilter())]
    statements: list[str] = []
    changes = lib.db.conn.total_changes
    lib.db.conn.set_trace_callback(statements.append)
    try:
        warm_items(lib.db, [*ids, max(ids) + 1])
        warm_items(lib.db, [])
    finally:
        lib.db.conn.set_trace_callback(None)
    assert len(statements) == 1 and statements[0].startswith("SELECT") and "items" in statements[0]
    assert lib.db.conn.total_changes == changes
