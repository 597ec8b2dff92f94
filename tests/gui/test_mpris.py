"""MPRIS 2 against a real session bus (a dbus-daemon started by the test), queried with dbus-send as a
desktop's media controls would: metadata, PlayPause, Seek, SetPosition, Position."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QThread, QUrl
from PySide6.QtDBus import QDBusConnection
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from earmark.core.artwork import artwork_url
from earmark.core.db.connection import open_library
from earmark.gui.mpris import PATH, SERVICE, Mpris
from earmark.playback.player import PlayerState
from helpers.feed_server import FeedServer
from helpers.gui import Launch

pytestmark = pytest.mark.vlc
PLAYER = "org.mpris.MediaPlayer2.Player"


@pytest.fixture
def bus_address() -> Iterator[str]:
    """A private session bus for this test."""
    daemon = shutil.which("dbus-daemon")
    if daemon is None or shutil.which("dbus-send") is None:
        pytest.skip("dbus-daemon or dbus-send is missing (packaging/install-system-deps installs them)")
    out = subprocess.run([daemon, "--session", "--fork", "--print-address=1", "--print-pid=1", "--nopidfile"],
                         capture_output=True, text=True, timeout=10, check=True).stdout.split()
    address, pid = out[0], int(out[1])
    yield address
    os.kill(pid, signal.SIGTERM)


class BusClient(QThread):
    """Runs one D-Bus client command off the GUI thread (the window must keep answering meanwhile)."""

    def __init__(self, address: str, args: list[str]) -> None:
        super().__init__()
        self.args = args
        self.env = {**os.environ, "DBUS_SESSION_BUS_ADDRESS": address}
        self.output = ""

    def run(self) -> None:
        result = subprocess.run(self.args, capture_output=True, text=True, timeout=10, env=self.env)
        self.output = result.stdout + result.stderr


def ask(qtbot: QtBot, address: str, *args: str) -> str:
    client = BusClient(address, list(args))
    with qtbot.waitSignal(client.finished, timeout=12_000):
        client.start()
    return client.output


def get(qtbot: QtBot, address: str, name: str, interface: str = PLAYER) -> str:
    """A property as dbus-send prints it, e.g. ``variant string "Earmark"`` (whitespace folded)."""
    reply = ask(qtbot, address, "dbus-send", "--session", "--print-reply", f"--dest={SERVICE}", PATH,
                "org.freedesktop.DBus.Properties.Get", f"string:{interface}", f"string:{name}")
    return " ".join(reply.split("\n", 1)[1].split()) if "\n" in reply else reply


def call(qtbot: QtBot, address: str, method: str, *args: str) -> str:
    return ask(qtbot, address, "dbus-send", "--session", "--print-reply", f"--dest={SERVICE}", PATH,
               f"{PLAYER}.{method}", *args)


def test_desktop_media_controls_see_and_drive_earmark(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                      bus_address: str) -> None:
    parts = launch()
    window, player = parts.window, parts.session.player
    bus = QDBusConnection.connectToBus(bus_address, "earmark-test-bus")
    mpris = Mpris(parts.session, window, window.queue, bus, parent=window)
    assert mpris.registered
    try:
        assert get(qtbot, bus_address, "Identity", "org.mpris.MediaPlayer2") == 'variant string "Earmark"'
        assert get(qtbot, bus_address, "PlaybackStatus") == 'variant string "Stopped"'
        qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
        window.item_list.setCurrentIndex(window.items_model.index(0, 0))
        window.opener.play_selected()
        qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
        metadata = get(qtbot, bus_address, "Metadata")
        item = parts.session.item
        assert item is not None
        assert 'string "xesam:title" variant string "Newest episode"' in metadata
        assert 'string "xesam:album" variant string "Test Cast"' in metadata
        assert f'string "mpris:trackid" variant object path "/org/earmark/item/{item.id}"' in metadata
        assert re.search(r'string "mpris:length" variant int(32|64) 6000000\b', metadata)  # 6 s, in µs
        assert get(qtbot, bus_address, "PlaybackStatus") == 'variant string "Playing"'

        call(qtbot, bus_address, "PlayPause")
        qtbot.waitUntil(lambda: player.state == PlayerState.PAUSED, timeout=5000)
        assert get(qtbot, bus_address, "PlaybackStatus") == 'variant string "Paused"'
        before = player.position()
        call(qtbot, bus_address, "Seek", "int64:3000000")  # 3 s ahead, in microseconds
        qtbot.waitUntil(lambda: abs(player._player.get_time() / 1000 - (before + 3.0)) < 0.5,  # type: ignore[attr-defined]
                        timeout=5000)
        position = int(get(qtbot, bus_address, "Position").split()[-1])  # "variant int64 N"
        assert abs(position / 1e6 - (before + 3.0)) < 0.5
        call(qtbot, bus_address, "SetPosition", f"objpath:/org/earmark/item/{item.id}", "int64:1000000")
        qtbot.waitUntil(lambda: abs(player.position() - 1.0) < 0.5, timeout=5000)
        call(qtbot, bus_address, "PlayPause")
        qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=5000)
    finally:
        mpris.unregister()
        QDBusConnection.disconnectFromBus("earmark-test-bus")


def playerctl(qtbot: QtBot, address: str, *args: str) -> str:
    """What playerctl (the desktop's command-line media control) says of Earmark on the test's bus."""
    if shutil.which("playerctl") is None:
        pytest.skip("playerctl is missing (Debian package playerctl)")
    return ask(qtbot, address, "playerctl", "--player=earmark", *args).strip()


def test_the_desktop_shows_the_podcasts_cover_and_stop_stops(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                             library_path: Path, bus_address: str,
                                                             tmp_path: Path) -> None:
    cover = (Path(__file__).parents[1] / "fixtures" / "images" / "cover.jpg").read_bytes()
    with FeedServer(tmp_path / "served") as server:
        image = server.serve_body("/cover.jpg", cover, "image/jpeg")
        db = open_library(library_path)
        db.execute("UPDATE sources SET image_url = ?", [image])  # the feed named its podcast's image
        db.conn.commit()
        db.close()
        parts = launch()
        window, player = parts.window, parts.session.player
        bus = QDBusConnection.connectToBus(bus_address, "earmark-art-bus")
        mpris = Mpris(parts.session, window, window.queue, bus, parent=window,
                      artwork=lambda item_id: artwork_url(open_library(library_path), item_id))
        try:
            qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
            window.item_list.setCurrentIndex(window.items_model.index(0, 0))
            window.opener.play_selected()
            qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
            qtbot.waitUntil(lambda: mpris.player.art is not None, timeout=8000)
            art = playerctl(qtbot, bus_address, "metadata", "mpris:artUrl")
            assert art.startswith("file://"), art
            shown = QImage(QUrl(art).toLocalFile())  # the cover cache's copy, checked and made square
            assert (shown.width(), shown.height()) == (256, 256)
            assert playerctl(qtbot, bus_address, "status") == "Playing"
            playerctl(qtbot, bus_address, "stop")
            qtbot.waitUntil(lambda: player.state == PlayerState.PAUSED, timeout=5000)
            assert playerctl(qtbot, bus_address, "status") == "Stopped"
            playerctl(qtbot, bus_address, "play")
            qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=5000)
            assert playerctl(qtbot, bus_address, "status") == "Playing"
        finally:
            mpris.unregister()
            QDBusConnection.disconnectFromBus("earmark-art-bus")
