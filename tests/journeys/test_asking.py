"""Asking the library: Ctrl+Shift+A opens Ask; a question typed brings the passages that answer it as it is typed
(the index brought up to date by a child process), the question's words marked; the answer chosen with the keys
plays its episode from the moment the answer is said. The command palette reaches the view too. Items a refresh
brings are indexed as they arrive: a question asked before they came finds them, the answer the person is on
staying the current one. An article's answer opens the
reader at its paragraph, selected; a note's brings the keyboard to the note in its item's Notes pane (in front, the
note in sight); an episode's show notes answer shows its details with the paragraph in sight, selected."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QDockWidget, QLabel, QLineEdit, QListView, QTableView, QWidget
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.notes import add_note
from earmark.core.db.transcripts import store_transcript
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Cue, Transcript
from earmark.core.settings import set_setting
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.models.answers import AnswerRole, HtmlRole
from earmark.playback.player import PlayerState
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.journeys import focused, press, type_text, wait_rows, wait_showing

KEYS = Qt.KeyboardModifier
CTRL, SHIFT, ALT = KEYS.ControlModifier, KEYS.ShiftModifier, KEYS.AltModifier
EPISODE = "All about NVIDIA GPUs"  # its sample clip is 9.6 s long
ARTICLE = "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor"
MULTIPY = "by running several Python interpreters inside one process"  # far down the article
CHILD_MS = 30_000  # a refresh or an indexing runs in a child process: its start-up is part of the wait
OLD = {"title": "Old news", "guid": "old", "enclosure": "https://example.com/old.mp3",
       "description": "Nothing much happened this week."}
NEW = {"title": "Marsupials", "guid": "new", "enclosure": "https://example.com/new.mp3",
       "description": "We visit a quokka sanctuary on Rottnest Island and count the joeys."}
SAID = [Cue(0.0, 3.0, "Welcome back to the show."), Cue(3.0, 6.0, "Today it is all about graphics cards."),
        Cue(6.0, 9.0, "Tensor cores multiply small matrices in a single step.")]


@pytest.fixture
def transcribed(library_path: Path, sample: None) -> None:
    """The sample library, one episode with a transcript of its clip; Ask on words alone."""
    db = open_library(library_path)
    item_id = db.execute("SELECT id FROM items WHERE title = ?", [EPISODE]).fetchone()[0]
    store_transcript(db, item_id, "generated:test", Transcript(SAID, "generated"))
    set_setting(db, "ask.model", "off")
    db.close()


def test_a_question_typed_finds_the_moment_and_enter_plays_from_it(qtbot: QtBot, launch: Launch,
                                                                   transcribed: None) -> None:
    parts = launch()
    window = parts.window
    press(qtbot, Qt.Key.Key_A, CTRL | SHIFT)
    view = window.findChild(QWidget, "askView")
    field = window.findChild(QLineEdit, "askQuestion")
    answers = window.findChild(QListView, "askAnswers")
    status = window.findChild(QLabel, "askStatus")
    qtbot.waitUntil(lambda: view.isVisible() and focused() is field)
    type_text(qtbot, "what do tensor cores do")
    qtbot.waitUntil(lambda: answers.model().rowCount() > 0
                    and answers.model().index(0).data(AnswerRole).title == EPISODE, timeout=30000)
    first = answers.model().index(0).data(AnswerRole)
    assert (first.source, first.at) == ("transcript", 6.0)  # the line that says it, not the clip's start
    assert "<b>Tensor</b> <b>cores</b>" in answers.model().index(0).data(HtmlRole)
    assert "words alone" in status.text()
    press(qtbot, Qt.Key.Key_Down)
    assert focused() is answers and answers.currentIndex().row() == 0
    press(qtbot, Qt.Key.Key_Return)
    player = parts.session.player
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING and player.position() >= 5.0, timeout=10000)
    assert player.position() < 9.0  # from the moment, not from the start
    assert parts.session.item is not None and parts.session.item.title == EPISODE


def test_the_command_palette_opens_ask(qtbot: QtBot, launch: Launch, transcribed: None) -> None:
    window = launch().window
    press(qtbot, Qt.Key.Key_K, CTRL)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QDialog))
    palette = QApplication.activeModalWidget()
    palette.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None and focused().window() is palette)
    type_text(qtbot, "ask the library")
    press(qtbot, Qt.Key.Key_Return)
    view = window.findChild(QWidget, "askView")
    qtbot.waitUntil(lambda: view.isVisible() and focused() is window.findChild(QLineEdit, "askQuestion"))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as feed_server:
        yield feed_server


def island_show(qtbot: QtBot, launch: Launch, library_path: Path, server: FeedServer,
                episodes: list[dict[str, str]]) -> MainWindow:
    """The window on a library subscribed to a served feed of ``episodes`` (no refresh at start, Ask on words
    alone), its list shown."""
    feed = server.serve_body("/show.xml", rss("Island Show", episodes))
    db = open_library(library_path)
    subscribe(db, feed)
    set_setting(db, "feeds.refresh_on_start", False)
    set_setting(db, "ask.model", "off")
    db.close()
    window = launch().window
    wait_rows(qtbot, window, len(episodes))
    return window


def ask(qtbot: QtBot, window: MainWindow, question: str) -> QListView:
    """Ctrl+Shift+A (what the library holds gets indexed) and ``question`` typed; the answers' list."""
    with qtbot.waitSignal(window.ask.indexing.finished, timeout=CHILD_MS):
        press(qtbot, Qt.Key.Key_A, CTRL | SHIFT)
    qtbot.waitUntil(lambda: focused() is window.findChild(QLineEdit, "askQuestion"))
    type_text(qtbot, question)
    answers = window.findChild(QListView, "askAnswers")
    assert answers is not None
    return answers


