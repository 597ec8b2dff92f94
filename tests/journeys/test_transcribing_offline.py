"""Transcribing offline: before anything is queued, the window says the speech model (its size) cannot be fetched
while offline, and offers a model folder; nothing is queued, nothing fails. Online, it says the model's size and
that it is fetched once. The hub's address is a closed port on 127.0.0.1 (offline) or a local server (online)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from helpers.feed_server import FeedServer, closed_port
from helpers.gui import Launch
from helpers.journeys import item_list, press, selected_title, wait_rows
from helpers.speech import follow_speech_podcast

CTRL, ALT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.AltModifier
pytestmark = pytest.mark.slow


@pytest.fixture
def subscribed(library_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FeedServer]:
    """The speech podcast followed, the model a size never fetched (an empty cache folder)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "served").mkdir()
    with FeedServer(tmp_path / "served") as server:
        follow_speech_podcast(server, library_path, tmp_path)
        db = open_library(library_path)
        set_setting(db, "transcribe.model", "base.en")
        db.close()
        yield server


def _ask_to_transcribe(qtbot: QtBot, launch: Launch) -> tuple[object, QMessageBox]:
    window = launch().window
    wait_rows(qtbot, window, 2)
    item_list(window).setFocus()
    press(qtbot, Qt.Key.Key_Home)
    assert selected_title(window)
    press(qtbot, Qt.Key.Key_X, CTRL | ALT)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QMessageBox), timeout=10000)
    box = QApplication.activeModalWidget()
    assert isinstance(box, QMessageBox) and box.objectName() == "transcribeModelBox"
    return window, box


def _queued(window: object) -> int:
    return int(window._db.execute("SELECT count(*) FROM transcribe_queue").fetchone()[0])  # type: ignore[attr-defined]


def test_offline_the_window_says_so_before_queueing(qtbot: QtBot, launch: Launch, subscribed: FeedServer,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port()}")
    window, box = _ask_to_transcribe(qtbot, launch)
    assert box.text().startswith("Earmark is offline: transcribing needs the base.en speech model (145 MB)")
    buttons = [button.text() for button in box.buttons()]
    assert "Choose Model Folder…" in buttons and "Fetch and Transcribe" not in buttons
    assert _queued(window) == 0
    press(qtbot, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert _queued(window) == 0  # nothing queued, so nothing fails now or at the next start


def test_online_the_window_says_the_size_fetched_once(qtbot: QtBot, launch: Launch, subscribed: FeedServer,
                                                      monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_ENDPOINT", subscribed.url(""))
    window, box = _ask_to_transcribe(qtbot, launch)
    assert "base.en speech model: 145 MB, fetched once into" in box.text()
    assert str(tmp_path / "cache") in box.text()
    assert "Fetch and Transcribe" in [button.text() for button in box.buttons()]
    press(qtbot, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert _queued(window) == 0  # cancelled: nothing fetched, nothing queued
