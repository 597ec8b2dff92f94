"""Reading part of an article puts it in Continue reading: the sidebar's count says so while the article is still
open, and after leaving the reader."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, count_of, item_list, listed_titles, press, sidebar_row, wait_rows, wait_showing

ARTICLE = "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor"


def continue_reading(window: object) -> int:
    return count_of(str(sidebar_row(window, "Continue reading").data()))  # type: ignore[arg-type]


def test_an_article_read_part_way_is_counted_in_continue_reading(qtbot: QtBot, launch: Launch,
                                                                sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    assert continue_reading(window) == 0
    click_row(qtbot, item_list(window), listed_titles(window).index(ARTICLE))
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "reader")
    qtbot.waitUntil(lambda: window.reading.reader.verticalScrollBar().maximum() > 0)
    window.reading.reader.setFocus()
    press(qtbot, Qt.Key.Key_PageDown)
    qtbot.waitUntil(lambda: 0 < window.reading.reader.share_read() < 1)
    qtbot.waitUntil(lambda: continue_reading(window) == 1, timeout=8000)  # while still reading
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    qtbot.waitUntil(lambda: continue_reading(window) == 1)
