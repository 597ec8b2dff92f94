"""An OPML import in the window shows its progress feed by feed, now that the import writes feeds in batches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QTimer, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu
from pytestqt.qtbot import QtBot

from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.journeys import answer_file_dialog, press

FEEDS = 12
IMPORT_MS = 60_000


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as feed_server:
        yield feed_server


def test_dropping_an_opml_file_shows_the_import_feed_by_feed(qtbot: QtBot, launch: Launch, server: FeedServer,
                                                             tmp_path: Path) -> None:
    urls = [server.serve_slow(f"/show-{n}.xml", 0.3, rss(f"Show {n}", [
        {"title": f"Show {n} episode {e}", "guid": f"s{n}-{e}", "enclosure": f"https://example.com/{n}/{e}.mp3",
         "pubDate": f"Mon, {e + 1:02d} Jan 2024 10:00:00 +0000"} for e in range(20)])) for n in range(FEEDS)]
    opml = tmp_path / "shows.opml"
    opml.write_text('<?xml version="1.0"?><opml version="2.0"><head/><body>' + "".join(
        f'<outline type="rss" text="Show {n}" xmlUrl="{url}"/>' for n, url in enumerate(urls)) + "</body></opml>",
        encoding="utf-8")
    window = launch().window
    shown: list[tuple[str, int, int]] = []  # what the status bar showed, sampled as a person would see it

    def look() -> None:
        progress = window.feeds.progress
        if progress.isVisible() and (not shown or shown[-1][0] != progress.label.text()):
            shown.append((progress.label.text(), progress.bar.value(), progress.bar.maximum()))

    watcher = QTimer()
    watcher.timeout.connect(look)
    watcher.start(10)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(opml))])
    with qtbot.waitSignal(window.feeds.refresher.finished, timeout=IMPORT_MS) as done:
        window.dropEvent(QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                                    Qt.KeyboardModifier.NoModifier))
    watcher.stop()
    assert (done.args[0].total, done.args[0].checked, done.args[0].new) == (FEEDS, FEEDS, FEEDS * 20)
    steps = [(text, value) for text, value, maximum in shown if maximum == FEEDS and value > 0]
    # The feeds answer 3 at a time every 0.3 s: the count goes up in several steps, each naming a feed it stored.
    assert len({value for _text, value in steps}) >= 3, shown
    assert all(text.startswith(f"Importing {value} of {FEEDS}: Show ") for text, value in steps), shown
    # The last feeds and the end can arrive between two looks; the end itself is always said in the status bar.
    said = window.statusBar().currentMessage()
    assert said.startswith(f"Imported: {FEEDS} of {FEEDS} feeds checked, {FEEDS * 20} new items"), said
    qtbot.waitUntil(lambda: window.items_model.rowCount() == FEEDS * 20, timeout=10_000)


def test_cancelling_an_import_says_the_import_was_cancelled(qtbot: QtBot, launch: Launch, server: FeedServer,
                                                           tmp_path: Path) -> None:
    quick = server.serve_body("/quick.xml", rss("Quick", [{"title": "Q", "guid": "q", "enclosure": "https://e.com/q.mp3"}]))
    slow = server.serve_slow("/slow.xml", 4.0, rss("Slow", [{"title": "S", "guid": "s",
                                                            "enclosure": "https://e.com/s.mp3"}]))
    opml = tmp_path / "two.opml"
    opml.write_text(f'<?xml version="1.0"?><opml version="2.0"><head/><body><outline type="rss" text="Quick" '
                    f'xmlUrl="{quick}"/><outline type="rss" text="Slow" xmlUrl="{slow}"/></body></opml>',
                    encoding="utf-8")
    window = launch().window
    progress = window.feeds.progress
    answer_file_dialog(opml)
    press(qtbot, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)  # File ▸ Import Subscriptions (OPML)…
    qtbot.waitUntil(lambda: progress.label.text().startswith("Importing 1 of 2: "), timeout=IMPORT_MS)
    assert progress.cancel_button.accessibleName() == "Cancel the import"
    qtbot.mouseClick(progress.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Import cancelled: "), timeout=IMPORT_MS)
    assert not progress.isVisible()


def test_the_feeds_menu_stops_an_import_by_its_name(qtbot: QtBot, launch: Launch, server: FeedServer,
                                                    tmp_path: Path) -> None:
    slow = server.serve_slow("/slow.xml", 4.0, rss("Slow", [{"title": "S", "guid": "s",
                                                            "enclosure": "https://e.com/s.mp3"}]))
    opml = tmp_path / "one.opml"
    opml.write_text(f'<?xml version="1.0"?><opml version="2.0"><head/><body><outline type="rss" text="Slow" '
                    f'xmlUrl="{slow}"/></body></opml>', encoding="utf-8")
    window = launch().window
    assert feeds_menu_entry(qtbot, window, "Stop Refreshing") is False  # nothing to stop: shown, not enabled
    answer_file_dialog(opml)
    press(qtbot, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.feeds.progress.isVisible(), timeout=IMPORT_MS)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)  # the window takes the keyboard back
    # Its letter, T, stops it (T alone is Edit Tags: the list behind the menu took the letter before).
    assert feeds_menu_entry(qtbot, window, "Stop Importing", then=Qt.Key.Key_T) is True
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Import cancelled: "), timeout=IMPORT_MS)
    assert feeds_menu_entry(qtbot, window, "Stop Refreshing", by_mouse=True) is False


def feeds_menu_entry(qtbot: QtBot, window: QMainWindow, text: str, then: Qt.Key = Qt.Key.Key_Escape,
                     by_mouse: bool = False) -> bool:
    """Open the Feeds menu (Alt+D, or a click on its title), find the entry reading ``text`` and say whether it is
    enabled; then press ``then`` in the menu (Escape: close it, and leave the menu bar)."""
    bar = window.menuBar()
    if by_mouse:
        [title] = [action for action in bar.actions() if action.text().replace("&", "") == "Feeds"]
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(title).center())
    else:
        press(qtbot, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu), timeout=2000)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu) and menu.title().replace("&", "") == "Feeds"
    [entry] = [action for action in menu.actions() if action.text().replace("&", "") == text]
    qtbot.keyClick(menu, then)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None, timeout=2000)
    if QApplication.focusWidget() is bar:  # Escape closed the menu; a second one leaves the menu bar
        press(qtbot, Qt.Key.Key_Escape)
    return entry.isEnabled()
