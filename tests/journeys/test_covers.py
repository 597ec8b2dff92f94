"""Covers everywhere, in the real window and in both themes: the sample podcast's cover in the sidebar, beside
each of its episodes in the list, in the details, in the player bar while it plays, and on its tile in My
Podcasts (Ctrl+Shift+P), with its unplayed count; the arrow keys move between tiles, Enter opens the podcast's
episodes and Esc comes back. A podcast whose image is hostile (a decompression bomb) shows its placeholder, its
initials on its colour, and nothing breaks. A refresh that brings one podcast's news notifies with its cover.
Each cover is checked by the colours painted where it shows."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QLabel, QListView, QTextBrowser, QWidget
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.core.feeds.subscriptions import record_subscription
from earmark.core.settings import set_setting
from earmark.gui.preferences import DesktopSettings
from helpers.covers import (
    SAMPLE_COVER,
    Colour,
    average,
    cover_at,
    near,
    painted_icon,
    placeholder_at,
    quadrant,
    shown,
    somewhere_in,
)
from helpers.feed_server import FeedServer, Route, rss
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import highlighted_row, item_list, press, sidebar, sidebar_row, wait_rows, wait_showing

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
PODCAST = "PyTorch Developer Podcast"
IMAGES = Path(__file__).parents[1] / "fixtures" / "images"


def shows_cover(qtbot: QtBot, painted: Callable[[], Colour], size: int, region: QRect | None = None) -> None:
    """Wait until ``painted()`` is the colour of the sample cover ``size`` pixels wide in ``region`` (its top-left
    quarter by default), which is not its placeholder's colour there."""
    region = region or quadrant(size)
    expected = cover_at(SAMPLE_COVER, size, region)
    assert not near(expected, placeholder_at(PODCAST, size, False, region))
    qtbot.waitUntil(lambda: near(painted(), expected), timeout=10000)


@pytest.fixture(params=["light", "dark"])
def theme(request: pytest.FixtureRequest) -> str:
    DesktopSettings().set_value("appearance.theme", request.param)
    return str(request.param)


def test_the_podcast_s_cover_everywhere_and_its_tile_by_keys(qtbot: QtBot, launch: Launch, sample: None,
                                                            theme: str) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    tree = sidebar(window)
    shows_cover(qtbot, lambda: painted_icon(tree, sidebar_row(window, PODCAST), 18), 18)
    table = item_list(window)
    episode = next(row for row in range(SAMPLE_ITEMS) if window.items_model.item_at(row).source == PODCAST)
    shows_cover(qtbot, lambda: painted_icon(table, window.items_model.index(episode, 0), 22), 22)

    table.setFocus()
    table.setCurrentIndex(window.items_model.index(episode, 0))
    detail = window.findChild(QTextBrowser, "detailPane")
    assert detail is not None
    top_right = QRect(detail.viewport().width() - 130, 0, 130, 170)
    in_details = cover_at(SAMPLE_COVER, 88, QRect(6, 6, 12, 12))
    qtbot.waitUntil(lambda: somewhere_in(detail.viewport(), top_right, in_details), timeout=10000)
    press(qtbot, Qt.Key.Key_Return)  # plays it
    cover = window.findChild(QLabel, "playerCover")
    assert cover is not None
    qtbot.waitUntil(cover.isVisible, timeout=8000)
    shows_cover(qtbot, lambda: shown(cover, quadrant(48)), 48)
    assert cover.accessibleName() == f"Cover of {PODCAST}"

    press(qtbot, Qt.Key.Key_P, CTRL | SHIFT)
    wait_showing(qtbot, window, "podcasts")
    grid = window.findChild(QListView, "podcastGrid")
    assert grid is not None
    qtbot.waitUntil(lambda: grid.model().rowCount() == 1)
    tile = grid.model().index(0, 0)
    assert tile.data(Qt.ItemDataRole.AccessibleTextRole) == f"{PODCAST}: 51 episodes, 51 unplayed"
    shows_cover(qtbot, lambda: shown(grid.viewport(), quadrant(132).translated(grid.visualRect(tile).x() + 14,
                                                                                grid.visualRect(tile).y() + 8)), 132)
    grid.setFocus()
    press(qtbot, Qt.Key.Key_Right)  # one podcast: the keyboard stays on it
    assert grid.currentIndex().row() == 0
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "list")
    qtbot.waitUntil(lambda: highlighted_row(window) == f"{PODCAST} (51)")
    wait_rows(qtbot, window, 51)
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "podcasts")


