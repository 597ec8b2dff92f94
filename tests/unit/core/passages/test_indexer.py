"""The passage index kept up to date with the library, a changed item at a time; asking it by words."""

from __future__ import annotations

from pathlib import Path

from earmark.core.db.database import Database
from earmark.core.db.notes import add_note
from earmark.core.passages.session import asker, update_index
from earmark.core.passages.store import passages_path


def test_an_answer_in_a_transcript_comes_with_the_moment_it_is_said(asked: tuple[Database, Path, dict[str, int]]
                                                                    ) -> None:
    db, path, ids = asked
    result = update_index(db, path, None)
    assert (result.items, result.dropped, result.model) == (3, 0, "")
    assert passages_path(path).is_file() and passages_path(path).parent == path.parent
    answers = asker(db, path, None).ask("why does a guard fail and recompile", 3)
    first = answers[0]
    assert (first.item_id, first.title, first.kind, first.source) == (ids["Guards"], "Guards", "episode",
                                                                       "transcript")
    assert first.at == 7 * 9.0  # the line saying most of the question's words, not the window's start
    assert first.end is not None and first.end >= first.at and "A guard is a check" in first.text
    assert first.score > 0


def test_show_notes_and_articles_are_found_as_paragraphs_without_a_moment(
        asked: tuple[Database, Path, dict[str, int]]) -> None:
    db, path, ids = asked
    update_index(db, path, None)
    notes = asker(db, path, None).ask("elements in memory", 1)[0]
    assert (notes.item_id, notes.source, notes.at, notes.end, notes.offset) == (ids["Strides"], "show_notes", None,
                                                                              None, 0)
    article = asker(db, path, None).ask("engine oil", 1)[0]
    assert (article.item_id, article.source, article.kind) == (ids["Fixing cars"], "article", "article")


def test_only_what_changed_is_indexed_again(asked: tuple[Database, Path, dict[str, int]]) -> None:
    db, path, ids = asked
    update_index(db, path, None)
    assert update_index(db, path, None).items == 0
    add_note(db, ids["Strides"], "Remember the channels-last layout", at=12.0)
    assert update_index(db, path, None).items == 1
    note = asker(db, path, None).ask("channels-last", 5)[0]
    assert (note.item_id, note.source, note.at) == (ids["Strides"], "note", 12.0)
    assert note.note_id is not None


def test_an_item_deleted_leaves_the_index_with_its_words(asked: tuple[Database, Path, dict[str, int]]) -> None:
    db, path, ids = asked
    update_index(db, path, None)
    db.execute("DELETE FROM items WHERE id = ?", [ids["Fixing cars"]])
    assert update_index(db, path, None).dropped == 1
    assert asker(db, path, None).ask("engine oil automobile", 5) == []


def test_a_question_of_no_words_finds_nothing(asked: tuple[Database, Path, dict[str, int]]) -> None:
    db, path, _ids = asked
    update_index(db, path, None)
    assert asker(db, path, None).ask("why is the", 5) == []
    assert asker(db, path, None).ask("   ", 5) == []


def test_when_stale_words_come_to_a_quarter_of_the_index_it_is_made_again(
        asked: tuple[Database, Path, dict[str, int]]) -> None:
    db, path, ids = asked
    update_index(db, path, None)
    add_note(db, ids["Guards"], "First thought")
    assert update_index(db, path, None).items == 1  # its 4 old passages' words stay behind, stale, beside 7 live
    add_note(db, ids["Guards"], "Second thought")
    assert update_index(db, path, None).items == 3  # 4 stale of 7 live is over a quarter: all indexed afresh
    assert asker(db, path, None).ask("second thought", 1)[0].source == "note"