def test_an_episode_a_refresh_brings_is_found_by_the_question_already_asked(
        qtbot: QtBot, launch: Launch, library_path: Path, server: FeedServer) -> None:
    window = island_show(qtbot, launch, library_path, server, [OLD])
    answers = ask(qtbot, window, "quokka sanctuary")
    status = window.findChild(QLabel, "askStatus")
    qtbot.waitUntil(lambda: "words alone" in status.text())
    assert answers.model().rowCount() == 0

    server.serve_body("/show.xml", rss("Island Show", [NEW, OLD]))
    with qtbot.waitSignal(window.feeds.refresher.finished, timeout=CHILD_MS):
        press(qtbot, Qt.Key.Key_F5)  # the Ask view stays: nothing reopened
    qtbot.waitUntil(lambda: answers.model().rowCount() > 0, timeout=CHILD_MS)
    first = answers.model().index(0).data(AnswerRole)
    assert (first.title, first.source) == ("Marsupials", "show_notes")
    assert "<b>quokka</b> <b>sanctuary</b>" in answers.model().index(0).data(HtmlRole)


def test_an_articles_answer_opens_the_reader_at_its_paragraph_marked(qtbot: QtBot, launch: Launch,
                                                                     transcribed: None) -> None:
    window = launch().window
    answers = ask(qtbot, window, "several python interpreters inside one process")
    qtbot.waitUntil(lambda: answers.model().rowCount() > 0)
    first = answers.model().index(0).data(AnswerRole)
    assert (first.title, first.source) == (ARTICLE, "article") and MULTIPY in first.text
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "reader")
    reader = window.reading.reader
    qtbot.waitUntil(lambda: reader.document_shown is not None and MULTIPY in reader.textCursor().selectedText())
    assert reader.verticalScrollBar().value() > 0  # not the article's top
    shown = reader.cursorRect(reader.textCursor())  # the paragraph's start, where a person sees it
    assert reader.viewport().rect().contains(shown.center())
    assert shown.top() < reader.viewport().height() // 3  # at the top of the view, not at its bottom edge


def test_the_answer_a_person_is_on_stays_chosen_when_a_refresh_brings_more(
        qtbot: QtBot, launch: Launch, library_path: Path, server: FeedServer) -> None:
    quokkas = [{"title": f"Quokkas {n}", "guid": f"q-{n}", "enclosure": f"https://example.com/q{n}.mp3",
                "description": f"Part {n} of our quokka sanctuary visit."} for n in (1, 2, 3)]
    window = island_show(qtbot, launch, library_path, server, quokkas[:2])
    answers = ask(qtbot, window, "quokka sanctuary")
    qtbot.waitUntil(lambda: answers.model().rowCount() == 2)
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Down)
    assert focused() is answers and answers.currentIndex().row() == 1
    chosen = answers.currentIndex().data(AnswerRole).title

    server.serve_body("/show.xml", rss("Island Show", quokkas))
    press(qtbot, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: answers.model().rowCount() == 3, timeout=CHILD_MS)  # asked again, with the new one
    assert focused() is answers and answers.currentIndex().data(AnswerRole).title == chosen