def test_a_hostile_cover_gives_the_placeholder_and_breaks_nothing(qtbot: QtBot, launch: Launch, sample: None,
                                                                  library_path: Path, tmp_path: Path) -> None:
    with FeedServer(tmp_path) as server:
        bomb = server.route("bomb.png", Route(body=(IMAGES / "bomb.png").read_bytes(), content_type="image/png"))
        db = open_library(library_path)
        record_subscription(db, server.url("feed.xml"), "Bombed Show")
        db.execute("UPDATE sources SET image_url = ? WHERE title = 'Bombed Show'", [bomb])
        db.close()
        window = launch().window
        wait_rows(qtbot, window, SAMPLE_ITEMS)
        tree = sidebar(window)
        qtbot.waitUntil(lambda: server.received_for("bomb.png") != [], timeout=10000)
        placeholder = placeholder_at("Bombed Show", 18, False, quadrant(18))
        qtbot.waitUntil(lambda: near(painted_icon(tree, sidebar_row(window, "Bombed Show"), 18), placeholder),
                        timeout=10000)
        db = open_library(library_path)
        qtbot.waitUntil(lambda: db.execute("SELECT problem FROM covers WHERE url = ?", [bomb]).fetchone() is not None)
        [problem] = db.execute("SELECT problem FROM covers WHERE url = ?", [bomb]).fetchone()
        db.close()
        assert "too many pixels" in problem
        shows_cover(qtbot, lambda: painted_icon(tree, sidebar_row(window, PODCAST), 18), 18)  # the others still show
        assert isinstance(window.focusWidget(), QWidget)


def news_feed(count: int, cover: str) -> bytes:
    items = [{"title": f"News {n}", "guid": f"n-{n}", "enclosure": f"https://example.com/n{n}.mp3"}
             for n in range(count)]
    return rss("News", items).replace(b"<description>Test feed</description>",
                                      f'<itunes:image href="{cover}"/>'.encode(), 1)


def test_the_notification_of_one_podcast_s_news_shows_its_cover(qtbot: QtBot, launch: Launch, library_path: Path,
                                                                 tmp_path: Path) -> None:
    with FeedServer(tmp_path) as server:
        cover = server.route("news.png", Route(body=SAMPLE_COVER.read_bytes(), content_type="image/png"))
        url = server.serve_body("/news.xml", news_feed(1, cover))
        db = open_library(library_path)
        subscribe(db, url)
        set_setting(db, "feeds.refresh_on_start", False)
        db.close()
        server.serve_body("/news.xml", news_feed(3, cover))
        window = launch().window
        qtbot.waitUntil(lambda: window.covers.cache.has(cover, 18), timeout=10000)  # the sidebar's, fetched
        with qtbot.waitSignal(window.feeds.refreshed, timeout=30000):
            window.feeds.refresh_all()
        tray = window.desktop.tray
        assert tray.last_message == "2 new episodes and articles arrived."
        assert tray.last_icon is not None
        image = tray.last_icon.pixmap(18, 18).toImage()
        assert near(average(image, quadrant(18)), cover_at(SAMPLE_COVER, 18, quadrant(18)))


def test_a_cover_the_sidebar_already_shows_arriving_at_another_size_leaves_the_sidebar_alone(
        qtbot: QtBot, launch: Launch, sample: None) -> None:
    """The list's covers are read as its rows are scrolled to, one podcast and size at a time: the sidebar, which
    shows its own size, is not rebuilt for each (a scroll of 100,000 rows rebuilt it 149 times, ~12 ms each)."""
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    shows_cover(qtbot, lambda: painted_icon(sidebar(window), sidebar_row(window, PODCAST), 18), 18)
    qtbot.wait(300)  # the sidebar's last rebuild for its covers is behind it
    rebuilt: list[object] = []
    populate = window.sidebar.model.populate
    window.sidebar.model.populate = lambda data: (rebuilt.append(data), populate(data))  # type: ignore[method-assign]
    cache = window.covers.cache
    url = next(source.image_url for source in window.sidebar.data.sources if source.title == PODCAST)
    cache.pixmap(url, PODCAST, 40)  # a size nothing showed yet: read from disk, then announced
    qtbot.waitUntil(lambda: cache.has(url, 40), timeout=10000)
    qtbot.wait(300)  # longer than the sidebar's wait before it rebuilds
    assert rebuilt == []
    assert near(painted_icon(sidebar(window), sidebar_row(window, PODCAST), 18), cover_at(SAMPLE_COVER, 18,
                                                                                         quadrant(18)))
