"""Feeds in the window: refresh with progress and cancel, the Subscriptions view, OPML, passwords, drops."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QTimer, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QMenu, QTableView
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.sources import list_sources
from earmark.core.db.tags import tag_counts
from earmark.core.feeds.opml import read_opml
from earmark.core.feeds.subscribe import subscribe
from earmark.core.settings import set_setting
from earmark.gui.feed_refresh import RefreshSummary
from earmark.gui.models.sources import COL_ERROR, COL_STATUS, COL_TITLE, SourceTableModel
from earmark.gui.views.credentials import CredentialsDialog
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.journeys import press, showing, sidebar_texts

REFRESH_MS = 30_000  # a refresh runs in a child process: its start-up is part of the wait


def episodes(prefix: str, count: int) -> list[dict[str, str]]:
    return [{"title": f"{prefix} {n}", "guid": f"{prefix}-{n}", "enclosure": f"https://example.com/{prefix}{n}.mp3",
             "pubDate": f"Mon, {n + 1:02d} Jan 2024 10:00:00 +0000"} for n in range(count)]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as feed_server:
        yield feed_server


@pytest.fixture
def two_feeds(library_path: Path, server: FeedServer) -> tuple[str, str]:
    """A library with a good feed and one whose server will fail on the next refresh; no refresh on start."""
    good = server.serve_body("/good.xml", rss("Good Show", episodes("good", 2)))
    bad = server.serve_body("/bad.xml", rss("Broken Show", episodes("bad", 1)))
    db = open_library(library_path)
    subscribe(db, good)
    subscribe(db, bad)
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    server.serve_status("/bad.xml", 500)
    return good, bad


def finished(qtbot: QtBot, window: object) -> RefreshSummary:
    with qtbot.waitSignal(window.feeds.refresher.finished, timeout=REFRESH_MS) as blocker:  # type: ignore[attr-defined]
        pass
    return blocker.args[0]  # type: ignore[no-any-return]


def test_f5_refreshes_every_feed_and_the_failing_one_shows_its_error(
        qtbot: QtBot, launch: Launch, two_feeds: tuple[str, str], server: FeedServer, library_path: Path) -> None:
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    server.serve_body("/good.xml", rss("Good Show", episodes("good", 3)))  # one new episode upstream

    with qtbot.waitSignal(window.feeds.refresher.finished, timeout=REFRESH_MS) as blocker:
        qtbot.keyClick(window.item_list, Qt.Key.Key_F5)
        qtbot.waitUntil(window.feeds.progress.isVisible)
    summary: RefreshSummary = blocker.args[0]
    assert (summary.total, summary.checked, summary.new, summary.failed) == (2, 2, 1, 1)
    assert not window.feeds.progress.isVisible()
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 4)
    assert "1 failed" in window.statusBar().currentMessage(), window.statusBar().currentMessage()

    qtbot.keyClick(window, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert showing(window) == "subscriptions"
    assert QApplication.focusWidget() is window.subscriptions.table
    model: SourceTableModel = window.feeds.sources_model
    qtbot.waitUntil(lambda: any(s.status == "error" for s in model.sources()))
    row = next(r for r, s in enumerate(model.sources()) if s.title == "Broken Show")
    window.subscriptions.table.selectRow(row)
    assert model.index(row, COL_STATUS).data() == "Failed"
    assert model.index(row, COL_ERROR).data() == "Answered with HTTP error 500 (Internal Server Error)."
    assert window.detail.toPlainText().startswith("Broken Show")  # the detail pane shows the feed in full
    assert "1 with problems" in window.subscriptions.summary.text()
    assert "Subscriptions (1 failing)" in [window.sidebar_model.item(r).text()
                                           for r in range(window.sidebar_model.rowCount())]
    [stored_bad] = [s for s in list_sources(open_library(library_path)) if s.title == "Broken Show"]
    assert stored_bad.item_count == 1  # the failure lost nothing


def test_retry_of_the_selected_feed_after_the_server_recovers(
        qtbot: QtBot, launch: Launch, two_feeds: tuple[str, str], server: FeedServer, library_path: Path) -> None:
    window = launch().window
    window.feeds.refresh_all()
    finished(qtbot, window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    press(qtbot, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    model = window.feeds.sources_model
    qtbot.waitUntil(lambda: any(s.status == "error" for s in model.sources()))
    row = next(r for r, s in enumerate(model.sources()) if s.title == "Broken Show")
    window.subscriptions.table.selectRow(row)
    server.serve_body("/bad.xml", rss("Broken Show", episodes("bad", 2)))

    with qtbot.waitSignal(window.feeds.refresher.finished, timeout=REFRESH_MS) as blocker:
        qtbot.keyClick(window.subscriptions.table, Qt.Key.Key_F5, Qt.KeyboardModifier.ShiftModifier)
    assert (blocker.args[0].total, blocker.args[0].new, blocker.args[0].failed) == (1, 1, 0)
    qtbot.waitUntil(lambda: all(s.status == "ok" for s in model.sources()))
    assert window.subscriptions.table.selectionModel().selectedRows()[0].row() == row  # selection kept


def test_cancel_stops_a_refresh_and_keeps_what_was_stored(
        qtbot: QtBot, launch: Launch, library_path: Path, server: FeedServer) -> None:
    db = open_library(library_path)
    for n in range(12):
        subscribe(db, server.serve_body(f"/f{n}.xml", rss(f"Show {n}", episodes(f"s{n}", 1))))
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    for n in range(12):
        server.serve_slow(f"/f{n}.xml", 1.0, rss(f"Show {n}", episodes(f"s{n}", 2)))
    window = launch().window
    window.feeds.refresh_all()
    qtbot.waitUntil(lambda: window.feeds.progress.bar.value() >= 1, timeout=REFRESH_MS)
    window.feeds.progress.cancel_button.click()
    summary = finished(qtbot, window)
    assert summary.cancelled
    assert 1 <= summary.checked < 12
    stored = sum(s.item_count for s in list_sources(open_library(library_path)))
    assert stored == 12 + summary.new  # every feed that finished is stored, nothing else changed


def test_opml_import_and_export_from_the_window(qtbot: QtBot, launch: Launch, library_path: Path,
                                               server: FeedServer, tmp_path: Path) -> None:
    first = server.serve_body("/one.xml", rss("One", episodes("one", 2)))
    second = server.serve_body("/two.xml", rss("Two", episodes("two", 1)))
    opml = tmp_path / "subs.opml"
    opml.write_text(f"""<?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>
        <outline text="Machine Learning"><outline type="rss" text="One" xmlUrl="{first}"/></outline>
        <outline type="rss" text="Two" xmlUrl="{second}"/>
        <outline type="rss" text="No address"/></body></opml>""", encoding="utf-8")
    window = launch().window
    window.feeds.import_opml(opml)
    summary = finished(qtbot, window)
    assert (summary.total, summary.new, summary.failed) == (2, 3, 0)
    assert any("No address" in note for note in summary.notes)  # reported, in a dialog
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    assert ("machine learning", 2) in tag_counts(open_library(library_path))

    out = tmp_path / "out.opml"
    window.feeds.export_opml(out)
    qtbot.waitUntil(out.exists)
    exported = read_opml(out.read_bytes(), out.name)
    assert sorted(f.url for f in exported.feeds) == sorted([first, second])
    assert [f.tags for f in exported.feeds if f.url == first] == [["machine learning"]]


def test_a_feed_behind_a_password_asks_for_it_when_subscribing(qtbot: QtBot, launch: Launch, library_path: Path,
                                                               keyring_bus: str,
                                                               server: FeedServer) -> None:
    url = server.serve_feed("/private.xml", rss("Private Show", episodes("p", 2)), auth=("ann", "s3cret"))
    window = launch().window
    window.subscribing.subscribe(url)
    qtbot.waitUntil(lambda: any(isinstance(w, CredentialsDialog) and w.isVisible()
                                for w in QApplication.topLevelWidgets()), timeout=10_000)
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, CredentialsDialog) and w.isVisible())
    dialog.findChild(QLineEdit, "user").setText("ann")
    dialog.findChild(QLineEdit, "password").setText("s3cret")
    dialog.accept()
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2, timeout=10_000)
    [source] = list_sources(open_library(library_path))
    assert source.has_credentials and source.status == "ok"


def test_dropping_a_feed_link_subscribes(qtbot: QtBot, launch: Launch, server: FeedServer) -> None:
    url = server.serve_body("/dropped.xml", rss("Dropped Show", episodes("d", 2)))
    window = launch().window
    mime = QMimeData()
    mime.setUrls([QUrl(url)])
    drop = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    window.dropEvent(drop)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2, timeout=10_000)


def test_a_password_typed_in_a_feed_address_is_never_shown(qtbot: QtBot, launch: Launch, server: FeedServer) -> None:
    url = server.serve_feed("/private.xml", rss("Private Show", episodes("p", 2)), auth=("ann", "s3cret"))
    window = launch().window
    window.subscribing.subscribe(url.replace("://", "://ann:typo-secret@", 1))  # a wrong password: asked again
    assert window.statusBar().currentMessage() == f"Reading {url}…"
    qtbot.waitUntil(lambda: any(isinstance(w, CredentialsDialog) and w.isVisible()
                                for w in QApplication.topLevelWidgets()), timeout=10_000)
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, CredentialsDialog) and w.isVisible())
    shown = " ".join(label.text() for label in dialog.findChildren(QLabel)) + dialog.windowTitle()
    assert url in shown and "typo-secret" not in shown
    assert "typo-secret" not in window.statusBar().currentMessage()
    dialog.reject()


def test_feeds_are_listed_in_the_order_a_person_counts(qtbot: QtBot, launch: Launch, library_path: Path,
                                                       server: FeedServer) -> None:
    db = open_library(library_path)
    for title in ("Show 10", "show 2", "Show 1", "Ärzte Talk", "Zebra"):
        subscribe(db, server.serve_body(f"/{len(title)}{title[-2:].strip()}.xml", rss(title, episodes(title, 1))))
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    window = launch().window
    podcasts = [text.rsplit(" (", 1)[0] for text in sidebar_texts(window)]
    start = podcasts.index("Show 1")
    assert podcasts[start - 1:start + 4] == ["Ärzte Talk", "Show 1", "show 2", "Show 10", "Zebra"]
    press(qtbot, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: showing(window) == "subscriptions")
    table = window.findChild(QTableView, "subscriptionsTable")
    shown = [table.model().index(row, COL_TITLE).data() for row in range(table.model().rowCount())]
    assert shown == ["Ärzte Talk", "Show 1", "show 2", "Show 10", "Zebra"]


def test_subscriptions_keep_their_feed_in_the_details_and_shift_f10_opens_their_menu(
        qtbot: QtBot, launch: Launch, library_path: Path, server: FeedServer) -> None:
    url = server.serve_body("/one.xml", rss("Only Show", episodes("only", 2)))
    db = open_library(library_path)
    subscribe(db, url)
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2)
    detail = window.detail
    press(qtbot, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: showing(window) == "subscriptions")
    qtbot.waitUntil(lambda: "Last checked" in detail.toPlainText() and "Only Show" in detail.toPlainText())
    server.serve_body("/one.xml", rss("Only Show", episodes("only", 3)))
    press(qtbot, Qt.Key.Key_F5)  # the list reloads behind the view with the new episode
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3, timeout=REFRESH_MS)
    qtbot.wait(300)
    assert "Last checked" in detail.toPlainText()  # still the feed's state: the list's item did not take its place
    window.findChild(QTableView, "subscriptionsTable").setFocus()
    seen: list[str] = []

    def read_and_close(tries: int = 40) -> None:  # the table's menu runs its own event loop until it closes
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            if tries:
                QTimer.singleShot(50, lambda: read_and_close(tries - 1))
            return
        seen.extend(action.text().replace("&", "") for action in menu.actions())
        QTest.keyClick(menu, Qt.Key.Key_Escape)

    QTimer.singleShot(50, read_and_close)
    press(qtbot, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    assert "Refresh (Retry) Selected Feeds" in seen
    press(qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)  # All Notes
    qtbot.waitUntil(lambda: showing(window) == "notes")
    qtbot.waitUntil(lambda: "Last checked" not in detail.toPlainText())  # the list's episode again, not the feed
    assert detail.toPlainText().startswith("only ")


def test_subscriptions_open_on_the_failing_feed(qtbot: QtBot, launch: Launch, library_path: Path,
                                                 server: FeedServer) -> None:
    """From "Subscriptions (1 failing)" a person wants that feed's error: it is current, its details shown, as soon
    as the view opens (they said "Select a feed to see its status" until a row was picked)."""
    db = open_library(library_path)
    for name in ("Another Show", "Zed Show"):
        subscribe(db, server.serve_body(f"/{name[0]}.xml", rss(name, episodes(name[0], 1))))
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    server.serve_status("/Z.xml", 500)
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    with qtbot.waitSignal(window.feeds.refresher.finished, timeout=REFRESH_MS):
        press(qtbot, Qt.Key.Key_F5)
    press(qtbot, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: showing(window) == "subscriptions")
    qtbot.waitUntil(lambda: window.detail.toPlainText().startswith("Zed Show"))
    assert "answered with HTTP error 500" in window.detail.toPlainText()
    table = window.subscriptions.table
    assert [index.row() for index in table.selectionModel().selectedRows()] == [1]  # Another Show is row 0
    press(qtbot, Qt.Key.Key_Up)
    qtbot.waitUntil(lambda: window.detail.toPlainText().startswith("Another Show"))


def test_a_refresh_behind_the_list_leaves_its_item_in_the_details(
        qtbot: QtBot, launch: Launch, two_feeds: tuple[str, str]) -> None:
    """Subscriptions pick their failing feed when they show; while the list shows, a refresh (which reads the feeds
    again behind it) must not put that feed in the details in place of the list's episode."""
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.item_list.setFocus()
    press(qtbot, Qt.Key.Key_Down)
    title = window.items_model.item_at(window.item_list.currentIndex().row()).title
    qtbot.waitUntil(lambda: window.detail.toPlainText().startswith(title))
    with qtbot.waitSignal(window.feeds.refresher.finished, timeout=REFRESH_MS):
        press(qtbot, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: any(s.status == "error" for s in window.feeds.sources_model.sources()))
    qtbot.wait(300)
    assert window.detail.toPlainText().startswith(title), window.detail.toPlainText()[:80]
