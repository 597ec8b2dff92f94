"""Notes in the real window: B while playing, the notes pane, undo, the Notes view, transcripts, export."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.db.notes import add_note, list_notes
from earmark.core.db.tags import tag_item
from earmark.core.db.transcripts import stored_transcript
from earmark.core.feeds.subscribe import subscribe
from earmark.core.notes.markdown import stamp
from earmark.core.timefmt import format_clock
from earmark.gui.application import Parts
from earmark.gui.models.notes import COL_AT, COL_TEXT
from earmark.gui.models.sidebar import NOTES
from earmark.playback.player import PlayerState
from helpers.audio import write_tone
from helpers.feed_server import FeedServer
from helpers.gui import Launch
from helpers.journeys import showing

pytestmark = pytest.mark.vlc

VTT = """WEBVTT

00:00:00.000 --> 00:00:02.000
<v Ana>Graph capture starts here.

00:00:02.000 --> 00:00:04.000
<v Ana>Dynamo reads the bytecode.

00:00:04.000 --> 00:00:06.000
<v Ana>Then the compiler takes over.
"""


def item_id(library_path: Path, title: str) -> int:
    return next(i.id for i in list_items(open_library(library_path), ItemFilter()) if i.title == title)


def select(parts: Parts, qtbot: QtBot, title: str) -> None:
    window = parts.window
    qtbot.waitUntil(lambda: window.items_model.rowCount() > 0)
    row = next(r for r in range(window.items_model.rowCount()) if window.items_model.item_at(r).title == title)  # type: ignore[union-attr]
    window.item_list.selectRow(row)
    window.item_list.setFocus()


def playing(parts: Parts, qtbot: QtBot, title: str) -> None:
    select(parts, qtbot, title)
    qtbot.keyClick(parts.window.item_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.PLAYING, timeout=8000)


def test_play_press_b_type_esc_stop_export(qtbot: QtBot, launch: Launch, with_podcast: None, library_path: Path,
                                           tmp_path: Path) -> None:
    parts = launch()
    window, player = parts.window, parts.session.player
    playing(parts, qtbot, "Middle episode")
    qtbot.waitUntil(lambda: player.position() >= 1.0, timeout=5000)
    before = player.position()
    qtbot.keyClick(window.item_list, Qt.Key.Key_B)
    after = player.position()
    editor = window.notes.pane.editor
    assert QApplication.focusWidget() is editor
    qtbot.keyClicks(editor, "Bytecode, not source")
    assert player.state == PlayerState.PLAYING  # typing does not stop playback
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is window.item_list  # back where the user was
    qtbot.waitUntil(lambda: window.notes.pane.model.rowCount() == 1, timeout=5000)
    [note] = list_notes(open_library(library_path))
    assert note.text == "Bytecode, not source" and note.at is not None and before - 0.1 <= note.at <= after + 0.1
    assert window.notes.pane.draft_time.text() == window.notes.pane.model.index(0, COL_AT).data() \
        == f"[{format_clock(note.at)}]"
    qtbot.keyClick(window.item_list, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: player.state == PlayerState.PAUSED, timeout=5000)

    window.menu_actions.export_notes.trigger()
    dialog = window.notes.export_dialog
    assert dialog is not None and dialog.scope() == "item"
    qtbot.waitUntil(lambda: "Bytecode, not source" in dialog.preview.toPlainText(), timeout=5000)
    dialog.set_scope("everything")
    dialog.kind.setCurrentIndex(dialog.kind.findData("markdown"))
    dialog.path.setText(str(tmp_path / "vault"))
    qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
    exported = (tmp_path / "vault" / "Middle episode.md").read_text(encoding="utf-8")
    assert exported.startswith('---\ntitle: "Middle episode"\nsource: "Test Cast"\n')
    assert f"- [\\[{stamp(note.at)}\\]](earmark:item/" in exported and "Bytecode, not source\n" in exported
    assert "Exported 1 note on 1 item" in window.statusBar().currentMessage()


def test_ctrl_b_works_in_text_fields_and_an_empty_note_is_discarded(qtbot: QtBot, launch: Launch,
                                                                    with_podcast: None, library_path: Path) -> None:
    parts = launch()
    window = parts.window
    playing(parts, qtbot, "Newest episode")
    window.search.setFocus()
    qtbot.keyClicks(window.search, "b")  # B types in a text field...
    assert window.search.text() == "b" and not window.notes.pane.draft.isVisible()
    qtbot.keyClick(window.search, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)  # ...Ctrl+B takes a note
    assert QApplication.focusWidget() is window.notes.pane.editor
    qtbot.keyClick(window.notes.pane.editor, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is window.search
    assert "discarded" in parts.window.statusBar().currentMessage()
    assert not parts.window.notes.pane.draft.isVisible()
    assert parts.session.player.state == PlayerState.PLAYING
    assert list_notes(open_library(library_path)) == []


def test_quitting_while_typing_keeps_the_note(qtbot: QtBot, launch: Launch, with_podcast: None,
                                             library_path: Path) -> None:
    parts = launch()
    select(parts, qtbot, "Short episode")  # nothing plays: the note is on the selected episode
    qtbot.keyClick(parts.window.item_list, Qt.Key.Key_B)
    assert parts.window.notes.pane.draft_time.text() == "[whole item]"
    qtbot.keyClicks(parts.window.notes.pane.editor, "half typed")
    qtbot.keyClick(parts.window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    [note] = list_notes(open_library(library_path))
    assert (note.text, note.at, note.item_title) == ("half typed", None, "Short episode")


def test_clicking_a_notes_time_plays_from_there(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                library_path: Path) -> None:
    add_note(open_library(library_path), item_id(library_path, "Newest episode"), "Near the end", 4.0)
    parts = launch()
    window = parts.window
    select(parts, qtbot, "Newest episode")
    qtbot.waitUntil(lambda: window.notes.pane.model.rowCount() == 1, timeout=5000)
    table = window.notes.pane.table
    cell = table.visualRect(window.notes.pane.model.index(0, COL_AT)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.PLAYING, timeout=8000)
    qtbot.waitUntil(lambda: parts.session.player.position() >= 4.0, timeout=5000)
    assert parts.session.player.position() < 5.8


def texts(library_path: Path) -> list[str]:
    return [note.text for note in list_notes(open_library(library_path))]


def test_edit_and_delete_with_undo_and_redo(qtbot: QtBot, launch: Launch, with_podcast: None,
                                            library_path: Path) -> None:
    add_note(open_library(library_path), item_id(library_path, "Newest episode"), "First draft", 2.0)
    parts = launch()
    window = parts.window
    select(parts, qtbot, "Newest episode")
    pane = window.notes.pane
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1, timeout=5000)
    pane.table.setFocus()
    pane.table.setCurrentIndex(pane.model.index(0, COL_TEXT))
    qtbot.keyClick(pane.table, Qt.Key.Key_F2)
    editor = pane.table.findChild(QLineEdit)
    assert editor is not None and editor.text() == "First draft"
    editor.selectAll()
    qtbot.keyClicks(editor, "Second thought")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: texts(library_path) == ["Second thought"], timeout=5000)

    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: texts(library_path) == ["First draft"], timeout=5000)
    qtbot.waitUntil(lambda: pane.model.index(0, COL_TEXT).data() == "First draft", timeout=5000)
    note_id = list_notes(open_library(library_path))[0].id

    pane.table.setFocus()
    pane.table.setCurrentIndex(pane.model.index(0, COL_TEXT))
    qtbot.keyClick(pane.table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: texts(library_path) == [], timeout=5000)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 0, timeout=5000)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: texts(library_path) == ["First draft"], timeout=5000)
    assert list_notes(open_library(library_path))[0].id == note_id  # the same note back, not a copy
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: texts(library_path) == [], timeout=5000)


def test_notes_view_lists_every_note_newest_first_with_filters(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                               library_path: Path) -> None:
    db = open_library(library_path)
    newest, short = item_id(library_path, "Newest episode"), item_id(library_path, "Short episode")
    add_note(db, newest, "about graphs", 1.0, now="2024-06-01T10:00:00+00:00")
    add_note(db, short, "about kernels", 1.0, now="2024-06-02T10:00:00+00:00")
    add_note(db, newest, "whole episode", None, now="2024-06-03T10:00:00+00:00")
    tag_item(db, short, ["gpu"])
    parts = launch()
    window = parts.window
    qtbot.keyClick(window, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert showing(window) == "notes"
    assert window.sidebar_tree.currentIndex() == window.sidebar_model.index_for(NOTES)
    view = window.notes.view
    qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=5000)
    assert [view.model.index(r, COL_TEXT).data() for r in range(3)] == ["whole episode", "about kernels",
                                                                        "about graphs"]
    assert window.sidebar_model.index_for(NOTES).data() == "Notes (3)"
    qtbot.keyClicks(view.text, "graphs")
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=5000)
    view.text.clear()
    qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=5000)
    view.tag.setCurrentIndex(view.tag.findData("gpu"))
    view.tag.activated.emit(view.tag.currentIndex())
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=5000)
    assert view.model.index(0, COL_TEXT).data() == "about kernels"
    view.table.selectRow(0)
    qtbot.waitUntil(lambda: "Short episode" in window.detail.toPlainText(), timeout=5000)
    qtbot.waitUntil(lambda: window.notes.pane.model.rowCount() == 1, timeout=5000)


@pytest.fixture
def transcript_site(tmp_path: Path) -> Iterator[FeedServer]:
    """A podcast with one 6 s episode whose transcript is served over HTTP, and one whose transcript is missing."""
    site = tmp_path / "site"
    site.mkdir()
    write_tone(site / "talk.wav", 6.0)
    write_tone(site / "other.wav", 2.0)
    (site / "talk.vtt").write_text(VTT, encoding="utf-8")
    with FeedServer(site) as server:
        items = "".join(
            f"""<item><title>{title}</title><guid>{guid}</guid><pubDate>{date}</pubDate>
            <enclosure url="{server.url(audio)}" type="audio/wav" length="1"/>
            <podcast:transcript url="{server.url(transcript)}" type="text/vtt"/></item>"""
            for title, guid, date, audio, transcript in (
                ("Talk with transcript", "t1", "Mon, 20 May 2024 10:00:00 +0000", "talk.wav", "talk.vtt"),
                ("Talk without", "t2", "Mon, 13 May 2024 10:00:00 +0000", "other.wav", "gone.vtt")))
        (site / "feed.xml").write_text(
            '<?xml version="1.0"?><rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0">'
            f"<channel><title>Transcribed</title><link>https://example.invalid/</link>{items}</channel></rss>",
            encoding="utf-8")
        yield server


def test_transcript_is_fetched_synced_clickable_and_quoted(qtbot: QtBot, launch: Launch, library_path: Path,
                                                          transcript_site: FeedServer) -> None:
    subscribe(open_library(library_path), transcript_site.url("feed.xml"))
    parts = launch()
    window = parts.window
    pane = window.notes.transcript
    select(parts, qtbot, "Talk with transcript")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 3, timeout=8000)
    assert pane.isVisible() and "3 lines" in pane.status.text()
    assert pane.model.index(1, 0).data() == "0:02  Ana: Dynamo reads the bytecode."
    talk = item_id(library_path, "Talk with transcript")
    qtbot.waitUntil(lambda: stored_transcript(open_library(library_path), talk) is not None, timeout=5000)

    qtbot.mouseClick(pane.lines.viewport(), Qt.MouseButton.LeftButton,
                     pos=pane.lines.visualRect(pane.model.index(1, 0)).center())
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.PLAYING, timeout=8000)
    qtbot.waitUntil(lambda: parts.session.player.position() >= 2.2, timeout=5000)
    assert parts.session.player.position() < 5.5  # it started at the line, not at the beginning
    qtbot.waitUntil(lambda: pane.model.current == 1, timeout=3000)
    assert pane.model.index(1, 0).data(Qt.ItemDataRole.FontRole).bold()
    qtbot.waitUntil(lambda: parts.session.player.position() >= 4.1, timeout=5000)
    qtbot.waitUntil(lambda: pane.model.current == 2, timeout=3000)  # the mark follows playback
    qtbot.keyClick(window.item_list, Qt.Key.Key_B)
    qtbot.keyClicks(window.notes.pane.editor, "compiler")
    qtbot.keyClick(window.notes.pane.editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(list_notes(open_library(library_path))) == 1, timeout=5000)
    assert list_notes(open_library(library_path))[0].quote == ("Dynamo reads the bytecode. "
                                                               "Then the compiler takes over.")

    select(parts, qtbot, "Talk without")
    qtbot.waitUntil(lambda: pane.retry.isVisible(), timeout=8000)
    assert "gone.vtt" in pane.status.text() and "404" in pane.status.text() and pane.model.rowCount() == 0


def test_note_models_pass_the_model_tester(qtbot: QtBot, qtmodeltester, launch: Launch,  # noqa: ANN001
                                           library_path: Path, transcript_site: FeedServer) -> None:
    subscribe(open_library(library_path), transcript_site.url("feed.xml"))
    add_note(open_library(library_path), item_id(library_path, "Talk with transcript"), "a note", 1.0)
    parts = launch()
    select(parts, qtbot, "Talk with transcript")
    qtbot.waitUntil(lambda: parts.window.notes.transcript.model.rowCount() == 3, timeout=8000)
    qtbot.waitUntil(lambda: parts.window.notes.pane.model.rowCount() == 1, timeout=5000)
    qtmodeltester.check(parts.window.notes.pane.model)
    qtmodeltester.check(parts.window.notes.transcript.model)
