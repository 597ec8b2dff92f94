"""Playing from a note with the keys alone: Return (or Enter) on a timed note plays its episode from the note's moment,
in the notes pane (where an answer of Ask brings the keyboard) and in the Notes view, as clicking its time does; on
a highlight it brings the highlighted words into view in the reader; on a note on the whole item it edits the note,
as F2 does; while a note is edited Return keeps the edit and plays nothing. In the transcript Return plays from
the line the keyboard is on."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListView,
    QTableView,
    QTextBrowser,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.notes import add_note
from earmark.core.db.transcripts import store_transcript
from earmark.core.models import Anchor, Cue, Transcript
from earmark.core.settings import set_setting
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.models.answers import AnswerRole
from earmark.gui.models.notes import COL_TEXT
from earmark.playback.player import PlayerState
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import (
    all_notes_shown,
    click_row,
    focused,
    item_list,
    listed_titles,
    press,
    type_text,
    wait_rows,
    wait_showing,
)

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
EPISODE = "All about NVIDIA GPUs"  # its sample clip is 9.6 s long
ARTICLE = "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor"
MULTIPY = "by running several Python interpreters inside one process"  # far down the article
AT = 6.0  # the timed note's moment
TIMED = "Tensor cores multiply small matrices in a single step."
WHOLE = "Worth a second listen, all of it."
LINES = [Cue(0.0, 3.0, "Welcome back to the show."), Cue(3.0, 6.0, "Today it is all about graphics cards."),
         Cue(6.0, 9.0, "Tensor cores multiply small matrices in a single step.")]


@pytest.fixture
def noted(library_path: Path, sample: None) -> dict[str, int]:
    """The sample library; on the episode a note on the whole of it and one at 0:06, and a transcript; on the
    article a highlight far down. The notes' ids by name; Ask on words alone."""
    db = open_library(library_path)
    episode = db.execute("SELECT id FROM items WHERE title = ?", [EPISODE]).fetchone()[0]
    article = db.execute("SELECT id FROM items WHERE title = ?", [ARTICLE]).fetchone()[0]
    ids = {"whole": add_note(db, episode, WHOLE, now="2024-06-01T10:00:00+00:00").id,
           "timed": add_note(db, episode, TIMED, at=AT, now="2024-06-02T10:00:00+00:00").id,
           "highlight": add_note(db, article, "", quote=MULTIPY, anchor=Anchor("", "", 0),
                                 now="2024-06-03T10:00:00+00:00").id}
    store_transcript(db, episode, "generated:test", Transcript(LINES, "generated"))
    set_setting(db, "ask.model", "off")
    db.close()
    return ids


def shown_seconds(window: MainWindow) -> int:
    """The elapsed time the player bar shows ("0:07" → 7)."""
    minutes, seconds = window.player_bar.elapsed.text().split(":")
    return int(minutes) * 60 + int(seconds)


def current_note_id(table: QTableView) -> int | None:
    note = table.model().note_at(table.currentIndex().row())
    return None if note is None else note.id


def move_to_note(qtbot: QtBot, table: QTableView, note_id: int) -> None:
    """With the keyboard in ``table``: Ctrl+Home (the first row), then Down until the note is the current one."""
    assert focused() is table
    press(qtbot, Qt.Key.Key_Home, CTRL)
    for _step in range(table.model().rowCount()):
        if current_note_id(table) == note_id:
            return
        press(qtbot, Qt.Key.Key_Down)
    assert current_note_id(table) == note_id


def notes_pane_of_episode(qtbot: QtBot, window: MainWindow) -> QTableView:
    """The episode selected in the list and Ctrl+4: the keyboard in its notes pane, its two notes shown."""
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(EPISODE))
    table = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: table.model().rowCount() == 2)
    press(qtbot, Qt.Key.Key_4, CTRL)
    qtbot.waitUntil(lambda: focused() is table)
    return table


def press_and_hear(qtbot: QtBot, window: MainWindow, key: Qt.Key, seconds: float) -> None:
    """``key`` pressed with nothing playing: the player bar shows the episode playing from ``seconds`` on, and the
    player never reported a position before it (it did not play from the start, then skip)."""
    player = window.session.player
    assert player.state not in (PlayerState.PLAYING, PlayerState.PAUSED)
    heard: list[float] = []
    player.position_changed.connect(heard.append)
    press(qtbot, key)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING and EPISODE in window.player_bar.title.text()
                    and shown_seconds(window) >= seconds, timeout=10000)
    assert heard and min(heard) >= seconds - 0.5, heard


def test_return_on_a_timed_note_an_answer_of_ask_came_to_plays_the_episode_from_its_moment(
        qtbot: QtBot, launch: Launch, noted: dict[str, int]) -> None:
    window = launch().window
    with qtbot.waitSignal(window.ask.indexing.finished, timeout=30_000):
        press(qtbot, Qt.Key.Key_A, CTRL | SHIFT)
    qtbot.waitUntil(lambda: focused() is window.findChild(QLineEdit, "askQuestion"))
    type_text(qtbot, "tensor cores multiply small matrices")
    answers = window.findChild(QListView, "askAnswers")
    qtbot.waitUntil(lambda: any(answers.model().index(row).data(AnswerRole).note_id == noted["timed"]
                                for row in range(answers.model().rowCount())), timeout=30_000)
    press(qtbot, Qt.Key.Key_Down)
    while answers.currentIndex().data(AnswerRole).note_id != noted["timed"]:
        press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Return)  # to the note, in its item's notes pane
    table = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: focused() is table and current_note_id(table) == noted["timed"])
    assert window.session.item is None

    press_and_hear(qtbot, window, Qt.Key.Key_Return, AT)
    assert focused() is table  # the next note is one Down away
    assert window.findChild(QWidget, "askView").isVisible()  # Ask stays


