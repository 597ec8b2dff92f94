"""The single-instance socket's server and client in one process: a real Unix socket, the server answering from
Qt's event loop while the client waits in a thread, as a second launch would."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

from pytestqt.qtbot import QtBot

from earmark.gui.single_instance import ACK, InstanceServer, hand_over


def handed(qtbot: QtBot, name: str, arguments: list[str]) -> bool:
    """``hand_over`` from another thread, the event loop running meanwhile (the server answers from it)."""
    result: list[bool] = []
    thread = threading.Thread(target=lambda: result.append(hand_over(name, arguments, timeout_ms=5000)))
    thread.start()
    qtbot.waitUntil(lambda: bool(result), timeout=10_000)
    thread.join()
    return result[0]


def test_a_later_launch_hands_its_arguments_over(qtbot: QtBot, tmp_path: Path) -> None:
    name = str(tmp_path / "earmark-socket")
    assert not hand_over(name, ["nobody listens"])
    server = InstanceServer(name)
    assert server.listen()
    received: list[list[str]] = []
    server.arguments_received.connect(received.append)
    assert handed(qtbot, name, ["https://example.com/feed.xml", "/tmp/subs.opml"])
    assert handed(qtbot, name, [])
    assert received == [["https://example.com/feed.xml", "/tmp/subs.opml"], []]
    assert oct(Path(name).stat().st_mode & 0o777) == "0o600"
    server.close()
    assert not Path(name).exists()
    assert not hand_over(name, ["after it closed"])


def test_a_socket_left_by_a_crashed_instance_is_replaced(qtbot: QtBot, tmp_path: Path) -> None:
    name = str(tmp_path / "earmark-socket")
    crashed = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    crashed.bind(name)  # bound and closed without removing its file, as a killed process leaves it
    crashed.close()
    assert Path(name).exists() and not hand_over(name, ["x"])
    server = InstanceServer(name)
    assert server.listen()
    received: list[list[str]] = []
    server.arguments_received.connect(received.append)
    assert handed(qtbot, name, ["x"])
    assert received == [["x"]]
    server.close()


def test_a_malformed_line_is_ignored_and_the_next_one_answered(qtbot: QtBot, tmp_path: Path) -> None:
    name = str(tmp_path / "earmark-socket")
    server = InstanceServer(name)
    assert server.listen()
    received: list[list[str]] = []
    server.arguments_received.connect(received.append)
    replies: list[bytes] = []

    def talk() -> None:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as peer:
            peer.settimeout(5)
            peer.connect(name)
            peer.sendall(b"not json\n{\"arguments\": 3}\n{\"arguments\": [\"ok\"]}\n")
            replies.append(peer.recv(100))

    thread = threading.Thread(target=talk)
    thread.start()
    qtbot.waitUntil(lambda: bool(replies), timeout=10_000)
    thread.join()
    assert replies == [ACK] and received == [["ok"]]
    server.close()
