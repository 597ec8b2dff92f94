"""A download says in the status bar which episode it fetches, by title, and how much of the size the server
named has come (never an internal number, never a size that was not known)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.core.settings import set_setting
from helpers.audio import write_tone
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.journeys import click_row, item_list, press, wait_rows


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as running:
        yield running


def test_download_progress_names_the_episode_and_the_size_the_server_gave(qtbot: QtBot, launch: Launch,
                                                                         server: FeedServer, tmp_path: Path,
                                                                         library_path: Path) -> None:
    audio = write_tone(tmp_path / "talk.wav", 20.0).read_bytes()  # 320 KB, sent slowly
    server.serve_media("/talk.wav", audio, pace=0.05)
    feed = server.serve_body("/feed.xml", rss("Served Cast", [{"title": "A talk on compilers", "guid": "t1",
                                                               "enclosure": server.url("/talk.wav")}]))
    db = open_library(library_path)
    subscribe(db, feed)
    set_setting(db, "downloads.folder", str(tmp_path / "downloads"))
    db.close()
    window = launch().window
    wait_rows(qtbot, window, 1)
    said: list[str] = []
    window.statusBar().messageChanged.connect(said.append)
    click_row(qtbot, item_list(window), 0)
    press(qtbot, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: any(text.endswith("100% of 320 KB") for text in said), timeout=20_000)
    progress = [text for text in said if text.startswith("Downloading")]
    assert progress and all(re.fullmatch(r"Downloading “A talk on compilers”: \d+% of 320 KB", text)
                            for text in progress), progress
    assert len(set(progress)) > 1  # it moved on as the bytes came
