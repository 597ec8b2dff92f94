"""The ? panel in a 1024×600 window: every column shows its keys (none cut off at the right edge), its scroll bar
is part of the panel (not drawn apart, over the Details pane), and it opens at its top, heading shown, however
far it was scrolled the last time (issue 37, finding 10)."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import press, wait_rows


def test_the_shortcuts_panel_fits_a_small_window(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    window.resize(1024, 600)
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == (1024, 600))
    sheet = window.help.cheat_sheet

    press(qtbot, Qt.Key.Key_Question)
    qtbot.waitUntil(sheet.isVisible)
    bar = sheet.area.verticalScrollBar()
    qtbot.waitUntil(bar.isVisible)  # at 600 px the sheet scrolls
    viewport = sheet.area.viewport()
    assert sheet.text.sizeHint().width() <= viewport.width(), "the right-hand column's keys are cut off"
    assert "Ctrl+Shift+G" in sheet.text.text()  # the Go menu's Learning Path, with its key
    drawn = QRect(bar.mapTo(sheet, bar.rect().topLeft()), bar.size())
    assert sheet.panel.geometry().contains(drawn), f"scroll bar {drawn} outside the panel {sheet.panel.geometry()}"
    assert sheet.heading.isVisible() and sheet.heading.text().startswith("<h2>Keyboard shortcuts")

    press(qtbot, Qt.Key.Key_PageDown)
    press(qtbot, Qt.Key.Key_PageDown)
    assert bar.value() > 0
    press(qtbot, Qt.Key.Key_X)  # any other key closes it
    qtbot.waitUntil(lambda: not sheet.isVisible())
    press(qtbot, Qt.Key.Key_Question)
    qtbot.waitUntil(sheet.isVisible)
    assert bar.value() == 0, "it reopened scrolled to where it was left"
