"""The voice boost compresses: real VLC plays a generated file alternating speech-level and 30 dB softer
passages, and its real output (heard through libVLC's memory output) has a much smaller loudness range with
the boost on; switched on while playing, it applies from there on."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from earmark.playback.player import PlayerState
from earmark.playback.vlc_player import VlcPlayer
from helpers.audio import write_spoken_and_silent
from helpers.vlc_ears import Ears

pytestmark = pytest.mark.vlc
PARTS = [("tone", 1.5), ("soft", 1.5)] * 3


def loudness_range(power: list[tuple[float, float, int]]) -> tuple[float, float]:
    """The spread (95th minus 10th percentile, dB) and the loud level (95th percentile, dBFS) of the RMS level of
    each 100 ms of what VLC played, over the audible ones."""
    squares = np.repeat([p for _at, p, _n in power], [n for _at, _p, n in power])
    windows = squares[: squares.size // 800 * 800].reshape(-1, 800).mean(axis=1)  # 100 ms at 8 kHz
    levels = 10 * np.log10(np.maximum(windows, 1e-3) / 32768**2)
    audible = levels[levels > -70]
    return float(np.percentile(audible, 95) - np.percentile(audible, 10)), float(np.percentile(audible, 95))


def play_through(qtbot: QtBot, path: Path, boost: bool) -> list[tuple[float, float, int]]:
    player = VlcPlayer(("--aout=dummy",))
    ears = Ears(player)
    try:
        player.set_voice_boost(boost)
        player.load(path.as_uri())
        qtbot.waitUntil(lambda: player.state == PlayerState.ENDED, timeout=20_000)
    finally:
        player.shutdown()
    return ears.power


def test_voice_boost_narrows_the_loudness_range(qtbot: QtBot, tmp_path: Path) -> None:
    path = write_spoken_and_silent(tmp_path / "dynamic.wav", PARTS)
    plain_range, plain_loud = loudness_range(play_through(qtbot, path, boost=False))
    boosted_range, boosted_loud = loudness_range(play_through(qtbot, path, boost=True))
    assert plain_range == pytest.approx(30.0, abs=3.0)  # what the file holds
    assert boosted_range < plain_range - 6.0, (plain_range, boosted_range)
    assert boosted_loud > plain_loud - 3.0  # the loud parts are not simply turned down


def test_switched_on_while_playing_it_applies_from_there(qtbot: QtBot, tmp_path: Path) -> None:
    path = write_spoken_and_silent(tmp_path / "dynamic.wav", PARTS * 2)
    player = VlcPlayer(("--aout=dummy",))
    ears = Ears(player)
    try:
        player.load(path.as_uri())
        qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
        qtbot.wait(3200)
        switched = time.monotonic()
        position = player.position()
        player.set_voice_boost(True)
        qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING and player.position() > position + 0.5,
                        timeout=8000)
        assert player.position() < position + 3.0  # it went on from where it was, not from the start
        qtbot.waitUntil(lambda: player.state == PlayerState.ENDED, timeout=20_000)
    finally:
        player.shutdown()
    before = [buffer for buffer in ears.power if buffer[0] < switched]
    after = [buffer for buffer in ears.power if buffer[0] > switched + 0.5]
    assert loudness_range(after)[0] < loudness_range(before)[0] - 6.0
