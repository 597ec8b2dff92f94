"""A highlight takes whole words: a sloppy drag that starts and ends inside words ("ior PyTorch developers fr")
highlights "Senior PyTorch developers from", as readers do."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, item_list, listed_titles, press, wait_rows, wait_showing

ARTICLE = "PyTorch Shanghai Meetup Notes"
WORDS = "Senior PyTorch developers from"
SHIFT = Qt.KeyboardModifier.ShiftModifier


def test_a_sloppy_selection_highlights_whole_words(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(ARTICLE))
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "reader")
    reader = window.reading.reader
    qtbot.waitUntil(lambda: WORDS in reader.toPlainText())
    at = reader.toPlainText().index(WORDS) + 3  # inside "Senior": "ior …"
    cursor = QTextCursor(reader.document())
    cursor.setPosition(at)
    reader.ensureCursorVisible()
    where = reader.cursorRect(cursor).center()
    qtbot.mouseClick(reader.viewport(), Qt.MouseButton.LeftButton, pos=where)  # the click puts the cursor there
    qtbot.waitUntil(lambda: reader.textCursor().position() == at)
    for _ in range(len("ior PyTorch developers fr")):
        qtbot.keyClick(reader, Qt.Key.Key_Right, SHIFT)
    assert reader.textCursor().selectedText() == "ior PyTorch developers fr"
    qtbot.keyClick(reader, Qt.Key.Key_H)
    qtbot.waitUntil(lambda: window.notes.pane.model.rowCount() == 1, timeout=5000)
    assert window.notes.pane.model.index(0, 1).data() == f"“{WORDS}”"
