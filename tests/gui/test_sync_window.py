"""Sync in the real window: set up from Feeds ▸ Sync Now, a play in one window resumes in another library, the
result and failures as sentences, and without a keyring one question per session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QMessageBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.items import get_item
from earmark.core.feeds.subscribe import subscribe
from earmark.core.notes.transcripts import take_note
from earmark.core.settings import set_setting
from earmark.core.sync.account import set_up_account
from earmark.core.sync.session import log_in, sync_now
from earmark.gui.application import Parts
from earmark.gui.mainwindow.library.sync import NOT_KEPT
from earmark.gui.views.sync_login import SyncLoginDialog
from earmark.playback.player import PlayerState
from helpers.audio import write_tone
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.mygpo_server import MygpoServer

SYNC_MS = 60_000  # a sync runs in a child process (its start-up, the server, a feed fetched)
Ctrl, Shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def podcast(tmp_path: Path) -> Iterator[tuple[FeedServer, str]]:
    """A podcast of two three-minute WAV episodes, streamed from a local server (with Range, for seeking)."""
    audio = write_tone(tmp_path / "tone.wav", 180.0).read_bytes()
    with FeedServer(tmp_path / "served") as server:
        entries = []
        for n in (1, 2):
            server.serve_media(f"/audio/{n}.wav", audio)
            entries.append({"title": f"Tone {n}", "guid": f"tone-{n}", "enclosure": server.url(f"/audio/{n}.wav"),
                            "duration": "180", "pubDate": f"Mon, 0{n} Jan 2024 10:00:00 +0000"})
        yield server, server.serve_body("/feed.xml", rss("Tone Cast", entries))


def sync_key(qtbot: QtBot, parts: Parts) -> dict[str, int]:
    with qtbot.waitSignal(parts.window.sync.synced, timeout=SYNC_MS) as blocker:
        qtbot.keyClick(parts.window.item_list, Qt.Key.Key_S, Ctrl | Shift)
    outcome = blocker.args[0]
    assert outcome.errors == [], outcome.errors
    return outcome.counts  # type: ignore[no-any-return]


@pytest.mark.vlc
def test_play_to_two_minutes_in_one_window_and_the_other_library_resumes_there(
        qtbot: QtBot, launch: Launch, library_path: Path, tmp_path: Path, keyring_bus: str, mygpo: MygpoServer,
        podcast: tuple[FeedServer, str]) -> None:
    _server, feed = podcast
    user = mygpo.new_user()
    other = open_library(tmp_path / "a" / "library.db")  # library A: subscribes and syncs from the command line
    log_in(other, "gpodder", mygpo.url, *user, device="laptop")
    subscribe(other, feed)
    assert sync_now(other).errors == []
    this = open_library(library_path)  # library B: the window
    set_setting(this, "feeds.refresh_on_start", False)
    log_in(this, "gpodder", mygpo.url, *user, device="desktop")
    this.close()

    parts = launch()
    window = parts.window
    counts = sync_key(qtbot, parts)
    assert counts["subscriptions_added"] == 1
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2, timeout=10_000)
    assert "Synced: 1 subscription added" in window.statusBar().currentMessage()

    row = next(r for r in range(2) if window.items_model.index(r, 0).data() == "Tone 1")
    window.item_list.setFocus()
    window.item_list.setCurrentIndex(window.items_model.index(row, 0))
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)
    player = parts.session.player
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=10_000)
    for _minute in range(2):
        target = player.position() + 60
        qtbot.keyClick(window.item_list, Qt.Key.Key_Right, Shift)
        qtbot.waitUntil(lambda t=target: abs(player.position() - t) < 2, timeout=8000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Space)  # pause: the position is saved
    qtbot.waitUntil(lambda: player.state == PlayerState.PAUSED, timeout=5000)
    item = parts.session.item
    assert item is not None
    qtbot.waitUntil(lambda: 119 <= get_item(open_library(library_path), item.id).position <= 126, timeout=5000)
    assert sync_key(qtbot, parts)["actions_sent"] >= 1

    report = sync_now(other)
    assert report.positions_applied == 1
    resumed = other.execute("SELECT position FROM items WHERE guid = 'tone-1'").fetchone()[0]
    assert 119 <= resumed <= 126  # A resumes at 2:00
    other.close()


def test_without_a_keyring_it_asks_at_each_log_in_and_keeps_nothing_when_told_not_to(
        qtbot: QtBot, launch: Launch, library_path: Path, mygpo: MygpoServer) -> None:
    user = mygpo.new_user()
    parts = launch()
    window = parts.window
    qtbot.keyClick(window.item_list, Qt.Key.Key_S, Ctrl | Shift)  # not set up: the dialog
    qtbot.waitUntil(lambda: isinstance(window.sync.dialog, SyncLoginDialog) and window.sync.dialog.isVisible())
    dialog = window.sync.dialog
    assert dialog is not None
    assert dialog.findChild(QComboBox, "kind").currentData() == "gpodder"
    for name, text in (("server", mygpo.url), ("user", user[0]), ("password", user[1])):
        dialog.findChild(QLineEdit, name).setText(text)
    for _attempt in range(2):  # Log In offers the choice again in place: no dead end (issue 37, finding 13)
        qtbot.keyClick(dialog.findChild(QLineEdit, "password"), Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: window.sync.keyring.box is not None and window.sync.keyring.box.isVisible())
        box = window.sync.keyring.box
        assert box is not None and "No system keyring is running" in box.text()
        no = next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.RejectRole)
        qtbot.mouseClick(no, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: dialog.answer.text() == NOT_KEPT, timeout=10_000)
        dialog.answer.setText("")
    assert window.sync.account is None  # told not to keep it, twice: nothing kept, not logged in
    assert not any(isinstance(w, QMessageBox) and w.isVisible() for w in QApplication.topLevelWidgets())


def test_a_failed_sync_says_why_and_backs_off(qtbot: QtBot, launch: Launch, library_path: Path,
                                              keyring_bus: str, mygpo: MygpoServer) -> None:
    user = mygpo.new_user()
    db = open_library(library_path)
    log_in(db, "gpodder", mygpo.url, *user, device="desktop")
    db.close()
    parts = launch()
    mygpo.stop()
    try:
        with qtbot.waitSignal(parts.window.sync.synced, timeout=SYNC_MS) as blocker:
            qtbot.keyClick(parts.window.item_list, Qt.Key.Key_S, Ctrl | Shift)
    finally:
        mygpo.start()
    assert blocker.args[0].errors and "could not be reached" in blocker.args[0].errors[0]
    message = parts.window.statusBar().currentMessage()
    assert message.startswith("Sync failed: The sync server at") and "your changes are kept" in message
    assert parts.window.sync.failures == 1 and parts.window.sync.timer.interval() == 60_000  # 1 min, then 2, 4…
    sync_key(qtbot, parts)  # on demand it tries at once, and works again
    assert parts.window.sync.failures == 0


def test_unsubscribing_in_the_window_keeps_noted_episodes_and_is_sent_at_the_next_sync(
        qtbot: QtBot, launch: Launch, library_path: Path, podcast: tuple[FeedServer, str]) -> None:
    _server, feed = podcast
    db = open_library(library_path)
    set_setting(db, "feeds.refresh_on_start", False)
    subscribe(db, feed)
    set_up_account(db, "gpodder", "https://sync.example.com", "ann", "desktop")  # no sync runs: none is due
    take_note(db, int(db.execute("SELECT id FROM items WHERE guid = 'tone-2'").fetchone()[0]), "keep", None)
    db.close()
    window = launch().window
    qtbot.keyClick(window.item_list, Qt.Key.Key_U, Ctrl | Shift)
    qtbot.waitUntil(lambda: window.feeds.sources_model.rowCount() == 1)
    window.subscriptions.table.setFocus()
    window.subscriptions.table.selectRow(0)
    qtbot.keyClick(window, Qt.Key.Key_K, Ctrl)  # the command palette
    qtbot.keyClicks(window.help.palette.search, "unsubscribe")
    qtbot.keyClick(window.help.palette.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.feeds.unsubscribe_box is not None and window.feeds.unsubscribe_box.isVisible())
    box = window.feeds.unsubscribe_box
    assert box is not None and "Tone Cast" in box.text()
    yes = next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole)
    qtbot.mouseClick(yes, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.feeds.sources_model.rowCount() == 0, timeout=10_000)
    assert "1 item with your notes or marked favourite stays" in window.statusBar().currentMessage()
    after = open_library(library_path)
    assert after.execute("SELECT title FROM items").fetchall() == [("Tone 2",)]
    assert after.execute("SELECT action, podcast FROM sync_journal WHERE action = 'unsubscribe'").fetchall() == [
        ("unsubscribe", feed)]


def test_it_syncs_by_itself_on_start_and_after_a_refresh(qtbot: QtBot, launch: Launch, library_path: Path,
                                                         keyring_bus: str, mygpo: MygpoServer,
                                                         podcast: tuple[FeedServer, str]) -> None:
    _server, feed = podcast
    db = open_library(library_path)
    set_setting(db, "feeds.refresh_on_start", False)
    subscribe(db, feed)
    log_in(db, "gpodder", mygpo.url, *mygpo.new_user(), device="desktop")
    db.close()
    parts = launch()
    with qtbot.waitSignal(parts.window.sync.synced, timeout=SYNC_MS) as blocker:
        pass  # nothing pressed: the sync a few seconds after the window opened
    assert blocker.args[0].counts["subscriptions_sent"] == 1
    with qtbot.waitSignal(parts.window.sync.synced, timeout=SYNC_MS):
        qtbot.keyClick(parts.window.item_list, Qt.Key.Key_F5)  # a refresh, then a sync
    assert parts.window.sync.timer.interval() == 30 * 60_000  # then every sync.interval minutes
