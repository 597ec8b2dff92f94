"""The sample's episodes play short clips: played to its end, a clip leaves its episode's duration as the feed
gives it (in the list and in an export), and the details say the sample plays a clip."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.timefmt import format_clock
from earmark.gui.models.items import COL_DURATION
from earmark.playback.player import PlayerState
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, item_list, listed_titles, press, wait_rows

EPISODE = "Compiler collectives"


def test_a_sample_clip_played_to_its_end_keeps_the_episodes_duration(qtbot: QtBot, launch: Launch, sample: None,
                                                                    library_path: Path) -> None:
    parts = launch()
    window, player = parts.window, parts.session.player
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    row = listed_titles(window).index(EPISODE)
    duration = item_list(window).model().index(row, COL_DURATION).data()
    assert duration == "16:33"
    click_row(qtbot, item_list(window), row)
    assert "A sample: it plays a short clip of the episode" in window.detail.toPlainText()
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
    press(qtbot, Qt.Key.Key_L)  # forward 10 s: the 12-s clip ends
    qtbot.waitUntil(lambda: player.state == PlayerState.ENDED, timeout=15000)
    state = window.findChild(QLabel, "playerState")
    qtbot.waitUntil(lambda: state.text() == "Finished")  # the ended state, not stale times with a play icon
    elapsed, remaining = (label.text() for label in window.findChildren(QLabel, "playerTime"))
    assert remaining == "-0:00" and elapsed == format_clock(player.duration()), (elapsed, remaining)
    qtbot.waitUntil(lambda: parts.session.item is None or player.state != PlayerState.PLAYING)
    qtbot.wait(500)  # the end is saved by the writer
    row = listed_titles(window).index(EPISODE)
    assert item_list(window).model().index(row, COL_DURATION).data() == "16:33"
    [item] = [i for i in list_items(open_library(library_path), ItemFilter()) if i.title == EPISODE]
    assert item.duration is not None and round(item.duration) == 16 * 60 + 33
