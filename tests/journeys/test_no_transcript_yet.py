"""The Transcript tab of an episode without a transcript says why and what can be done: Download First, then
Transcribe, which makes it here (the speech podcast served over HTTP, the test model)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListView, QPushButton
from pytestqt.qtbot import QtBot

from helpers.feed_server import FeedServer
from helpers.gui import Launch
from helpers.journeys import item_list, press, selected_title, wait_rows
from helpers.speech import follow_speech_podcast

pytestmark = pytest.mark.slow


@pytest.fixture
def subscribed(library_path: Path, tmp_path: Path) -> Iterator[FeedServer]:
    (tmp_path / "served").mkdir()
    with FeedServer(tmp_path / "served") as server:
        follow_speech_podcast(server, library_path, tmp_path)
        yield server


def test_the_transcript_tab_offers_download_then_transcribe(qtbot: QtBot, launch: Launch,
                                                            subscribed: FeedServer) -> None:
    window = launch().window
    wait_rows(qtbot, window, 2)
    item_list(window).setFocus()
    press(qtbot, Qt.Key.Key_Home)
    while selected_title(window) != "Compilers for tensors":
        press(qtbot, Qt.Key.Key_Down)
    status = window.findChild(QLabel, "transcriptStatus")
    offer = window.findChild(QPushButton, "transcriptOffer")
    qtbot.waitUntil(lambda: "download the episode first" in status.text() and offer.isVisible(), timeout=5000)
    assert status.text().startswith("Its feed gives no transcript")
    assert offer.text() == "Download First"
    qtbot.mouseClick(offer, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: offer.isVisible() and offer.text() == "Transcribe", timeout=20000)
    assert "Earmark can make one on this computer" in status.text()
    qtbot.mouseClick(offer, Qt.MouseButton.LeftButton)
    lines = window.findChild(QListView, "transcriptLines")
    qtbot.waitUntil(lambda: lines.model().rowCount() > 0, timeout=90000)
    assert "made on this computer" in status.text() and not offer.isVisible()
