"""Downloads from a real HTTP server in the real window: progress, pause and resume with a Range request,
playing the local file, disk usage, auto-download after a refresh, and a stream that fails."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.downloads import get_download
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items, save_progress
from earmark.core.db.podcast_prefs import set_prefs
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import PodcastPrefs, ProgressUpdate
from earmark.core.settings import set_setting
from earmark.playback.player import PlayerState
from helpers.audio import write_tone
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch

pytestmark = pytest.mark.vlc
Ctrl, Shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as running:
        yield running


def serve_cast(server: FeedServer, tmp_path: Path, episodes: list[tuple[str, str]]) -> str:
    """A feed of (title, path) episodes on ``server``."""
    entries = [{"title": title, "guid": path, "enclosure": server.url(path), "pubDate":
                f"Mon, {20 - n:02d} May 2024 10:00:00 +0000"} for n, (title, path) in enumerate(episodes)]
    return server.serve_body("/feed.xml", rss("Served Cast", entries))


def test_download_pause_resume_and_play_the_local_file(qtbot: QtBot, launch: Launch, server: FeedServer,
                                                       tmp_path: Path, library_path: Path) -> None:
    audio = write_tone(tmp_path / "long.wav", 40.0).read_bytes()  # 640 KB, sent in 16 KiB steps
    server.serve_media("/long.wav", audio, pace=0.03)
    db = open_library(library_path)
    subscribe(db, serve_cast(server, tmp_path, [("Long one", "/long.wav")]))
    set_setting(db, "downloads.folder", str(tmp_path / "downloads"))
    parts = launch()
    window = parts.window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1)
    window.item_list.setCurrentIndex(window.items_model.index(0, 0))
    item_id = window.selection.selected_item_ids()[0]
    progress: list[int] = []
    window.episodes.downloads.progressed.connect(lambda _i, received, _t: progress.append(received))
    qtbot.keyClick(window.item_list, Qt.Key.Key_D, Ctrl)
    qtbot.waitUntil(lambda: bool(progress) and progress[-1] > 100_000, timeout=10_000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_D, Ctrl | Shift)  # pause
    qtbot.waitUntil(lambda: (d := get_download(open_library(library_path), item_id)) is not None
                    and d.status == "paused", timeout=5000)
    paused = get_download(open_library(library_path), item_id)
    assert paused is not None and 0 < paused.received < len(audio)
    qtbot.waitUntil(lambda: "Download paused" in window.detail.toPlainText())  # the pane follows the library
    qtbot.keyClick(window.item_list, Qt.Key.Key_D, Ctrl | Shift)  # resume
    qtbot.waitUntil(lambda: (d := get_download(open_library(library_path), item_id)) is not None
                    and d.status == "done", timeout=20_000)
    done = get_download(open_library(library_path), item_id)
    assert done is not None and Path(done.path).read_bytes() == audio
    assert Path(done.path).is_relative_to(tmp_path / "downloads")
    assert server.received_for("/long.wav")[-1].header("Range") == f"bytes={paused.received}-"
    qtbot.waitUntil(lambda: "Downloaded" in window.detail.toPlainText(), timeout=3000)
    qtbot.waitUntil(lambda: window.episodes.usage.text() == "Downloads: 0.6 MB", timeout=3000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.PLAYING, timeout=8000)
    assert parts.session.player.uri == Path(done.path).as_uri()  # the file, not the stream
    qtbot.keyClick(window, Qt.Key.Key_D, Ctrl | Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.items_model.item_filter.downloaded, timeout=3000)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1, timeout=3000)


def test_new_episodes_of_an_auto_download_podcast_are_downloaded_after_a_refresh(
        qtbot: QtBot, launch: Launch, server: FeedServer, tmp_path: Path, library_path: Path) -> None:
    for name in ("old.wav", "new.wav"):
        server.serve_media(f"/{name}", write_tone(tmp_path / name, 1.0).read_bytes())
    db = open_library(library_path)
    result = subscribe(db, serve_cast(server, tmp_path, [("Old one", "/old.wav")]))
    set_prefs(db, result.source_id, PodcastPrefs(auto_download=True))
    set_setting(db, "downloads.folder", str(tmp_path / "downloads"))
    set_setting(db, "feeds.refresh_on_start", False)
    serve_cast(server, tmp_path, [("New one", "/new.wav"), ("Old one", "/old.wav")])
    window = launch().window
    qtbot.keyClick(window, Qt.Key.Key_F5)
    new = None
    def downloaded() -> bool:
        nonlocal new
        items = {i.title: i for i in list_items(open_library(library_path), ItemFilter())}
        new = items.get("New one")
        record = get_download(open_library(library_path), new.id) if new else None
        return record is not None and record.status == "done"
    qtbot.waitUntil(downloaded, timeout=30_000)
    qtbot.waitUntil(lambda: not window.feeds.refresher.is_running(), timeout=10_000)
    old = next(i for i in list_items(open_library(library_path), ItemFilter()) if i.title == "Old one")
    assert get_download(open_library(library_path), old.id) is None  # only what the refresh brought


def test_a_stream_that_fails_is_explained_and_keeps_the_position(qtbot: QtBot, launch: Launch, server: FeedServer,
                                                                tmp_path: Path, library_path: Path) -> None:
    db = open_library(library_path)
    subscribe(db, serve_cast(server, tmp_path, [("Gone one", "/gone.mp3")]))
    server.serve_status("/gone.mp3", 404)
    item = list_items(db, ItemFilter())[0]
    save_progress(db, ProgressUpdate(item.id, 42.0))
    parts = launch()
    window = parts.window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1)
    window.item_list.setCurrentIndex(window.items_model.index(0, 0))
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.player_bar.message.isVisible(), timeout=15_000)
    assert window.player_bar.message.text() == ("“Gone one” was not found on the server (404 Not Found): the "
                                                "podcast may have moved or removed it.")
    assert not [box for box in QApplication.topLevelWidgets() if box.objectName() == "errorDialog"]  # no dialog
    window.close()
    assert get_item(open_library(library_path), item.id).position == pytest.approx(42.0)
