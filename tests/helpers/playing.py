"""Starting playback in the real window as a person does: the first of its two episodes selected, Return."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.gui.application import Parts
from earmark.playback.player import PlayerState
from earmark.playback.vlc_player import VlcPlayer


def start_playing(qtbot: QtBot, parts: Parts) -> VlcPlayer:
    window = parts.window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2)
    window.activateWindow()  # after a dialog closed, the window may not be active again by itself
    qtbot.waitUntil(window.isActiveWindow)
    window.item_list.setFocus()
    window.item_list.setCurrentIndex(window.items_model.index(0, 0))
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)
    player = parts.session.player
    assert isinstance(player, VlcPlayer)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
    return player
