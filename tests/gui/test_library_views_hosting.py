"""The window's lists against what really happens to a library: a podcast subscribed from a terminal appears
with its counts without a click, and the Downloaded view lists what is on disk, with failed downloads in
their own row."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.downloads import get_download
from earmark.core.feeds.subscribe import subscribe
from earmark.core.settings import set_setting
from helpers.audio import write_tone
from helpers.crash import earmark
from helpers.fault_server import Enclosure, PodcastHost
from helpers.gui import Launch
from helpers.journeys import click_row, click_sidebar, item_list, listed_titles, sidebar_texts, wait_rows


@pytest.fixture
def host(tmp_path: Path) -> Iterator[PodcastHost]:
    with PodcastHost(tmp_path / "host") as running:
        yield running


def test_a_podcast_subscribed_from_a_terminal_appears_with_its_counts(
        qtbot: QtBot, launch: Launch, host: PodcastHost, library_path: Path, tmp_path: Path) -> None:
    audio = write_tone(tmp_path / "ep.wav", 1.0).read_bytes()
    first = host.feed("/first.xml", [Enclosure("First one", host.episode("/1.wav", audio))], title="First Cast")
    second = host.feed("/second.xml", [Enclosure(f"Second {n}", host.episode(f"/2-{n}.wav", audio))
                                       for n in range(3)], title="Second Cast")
    db = open_library(library_path)
    subscribe(db, first)
    set_setting(db, "feeds.refresh_on_start", False)
    window = launch().window
    wait_rows(qtbot, window, 1)
    assert "Podcasts (1)" in sidebar_texts(window)
    done = earmark(library_path, "subscribe", second)  # another process, as from a terminal
    assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: "Second Cast (3)" in sidebar_texts(window), timeout=10_000)  # nothing clicked
    assert "Podcasts (4)" in sidebar_texts(window) and "All (4)" in sidebar_texts(window)
    wait_rows(qtbot, window, 4)


def test_downloaded_lists_what_is_on_disk_and_failures_apart(
        qtbot: QtBot, launch: Launch, host: PodcastHost, library_path: Path, tmp_path: Path) -> None:
    """The issue: "Downloaded (12)" counted 5 failed downloads."""
    audio = write_tone(tmp_path / "ep.wav", 1.0).read_bytes()
    feed = host.feed("/feed.xml", [Enclosure("Good", host.episode("/good.wav", audio)),
                                   Enclosure("Page", host.error_page("/page.mp3"), "audio/mpeg"),
                                   Enclosure("Gone", host.status("/gone.mp3", 404), "audio/mpeg")])
    db = open_library(library_path)
    subscribe(db, feed)
    set_setting(db, "downloads.folder", str(tmp_path / "downloads"))
    set_setting(db, "feeds.refresh_on_start", False)
    window = launch().window
    wait_rows(qtbot, window, 3)
    click_row(qtbot, item_list(window), 0)
    qtbot.keyClick(item_list(window), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(item_list(window), Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)

    def finished() -> bool:
        records = [get_download(open_library(library_path), row[0]) for row in db.execute("SELECT id FROM items")]
        return all(r is not None and r.status in ("done", "failed") for r in records)

    qtbot.waitUntil(finished, timeout=15_000)
    qtbot.waitUntil(lambda: {"Downloaded (1)", "Failed downloads (2)"} <= set(sidebar_texts(window)), timeout=5000)
    click_sidebar(qtbot, window, "Downloaded")
    qtbot.waitUntil(lambda: listed_titles(window) == ["Good"], timeout=5000)
    click_sidebar(qtbot, window, "Failed downloads")
    qtbot.waitUntil(lambda: sorted(listed_titles(window)) == ["Gone", "Page"], timeout=5000)
