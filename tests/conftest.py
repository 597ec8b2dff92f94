"""Shared test set-up: Qt offscreen unless a display is given, and library/audio fixtures."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.feed_server import FeedServer
from helpers.keyring_service import KeyringService
from helpers.mygpo_server import MygpoServer, environment
from helpers.reading import PAGES

# Qt offscreen on a 1920×1080 screen of its own, also where a display is at hand: a window's size, saved and
# restored, must not depend on the host's screen (restoreGeometry fits a window to the screen it is on: 1400 px
# saved came back as 1162 on a laptop). Qt's offscreen default is 800×800, which squeezed windows to fit.
# QT_QPA_PLATFORM set by hand (xcb, to watch the tests on a display) wins.
SCREEN = Path(__file__).resolve().parent / "helpers" / "offscreen-screen.json"
os.environ.setdefault("QT_QPA_PLATFORM", f"offscreen:configfile={SCREEN}")
os.environ.setdefault("EARMARK_VLC_ARGS", "--aout=dummy")


@pytest.fixture(autouse=True)
def desktop_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's own desktop settings file (window layout, theme, library path), never the user's."""
    path = tmp_path / "config" / "earmark.conf"
    monkeypatch.setenv("EARMARK_CONFIG", str(path))
    return path


@pytest.fixture(autouse=True)
def cover_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's own cover cache, never the user's."""
    path = tmp_path / "covers"
    monkeypatch.setenv("EARMARK_COVERS", str(path))
    return path


@pytest.fixture(autouse=True)
def no_modifier_held_over() -> Iterator[None]:
    """No keyboard modifier stays held from one test into the next. QTest's key click skips its release when the
    widget it pressed on is gone by then (a shortcut that switched views), and Qt then takes Shift or Ctrl for held:
    the next test's selectRow extended a selection instead of making one."""
    yield
    qt = sys.modules.get("PySide6.QtWidgets")
    if qt is None or qt.QApplication.instance() is None:
        return
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    if qt.QApplication.keyboardModifiers() != Qt.KeyboardModifier.NoModifier:
        widget = qt.QWidget()
        for key in (Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta):
            QTest.keyRelease(widget, key)
        widget.deleteLater()


@pytest.fixture(autouse=True)
def no_session_bus(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reaches the user's own session bus (and so never their keyring): tests that need a keyring use
    ``keyring_bus``, with a private one."""
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)


@pytest.fixture(scope="session")
def keyring_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KeyringService]:
    """gnome-keyring-daemon, unlocked, on a private session bus for the whole test session."""
    service = KeyringService(tmp_path_factory.mktemp("keyring")).start()
    yield service
    service.stop()


@pytest.fixture
def keyring_bus(keyring_service: KeyringService, monkeypatch: pytest.MonkeyPatch) -> str:
    """This test (and the programs it starts) reach the test keyring: its bus address."""
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", keyring_service.address)
    return keyring_service.address


@pytest.fixture(scope="session")
def mygpo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MygpoServer]:
    """A real gpodder.net API v2 server (gpodder-fastapi-router) on 127.0.0.1 for the whole test session."""
    server = MygpoServer(environment(), tmp_path_factory.mktemp("mygpo")).start()
    yield server
    server.stop()


@pytest.fixture
def library_path(tmp_path: Path) -> Path:
    """Where a test's library file lives (not created yet)."""
    return tmp_path / "library.db"


@pytest.fixture
def page_server() -> Iterator[FeedServer]:
    """A real HTTP server on 127.0.0.1 serving the article pages of tests/fixtures/reading/pages, plus routes."""
    with FeedServer(PAGES) as server:
        yield server
