"""PlaybackSession: positions kept while playing, on pause, on switching, on stop, and at the end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items, save_progress
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Item
from earmark.playback.null_player import NullPlayer
from earmark.playback.player import PlayerState
from earmark.playback.progress import PlaybackSession
from helpers.podcast import Episode, write_podcast


@pytest.fixture
def db(tmp_path: Path, library_path: Path) -> Database:
    database = open_library(library_path)
    subscribe(database, str(write_podcast(tmp_path / "cast", [Episode("One", 3.0), Episode("Two", 20.0)])))
    return database


@pytest.fixture
def session(db: Database, qtbot: QtBot) -> Iterator[PlaybackSession]:
    player = NullPlayer(default_length=20.0)
    yield PlaybackSession(player, lambda update: save_progress(db, update), save_interval=0.3)
    player.stop()


def episode(db: Database, title: str) -> Item:
    return next(i for i in list_items(db, ItemFilter()) if i.title == title)


def test_position_is_saved_periodically_while_playing(qtbot: QtBot, db: Database,
                                                      session: PlaybackSession) -> None:
    two = episode(db, "Two")
    session.play_item(two)
    qtbot.waitUntil(lambda: get_item(db, two.id).position >= 0.5, timeout=5000)
    assert session.player.state == PlayerState.PLAYING  # saved without pausing


def test_pause_saves_and_play_resumes_there(qtbot: QtBot, db: Database, session: PlaybackSession) -> None:
    two = episode(db, "Two")
    session.play_item(two)
    session.player.seek(7.0)
    session.player.pause()
    assert get_item(db, two.id).position == pytest.approx(7.0, abs=0.1)
    session.stop()
    session.save_now()  # a stopped player knows no position: nothing is overwritten
    assert session.item is None
    assert get_item(db, two.id).position == pytest.approx(7.0, abs=0.1)
    session.play_item(get_item(db, two.id))
    assert session.player.position() >= 7.0


def test_switching_saves_the_previous_item(db: Database, session: PlaybackSession) -> None:
    one, two = episode(db, "One"), episode(db, "Two")
    session.play_item(two)
    session.player.seek(12.0)
    session.play_item(one)
    assert get_item(db, two.id).position == pytest.approx(12.0, abs=0.2)
    assert get_item(db, two.id).last_played is not None


def test_end_marks_played_and_the_next_play_starts_over(qtbot: QtBot, db: Database) -> None:
    player = NullPlayer()
    session = PlaybackSession(player, lambda update: save_progress(db, update), save_interval=60.0)
    one = episode(db, "One")
    assert not one.played
    player.lengths[one.enclosure_url or ""] = 3.0
    session.play_item(one)
    session.player.seek(1.0)  # saved here, well before the end: only the end can mark it played
    assert not get_item(db, one.id).played
    with qtbot.waitSignal(session.player.ended, timeout=5000):
        pass
    stored = get_item(db, one.id)
    assert stored.played  # the flag this test is named for
    assert stored.position == 0.0 and stored.duration == pytest.approx(3.0)
    session.play_item(stored)
    assert session.player.position() < 0.5
    player.stop()


def test_an_item_without_audio_is_refused(qtbot: QtBot, session: PlaybackSession, db: Database) -> None:
    article = episode(db, "One")
    article.enclosure_url = None
    with qtbot.waitSignal(session.player.failed) as failed:
        session.play_item(article)
    assert failed.args is not None and "no audio" in failed.args[0]
