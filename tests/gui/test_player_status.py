"""The player bar against podcast hosting's failures, in the real window with real VLC: a cut stream is said once
in the bar (no dialog, nothing in the status bar) with the place where it stopped and a Retry button that plays
on from there; a failure right after an episode that ended shows the failing episode's own place."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMainWindow
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items, save_progress
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import ProgressUpdate
from earmark.core.settings import set_setting
from earmark.gui.application import Parts
from earmark.playback.player import PlayerState
from helpers.audio import write_tone
from helpers.fault_server import Enclosure, PodcastHost
from helpers.gui import Launch
from helpers.journeys import click_row, item_list, listed_titles

pytestmark = pytest.mark.vlc


@pytest.fixture
def host(tmp_path: Path) -> Iterator[PodcastHost]:
    with PodcastHost(tmp_path / "host") as running:
        yield running


def subscribe_to(library_path: Path, host: PodcastHost, episodes: list[tuple[str, str]]) -> None:
    """A podcast of these (title, URL) episodes, played at 4× (20 s of audio in 5 s of test)."""
    db = open_library(library_path)
    subscribe(db, host.feed("/feed.xml", [Enclosure(title, url) for title, url in episodes]))
    set_setting(db, "playback.speed", 4.0)
    set_setting(db, "feeds.refresh_on_start", False)


def play(qtbot: QtBot, window: QMainWindow, title: str) -> None:
    """Click the episode ``title`` in the list and press Enter, as a person does."""
    qtbot.waitUntil(lambda: title in listed_titles(window), timeout=5000)
    click_row(qtbot, item_list(window), listed_titles(window).index(title))
    qtbot.keyClick(item_list(window), Qt.Key.Key_Return)


def dialogs() -> list[str]:
    return [w.objectName() for w in QApplication.topLevelWidgets() if w.isVisible() and w.objectName() == "errorDialog"]


def test_a_cut_stream_is_said_once_in_the_bar_and_retried_from_where_it_stopped(
        qtbot: QtBot, launch: Launch, host: PodcastHost, library_path: Path, tmp_path: Path) -> None:
    audio = write_tone(tmp_path / "ep.wav", 20.0).read_bytes()
    url = host.episode("/cut.wav", audio, ranges=False, cut_at=int(len(audio) * 0.4), cut_times=1)
    subscribe_to(library_path, host, [("Cut short", url)])
    parts: Parts = launch()
    window, bar = parts.window, parts.window.player_bar
    said: list[str] = []
    parts.session.player.problem_reported.connect(lambda problem: said.append(problem.sentence))
    play(qtbot, window, "Cut short")
    qtbot.waitUntil(bar.message.isVisible, timeout=15_000)
    match = re.fullmatch(r"The stream of “Cut short” stopped at (0:0\d) of 0:20 \(the server closed the connection\)\.",
                         bar.message.text())
    assert match is not None, bar.message.text()
    qtbot.wait(300)
    assert len(said) == 1 and dialogs() == [] and match.group(0) not in window.statusBar().currentMessage()
    assert bar.status.state.text() == "Stopped" and bar.elapsed.text() == match.group(1)  # its own place
    assert bar.status.retry.isVisible() and bar.status.retry.text() == f"Retry from {match.group(1)}"
    item = list_items(open_library(library_path), ItemFilter())[0]
    assert not item.played and item.position > 4.0

    qtbot.mouseClick(bar.status.retry, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.PLAYING, timeout=8000)
    assert not bar.message.isVisible() and bar.status.state.text() == ""
    assert parts.session.player.position() >= item.position - 0.5  # on from where it stopped
    qtbot.waitUntil(lambda: get_item(open_library(library_path), item.id).played, timeout=15_000)


def test_a_failure_after_an_episode_that_ended_shows_the_failing_episodes_own_place(
        qtbot: QtBot, launch: Launch, host: PodcastHost, library_path: Path, tmp_path: Path) -> None:
    """The issue: a 404 right after an episode that ended showed ``0:59 / -0:00``, the slider at the end."""
    short = host.episode("/short.wav", write_tone(tmp_path / "short.wav", 4.0).read_bytes())
    subscribe_to(library_path, host, [("Short", short), ("Gone", host.status("/gone.wav", 404))])
    db = open_library(library_path)
    gone = next(i for i in list_items(db, ItemFilter()) if i.title == "Gone")
    save_progress(db, ProgressUpdate(gone.id, 42.0))
    parts: Parts = launch()
    window, bar = parts.window, parts.window.player_bar
    play(qtbot, window, "Short")
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.ENDED, timeout=10_000)
    play(qtbot, window, "Gone")
    qtbot.waitUntil(bar.message.isVisible, timeout=10_000)
    assert bar.message.text() == ("“Gone” was not found on the server (404 Not Found): the podcast may have moved or "
                                  "removed it.")
    assert bar.elapsed.text() == "0:42" and bar.remaining.text() == ""
    assert bar.slider.value() == 0 and not bar.slider.isEnabled()
    assert bar.status.state.text() == "Stopped" and not bar.status.retry.isVisible()  # asking again cannot help
    assert dialogs() == []
    assert get_item(open_library(library_path), gone.id).position == 42.0
