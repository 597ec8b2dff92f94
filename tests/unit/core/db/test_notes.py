"""Notes in the library (take, edit, delete and put back, filter) and the listening history kept by playback."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.history import SESSION_GAP, list_history, record_play
from earmark.core.db.items import item_ids, save_progress
from earmark.core.db.notes import (
    NoteFilter,
    add_note,
    count_notes,
    delete_note,
    get_note,
    list_notes,
    notes_for_item,
    put_back_note,
    update_note,
)
from earmark.core.errors import EarmarkError, NotFoundError
from earmark.core.models import ProgressUpdate
from helpers.notes_library import FixedLibrary, build


@pytest.fixture
def fixed(library: Database) -> FixedLibrary:
    return build(library)


def test_newest_first_and_in_episode_order(library: Database, fixed: FixedLibrary) -> None:
    assert [n.text for n in list_notes(library)][:4] == ["Try it on the big model.", "",  # two highlights
                                                         "Follow the links on compiled autograd.",
                                                         "Inductor picks the tile sizes here."]
    assert [n.at for n in notes_for_item(library, fixed.basics)] == [5.0, 65.0, None]
    assert [n.quote for n in notes_for_item(library, fixed.article)] == [  # notes, then highlights in text order
        "", "Compiled autograd landed", "the new CI is faster"]
    assert count_notes(library) == 8
    note = list_notes(library, NoteFilter(item_ids=(fixed.video,)))[0]
    assert note.as_json() == {"id": note.id, "item_id": fixed.video, "item_title": 'Lowering "in depth" #2',
                              "source": "Compiler Cast", "at": 3723.4, "text": "Inductor picks the tile sizes here.",
                              "quote": "", "created": "2024-05-14T09:00:00+00:00",
                              "updated": "2024-05-14T09:00:00+00:00", "highlight": None}


@pytest.mark.parametrize("flt, count", [
    (NoteFilter(tag="compiler"), 3),
    (NoteFilter(tag="PODCASTS"), 5),  # the source's tag, any case
    (NoteFilter(text="BYTECODE"), 1),
    (NoteFilter(text="graph capture"), 3),  # the item's title counts
    (NoteFilter(text="reads bytecode"), 1),  # so does the transcript quote
    (NoteFilter(text="100%_"), 0),  # LIKE wildcards are plain characters
    (NoteFilter(tag="compiler", text="meetup"), 1),
])
def test_filters(library: Database, fixed: FixedLibrary, flt: NoteFilter, count: int) -> None:
    assert len(list_notes(library, flt)) == count


def test_edit_delete_and_put_back(library: Database, fixed: FixedLibrary) -> None:
    note = add_note(library, fixed.untouched, "  first thought  ", 12.34, now="2024-06-01T00:00:00+00:00")
    assert (note.text, note.at, note.item_title) == ("first thought", 12.3, "Nobody noted this")
    edited = update_note(library, note.id, "second thought", now="2024-06-02T00:00:00+00:00")
    assert (edited.text, edited.created, edited.updated) == ("second thought", note.created,
                                                             "2024-06-02T00:00:00+00:00")
    assert item_ids(library, ItemFilter(text="second thought")) == [fixed.untouched]  # searchable at once
    deleted = delete_note(library, note.id)
    with pytest.raises(NotFoundError):
        get_note(library, note.id)
    assert item_ids(library, ItemFilter(text="second thought")) == []
    assert put_back_note(library, deleted) == edited


@pytest.mark.parametrize("text, at, sentence", [
    ("   ", None, "needs some text"),
    ("ok", -1.0, "not a time in the episode"),
    ("ok", float("nan"), "not a time in the episode"),
])
def test_bad_notes_are_refused_and_change_nothing(library: Database, fixed: FixedLibrary, text: str,
                                                  at: float | None, sentence: str) -> None:
    with pytest.raises(EarmarkError, match=sentence):
        add_note(library, fixed.basics, text, at)
    assert count_notes(library) == 8
    with pytest.raises(NotFoundError, match="no item with id 999"):
        add_note(library, 999, "ok")
    with pytest.raises(EarmarkError, match="needs some text"):
        update_note(library, list_notes(library, NoteFilter(item_ids=(fixed.basics,)))[0].id, "")
    assert count_notes(library) == 8


def test_notes_go_with_their_item(library: Database, fixed: FixedLibrary) -> None:
    note = delete_note(library, list_notes(library, NoteFilter(item_ids=(fixed.article,)))[0].id)
    library.execute("DELETE FROM items WHERE id = ?", [fixed.article])
    with pytest.raises(NotFoundError, match="no longer in the library"):
        put_back_note(library, note)


def test_saving_progress_keeps_one_history_row_per_session(library: Database,
                                                           fixed: FixedLibrary) -> None:
    item = fixed.untouched
    for position in (5.0, 10.0, 15.0):
        save_progress(library, ProgressUpdate(item, position, 600.0))
    save_progress(library, ProgressUpdate(item, 600.0, 600.0, ended=True))
    save_progress(library, ProgressUpdate(item, 3.0, 600.0))  # played again: a new session from the start
    sessions = [e for e in list_history(library) if e.item_id == item]
    assert [(s.start_position, s.position, s.finished) for s in sessions] == [(0.0, 600.0, True), (0.0, 3.0, False)]
    assert sessions[0].title == "Nobody noted this" and sessions[0].duration == 600.0


def test_a_long_break_starts_a_new_session(library: Database, fixed: FixedLibrary) -> None:
    start = datetime(2024, 6, 1, 9, 0, tzinfo=UTC)
    with library.conn:
        record_play(library, fixed.untouched, 30.0, False, now=start)
        record_play(library, fixed.untouched, 60.0, False, now=start + SESSION_GAP - timedelta(seconds=1))
        library.execute("UPDATE items SET position = 60 WHERE id = ?", [fixed.untouched])
        record_play(library, fixed.untouched, 90.0, False, now=start + 2 * SESSION_GAP)
    sessions = list_history(library, NoteFilter(item_ids=(fixed.untouched,)))
    assert [(s.started[11:16], s.updated[11:16], s.start_position, s.position) for s in sessions] == [
        ("09:00", "09:29", 0.0, 60.0), ("10:00", "10:00", 60.0, 90.0)]
    assert list_history(library, NoteFilter(tag="reading")) == []


def test_a_sloppy_span_widens_to_whole_words() -> None:
    from earmark.core.articles.anchor import whole_words

    text = "Senior PyTorch developers from Intel spoke"
    assert text[slice(*whole_words(text, 3, 27))] == "Senior PyTorch developers from"
    assert text[slice(*whole_words(text, 7, 14))] == "PyTorch"  # whole words stay as they are
    assert whole_words(text, 6, 15) == (6, 15)  # a span starting and ending between words too
