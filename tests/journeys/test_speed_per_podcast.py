"""A speed chosen while listening ([ and ]) is the playing podcast's own, kept for it, as podcast apps do: the
default in Settings stays as it was, another podcast plays at that default, and the speed box's tooltip and the
podcast's settings say whose speed it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDoubleSpinBox, QLabel, QMainWindow
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.podcast_prefs import get_prefs
from earmark.core.feeds.subscribe import subscribe
from earmark.core.settings import get_setting
from earmark.gui.views.podcast_settings import PodcastSettingsDialog
from earmark.playback.player import PlayerState
from earmark.playback.vlc_player import VlcPlayer
from helpers.gui import Launch
from helpers.journeys import click_row, item_list, listed_titles, press, visible_dialog, wait_rows
from helpers.podcast import Episode, write_podcast

pytestmark = pytest.mark.vlc


@pytest.fixture
def two_podcasts(library_path: Path, tmp_path: Path) -> None:
    db = open_library(library_path)
    subscribe(db, str(write_podcast(tmp_path / "a", [Episode("Alpha talk", 30.0)], title="Alpha Cast")))
    subscribe(db, str(write_podcast(tmp_path / "b", [Episode("Beta talk", 30.0)], title="Beta Cast")))
    db.close()


def play(qtbot: QtBot, window: QMainWindow, title: str, player: VlcPlayer) -> None:
    window.activateWindow()  # after a dialog closed, the window may not be active again by itself
    qtbot.waitUntil(window.isActiveWindow)
    click_row(qtbot, item_list(window), listed_titles(window).index(title))
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING and player.title() == title, timeout=8000)


def test_speed_keys_change_the_playing_podcasts_speed_not_the_default(qtbot: QtBot, launch: Launch,
                                                                      two_podcasts: None, library_path: Path) -> None:
    parts = launch()
    window, player = parts.window, parts.session.player
    assert isinstance(player, VlcPlayer)
    wait_rows(qtbot, window, 2)
    play(qtbot, window, "Alpha talk", player)
    speed = window.player_bar.speed
    assert "default speed, 1×" in speed.toolTip()
    press(qtbot, Qt.Key.Key_BracketRight)
    press(qtbot, Qt.Key.Key_BracketRight)
    qtbot.waitUntil(lambda: player.vlc_rate() == pytest.approx(1.1, abs=0.001), timeout=3000)
    assert speed.currentText() == "1.1×"
    assert "The speed of “Alpha Cast”, kept for this podcast" in speed.toolTip() and "default, 1×" in speed.toolTip()

    press(qtbot, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: isinstance(visible_dialog(PodcastSettingsDialog), PodcastSettingsDialog))
    dialog = visible_dialog(PodcastSettingsDialog)
    assert isinstance(dialog, PodcastSettingsDialog) and "Alpha Cast" in dialog.windowTitle()
    assert dialog.findChild(QDoubleSpinBox, "podcastSpeed").text() == "1.10×"
    assert "Its own speed" in dialog.findChild(QLabel, "podcastSpeedNote").text()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())

    play(qtbot, window, "Beta talk", player)  # another podcast: the default, untouched
    qtbot.waitUntil(lambda: player.vlc_rate() == pytest.approx(1.0, abs=0.001), timeout=3000)
    assert speed.currentText() == "1×" and "“Beta Cast” plays at the default speed" in speed.toolTip()
    play(qtbot, window, "Alpha talk", player)  # and Alpha's own speed comes back with it
    qtbot.waitUntil(lambda: player.vlc_rate() == pytest.approx(1.1, abs=0.001), timeout=3000)

    db = open_library(library_path)
    assert get_setting(db, "playback.speed") == 1.0
    alpha = parts.session.item
    assert alpha is not None and alpha.source_id is not None
    assert get_prefs(db, alpha.source_id).speed == pytest.approx(1.1)
