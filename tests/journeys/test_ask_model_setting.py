"""Choosing Ask's sentence model in Settings: its section lists the default static model, all-MiniLM-L6-v2 and
off (a model folder may be browsed for); a person picks all-MiniLM-L6-v2 by keys and it is stored (issue 39 §2)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.passages.catalogue import DEFAULT, MINILM, OFF
from earmark.core.settings import get_setting
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import press, wait_rows


def test_the_sentence_model_is_chosen_from_its_list(qtbot: QtBot, launch: Launch, sample: None,
                                                    library_path: Path) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.desktop.settings_dialog is not None and window.desktop.settings_dialog.isVisible())
    dialog = window.desktop.settings_dialog
    sections = dialog.sections
    titles = [sections.item(row).text() for row in range(sections.count())]
    ask = sections.item(titles.index("Ask"))
    qtbot.mouseClick(sections.viewport(), Qt.MouseButton.LeftButton, pos=sections.visualItemRect(ask).center())
    editor = dialog.editors["ask.model"]
    qtbot.waitUntil(editor.isVisible)
    assert isinstance(editor.field, QComboBox) and editor.field.currentText() == DEFAULT
    assert [editor.field.itemText(i) for i in range(editor.field.count())] == [DEFAULT, MINILM, OFF]
    assert editor.choose_button is not None and editor.choose_button.text() == "Browse…"
    line = editor.field.lineEdit()
    qtbot.mouseClick(line, Qt.MouseButton.LeftButton)  # into the field, then Down: the next one in the list
    qtbot.waitUntil(line.hasFocus)
    press(qtbot, Qt.Key.Key_Down)
    assert editor.field.currentText() == MINILM
    dialog.accept()
    qtbot.waitUntil(lambda: get_setting(open_library(library_path), "ask.model") == MINILM)
