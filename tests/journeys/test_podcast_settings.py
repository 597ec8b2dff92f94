"""Podcast Playback Settings (Ctrl+Shift+T) from the list: the dialog for an episode's podcast, and for an article
a sentence saying why there is none."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, press, wait_rows


def test_an_articles_site_has_no_playback_settings(qtbot: QtBot, launch: Launch, sample: None) -> None:
    """Ctrl+Shift+T on an article said nothing useful: it opened speed, skip-intro and voice-boost settings for a
    site of articles. It says whose settings they are instead; on an episode the dialog opens."""
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    model = window.items_model
    article = next(row for row in range(SAMPLE_ITEMS) if model.item_at(row).kind == "article")
    click_row(qtbot, window.item_list, article)
    press(qtbot, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: "playback settings are a podcast's" in window.statusBar().currentMessage())
    assert not [w for w in QApplication.topLevelWidgets() if w.objectName() == "podcastSettings" and w.isVisible()]
    episode = next(row for row in range(SAMPLE_ITEMS) if model.item_at(row).kind == "episode")
    click_row(qtbot, window.item_list, episode)
    press(qtbot, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: any(w.objectName() == "podcastSettings" and w.isVisible()
                                for w in QApplication.topLevelWidgets()))
    dialog = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "podcastSettings")
    dialog.reject()
