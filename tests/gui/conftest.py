"""GUI fixtures: the real main window on a real library, with real VLC (audio to a dummy output)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.gui.application import Parts, build
from helpers.gui import Launch
from helpers.podcast import Episode, write_podcast

EPISODES = [Episode("Newest episode", 6.0), Episode("Middle episode", 6.0), Episode("Short episode", 2.0)]



@pytest.fixture
def podcast_feed(tmp_path: Path) -> Path:
    return write_podcast(tmp_path / "cast", EPISODES)


@pytest.fixture
def launch(qtbot: QtBot, library_path: Path) -> Iterator[Launch]:
    """Start the app's window on ``library_path`` (call it after preparing the library)."""
    started: list[Parts] = []

    def start() -> Parts:
        parts = build(library_path, vlc_args=("--aout=dummy",))
        qtbot.addWidget(parts.window)
        parts.window.show()
        qtbot.waitExposed(parts.window)
        parts.window.activateWindow()  # window shortcuts need the active window (an earlier test's may linger)
        qtbot.waitUntil(parts.window.isActiveWindow, timeout=5000)
        qtbot.waitUntil(lambda: parts.window.sidebar_model.rowCount() > 0, timeout=5000)
        started.append(parts)
        return parts

    yield start
    for parts in started:
        if parts.window.isVisible():
            parts.window.close()


@pytest.fixture
def with_podcast(library_path: Path, podcast_feed: Path) -> None:
    """The library holds the test podcast (3 WAV episodes)."""
    subscribe(open_library(library_path), str(podcast_feed))
