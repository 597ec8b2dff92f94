"""The player driven from the keyboard in the real window, checked against what VLC reports and what the
library stores: seeking, speed, mute, chapters, text fields that keep their keys, and played marks."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.items import get_item
from earmark.core.db.podcast_prefs import get_prefs
from earmark.core.feeds.subscribe import subscribe
from earmark.core.settings import get_setting
from earmark.gui.application import Parts
from earmark.playback.player import PlayerState
from earmark.playback.vlc_player import VlcPlayer
from helpers.gui import Launch
from helpers.playing import start_playing
from helpers.podcast import Episode, write_podcast
from helpers.vlc_ears import Ears

pytestmark = pytest.mark.vlc
CHAPTERS = ((0.0, "Cold open"), (30.0, "Interview"), (60.0, "Listener mail"), (90.0, "Outro"))
Shift = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def chaptered(library_path: Path, tmp_path: Path) -> None:
    feed = write_podcast(tmp_path / "long", [Episode("Long episode", 120.0, chapters=CHAPTERS),
                                             Episode("Second episode", 3.0)], title="Long Cast")
    subscribe(open_library(library_path), str(feed))


def press(qtbot: QtBot, parts: Parts, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
          widget: object = None) -> None:
    qtbot.keyClick(widget or parts.window.item_list, key, modifier)


def test_seek_keys_move_vlc(qtbot: QtBot, launch: Launch, chaptered: None, library_path: Path) -> None:
    parts = launch()
    player = start_playing(qtbot, parts)
    none = Qt.KeyboardModifier.NoModifier
    steps = [(Qt.Key.Key_L, none, 10.0), (Qt.Key.Key_Right, Shift, 60.0), (Qt.Key.Key_Left, Shift, -60.0),
             (Qt.Key.Key_Right, none, 30.0), (Qt.Key.Key_J, none, -10.0), (Qt.Key.Key_Left, none, -10.0)]
    for key, modifier, delta in steps:
        target = player.position() + delta
        press(qtbot, parts, key, modifier)
        qtbot.waitUntil(lambda t=target: abs(player._player.get_time() / 1000 - t) < 1.5, timeout=5000)
    item = parts.session.item
    assert item is not None  # every seek saved the position at once
    qtbot.waitUntil(lambda: abs(get_item(open_library(library_path), item.id).position - player.position()) < 2.0,
                    timeout=3000)


def test_speed_mute_and_pause_keys(qtbot: QtBot, launch: Launch, chaptered: None, library_path: Path) -> None:
    parts = launch()
    assert isinstance(parts.session.player, VlcPlayer)
    ears = Ears(parts.session.player)  # what VLC plays, heard
    player = start_playing(qtbot, parts)
    qtbot.wait(300)
    full = ears.level()
    press(qtbot, parts, Qt.Key.Key_BracketRight)
    qtbot.waitUntil(lambda: player.vlc_rate() == pytest.approx(1.05, abs=0.001), timeout=3000)
    for _ in range(3):
        press(qtbot, parts, Qt.Key.Key_BracketLeft)
    qtbot.waitUntil(lambda: player.vlc_rate() == pytest.approx(0.9, abs=0.001), timeout=3000)
    assert parts.window.player_bar.speed.currentText() == "0.9×"
    press(qtbot, parts, Qt.Key.Key_Backspace)
    qtbot.waitUntil(lambda: player.vlc_rate() == pytest.approx(1.0), timeout=3000)
    press(qtbot, parts, Qt.Key.Key_M)
    assert player.muted() and parts.window.player_bar.volume.text() == "Muted"
    assert parts.window.menu_actions.mute.isChecked()
    qtbot.waitUntil(lambda: ears.level() == 0, timeout=3000)  # VLC itself is silent
    press(qtbot, parts, Qt.Key.Key_M)
    assert not player.muted()
    qtbot.waitUntil(lambda: ears.level() == full > 0, timeout=3000)
    press(qtbot, parts, Qt.Key.Key_K)
    qtbot.waitUntil(lambda: player.state == PlayerState.PAUSED, timeout=3000)
    press(qtbot, parts, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=3000)
    press(qtbot, parts, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # volume down
    assert player.volume() == 95
    qtbot.waitUntil(lambda: 0 < ears.level() < full, timeout=3000)  # and quieter
    parts.window.close()
    db = open_library(library_path)
    assert get_setting(db, "playback.speed") == 1.0 and get_setting(db, "playback.volume") == 95


def test_chapter_keys_and_the_chapter_list(qtbot: QtBot, launch: Launch, chaptered: None) -> None:
    parts = launch()
    player = start_playing(qtbot, parts)
    bar, detail = parts.window.player_bar, parts.window.detail
    qtbot.waitUntil(lambda: bar.chapter.text() == "Chapter 1/4: Cold open", timeout=5000)
    qtbot.waitUntil(lambda: "Listener mail" in detail.toPlainText(), timeout=3000)
    press(qtbot, parts, Qt.Key.Key_PageDown, Qt.KeyboardModifier.AltModifier)  # in the list: Alt (PgDn pages it)
    qtbot.waitUntil(lambda: bar.chapter.text() == "Chapter 2/4: Interview", timeout=5000)
    qtbot.waitUntil(lambda: 30.0 <= player._player.get_time() / 1000 < 32.0, timeout=3000)  # VLC's own clock
    press(qtbot, parts, Qt.Key.Key_PageDown, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: bar.chapter.text() == "Chapter 3/4: Listener mail", timeout=5000)
    press(qtbot, parts, Qt.Key.Key_PageUp, Qt.KeyboardModifier.AltModifier)  # at the chapter's start: the previous
    qtbot.waitUntil(lambda: bar.chapter.text() == "Chapter 2/4: Interview", timeout=5000)
    detail.chapter_chosen.emit(3)  # a click on "Outro" in the detail pane
    qtbot.waitUntil(lambda: bar.chapter.text() == "Chapter 4/4: Outro", timeout=5000)
    qtbot.waitUntil(lambda: player._player.get_time() / 1000 >= 90.0, timeout=3000)


def test_typing_in_the_search_box_never_triggers_player_keys(qtbot: QtBot, launch: Launch, chaptered: None) -> None:
    parts = launch()
    player = start_playing(qtbot, parts)
    qtbot.waitUntil(lambda: player.position() > 0.2, timeout=3000)
    window = parts.window
    qtbot.keyClick(window.item_list, Qt.Key.Key_Slash)
    assert QApplication.focusWidget() is window.search
    text = "kjl m[]?/ NPQ"
    qtbot.keyClicks(window.search, text)
    for key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Backspace):
        qtbot.keyClick(window.search, key)
    qtbot.keyClick(window.search, Qt.Key.Key_Left, Shift)
    assert window.search.text() == text[:-1]
    assert player.state == PlayerState.PLAYING and player.rate() == 1.0 and not player.muted()
    assert player.position() < 5.0
    assert not window.help.cheat_sheet.isVisible()
    assert window.queue.model.rowCount() == 0


def test_mark_played_and_unplayed_from_the_keyboard(qtbot: QtBot, launch: Launch, chaptered: None,
                                                    library_path: Path) -> None:
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2)
    window.item_list.selectAll()
    qtbot.keyClick(window.item_list, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.items_model.index(1, 4).data() == "played", timeout=3000)
    ids = window.selection.selected_item_ids()
    assert all(get_item(open_library(library_path), i).played for i in ids)
    qtbot.keyClick(window.item_list, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier | Shift)
    qtbot.waitUntil(lambda: window.items_model.index(1, 4).data() == "", timeout=3000)
    assert not any(get_item(open_library(library_path), i).played for i in ids)


def test_podcast_settings_voice_boost_and_continue_listening(qtbot: QtBot, launch: Launch, chaptered: None,
                                                              library_path: Path) -> None:
    parts = launch()
    window = parts.window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2)
    window.item_list.setCurrentIndex(window.items_model.index(0, 0))
    qtbot.keyClick(window.item_list, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Shift)
    dialog = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "podcastSettings" and w.isVisible())
    dialog.speed.setValue(1.5)  # type: ignore[attr-defined]
    dialog.intro.setValue(20)  # type: ignore[attr-defined]
    dialog.accept()  # type: ignore[attr-defined]
    source_id = window.items_model.item_at(0).source_id  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: get_prefs(open_library(library_path), source_id).skip_intro == 20.0, timeout=3000)
    player = start_playing(qtbot, parts)
    qtbot.waitUntil(lambda: player.vlc_rate() == pytest.approx(1.5), timeout=3000)  # the podcast's own speed
    qtbot.waitUntil(lambda: player._player.get_time() / 1000 >= 20.0, timeout=5000)  # the intro was skipped
    press(qtbot, parts, Qt.Key.Key_BracketRight)  # remembered for this podcast, not globally
    qtbot.waitUntil(lambda: get_prefs(open_library(library_path), source_id).speed == 1.55, timeout=3000)
    press(qtbot, parts, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier | Shift)
    assert player.voice_boost() and window.menu_actions.voice_boost.isChecked()
    qtbot.waitUntil(lambda: get_prefs(open_library(library_path), source_id).voice_boost, timeout=3000)
    press(qtbot, parts, Qt.Key.Key_K)
    qtbot.waitUntil(lambda: player.state == PlayerState.PAUSED, timeout=3000)
    assert get_setting(open_library(library_path), "playback.speed") == 1.0
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier | Shift)  # Continue listening
    qtbot.waitUntil(lambda: window.items_model.item_filter.state == "in_progress", timeout=3000)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1, timeout=3000)
    assert window.items_model.item_at(0).title == "Long episode"  # type: ignore[union-attr]
