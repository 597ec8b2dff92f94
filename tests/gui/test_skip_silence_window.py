"""Skip Silence in the real window: Ctrl+Shift+X while an episode plays analyses it in the background, the
player bar's button shows it on, VLC's position then jumps over the silences, the podcast keeps the setting,
and `earmark stats` counts the time saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.podcast_prefs import get_prefs
from earmark.core.db.silences import get_silences
from earmark.core.feeds.subscribe import subscribe
from helpers.audio import write_spoken_and_silent
from helpers.cli import Cli
from helpers.gui import Launch
from helpers.playing import start_playing
from helpers.podcast import Episode, write_podcast

pytestmark = pytest.mark.vlc
PARTS = [("tone", 1.0), ("quiet", 3.0), ("tone", 1.0), ("quiet", 3.0), ("tone", 1.0)]


@pytest.fixture
def quiet_cast(library_path: Path, tmp_path: Path) -> None:
    feed = write_podcast(tmp_path / "cast", [Episode("Quiet episode", 9.0), Episode("Second episode", 3.0)],
                         title="Quiet Cast")
    write_spoken_and_silent(tmp_path / "cast" / "episode-0.wav", PARTS)  # the silences, in place of the tone
    subscribe(open_library(library_path), str(feed))


def test_ctrl_shift_x_skips_the_silences_of_the_episode_playing(qtbot: QtBot, launch: Launch, quiet_cast: None,
                                                                library_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    parts = launch()
    window = parts.window
    button = window.findChild(QCheckBox, "toggle_skip_silence")
    assert button is not None and button.isVisible() and not button.isChecked()
    player = start_playing(qtbot, parts)
    positions: list[float] = []
    player.position_changed.connect(positions.append)
    qtbot.keyClick(window.item_list, Qt.Key.Key_X, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert button.isChecked()
    qtbot.waitUntil(lambda: parts.session.skipper.skips != [], timeout=5000)  # analysed in the background
    item = parts.session.item
    assert item is not None
    qtbot.waitUntil(lambda: item.played, timeout=15_000)
    skips = parts.session.skipper.skips
    assert [(round(a, 2), round(b, 2)) for a, b in skips] == [(1.25, 3.75), (5.25, 7.75)]  # mild
    later = [p for p in positions if any(a + 0.3 < p < b - 0.05 for a, b in skips) and p > 4.0]
    assert later == [], f"the second silence was played: {later}"
    db = open_library(library_path)
    qtbot.waitUntil(lambda: get_silences(db, item.id) is not None, timeout=3000)
    assert get_prefs(db, item.source_id).skip_silence == "mild"
    stats = json.loads(Cli(library_path, capsys)("stats", "--json")[1])
    assert stats["saved_by_silence_seconds"] >= 2.0
    button.click()  # the player bar's button switches it off again
    assert not button.isChecked() and parts.session.skipper.skips == []
    qtbot.waitUntil(lambda: get_prefs(db, item.source_id).skip_silence == "off", timeout=3000)
