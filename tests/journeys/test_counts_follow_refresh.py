"""The sidebar says at once when a refresh finds a feed failing (issue 35 §1): F5, one feed answers with an error
and nothing new comes, and "Subscriptions (1 failing)" shows as the refresh ends. The refresh runs in a child
process, whose writes the library watch leaves to the window: only the window's own recount can show it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.core.settings import set_setting
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.journeys import press, sidebar_texts, wait_rows

REFRESH_MS = 30_000  # a refresh runs in a child process: its start-up is part of the wait
RECOUNT_MS = 1500  # less than the library watch's poll (2 s)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as feed_server:
        yield feed_server


def test_a_feed_failing_on_f5_shows_in_the_sidebar_at_once(qtbot: QtBot, launch: Launch, library_path: Path,
                                                           server: FeedServer) -> None:
    feed = server.serve_body("/show.xml", rss("Steady Show", [{"title": "One", "guid": "one",
                                                                "enclosure": "https://example.com/1.mp3"}]))
    db = open_library(library_path)
    subscribe(db, feed)
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    window = launch().window
    wait_rows(qtbot, window, 1)
    assert "Subscriptions" in sidebar_texts(window)
    server.serve_status("/show.xml", 500)

    with qtbot.waitSignal(window.feeds.refresher.finished, timeout=REFRESH_MS):
        press(qtbot, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: "Subscriptions (1 failing)" in sidebar_texts(window), timeout=RECOUNT_MS)
