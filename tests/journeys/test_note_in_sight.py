"""B opens the note box where it can be seen: the Notes pane comes in front of the tab that hid it (Related,
Transcript) and shows again if it was closed, so what is typed is seen and Return keeps it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLineEdit, QTableView
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journey_library import STARTED
from helpers.journeys import click_row, focused, item_list, listed_titles, press, type_text, wait_rows

CTRL, ALT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.AltModifier


@pytest.mark.parametrize("hide", ["related", "transcript", "closed"])
def test_b_brings_the_notes_pane_forward_and_the_note_is_typed_in_sight(qtbot: QtBot, launch: Launch,
                                                                        sample: None, hide: str) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    notes = window.findChild(QDockWidget, "notesDock")
    editor = window.findChild(QLineEdit, "noteEditor")
    if hide == "closed":
        notes.close()
    else:
        press(qtbot, Qt.Key.Key_2 if hide == "related" else Qt.Key.Key_4, CTRL | ALT)  # View ▸ Related/Transcript
    qtbot.waitUntil(lambda: notes.visibleRegion().isEmpty())  # the Notes pane is out of sight
    click_row(qtbot, item_list(window), listed_titles(window).index(STARTED))

    press(qtbot, Qt.Key.Key_B)
    qtbot.waitUntil(lambda: editor.isVisible() and not editor.visibleRegion().isEmpty())
    assert not notes.visibleRegion().isEmpty()
    assert focused() is editor
    type_text(qtbot, "seen while typed")
    press(qtbot, Qt.Key.Key_Return)
    table = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: any("seen while typed" in str(table.model().index(row, column).data())
                                for row in range(table.model().rowCount()) for column in range(3)))
    assert table.isVisible() and not table.visibleRegion().isEmpty()
    assert window.statusBar().currentMessage().startswith("Note kept")
