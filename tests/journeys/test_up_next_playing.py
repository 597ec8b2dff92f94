"""Up next: the episode playing can be taken off the queue (Del in Up next, or the menu with it selected in the
list) and goes on playing, as in AntennaPod; when it ends, the queue goes on with its first episode."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListView, QMainWindow, QMenu
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.playback.player import PlayerState
from earmark.playback.vlc_player import VlcPlayer
from helpers.gui import Launch
from helpers.journeys import click_row, focused, item_list, listed_titles, press, wait_rows
from helpers.podcast import Episode, write_podcast

pytestmark = pytest.mark.vlc
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def podcast(library_path: Path, tmp_path: Path) -> None:
    feed = write_podcast(tmp_path / "cast", [Episode("First talk", 30.0), Episode("Second talk", 30.0)])
    subscribe(open_library(library_path), str(feed))


def queued(window: QMainWindow) -> list[str]:
    queue = window.findChild(QListView, "queueList")
    return [str(queue.model().index(row, 0).data()) for row in range(queue.model().rowCount())]


def queue_both_and_play_the_first(qtbot: QtBot, window: QMainWindow, player: VlcPlayer) -> None:
    wait_rows(qtbot, window, 2)
    for title in ("First talk", "Second talk"):
        click_row(qtbot, item_list(window), listed_titles(window).index(title))
        press(qtbot, Qt.Key.Key_Q)
    qtbot.waitUntil(lambda: len(queued(window)) == 2)
    click_row(qtbot, item_list(window), listed_titles(window).index("First talk"))
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)


def test_del_in_up_next_takes_the_playing_episode_off_and_it_plays_on(qtbot: QtBot, launch: Launch,
                                                                     podcast: None) -> None:
    parts = launch()
    window, player = parts.window, parts.session.player
    assert isinstance(player, VlcPlayer)
    queue_both_and_play_the_first(qtbot, window, player)
    press(qtbot, Qt.Key.Key_U, CTRL)  # Go to Up next: the playing episode is the current row
    assert focused() is window.findChild(QListView, "queueList")
    assert focused().currentIndex().data().startswith("First talk")
    press(qtbot, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: [title.split(" —")[0] for title in queued(window)] == ["Second talk"])
    assert player.state == PlayerState.PLAYING and player.title() == "First talk"


def test_the_menu_takes_the_playing_episode_selected_in_the_list_off(qtbot: QtBot, launch: Launch,
                                                                     podcast: None) -> None:
    parts = launch()
    window, player = parts.window, parts.session.player
    assert isinstance(player, VlcPlayer)
    queue_both_and_play_the_first(qtbot, window, player)
    assert focused() is item_list(window)
    menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title().replace("&", "") == "Up Next")
    remove = next(a for a in menu.actions() if a.text().replace("&", "") == "Remove from Up Next")
    qtbot.keyClick(window, Qt.Key.Key_U, Qt.KeyboardModifier.AltModifier)  # the menu by its key
    qtbot.waitUntil(menu.isVisible)
    menu.setActiveAction(remove)
    qtbot.keyClick(menu, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: [title.split(" —")[0] for title in queued(window)] == ["Second talk"])
    assert player.state == PlayerState.PLAYING and player.title() == "First talk"
    qtbot.waitUntil(lambda: not menu.isVisible())
    window.activateWindow()  # the menu gave the window back
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_U, Qt.KeyboardModifier.AltModifier)  # again: it is not queued any more
    qtbot.waitUntil(menu.isVisible)
    menu.setActiveAction(remove)
    qtbot.keyClick(menu, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Nothing selected is in Up next"))
    assert [title.split(" —")[0] for title in queued(window)] == ["Second talk"]
