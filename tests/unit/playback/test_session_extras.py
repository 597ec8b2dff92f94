"""PlaybackSession with a podcast's settings and chapters, and the sleep timer: on the null backend (logic)
and on VLC with a FLAC file whose chapters VLC reports."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from earmark.core.models import Chapter, Item, PodcastPrefs, ProgressUpdate
from earmark.playback.null_player import NullPlayer
from earmark.playback.player import PlayerState
from earmark.playback.progress import PlaybackSession, PlayContext
from earmark.playback.sleep_timer import SleepMode, SleepTimer
from earmark.playback.vlc_player import VlcPlayer
from helpers.audio import write_chaptered_flac

CHAPTERS = [Chapter(0.0, "Intro"), Chapter(2.0, "Middle"), Chapter(4.0, "End")]


def item(uri: str, position: float = 0.0) -> Item:
    return Item(id=1, kind="episode", title="Clip", source_id=None, source="Cast", url=None, enclosure_url=uri,
                published=None, duration=None, position=position, played=False)


@pytest.fixture
def saved() -> list[ProgressUpdate]:
    return []


@pytest.fixture
def null_session(qtbot: QtBot, saved: list[ProgressUpdate]) -> Iterator[PlaybackSession]:
    player = NullPlayer(default_length=8.0)
    yield PlaybackSession(player, saved.append)
    player.stop()


def test_skip_intro_starts_later_and_skip_outro_ends_early(qtbot: QtBot, null_session: PlaybackSession,
                                                           saved: list[ProgressUpdate]) -> None:
    finished: list[int] = []
    null_session.item_finished.connect(finished.append)
    null_session.play_item(item("https://example.invalid/a.mp3"), PlayContext(prefs=PodcastPrefs(skip_intro=5.0,
                                                                                                 skip_outro=2.0)))
    assert null_session.player.position() >= 5.0
    qtbot.waitUntil(lambda: finished == [1], timeout=3000)
    assert saved[-1].ended and null_session.player.state == PlayerState.PAUSED
    assert null_session.player.position() < 7.5


def test_a_started_episode_is_not_moved_by_skip_intro(null_session: PlaybackSession) -> None:
    null_session.play_item(item("https://example.invalid/a.mp3", position=6.0),
                           PlayContext(prefs=PodcastPrefs(skip_intro=5.0)))
    assert null_session.player.position() == pytest.approx(6.0, abs=0.1)


def test_chapters_are_followed_and_page_keys_jump(qtbot: QtBot, null_session: PlaybackSession,
                                                  saved: list[ProgressUpdate]) -> None:
    changes: list[int] = []
    null_session.chapter_changed.connect(changes.append)
    null_session.play_item(item("https://example.invalid/a.mp3"), PlayContext(chapters=CHAPTERS, rate=1.5))
    assert null_session.player.rate() == 1.5
    assert null_session.chapter == 0
    null_session.seek_chapter(1)
    assert null_session.chapter == 1 and null_session.player.position() == pytest.approx(2.0, abs=0.1)
    assert saved[-1].position == pytest.approx(2.0, abs=0.1)  # a seek saves at once
    null_session.seek_chapter(1)
    null_session.seek_chapter(1)  # no chapter after the last
    assert null_session.chapter == 2
    null_session.seek_chapter(-1)
    assert null_session.chapter == 1
    null_session.player.seek(3.5)  # 1.5 s into "Middle": less than 3 s, so back goes to "Intro"
    null_session.seek_chapter(-1)
    assert null_session.chapter == 0
    assert changes[:3] == [0, 1, 2]


def test_media_chapters_are_used_when_the_feed_has_none(null_session: PlaybackSession) -> None:
    player = null_session.player
    assert isinstance(player, NullPlayer)
    player.chapters["https://example.invalid/c.mp3"] = CHAPTERS
    null_session.play_item(item("https://example.invalid/c.mp3"))
    assert null_session.chapters == CHAPTERS
    null_session.set_chapters(1, [Chapter(0.0, "From JSON")])  # fetched podcast:chapters win
    assert null_session.chapters == [Chapter(0.0, "From JSON")]
    null_session.set_chapters(99, CHAPTERS)  # for another item: ignored
    assert null_session.chapters == [Chapter(0.0, "From JSON")]


def test_volume_mute_and_fade(null_session: PlaybackSession) -> None:
    player = null_session.player
    seen: list[tuple[int, bool]] = []
    player.volume_changed.connect(lambda volume, muted: seen.append((volume, muted)))
    player.set_volume(140)
    player.set_muted(True)
    assert player.effective_volume() == 0
    player.set_muted(False)
    player.set_fade(0.5)
    assert player.effective_volume() == 50
    assert seen == [(100, False), (100, True), (100, False)]


def test_sleep_timer_fades_then_pauses_and_restores_the_volume(qtbot: QtBot, null_session: PlaybackSession) -> None:
    timer = SleepTimer(null_session, fade=0.6)
    null_session.play_item(item("https://example.invalid/a.mp3"))
    volumes: list[int] = []
    null_session.player.state_changed.connect(lambda _s: volumes.append(null_session.player.effective_volume()))
    with qtbot.waitSignal(timer.fired, timeout=5000):
        timer.start_minutes(1.0 / 60)  # one second
    assert null_session.player.state == PlayerState.PAUSED
    assert volumes and volumes[0] < 100  # faded when it paused
    assert null_session.player.effective_volume() == 100 and timer.mode == SleepMode.OFF


def test_sleep_at_the_end_of_a_chapter(qtbot: QtBot, null_session: PlaybackSession) -> None:
    timer = SleepTimer(null_session, fade=0.3)
    null_session.play_item(item("https://example.invalid/a.mp3"), PlayContext(chapters=CHAPTERS))
    null_session.player.seek(1.0)
    timer.at_end_of_chapter()
    with qtbot.waitSignal(timer.fired, timeout=5000):
        pass
    assert null_session.player.state == PlayerState.PAUSED
    assert null_session.player.position() == pytest.approx(2.0, abs=0.4)


def test_sleep_at_the_end_of_the_episode_holds_the_next_one(null_session: PlaybackSession) -> None:
    timer = SleepTimer(null_session)
    assert not timer.ends_here()  # not set: the queue may go on
    timer.at_end_of_episode()
    assert timer.active and timer.ends_here() and not timer.active


@pytest.mark.vlc
def test_vlc_reports_the_chapters_of_the_media_and_seeks_between_them(qtbot: QtBot, tmp_path: Path) -> None:
    clip = write_chaptered_flac(tmp_path / "chapters.flac", 6.0, [(0.0, "Intro"), (2.0, "Middle"), (4.0, "End")])
    player = VlcPlayer(("--aout=dummy",))
    saved: list[ProgressUpdate] = []
    session = PlaybackSession(player, saved.append)
    try:
        with qtbot.waitSignal(session.chapters_changed, timeout=8000,
                              check_params_cb=lambda chapters: len(chapters) == 3):
            session.play_item(item(clip.as_uri()), PlayContext(prefs=PodcastPrefs(voice_boost=True)))
        assert [c.title for c in session.chapters] == ["Intro", "Middle", "End"]
        assert session.chapters[1].start == pytest.approx(2.0)
        assert player.voice_boost()
        session.seek_chapter(1)
        qtbot.waitUntil(lambda: session.chapter == 1 and player.position() >= 2.0, timeout=5000)
        session.seek_chapter(1)
        qtbot.waitUntil(lambda: session.chapter == 2, timeout=5000)
        assert player.position() >= 4.0
        player.set_rate(2.0)
        qtbot.waitUntil(lambda: player.vlc_rate() == pytest.approx(2.0), timeout=3000)
    finally:
        player.shutdown()


def test_a_files_chapters_win_over_made_ones(qtbot: QtBot, tmp_path: Path) -> None:
    clip = write_chaptered_flac(tmp_path / "chapters.flac", 6.0, [(0.0, "Intro"), (3.0, "End")])
    made = [Chapter(0.0, "Compiler, graph", source="made"), Chapter(2.0, "DDP", source="made")]
    player = VlcPlayer(("--aout=dummy",))
    session = PlaybackSession(player, lambda _update: None)
    try:
        with qtbot.waitSignal(session.chapters_changed, timeout=8000,
                              check_params_cb=lambda chapters: [c.source for c in chapters] == ["file", "file"]):
            session.play_item(item(clip.as_uri()), PlayContext(chapters=made))
        assert [c.title for c in session.chapters] == ["Intro", "End"]
    finally:
        player.shutdown()
