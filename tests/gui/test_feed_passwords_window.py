"""A password typed inside a feed's address, in the real window: kept in the keyring, never shown in the
Subscriptions view (its table, tooltips and the feed-status pane); without a keyring, asked once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.sources import list_sources
from earmark.core.secrets.vault import KeyringVault
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.old_library import library_with_plain_passwords

SECRET = "s3cret-in-the-address"


@pytest.fixture
def private_feed(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A feed behind basic auth: its address, and that address with the credentials typed into it."""
    with FeedServer(tmp_path / "served") as server:
        entries = [{"title": f"Bonus {n}", "guid": f"b{n}", "enclosure": f"https://example.com/b{n}.mp3"}
                   for n in (1, 2)]
        url = server.serve_feed("/private.xml", rss("Members Cast", entries), auth=("ann", SECRET))
        yield url, url.replace("http://", f"http://ann:{SECRET}@")


def shown_texts(window: object) -> list[str]:
    """Everything the Subscriptions view shows of its feeds: every cell and tooltip, and the status pane."""
    model = window.feeds.sources_model  # type: ignore[attr-defined]
    texts = [str(model.index(row, column).data(role) or "") for row in range(model.rowCount())
             for column in range(model.columnCount()) for role in (Qt.ItemDataRole.DisplayRole,
                                                                    Qt.ItemDataRole.ToolTipRole)]
    return texts + [window.detail.toPlainText()]  # type: ignore[attr-defined]


def test_a_password_in_the_address_is_kept_in_the_keyring_and_never_shown(
        qtbot: QtBot, launch: Launch, library_path: Path, keyring_bus: str,
        private_feed: tuple[str, str]) -> None:
    url, typed = private_feed
    window = launch().window
    window.subscribing.subscribe(typed)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2, timeout=10_000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    table = window.subscriptions.table
    qtbot.waitUntil(lambda: window.feeds.sources_model.rowCount() == 1)
    table.setCurrentIndex(window.feeds.sources_model.index(0, 0))  # the feed-status pane shows it
    qtbot.waitUntil(lambda: "Members Cast" in window.detail.toPlainText())
    texts = shown_texts(window)
    assert url in " ".join(texts) and "Password stored" in " ".join(texts).replace("\n", " ")
    assert [text for text in texts if SECRET in text] == []
    [source] = list_sources(open_library(library_path))
    assert (source.url, source.has_credentials) == (url, True)
    port = url.split(":")[2].split("/")[0]
    assert KeyringVault().get(f"earmark feed http://127.0.0.1:{port}", "ann") == SECRET


def test_without_a_keyring_the_feed_is_added_and_its_password_not_kept(
        qtbot: QtBot, launch: Launch, library_path: Path, private_feed: tuple[str, str]) -> None:
    _url, typed = private_feed
    window = launch().window
    window.subscribing.subscribe(typed)
    qtbot.waitUntil(lambda: window.feeds.keyring.box is not None and window.feeds.keyring.box.isVisible(),
                    timeout=10_000)
    box = window.feeds.keyring.box
    no = next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.RejectRole)
    qtbot.mouseClick(no, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2, timeout=10_000)
    assert "password was not kept" in window.statusBar().currentMessage()
    [source] = list_sources(open_library(library_path))
    assert not source.has_credentials
    assert [p.name for p in library_path.parent.glob("library.db*") if SECRET.encode() in p.read_bytes()] == []
    assert not any(isinstance(w, QMessageBox) and w.isVisible() for w in QApplication.topLevelWidgets())


def test_passwords_of_an_older_version_without_a_keyring_are_said_to_wait(
        qtbot: QtBot, launch: Launch, library_path: Path) -> None:
    library_with_plain_passwords(library_path)
    window = launch().window
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith(
        "2 passwords are still kept in the library file, unencrypted: no system keyring is running"), timeout=10_000)
    assert window.feeds.keyring.box is None  # asked when a password is next given, not as the window opens


def test_passwords_of_an_older_version_move_to_the_keyring_when_the_window_opens(
        qtbot: QtBot, launch: Launch, library_path: Path, keyring_bus: str) -> None:
    library_with_plain_passwords(library_path)
    launch()
    qtbot.waitUntil(lambda: open_library(library_path).execute("SELECT count(*) FROM secrets").fetchone()[0] == 0,
                    timeout=10_000)
    assert KeyringVault().get("earmark feed https://feeds.example.com:443", "alice") == "plain-row-pw"
    assert [p.name for p in library_path.parent.rglob("*") if p.is_file() and b"plain-row-pw" in p.read_bytes()] == []
