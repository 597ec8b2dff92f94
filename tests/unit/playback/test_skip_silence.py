"""Skipping silence on real VLC (dummy audio output): a generated episode with known silences, analysed by the
real decoder, plays with its position jumping over the silences the level skips, and the time saved reaches the
saved progress (the statistics' saved by silence)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from earmark.core.audio.analyse import analyse_source
from earmark.core.audio.silence import skipped
from earmark.core.models import Item, PodcastPrefs, ProgressUpdate
from earmark.playback.null_player import NullPlayer
from earmark.playback.progress import PlaybackSession, PlayContext
from earmark.playback.vlc_player import VlcPlayer
from helpers.audio import write_spoken_and_silent

PARTS = [("tone", 2.0), ("quiet", 3.0), ("tone", 2.0), ("quiet", 3.0), ("tone", 1.5)]  # 11.5 s, 6 s silent


def episode(uri: str) -> Item:
    return Item(id=1, kind="episode", title="Quiet", source_id=None, source="Cast", url=None, enclosure_url=uri,
                published=None, duration=None, position=0.0, played=False)


def test_real_vlc_jumps_over_the_silences(qtbot: QtBot, tmp_path: Path) -> None:
    path = write_spoken_and_silent(tmp_path / "quiet.wav", PARTS)
    spans, _duration = analyse_source(str(path))
    skips = skipped(spans, "strong")
    assert [(round(a, 1), round(b, 1)) for a, b in skips] == [(2.1, 4.9), (7.1, 9.9)]
    saved: list[ProgressUpdate] = []
    player = VlcPlayer(("--aout=dummy",))
    session = PlaybackSession(player, saved.append)
    positions: list[float] = []
    player.position_changed.connect(positions.append)
    finished: list[int] = []
    session.item_finished.connect(finished.append)
    try:
        started = time.monotonic()
        session.play_item(episode(path.as_uri()), PlayContext(prefs=PodcastPrefs(skip_silence="strong"),
                                                              silences=spans))
        qtbot.waitUntil(lambda: finished == [1], timeout=20_000)
        took = time.monotonic() - started
    finally:
        player.shutdown()
    # (VLC's clock may report its old time once just after a jump; nothing further into a silence is played)
    inside = [p for p in positions if any(a + 0.45 < p < b - 0.05 for a, b in skips)]
    assert inside == [], f"positions inside skipped silence: {inside}"
    # the speech on both sides played (VLC reports its clock about 5 times a second: ~1.8 s before the first)
    assert any(1.5 <= p <= 2.4 for p in positions) and any(p >= 4.85 for p in positions)
    assert took < 11.5 - 3.0, f"played for {took:.1f} s: the silences were not skipped"
    landed = sorted({round(b, 2) for a, b in zip(positions, positions[1:], strict=False) if b - a > 1.0})
    assert landed == [round(end, 2) for _start, end in skips]
    # counted from where each jump left: at most the 5.6 s the level skips, a little less when a jump came late
    counted = sum(update.silence_saved for update in saved)
    assert 4.5 < counted <= 5.61
    assert saved[-1].ended


def test_off_skips_nothing_and_a_level_chosen_while_playing_applies_at_once(qtbot: QtBot) -> None:
    player = NullPlayer(default_length=12.0)
    session = PlaybackSession(player, lambda _update: None)
    spans = [(2.0, 5.0), (7.0, 10.0)]
    session.play_item(episode("https://example.invalid/q.mp3"), PlayContext(silences=spans))
    assert session.skipper.skips == []
    session.set_skip_silence("mild")
    assert session.skipper.skips == [(2.25, 4.75), (7.25, 9.75)]
    session.set_silences(2, [(0.0, 3.0)])  # another item's analysis: ignored
    assert session.skipper.skips == [(2.25, 4.75), (7.25, 9.75)]
    player.stop()


def test_a_stale_position_after_a_jump_is_not_a_second_jump(qtbot: QtBot) -> None:
    """Found under load: VLC reported its old time once after the seek, which jumped (and counted) again."""
    player = NullPlayer(default_length=12.0)
    saved: list[ProgressUpdate] = []
    session = PlaybackSession(player, saved.append)
    context = PlayContext(prefs=PodcastPrefs(skip_silence="strong"), silences=[(2.0, 5.0)])
    session.play_item(episode("https://example.invalid/q.mp3"), context)
    qtbot.waitUntil(lambda: player.state == "playing", timeout=2000)
    player.position_changed.emit(2.5)
    assert player.position() == pytest.approx(4.9, abs=0.05)
    player.position_changed.emit(2.7)  # the stale report
    assert player.position() == pytest.approx(4.9, abs=0.05)
    assert sum(update.silence_saved for update in saved) == pytest.approx(2.4)  # counted once
    player.stop()
