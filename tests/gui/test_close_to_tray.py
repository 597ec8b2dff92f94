"""Close to tray and start minimised in the real window: with the setting on and a tray icon shown, closing
the window (its close button, Ctrl+W-like requests) hides it and playback state lives on; Quit still quits; on a
desktop without a tray, closing quits as before. Starting minimised puts the window in the tray (or minimises
it). The offscreen test platform has no tray: the tray's presence is the one thing stood in for."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from earmark.gui.tray import TrayIcon
from helpers.gui import Launch

# The icon shown on a platform without a tray (the stand-in above) makes Qt say so once.
pytestmark = pytest.mark.qt_log_ignore("systemTrayWindowChanged")


@pytest.fixture
def tray(monkeypatch: pytest.MonkeyPatch) -> None:
    """The desktop has a system tray."""
    monkeypatch.setattr(TrayIcon, "available", staticmethod(lambda: True))


@pytest.fixture
def quiet(library_path: Path) -> None:
    set_setting(open_library(library_path), "feeds.refresh_on_start", False)


def test_closing_hides_to_the_tray_and_quit_still_quits(qtbot: QtBot, launch: Launch, tray: None,
                                                        quiet: None) -> None:
    window = launch().window
    window.preferences.set_value("appearance.close_to_tray", True)
    assert window.desktop.tray.icon.isVisible()
    window.close()  # the window's close button
    assert not window.isVisible()
    assert "goes on in the tray" in window.desktop.tray.last_message
    assert window.session.player is not None and not window.desktop.quitting  # still running
    window.desktop.tray.show_hide.trigger()  # back from the tray
    assert window.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)  # Quit: for good
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=3000)
    assert window.desktop.quitting and not window.desktop.tray.icon.isVisible()  # shut down: the icon is gone


def test_without_a_tray_closing_quits(qtbot: QtBot, launch: Launch, quiet: None,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TrayIcon, "available", staticmethod(lambda: False))
    window = launch().window
    window.preferences.set_value("appearance.close_to_tray", True)
    window.close()
    assert not window.isVisible() and not window.desktop.tray.icon.isVisible()  # shut down, not hidden
    assert window.desktop.tray.last_message == ""


def test_start_minimised(qtbot: QtBot, launch: Launch, quiet: None, tray: None,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    window = launch().window
    window.hide()
    window.desktop.show_at_start(minimised=True)  # as `earmark --minimised` starts it
    assert not window.isVisible()  # in the tray
    window.desktop.tray.show_hide.trigger()
    assert window.isVisible()
    monkeypatch.setattr(TrayIcon, "available", staticmethod(lambda: False))
    window.desktop.tray.set_enabled(True)  # no tray now
    window.hide()
    window.preferences.set_value("appearance.start_minimised", True)
    window.desktop.show_at_start(minimised=False)  # the setting
    qtbot.waitUntil(window.isMinimized, timeout=3000)
