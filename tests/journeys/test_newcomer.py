"""The newcomer: the welcome screen, the sample library, Down and Enter play an episode, B takes a note typed at
once, Ctrl+G shows the graph and Esc leaves it, All Notes shows the note, Back returns to the list, and the
notes are exported to Markdown from the command palette."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QLineEdit, QPushButton, QTableView
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import (
    focused,
    item_list,
    palette_dialog,
    press,
    selected_title,
    showing,
    type_text,
    wait_rows,
    wait_showing,
)

CTRL, SHIFT, ALT = (Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier,
                    Qt.KeyboardModifier.AltModifier)
EPISODE = "Compiler collectives"  # the second row of the sample library, newest first
NOTE = "Collectives let every rank agree"


def table_texts(table: QTableView) -> list[str]:
    model = table.model()
    return [str(model.index(row, column).data()) for row in range(model.rowCount())
            for column in range(model.columnCount()) if not table.isColumnHidden(column)]


def test_the_newcomer(qtbot: QtBot, launch: Launch, tmp_path: Path) -> None:
    window = launch().window
    wait_showing(qtbot, window, "welcome")
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QPushButton))
    assert focused().text().replace("&", "") == "Load the sample library"
    press(qtbot, Qt.Key.Key_Return)
    wait_rows(qtbot, window, SAMPLE_ITEMS, timeout=20000)
    wait_showing(qtbot, window, "list")
    assert focused() is item_list(window)

    press(qtbot, Qt.Key.Key_Down)
    assert selected_title(window) == EPISODE
    press(qtbot, Qt.Key.Key_Return)
    title = window.findChild(QLabel, "playerTitle")
    qtbot.waitUntil(lambda: EPISODE in title.text(), timeout=8000)
    elapsed = [label for label in window.findChildren(QLabel, "playerTime") if label.text().count(":") == 1][0]
    qtbot.waitUntil(lambda: elapsed.text() not in ("0:00", ""), timeout=8000)  # it plays

    press(qtbot, Qt.Key.Key_B)
    editor = window.findChild(QLineEdit, "noteEditor")
    qtbot.waitUntil(lambda: editor.isVisible() and focused() is editor)
    type_text(qtbot, NOTE)
    press(qtbot, Qt.Key.Key_Return)
    notes_pane = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: any(NOTE in text for text in table_texts(notes_pane)))
    assert not editor.isVisible() and focused() is item_list(window)

    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    assert selected_title(window) == EPISODE

    press(qtbot, Qt.Key.Key_B, CTRL | SHIFT)
    wait_showing(qtbot, window, "notes")
    all_notes = window.findChild(QTableView, "allNotes")
    qtbot.waitUntil(lambda: any(NOTE in text for text in table_texts(all_notes)))
    press(qtbot, Qt.Key.Key_Left, ALT)
    wait_showing(qtbot, window, "list")
    assert selected_title(window) == EPISODE

    dialog = palette_dialog(qtbot, "export notes", "exportDialog")  # the command palette: Export Notes…
    assert "Markdown" in dialog.findChild(QComboBox, "exportFormat").currentText()
    where = dialog.findChild(QLineEdit, "exportPath")
    qtbot.mouseClick(where, Qt.MouseButton.LeftButton)
    press(qtbot, Qt.Key.Key_A, CTRL)
    type_text(qtbot, str(tmp_path / "exported"))
    qtbot.mouseClick(dialog.findChild(QPushButton, "exportButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10000)
    written = list((tmp_path / "exported").glob("*.md"))
    assert len(written) == 1 and NOTE in written[0].read_text(encoding="utf-8")
    assert "Exported" in window.statusBar().currentMessage()
    assert showing(window) == "list"
