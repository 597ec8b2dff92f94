"""Keyboard only, after an edit or a delete: the row there stays current (the next one after a delete), so the
next key acts on a row a person can see - in Up next (Del) and in the notes pane (F2, typing, Return; Del)
(issue 17); Home and End go to the first and the last item of the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListView, QTableView
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.notes import add_note
from earmark.gui.models.items import COL_DURATION
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import (
    click_row,
    focused,
    item_list,
    listed_titles,
    press,
    selected_title,
    type_text,
    wait_rows,
)

CTRL = Qt.KeyboardModifier.ControlModifier
EPISODE = "Compiler collectives"


@pytest.fixture
def two_notes(library_path: Path, sample: None) -> None:
    db = open_library(library_path)
    episode = db.execute("SELECT id FROM items WHERE title = ?", [EPISODE]).fetchone()[0]
    add_note(db, episode, "first thought", at=10.0)
    add_note(db, episode, "second thought", at=20.0)
    db.close()


def test_del_in_up_next_leaves_the_next_row_current(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(EPISODE))
    queue = window.findChild(QListView, "queueList")
    for count in (1, 2, 3):
        press(qtbot, Qt.Key.Key_Q)
        qtbot.waitUntil(lambda count=count: queue.model().rowCount() == count)
        press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_U, CTRL)
    assert focused() is queue
    press(qtbot, Qt.Key.Key_Home)
    press(qtbot, Qt.Key.Key_Down)
    second, third = (str(queue.model().index(row, 0).data()) for row in (1, 2))
    assert queue.currentIndex().row() == 1
    press(qtbot, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: queue.model().rowCount() == 2)
    assert queue.currentIndex().isValid() and str(queue.currentIndex().data()) == third
    assert second not in [str(queue.model().index(row, 0).data()) for row in range(2)]
    press(qtbot, Qt.Key.Key_Delete)  # the key acts on the row shown current
    qtbot.waitUntil(lambda: queue.model().rowCount() == 1)
    assert queue.currentIndex().row() == 0 and focused() is queue


def test_editing_and_deleting_a_note_keeps_a_current_row(qtbot: QtBot, launch: Launch, two_notes: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(EPISODE))
    notes = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: notes.model().rowCount() == 2)
    press(qtbot, Qt.Key.Key_4, CTRL)
    assert focused() is notes
    press(qtbot, Qt.Key.Key_Down)
    row = notes.currentIndex().row()
    press(qtbot, Qt.Key.Key_F2)
    press(qtbot, Qt.Key.Key_A, CTRL)
    type_text(qtbot, "edited thought")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: any("edited thought" in str(notes.model().index(r, c).data())
                                for r in range(2) for c in range(notes.model().columnCount())))
    assert notes.currentIndex().isValid() and notes.currentIndex().row() == row
    press(qtbot, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: notes.model().rowCount() == 1)
    assert notes.currentIndex().isValid() and focused() is notes


def test_up_next_shows_an_episode_as_the_list_does(qtbot: QtBot, launch: Launch, sample: None) -> None:
    """Once an episode played, its length in Up next is the one the list shows (they differed: 16:33 / 0:12)."""
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    table = item_list(window)
    row = listed_titles(window).index(EPISODE)
    click_row(qtbot, table, row)
    queue = window.findChild(QListView, "queueList")
    press(qtbot, Qt.Key.Key_Q)
    qtbot.waitUntil(lambda: queue.model().rowCount() == 1)
    before = str(table.model().index(row, COL_DURATION).data())
    with qtbot.waitSignal(window.session.item_changed, timeout=10000):
        press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: (window.session.player.duration() or 0) > 0, timeout=10000)
    press(qtbot, Qt.Key.Key_Space)  # pausing keeps the place (a sample's clip keeps the feed's length)
    qtbot.waitUntil(lambda: window.session.player.state == "paused", timeout=10000)
    qtbot.waitUntil(lambda: (f"({table.model().index(row, COL_DURATION).data()})"
                             in str(queue.model().index(0, 0).data())), timeout=5000)
    assert str(table.model().index(row, COL_DURATION).data()) == before


def test_home_and_end_in_the_list_go_to_the_first_and_the_last_item(qtbot: QtBot, launch: Launch,
                                                                      sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    titles = listed_titles(window)
    click_row(qtbot, item_list(window), titles.index(EPISODE))  # a row in the middle, its first cell
    assert focused() is item_list(window)
    press(qtbot, Qt.Key.Key_End)
    qtbot.waitUntil(lambda: selected_title(window) == titles[-1])
    press(qtbot, Qt.Key.Key_Home)
    qtbot.waitUntil(lambda: selected_title(window) == titles[0])
    assert [index.row() for index in item_list(window).selectionModel().selectedRows()] == [0]  # the row shows it
