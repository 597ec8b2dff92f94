"""After a restart the episode left part-way is back in the player bar, paused at its place: Space (or ▶) plays
it from there, as the player was left."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.playback.player import PlayerState
from earmark.playback.vlc_player import VlcPlayer
from helpers.gui import Launch
from helpers.journeys import press
from helpers.playing import start_playing
from helpers.podcast import Episode, write_podcast

pytestmark = pytest.mark.vlc


@pytest.fixture
def podcast(library_path: Path, tmp_path: Path) -> None:
    feed = write_podcast(tmp_path / "cast", [Episode("Long listen", 40.0), Episode("Other one", 5.0)])
    subscribe(open_library(library_path), str(feed))


def bar_text(window: object, name: str) -> str:
    label = window.findChild(QLabel, name)  # type: ignore[attr-defined]
    assert label is not None
    return label.text()


@pytest.mark.parametrize("how", ["Space", "play button"])
def test_the_last_episode_comes_back_paused_at_its_place_and_space_plays_it(qtbot: QtBot, launch: Launch,
                                                                           podcast: None, how: str) -> None:
    parts = launch()
    player = start_playing(qtbot, parts)
    qtbot.waitUntil(lambda: player.position() >= 3.0, timeout=8000)
    press(qtbot, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: player.state == PlayerState.PAUSED)
    left_at = player.position()
    elapsed = bar_text(parts.window, "playerTime")
    press(qtbot, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)

    again = launch()
    window = again.window
    qtbot.waitUntil(lambda: bar_text(window, "playerTitle").startswith("Long listen"))
    assert bar_text(window, "playerState") == "Paused"
    assert bar_text(window, "playerTime") == elapsed  # the place it was left, before anything plays
    assert window.player_bar.slider.isEnabled()
    player = again.session.player
    assert isinstance(player, VlcPlayer)
    if how == "Space":
        window.item_list.setFocus()
        press(qtbot, Qt.Key.Key_Space)
    else:
        qtbot.mouseClick(window.player_bar.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
    qtbot.waitUntil(lambda: player._player.get_time() / 1000 >= left_at, timeout=5000)
    assert player._player.get_time() / 1000 < left_at + 3.0  # from where it was left, not from the start
    assert bar_text(window, "playerTitle").startswith("Long listen")
