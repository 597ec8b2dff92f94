"""The player contract, run against both backends: VLC with real audio files and the null backend."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from earmark.playback.null_player import NullPlayer
from earmark.playback.player import Player, PlayerState
from earmark.playback.vlc_player import VlcPlayer
from helpers.audio import write_corrupt, write_tone
from helpers.feed_server import FeedServer, Route

CLIP_SECONDS = 4.0


@pytest.fixture(params=["vlc", "null"])
def player(request: pytest.FixtureRequest, qtbot: QtBot) -> Iterator[Player]:
    if request.param == "vlc":
        vlc_player = VlcPlayer(("--aout=dummy",))
        yield vlc_player
        vlc_player.shutdown()
    else:
        null_player = NullPlayer(default_length=CLIP_SECONDS)
        yield null_player
        null_player.stop()


@pytest.fixture
def clip(tmp_path: Path) -> str:
    return write_tone(tmp_path / "clip.wav", CLIP_SECONDS).as_uri()


def wait_state(qtbot: QtBot, player: Player, state: PlayerState, timeout: int = 8000) -> None:
    qtbot.waitUntil(lambda: player.state == state, timeout=timeout)


def test_plays_and_reports_position_and_duration(qtbot: QtBot, player: Player, clip: str) -> None:
    with qtbot.waitSignal(player.duration_changed, timeout=8000, check_params_cb=lambda d: d > 0) as duration:
        player.load(clip)  # 0 first: not known yet
    assert duration.args is not None and duration.args[0] == pytest.approx(CLIP_SECONDS, abs=0.1)
    wait_state(qtbot, player, PlayerState.PLAYING)
    qtbot.waitUntil(lambda: player.position() >= 0.5, timeout=5000)
    assert player.duration() == pytest.approx(CLIP_SECONDS, abs=0.1)


def test_starts_at_the_given_position(qtbot: QtBot, player: Player, clip: str) -> None:
    player.load(clip, start=2.0)
    wait_state(qtbot, player, PlayerState.PLAYING)
    qtbot.waitUntil(lambda: player.position() >= 2.0, timeout=5000)
    assert player.position() < 3.5


def test_cued_media_waits_paused_at_its_place_and_plays_from_there(qtbot: QtBot, player: Player, clip: str) -> None:
    player.cue(clip, start=2.0, length=CLIP_SECONDS)
    assert (player.state, player.position(), player.duration()) == (PlayerState.PAUSED, 2.0, CLIP_SECONDS)
    player.seek(1.5)  # moved before it plays
    assert player.position() == 1.5
    player.toggle()
    wait_state(qtbot, player, PlayerState.PLAYING)
    assert not player.cued
    qtbot.waitUntil(lambda: player.position() >= 1.7, timeout=5000)
    assert player.position() < 3.0


def test_pause_keeps_the_position_and_play_resumes(qtbot: QtBot, player: Player, clip: str) -> None:
    player.load(clip)
    wait_state(qtbot, player, PlayerState.PLAYING)
    qtbot.waitUntil(lambda: player.position() >= 0.5, timeout=5000)
    player.toggle()
    wait_state(qtbot, player, PlayerState.PAUSED)
    paused_at = player.position()
    qtbot.wait(300)
    assert player.position() == pytest.approx(paused_at, abs=0.05)
    player.toggle()
    wait_state(qtbot, player, PlayerState.PLAYING)
    qtbot.waitUntil(lambda: player.position() > paused_at + 0.2, timeout=5000)


def test_seek_and_skip(qtbot: QtBot, player: Player, clip: str) -> None:
    player.load(clip)
    wait_state(qtbot, player, PlayerState.PLAYING)
    player.seek(2.5)
    qtbot.waitUntil(lambda: 2.4 <= player.position() <= 3.5, timeout=5000)
    player.skip(-10)
    qtbot.waitUntil(lambda: player.position() < 1.0, timeout=5000)


def test_reaching_the_end_emits_ended(qtbot: QtBot, player: Player, clip: str) -> None:
    player.load(clip, start=CLIP_SECONDS - 1.0)
    with qtbot.waitSignal(player.ended, timeout=8000):
        pass
    assert player.state == PlayerState.ENDED


def test_rate_is_clamped_to_the_supported_range(player: Player) -> None:
    player.set_rate(9.0)
    assert player.rate() == 4.0
    player.set_rate(0.1)
    assert player.rate() == 0.5
    player.set_rate(1.33)
    assert player.rate() == pytest.approx(1.35)


def test_missing_file_fails_with_a_sentence(qtbot: QtBot, player: Player, tmp_path: Path) -> None:
    with qtbot.waitSignal(player.failed, timeout=5000) as failed:
        player.load((tmp_path / "gone.mp3").as_uri())
    assert failed.args is not None and "gone.mp3" in failed.args[0] and "missing" in failed.args[0]
    assert player.state == PlayerState.ERROR


def test_vlc_reports_corrupt_audio(qtbot: QtBot, tmp_path: Path) -> None:
    player = VlcPlayer(("--aout=dummy",))
    try:
        with qtbot.waitSignal(player.failed, timeout=8000) as failed:
            player.load(write_corrupt(tmp_path / "broken.mp3").as_uri())
        assert failed.args is not None and "broken.mp3" in failed.args[0]
        assert player.state == PlayerState.ERROR
    finally:
        player.shutdown()


def test_vlc_drops_a_late_event_of_the_previous_media(qtbot: QtBot, tmp_path: Path) -> None:
    player = VlcPlayer(("--aout=dummy",))
    try:
        player.load(write_tone(tmp_path / "first.wav", 3.0).as_uri())
        wait_state(qtbot, player, PlayerState.PLAYING)
        # VLC delivers events on its own threads; one still queued when the next media loads must not count.
        late = threading.Thread(target=player._relay, args=(None, "ended"))
        late.start()
        late.join()
        failures: list[str] = []
        player.failed.connect(failures.append)
        player.load(write_tone(tmp_path / "second.wav", 3.0).as_uri())
        wait_state(qtbot, player, PlayerState.PLAYING)
        qtbot.waitUntil(lambda: player.position() >= 0.3, timeout=5000)
        assert failures == []
        assert player.state == PlayerState.PLAYING
    finally:
        player.shutdown()


def test_vlc_reports_a_stream_that_sends_nothing(qtbot: QtBot, tmp_path: Path) -> None:
    player = VlcPlayer(("--aout=dummy",))
    player.stall_seconds = 1.5
    try:
        with FeedServer(tmp_path) as server:
            url = server.serve_slow("/stalled.mp3", delay=8.0)
            with qtbot.waitSignal(player.failed, timeout=8000) as failed:
                player.load(url)
        assert failed.args is not None
        assert failed.args[0].startswith("“stalled.mp3” did not start: the server is too slow")
        assert player.state == PlayerState.ERROR
    finally:
        player.shutdown()


def test_vlc_reports_a_stream_that_breaks_off_rather_than_ending_it(qtbot: QtBot, tmp_path: Path) -> None:
    audio = write_tone(tmp_path / "long.wav", 8.0).read_bytes()
    player = VlcPlayer(("--aout=dummy",))
    ended: list[bool] = []
    player.ended.connect(lambda: ended.append(True))
    try:
        with FeedServer(tmp_path) as server:
            url = server.route("/gone.wav", Route(body=audio, content_type="audio/wav", truncate=len(audio) // 4))
            with qtbot.waitSignal(player.failed, timeout=15_000) as failed:
                player.load(url)
        assert failed.args is not None
        assert failed.args[0] == "The stream of “gone.wav” stopped at 0:00 of 0:08 (the server closed the connection)."
        assert not ended and player.state == PlayerState.ERROR  # not "played to the end"
    finally:
        player.shutdown()


class _CallsByThread:
    """A python-vlc MediaPlayer that notes, for each call into libVLC, whether the GUI thread made it."""

    def __init__(self, player: object, calls: list[tuple[str, bool]]) -> None:
        self._player, self._calls = player, calls

    def __getattr__(self, name: str) -> object:
        found = getattr(self._player, name)
        if not callable(found):
            return found

        def call(*args: object, **kwargs: object) -> object:
            self._calls.append((name, threading.current_thread() is threading.main_thread()))
            return found(*args, **kwargs)

        return call


def test_vlc_threads_never_call_libvlc(qtbot: QtBot, tmp_path: Path) -> None:
    """libVLC must not be called from its own event threads: the GUI thread's stop() holds the player's lock while it
    waits for them. Asking the player for its time at an episode's end did, and the window hung when that end met a
    stop (the next episode started, the window closed)."""
    player = VlcPlayer(("--aout=dummy",))
    calls: list[tuple[str, bool]] = []
    try:
        player.start_engine()
        player._player = _CallsByThread(player._player, calls)
        player.load(write_tone(tmp_path / "clip.wav", 2.0).as_uri(), start=1.0)
        with qtbot.waitSignal(player.ended, timeout=8000):
            pass
        player.load(write_tone(tmp_path / "next.wav", 2.0).as_uri())  # stop() right after the end
        wait_state(qtbot, player, PlayerState.PLAYING)
        assert {name for name, gui in calls if gui} >= {"play", "stop"}
        assert [name for name, gui in calls if not gui] == []
    finally:
        player.shutdown()