NOTED = "The warp scheduler hides memory latency when occupancy is high enough."


@pytest.fixture
def noted(library_path: Path, sample: None) -> int:
    """The sample library, an episode with many notes (the one about warps last, in the episode's order); Ask on
    words alone. Returns that note's id."""
    db = open_library(library_path)
    item_id = db.execute("SELECT id FROM items WHERE title = ?", [EPISODE]).fetchone()[0]
    for n in range(14):
        add_note(db, item_id, f"Thought number {n} on this episode, long enough to wrap onto a second line or more "
                              "when the pane is narrow.", at=float(n))
    note_id = add_note(db, item_id, NOTED, at=60.0).id
    set_setting(db, "ask.model", "off")
    db.close()
    return note_id


def test_a_notes_answer_brings_the_keyboard_to_the_note_in_its_items_notes_pane(
        qtbot: QtBot, launch: Launch, noted: int) -> None:
    parts = launch()
    window = parts.window
    notes = window.findChild(QDockWidget, "notesDock")
    press(qtbot, Qt.Key.Key_2, CTRL | ALT)  # View ▸ Related: the Notes pane behind it
    qtbot.waitUntil(lambda: notes.visibleRegion().isEmpty())
    answers = ask(qtbot, window, "warp scheduler occupancy")
    qtbot.waitUntil(lambda: answers.model().rowCount() > 0)
    first = answers.model().index(0).data(AnswerRole)
    assert (first.title, first.source, first.note_id) == (EPISODE, "note", noted)
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Return)

    table = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: focused() is table and table.model().note_at(table.currentIndex().row()) is not None
                    and table.model().note_at(table.currentIndex().row()).id == noted)
    assert table.model().rowCount() == 15 and table.currentIndex().row() == 14  # the last of the item's notes
    assert not notes.visibleRegion().isEmpty()  # the pane came in front of Related
    row = table.visualRect(table.currentIndex())
    assert table.viewport().rect().contains(row.center())  # scrolled to the note
    assert window.detail.item_id == first.item_id  # the details show its episode
    assert window.findChild(QWidget, "askView").isVisible()  # Ask stays
    assert parts.session.item is None  # the note shows; the episode does not start (Return on the note plays it)
    press(qtbot, Qt.Key.Key_1, CTRL)  # Go to the View Shown: back to the question
    assert focused() is window.findChild(QLineEdit, "askQuestion")


DIARY = [f"Day {n}: we walked along the shore, counted the shells and wrote down what the tide brought in."
         for n in range(1, 25)]
DIARY[12] = "Day 13: the quokka sanctuary opened its gates to us at dawn."  # in the middle: it can come to the top


def test_a_show_notes_answer_shows_the_episodes_details_at_its_paragraph_marked(
        qtbot: QtBot, launch: Launch, library_path: Path, server: FeedServer) -> None:
    diary = {"title": "Island diary", "guid": "diary", "enclosure": "https://example.com/diary.mp3",
             "description": "".join(f"<p>{day}</p>" for day in DIARY)}
    window = island_show(qtbot, launch, library_path, server, [OLD, diary])
    answers = ask(qtbot, window, "quokka sanctuary")
    qtbot.waitUntil(lambda: answers.model().rowCount() > 0)
    first = answers.model().index(0).data(AnswerRole)
    assert (first.title, first.source) == ("Island diary", "show_notes")
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Return)

    detail = window.detail
    qtbot.waitUntil(lambda: detail.item_id == first.item_id and DIARY[12] in detail.textCursor().selectedText())
    assert detail.isVisible() and detail.verticalScrollBar().value() > 0  # not the top of the show notes
    shown = detail.cursorRect(detail.textCursor())  # the paragraph's start, where a person sees it
    assert detail.viewport().rect().contains(shown.center())
    assert shown.top() < detail.viewport().height() // 3  # at the top of the pane, not at its bottom edge
    assert focused() is answers  # the next answer is one Down away
