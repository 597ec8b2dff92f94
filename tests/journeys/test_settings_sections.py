"""Settings in a 1366×768 window: every section is named whole in a list a person clicks (no "Passw…", none behind
scroll arrows), and the transcription model is picked from its sizes or a model folder browsed for (issue 37,
finding 11)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QLineEdit
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.settings import get_setting
from earmark.core.transcribe.models import SIZES
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import press, visible_dialog, wait_rows


def test_sections_show_whole_and_the_model_has_sizes_and_browse(
        qtbot: QtBot, launch: Launch, sample: None, library_path: Path, tmp_path: Path) -> None:
    window = launch().window
    window.resize(1366, 768)
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    press(qtbot, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.desktop.settings_dialog is not None and window.desktop.settings_dialog.isVisible())
    dialog = window.desktop.settings_dialog
    sections = dialog.sections
    metrics = sections.fontMetrics()
    for row in range(sections.count()):  # each name drawn whole, inside the list's visible area
        item = sections.item(row)
        rect = sections.visualItemRect(item)
        assert sections.viewport().rect().contains(rect), f"{item.text()!r} is out of sight"
        assert metrics.horizontalAdvance(item.text()) <= rect.width(), f"{item.text()!r} is cut short"
    assert not sections.verticalScrollBar().isVisible()

    titles = [sections.item(row).text() for row in range(sections.count())]
    transcripts = sections.item(titles.index("Transcripts"))
    qtbot.mouseClick(sections.viewport(), Qt.MouseButton.LeftButton, pos=sections.visualItemRect(transcripts).center())
    editor = dialog.editors["transcribe.model"]
    qtbot.waitUntil(editor.isVisible)
    assert isinstance(editor.field, QComboBox)
    assert [editor.field.itemText(i) for i in range(editor.field.count())] == list(SIZES)
    assert editor.choose_button is not None and editor.choose_button.text() == "Browse…"

    model = tmp_path / "whisper-small"
    model.mkdir()

    def choose_the_folder() -> None:  # the folder dialog: type the folder's path, Return
        chooser = visible_dialog(QFileDialog)
        line = chooser.findChild(QLineEdit, "fileNameEdit") if isinstance(chooser, QFileDialog) else None
        if line is None or not line.isVisible():  # not shown yet (a busy machine): a dialog nobody answers waits
            QTimer.singleShot(100, choose_the_folder)  # for ever in its own event loop
            return
        qtbot.keyClicks(line, str(model))
        qtbot.keyClick(line, Qt.Key.Key_Return)

    native = QApplication.testAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs)
    QApplication.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs, True)  # Qt's own, typed into
    try:
        QTimer.singleShot(500, choose_the_folder)
        qtbot.mouseClick(editor.choose_button, Qt.MouseButton.LeftButton)
    finally:
        QApplication.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs, native)
    qtbot.waitUntil(lambda: editor.field.currentText() == str(model))
    dialog.accept()
    qtbot.waitUntil(lambda: get_setting(open_library(library_path), "transcribe.model") == str(model))
