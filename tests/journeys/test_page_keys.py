"""Page Up/Down page the list that has the focus, as in every list; the chapters keep Page Up/Down elsewhere
(the player bar) and have Alt+Page Up/Down everywhere, lists included."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import focused, item_list, press, wait_rows
from helpers.playing import start_playing
from helpers.podcast import Episode, write_podcast

ALT = Qt.KeyboardModifier.AltModifier
CHAPTERS = ((0.0, "Cold open"), (30.0, "Interview"), (60.0, "Listener mail"), (90.0, "Outro"))


def test_page_down_and_up_page_the_list(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    table = item_list(window)
    table.setFocus()
    press(qtbot, Qt.Key.Key_Home)
    assert focused() is table and table.currentIndex().row() == 0
    press(qtbot, Qt.Key.Key_PageDown)
    qtbot.waitUntil(lambda: table.currentIndex().row() > 3)  # a page further down, as many rows as fit
    paged = table.currentIndex().row()
    assert table.visualRect(table.currentIndex()).intersects(table.viewport().rect())  # and in sight
    press(qtbot, Qt.Key.Key_PageDown)
    qtbot.waitUntil(lambda: table.currentIndex().row() > paged)
    press(qtbot, Qt.Key.Key_PageUp)
    press(qtbot, Qt.Key.Key_PageUp)
    qtbot.waitUntil(lambda: table.currentIndex().row() == 0)


@pytest.fixture
def chaptered(library_path: Path, tmp_path: Path) -> None:
    feed = write_podcast(tmp_path / "long", [Episode("Long episode", 120.0, chapters=CHAPTERS),
                                             Episode("Second episode", 3.0)], title="Long Cast")
    subscribe(open_library(library_path), str(feed))


@pytest.mark.vlc
def test_chapters_keep_their_keys_outside_lists_and_alt_page_keys_everywhere(qtbot: QtBot, launch: Launch,
                                                                             chaptered: None) -> None:
    parts = launch()
    start_playing(qtbot, parts)
    window, bar = parts.window, parts.window.player_bar
    qtbot.waitUntil(lambda: bar.chapter.text() == "Chapter 1/4: Cold open", timeout=5000)
    assert focused() is item_list(window)
    press(qtbot, Qt.Key.Key_PageDown)  # the list's key there: the list pages, the chapter stays
    qtbot.waitUntil(lambda: item_list(window).currentIndex().row() == 1)
    qtbot.wait(300)
    assert bar.chapter.text() == "Chapter 1/4: Cold open"
    press(qtbot, Qt.Key.Key_PageDown, ALT)
    qtbot.waitUntil(lambda: bar.chapter.text() == "Chapter 2/4: Interview", timeout=5000)
    press(qtbot, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)  # Go to the player bar
    assert focused().window() is window and bar.isAncestorOf(focused())
    press(qtbot, Qt.Key.Key_PageDown)
    qtbot.waitUntil(lambda: bar.chapter.text() == "Chapter 3/4: Listener mail", timeout=5000)
    press(qtbot, Qt.Key.Key_PageUp)
    qtbot.waitUntil(lambda: bar.chapter.text() == "Chapter 2/4: Interview", timeout=5000)
