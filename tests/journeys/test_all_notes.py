"""All Notes as a person meets it at 1366×768 (issue 37, 15): the notes' text has the table's room (it had a third,
wrapped line by line beside the item's title, the source and the date); the details show the current note's
item, not the episode selected in the list before; and Export Notes opens on what has notes (it opened on an
item without any: "No notes match this choice.")."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QPlainTextEdit, QRadioButton, QTableView
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.notes import add_note
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.models.notes import COL_ITEM, COL_TEXT
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import (
    click_row,
    item_list,
    palette_dialog,
    press,
    selected_title,
    wait_rows,
    wait_showing,
)

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
LONG_NOTE = ("The compiler keeps one graph per shape it has seen, so a model fed many shapes compiles again and "
             "again: mark the batch dimension dynamic before blaming the kernels.")


def noted(library_path: Path) -> list[str]:
    """Notes on the two episodes with the longest titles (their column is the one that must not take the room);
    their titles, the newest note's first."""
    db = open_library(library_path)
    episodes = db.execute("SELECT id, title FROM items WHERE kind = 'episode' ORDER BY length(title) DESC, id "
                          "LIMIT 2").fetchall()
    add_note(db, episodes[0][0], LONG_NOTE, 12.0, now="2024-06-02T10:00:00+00:00")
    add_note(db, episodes[1][0], "Worth a second listen.", 30.0, now="2024-06-01T10:00:00+00:00")
    db.close()
    return [title for _id, title in episodes]


def details(window: MainWindow) -> str:
    return window.detail.toPlainText()


def export_dialog(qtbot: QtBot) -> QDialog:
    """File → Export Notes…, asked for by name in the command palette (Ctrl+K)."""
    return palette_dialog(qtbot, "export notes", "exportDialog")


def close(qtbot: QtBot, dialog: QDialog, window: MainWindow) -> None:
    """Esc closes the dialog; the window has the keys again."""
    press(qtbot, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    window.activateWindow()
    qtbot.waitUntil(lambda: window.isActiveWindow() and QApplication.focusWidget() is not None)


def chosen_scope(dialog: QDialog) -> str:
    return next(button.text() for button in dialog.findChildren(QRadioButton) if button.isChecked())


def test_all_notes_gives_the_text_room_and_the_details_and_export_follow_the_notes(qtbot: QtBot, launch: Launch,
                                                                                 sample: None,
                                                                                 library_path: Path) -> None:
    titles = noted(library_path)
    window = launch().window
    window.resize(1366, 768)
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), 0)
    listed = selected_title(window)
    assert listed not in titles  # an item without notes
    qtbot.waitUntil(lambda: listed in details(window))

    press(qtbot, Qt.Key.Key_B, CTRL | SHIFT)
    wait_showing(qtbot, window, "notes")
    table = window.findChild(QTableView, "allNotes")
    qtbot.waitUntil(lambda: table.model().rowCount() == 2)
    assert table.model().index(0, COL_TEXT).data() == LONG_NOTE
    qtbot.waitUntil(lambda: titles[0] in details(window))  # the current note's item, not the list's
    assert listed not in details(window)
    header = table.horizontalHeader()
    widths = {column: header.sectionSize(column) for column in range(header.count())
              if not header.isSectionHidden(column)}
    assert max(widths, key=widths.__getitem__) == COL_TEXT
    assert widths[COL_TEXT] >= table.viewport().width() / 2, widths  # a third (274 of 757 px) before
    assert table.fontMetrics().horizontalAdvance(titles[0]) > widths[COL_ITEM]  # its title is what gave way
    second = table.visualRect(table.model().index(1, COL_TEXT)).center()  # the note's text: its time would play
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=second)
    qtbot.waitUntil(lambda: titles[1] in details(window))

    dialog = export_dialog(qtbot)  # from All Notes: the current note's item
    assert chosen_scope(dialog) == f"This item: {titles[1]}"
    close(qtbot, dialog, window)
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    qtbot.waitUntil(lambda: listed in details(window))  # the list's item again

    dialog = export_dialog(qtbot)  # from the list, on the item without notes: every note
    assert chosen_scope(dialog) == "Every note"
    preview = dialog.findChild(QPlainTextEdit, "exportPreview")
    qtbot.waitUntil(lambda: "1 more file" in preview.toPlainText(), timeout=5000)  # Markdown: the first item's
    assert "No notes match" not in preview.toPlainText()
    close(qtbot, dialog, window)
