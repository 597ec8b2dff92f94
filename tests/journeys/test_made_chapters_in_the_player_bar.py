"""Chapters Earmark made: an episode whose feed gives no chapters, transcribed earlier (the seed talks spoken by
espeak-ng and heard by the engine), plays with its made chapters in the player bar, marked as made by Earmark;
PgDn goes to the next one, the chapter list says where they come from, and a note taken there names its chapter."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QTableView
from pytestqt.qtbot import QtBot

from earmark.core.chaptering.made import keep_transcript
from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Cue, Transcript
from earmark.gui.models.notes import COL_TEXT
from earmark.playback.player import PlayerState
from helpers.feed_server import OWN_FIXTURES
from helpers.gui import Launch
from helpers.journeys import item_list, press, type_text, wait_rows

pytestmark = pytest.mark.vlc
TALKS = json.loads((OWN_FIXTURES / "spoken" / "em__seed-talks.json").read_text(encoding="utf-8"))
CUES = [Cue(a, b, text) for a, b, text in TALKS["cues"]]


@pytest.fixture
def transcribed(library_path: Path, tmp_path: Path) -> None:
    """A podcast of one 15-minute episode (a quiet tone as long as the talks) with its transcript stored."""
    folder = tmp_path / "cast"
    folder.mkdir()
    seconds = CUES[-1].end + 5
    subprocess.run(["sox", "-n", "-r", "8000", "-c", "1", "-b", "16", str(folder / "talks.wav"), "synth",
                    str(seconds), "sine", "300", "vol", "0.2"], check=True)
    (folder / "feed.xml").write_text(
        """<?xml version="1.0"?><rss version="2.0"><channel><title>Talks Cast</title><link>https://example.invalid/</link>
        <description>Talks</description><item><title>Conference day</title><guid>day-1</guid>
        <description>Notes from the talks, read aloud.</description>
        <enclosure url="talks.wav" type="audio/wav" length="1"/></item></channel></rss>""", encoding="utf-8")
    db = open_library(library_path)
    subscribe(db, str(folder / "feed.xml"))
    item_id = db.execute("SELECT id FROM items").fetchone()[0]
    keep_transcript(db, item_id, "generated:tiny.en", Transcript(CUES, "generated"))  # as transcribing stores it
    db.close()


def test_a_transcript_stored_before_gets_its_chapters_when_played(qtbot: QtBot, launch: Launch, transcribed: None,
                                                                  library_path: Path) -> None:
    db = open_library(library_path)
    db.execute("DELETE FROM chapters_cache")  # as a library transcribed before chapters were made has it
    db.close()
    parts = launch()
    window, player = parts.window, parts.session.player
    wait_rows(qtbot, window, 1)
    item_list(window).setFocus()
    press(qtbot, Qt.Key.Key_Home)
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
    chapter = window.findChild(QLabel, "playerChapter")
    qtbot.waitUntil(lambda: chapter.isVisible() and chapter.text().endswith("· made by Earmark"), timeout=8000)


def test_made_chapters_play_in_the_player_bar(qtbot: QtBot, launch: Launch, transcribed: None) -> None:
    parts = launch()
    window, player = parts.window, parts.session.player
    wait_rows(qtbot, window, 1)
    table = item_list(window)
    table.setFocus()
    press(qtbot, Qt.Key.Key_Home)
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
    chapter = window.findChild(QLabel, "playerChapter")
    qtbot.waitUntil(lambda: chapter.isVisible() and chapter.text().startswith("Chapter 1/"), timeout=5000)
    count = int(chapter.text().split("/")[1].split(":")[0])
    assert 2 <= count <= 3  # 15 minutes: at most 12 an hour
    assert chapter.text().endswith("· made by Earmark")
    first = chapter.text()
    qtbot.waitUntil(lambda: "made by Earmark from the transcript" in window.detail.toPlainText(), timeout=3000)
    table.setFocus()
    press(qtbot, Qt.Key.Key_PageDown, Qt.KeyboardModifier.AltModifier)  # in a list, PgDn alone pages it
    qtbot.waitUntil(lambda: chapter.text().startswith("Chapter 2/"), timeout=5000)
    assert chapter.text() != first.replace("Chapter 1/", "Chapter 2/") and chapter.text().endswith("made by Earmark")
    title = chapter.text().split(": ", 1)[1].removesuffix(" · made by Earmark")
    assert title in window.detail.toPlainText()
    assert player.position() >= 300  # the second chapter starts minutes in

    # A note taken now names its chapter.
    press(qtbot, Qt.Key.Key_B)
    editor = window.findChild(QLineEdit, "noteEditor")
    qtbot.waitUntil(editor.isVisible)
    type_text(qtbot, "a thought")
    press(qtbot, Qt.Key.Key_Return)
    notes = window.findChild(QTableView, "itemNotes")
    qtbot.waitUntil(lambda: notes.model().rowCount() == 1, timeout=5000)
    qtbot.waitUntil(lambda: f"in “{title}”" in str(notes.model().index(0, COL_TEXT).data()), timeout=5000)
