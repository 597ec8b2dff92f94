"""Transcribing on this machine, from the window: a podcast served over HTTP whose episodes are espeak-ng speech
is downloaded (Ctrl+D) and transcribed (Ctrl+Alt+X) in a worker process, with progress; the transcript pane
shows the lines made here; a word said only in the audio finds the episode, the result says the moment and Enter
plays from it; B at that moment keeps the words said there as the note's quote. Quitting mid-transcription takes
under 2 s, stores nothing half-done, and the queue resumes when the window opens again."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QLineEdit, QListView, QMainWindow, QTableView
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library, write_transaction
from earmark.core.db.transcribe_queue import waiting
from earmark.gui.mainwindow.window import MainWindow
from earmark.playback.player import PlayerState
from helpers.feed_server import FeedServer, Route
from helpers.gui import Launch
from helpers.journeys import item_list, press, search, selected_title, type_text, wait_rows
from helpers.speech import follow_speech_podcast, write_speech

CTRL, ALT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.AltModifier
pytestmark = pytest.mark.slow


@pytest.fixture
def subscribed(library_path: Path, tmp_path: Path) -> Iterator[FeedServer]:
    """The library follows the speech podcast (served while the test runs); the test model is the setting."""
    (tmp_path / "served").mkdir()
    with FeedServer(tmp_path / "served") as server:
        follow_speech_podcast(server, library_path, tmp_path)
        yield server


def _select(qtbot: QtBot, window: object, title: str) -> None:
    table = item_list(window)  # type: ignore[arg-type]
    table.setFocus()
    press(qtbot, Qt.Key.Key_Home)
    while selected_title(window) != title:  # type: ignore[arg-type]
        press(qtbot, Qt.Key.Key_Down)


def test_transcribe_from_the_window_then_find_a_spoken_word_and_play_it(
        qtbot: QtBot, launch: Launch, subscribed: FeedServer) -> None:
    window = launch().window
    wait_rows(qtbot, window, 2)
    _select(qtbot, window, "Compilers for tensors")
    press(qtbot, Qt.Key.Key_D, CTRL)
    status = window.findChild(QLabel, "transcriptionStatus")
    lines = window.findChild(QListView, "transcriptLines")
    transcript_status = window.findChild(QLabel, "transcriptStatus")
    qtbot.waitUntil(lambda: _downloaded(window), timeout=20000)
    press(qtbot, Qt.Key.Key_X, CTRL | ALT)
    qtbot.waitUntil(lambda: status.isVisible() and "Transcribing" in status.text(), timeout=20000)
    qtbot.waitUntil(lambda: lines.isVisible() and lines.model().rowCount() > 0, timeout=60000)
    assert "made on this computer" in transcript_status.text()
    said = " ".join(str(lines.model().index(row, 0).data()) for row in range(lines.model().rowCount())).lower()
    assert "autograd" in said and "handwritten" in said  # "autograd": the show notes primed the engine

    # A word said only in the audio finds the episode; the result says where, and Enter plays from there.
    assert search(qtbot, window, "handwritten") == ["Compilers for tensors"]
    match = str(item_list(window).model().index(0, _match_column(window)).data())
    moment = re.match(r"transcript at (\d+):(\d\d):", match)
    assert moment, match
    at = int(moment[1]) * 60 + int(moment[2])
    assert at > 0
    press(qtbot, Qt.Key.Key_Return)  # from the search box to the list
    press(qtbot, Qt.Key.Key_Return)
    player = window.session.player
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING and player.position() >= at - 0.5, timeout=10000)
    assert player.position() < at + 3  # from the moment, not from the start

    # B at that moment: the note keeps the words said there.
    press(qtbot, Qt.Key.Key_B)
    editor = window.findChild(QLineEdit, "noteEditor")
    qtbot.waitUntil(lambda: editor.isVisible())
    type_text(qtbot, "compare kernels")
    press(qtbot, Qt.Key.Key_Return)
    notes = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: notes.model().rowCount() == 1, timeout=5000)
    shown = " ".join(str(notes.model().index(0, c).data()) for c in range(notes.model().columnCount()))
    assert "handwritten" in shown.lower()


def _download_and_transcribe(qtbot: QtBot, launch: Launch, title: str) -> MainWindow:
    """The window, with the episode ``title`` downloaded (Ctrl+D) and then asked to be transcribed (Ctrl+Alt+X)."""
    window = launch().window
    wait_rows(qtbot, window, 2)
    _select(qtbot, window, title)
    press(qtbot, Qt.Key.Key_D, CTRL)
    qtbot.waitUntil(lambda: _downloaded(window), timeout=20000)
    press(qtbot, Qt.Key.Key_X, CTRL | ALT)
    return window


def _downloaded(window: object) -> bool:
    db = window._db  # type: ignore[attr-defined]
    return db.execute("SELECT count(*) FROM downloads WHERE status = 'done'").fetchone()[0] > 0


def _match_column(window: object) -> int:
    model = item_list(window).model()  # type: ignore[arg-type]
    return next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == "Match")


def test_quitting_mid_transcription_is_quick_keeps_nothing_half_done_and_resumes(
        qtbot: QtBot, launch: Launch, subscribed: FeedServer, library_path: Path, tmp_path: Path) -> None:
    speech = ("The scheduler reads the state of the cluster and decides where each pod runs. A node that fails "
              "its health check is drained, and its pods move elsewhere. Requests and limits tell the scheduler "
              "how much memory and processor time a container needs. Affinity rules keep related services close "
              "together, while taints keep ordinary work away from special machines. When nothing fits, the "
              "autoscaler asks the cloud for another node, which joins the cluster within a few minutes. Operators "
              "watch the events of each namespace to learn why a deployment is stuck, and they read the logs of "
              "the controller manager when a replica set refuses to grow.")
    long_audio = write_speech(tmp_path / "long.wav", speech).read_bytes()
    subscribed.route("/episode1.wav", Route(body=long_audio, content_type="audio/wav"))
    window = _download_and_transcribe(qtbot, launch, "Schedulers")
    status = window.findChild(QLabel, "transcriptionStatus")
    qtbot.waitUntil(lambda: "Transcribing “Schedulers”" in status.text(), timeout=30000)

    started = time.monotonic()
    window.close()
    assert time.monotonic() - started < 2.0
    db = open_library(library_path)
    assert db.execute("SELECT count(*) FROM transcripts").fetchone()[0] == 0  # nothing half-done stored
    assert [w.title for w in waiting(db)] == ["Schedulers"]
    db.close()

    window = launch().window  # the queue resumes by itself
    qtbot.waitUntil(lambda: _transcribed(library_path) == 1, timeout=120000)


def _transcribed(library_path: Path) -> int:
    db = open_library(library_path)
    try:
        return int(db.execute("SELECT count(*) FROM transcripts WHERE type = 'generated'").fetchone()[0])
    finally:
        db.close()


def test_a_broken_file_gets_a_sentence_in_the_window(qtbot: QtBot, launch: Launch, subscribed: FeedServer) -> None:
    subscribed.route("/episode1.wav", Route(body=b"RIFF\x00\x00not audio at all" * 100, content_type="audio/wav"))
    window = _download_and_transcribe(qtbot, launch, "Schedulers")
    dialog = [None]

    def error_shown() -> bool:
        dialog[0] = next((w for w in QApplication.topLevelWidgets() if w.objectName() == "errorDialog"
                          and w.isVisible()), None)
        return dialog[0] is not None

    qtbot.waitUntil(error_shown, timeout=30000)
    assert "“Schedulers” was not transcribed:" in dialog[0].text() and "is not audio" in dialog[0].text()
    assert _transcribed(_library(window)) == 0


def _library(window: object) -> Path:
    return Path(window._runner.library_path)  # type: ignore[attr-defined]


def _palette(qtbot: QtBot, window: QMainWindow, command: str) -> None:
    """Run a command from the command palette (Ctrl+K in the list, its name, Enter)."""
    window.activateWindow()
    item_list(window).setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is item_list(window))
    press(qtbot, Qt.Key.Key_K, CTRL)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QDialog))
    palette = QApplication.activeModalWidget()
    palette.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None and QApplication.focusWidget().window() is palette)
    type_text(qtbot, command)
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is None)


def test_transcribe_all_downloaded_then_stop(qtbot: QtBot, launch: Launch, subscribed: FeedServer) -> None:
    window = launch().window
    wait_rows(qtbot, window, 2)
    table = item_list(window)
    table.setFocus()
    press(qtbot, Qt.Key.Key_A, CTRL)  # both episodes
    press(qtbot, Qt.Key.Key_D, CTRL)
    qtbot.waitUntil(lambda: window._db.execute(  # type: ignore[attr-defined]
        "SELECT count(*) FROM downloads WHERE status = 'done'").fetchone()[0] == 2, timeout=20000)
    _palette(qtbot, window, "transcribe all downloaded")
    qtbot.waitUntil(lambda: _transcribed(_library(window)) == 2, timeout=120000)  # one after the other

    db = open_library(_library(window))
    with write_transaction(db):
        db.execute("DELETE FROM transcripts")
    db.close()
    _palette(qtbot, window, "transcribe all downloaded")
    status = window.findChild(QLabel, "transcriptionStatus")
    qtbot.waitUntil(lambda: "Transcribing" in status.text(), timeout=20000)
    _palette(qtbot, window, "stop transcribing")
    qtbot.waitUntil(lambda: not window.transcription.worker.is_running(), timeout=5000)
    qtbot.waitUntil(lambda: not _waiting(_library(window)), timeout=5000)  # the queue is empty
    assert _transcribed(_library(window)) <= 1  # nothing more after the stop


def _waiting(library_path: Path) -> list[object]:
    db = open_library(library_path)
    try:
        return list(waiting(db))
    finally:
        db.close()