def test_return_in_the_notes_pane_plays_from_a_timed_note_and_edits_one_on_the_whole_episode(
        qtbot: QtBot, launch: Launch, noted: dict[str, int]) -> None:
    window = launch().window
    table = notes_pane_of_episode(qtbot, window)

    move_to_note(qtbot, table, noted["whole"])  # no moment to play from: Return edits its text, as F2 does
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: table.state() == QAbstractItemView.State.EditingState)
    editor = focused()
    assert isinstance(editor, QLineEdit) and editor.text() == WHOLE
    press(qtbot, Qt.Key.Key_End)  # the text comes selected
    type_text(qtbot, " Twice.")
    with qtbot.waitSignal(table.model().modelReset):  # the pane shows its notes as saved
        press(qtbot, Qt.Key.Key_Return)  # keeps the edit, plays nothing
    qtbot.waitUntil(lambda: table.model().index(table.currentIndex().row(), COL_TEXT).data() == WHOLE + " Twice.")
    assert table.state() != QAbstractItemView.State.EditingState and focused() is table
    assert window.session.item is None and window.player_bar.title.text() == "Nothing playing"

    move_to_note(qtbot, table, noted["timed"])
    press(qtbot, Qt.Key.Key_F2)  # F2 still edits a timed note; Return there keeps the edit, plays nothing
    qtbot.waitUntil(lambda: table.state() == QAbstractItemView.State.EditingState)
    press(qtbot, Qt.Key.Key_End)
    type_text(qtbot, " (check)")
    with qtbot.waitSignal(table.model().modelReset):
        press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: table.model().index(table.currentIndex().row(), COL_TEXT).data() == TIMED + " (check)")
    assert focused() is table and window.session.item is None

    press_and_hear(qtbot, window, Qt.Key.Key_Enter, AT)  # the keypad's Enter, as Return


def test_return_in_the_notes_view_plays_from_a_timed_note_and_opens_a_highlight_in_the_reader(
        qtbot: QtBot, launch: Launch, noted: dict[str, int]) -> None:
    window, table = all_notes_shown(qtbot, launch, 3)
    assert focused() is window.findChild(QLineEdit, "notesFilter")
    press(qtbot, Qt.Key.Key_Down)  # from the filter to the notes
    assert focused() is table
    press(qtbot, Qt.Key.Key_F, CTRL)  # back to the filter: Return goes to the notes too
    assert focused() is window.findChild(QLineEdit, "notesFilter")
    press(qtbot, Qt.Key.Key_Return)
    assert focused() is table

    move_to_note(qtbot, table, noted["timed"])
    press_and_hear(qtbot, window, Qt.Key.Key_Return, AT)
    assert showing_notes(window)
    qtbot.wait(300)  # what playing brings (its chapters) has reached the panes
    details = window.findChild(QTextBrowser, "detailPane")
    assert details.toPlainText().startswith(EPISODE)  # the note's episode, not the list's first item

    move_to_note(qtbot, table, noted["highlight"])
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "reader")
    reader = window.reading.reader
    qtbot.waitUntil(lambda: reader.document_shown is not None and MULTIPY in reader.textCursor().selectedText())
    assert reader.verticalScrollBar().value() > 0  # not the article's top
    assert reader.viewport().rect().contains(reader.cursorRect(reader.textCursor()).center())  # in sight


def in_sight(reader: QTextEdit, position: int) -> bool:
    """Whether the reader shows the text at ``position``."""
    cursor = QTextCursor(reader.document())
    cursor.setPosition(position)
    return reader.viewport().rect().contains(reader.cursorRect(cursor).center())


def showing_notes(window: MainWindow) -> bool:
    view = window.findChild(QWidget, "notesView")
    return view is not None and view.isVisible()


def test_return_on_a_highlight_in_the_notes_pane_brings_it_into_view_in_the_reader(
        qtbot: QtBot, launch: Launch, noted: dict[str, int]) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(ARTICLE))
    press(qtbot, Qt.Key.Key_Return)  # the article opens in the reader, at its top
    wait_showing(qtbot, window, "reader")
    reader = window.reading.reader
    qtbot.waitUntil(lambda: reader.document_shown is not None and MULTIPY in reader.toPlainText())
    table = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: table.model().rowCount() == 1)
    start = reader.toPlainText().index(MULTIPY)
    assert not in_sight(reader, start)

    press(qtbot, Qt.Key.Key_4, CTRL)
    qtbot.waitUntil(lambda: focused() is table)
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: in_sight(reader, start))
    assert focused() is table


def test_return_on_a_transcript_line_plays_from_it(qtbot: QtBot, launch: Launch, noted: dict[str, int]) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(EPISODE))
    lines = window.findChild(QListView, "transcriptLines")
    qtbot.waitUntil(lambda: lines.model().rowCount() == len(LINES))
    press(qtbot, Qt.Key.Key_5, CTRL)
    qtbot.waitUntil(lambda: focused() is lines)
    press(qtbot, Qt.Key.Key_End)  # the last line: "Tensor cores…", said from 0:06
    press_and_hear(qtbot, window, Qt.Key.Key_Return, LINES[-1].start)
