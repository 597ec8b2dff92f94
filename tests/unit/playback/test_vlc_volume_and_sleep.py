"""Volume, mute and the sleep timer's fade proven on what VLC itself plays (its audio heard through libVLC's
memory output), not only on the null player: a change that never set VLC's volume passed every test before
(issue 19)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from earmark.core.models import Chapter, Item
from earmark.playback.player import PlayerState
from earmark.playback.progress import PlaybackSession, PlayContext
from earmark.playback.sleep_timer import SleepTimer
from earmark.playback.vlc_player import VlcPlayer
from helpers.audio import write_chaptered_flac, write_tone
from helpers.vlc_ears import Ears

pytestmark = pytest.mark.vlc


@pytest.fixture
def player(qtbot: QtBot) -> Iterator[VlcPlayer]:
    vlc_player = VlcPlayer(("--aout=dummy",))
    yield vlc_player
    vlc_player.shutdown()


def test_volume_mute_and_fade_reach_vlc(qtbot: QtBot, player: VlcPlayer, tmp_path: Path) -> None:
    ears = Ears(player)
    player.set_volume(40)  # before VLC has an audio output: applied when it starts
    player.load(write_tone(tmp_path / "clip.wav", 20.0).as_uri())
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
    qtbot.waitUntil(lambda: 0 < ears.level(0.15) < 2000, timeout=3000)  # the tone's peak is 8000 at full volume
    quiet = ears.level(0.15)
    player.set_volume(100)
    qtbot.waitUntil(lambda: ears.level(0.15) > 4 * quiet, timeout=3000)
    loud = ears.level(0.15)
    assert loud > 4000
    player.set_muted(True)
    qtbot.waitUntil(lambda: ears.level() == 0, timeout=3000)
    player.set_muted(False)
    qtbot.waitUntil(lambda: ears.level() == loud, timeout=3000)
    player.set_fade(0.25)
    qtbot.waitUntil(lambda: 0 < ears.level() < loud / 4, timeout=3000)


def test_the_sleep_timer_fades_vlc_out_and_pauses_where_the_chapter_ends(qtbot: QtBot, player: VlcPlayer,
                                                                          tmp_path: Path) -> None:
    ears = Ears(player)
    chapters = [Chapter(0.0, "One"), Chapter(3.0, "Two")]
    clip = write_chaptered_flac(tmp_path / "clip.flac", 8.0, [(c.start, c.title) for c in chapters])
    session = PlaybackSession(player, lambda _update: None)
    timer = SleepTimer(session, fade=1.5)
    episode = Item(id=1, kind="episode", title="Clip", source_id=None, source="Cast", url=None,
                   enclosure_url=clip.as_uri(), published=None, duration=None, position=0.0, played=False)
    session.play_item(episode, PlayContext(chapters=chapters))
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
    heard: list[tuple[float, int, int]] = []  # position; the loudest sample of the last 0.5 s and of 0.15 s
    player.position_changed.connect(lambda at: heard.append((at, ears.level(0.5), ears.level(0.15))))
    timer.at_end_of_chapter()
    qtbot.waitUntil(lambda: player.state == PlayerState.PAUSED, timeout=8000)
    assert player.position() == pytest.approx(3.0, abs=0.4)  # where chapter two starts
    # Before the fade (it starts 1.5 s before the chapter's end) over half a second: VLC hands its buffers over in
    # bursts, so under load a short window at the start can hold none.
    full = max(level for at, level, _now in heard if at < 1.4)
    fading = [now for at, _level, now in heard if 2.2 < at < 3.0]
    assert full > 1000 and fading and max(fading) < full * 0.6  # VLC itself got quieter before it paused
    player.play()
    qtbot.waitUntil(lambda: ears.level(0.15) == full, timeout=3000)  # and sounds as loud as before once resumed
