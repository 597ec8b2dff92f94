"""One window per library: a second launch hands its arguments to the running one over a local socket
(QLocalServer) and exits.

The socket lives in a folder only its user can enter (core/privacy.py's runtime_folder), and both ends check
with SO_PEERCRED that the other is the same user: the arguments can hold private links (a feed's token), and
a name another user could take first would hand them to that user."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket as pysocket
import struct
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, Signal, Slot
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from earmark.core.privacy import runtime_folder

log = logging.getLogger(__name__)
TIMEOUT_MS = 3000
ACK = b"ok\n"


def server_name(library: Path) -> str:
    """The socket path of the instance that has ``library`` open (one per user and library file)."""
    digest = hashlib.sha1(str(library.expanduser().resolve()).encode()).hexdigest()[:12]
    return str(runtime_folder() / f"earmark-{digest}")


def same_user(socket: QLocalSocket) -> bool:
    """Whether the process at the other end of a connected socket runs as this user (SO_PEERCRED)."""
    descriptor = int(socket.socketDescriptor())
    if descriptor < 0 or not hasattr(pysocket, "SO_PEERCRED"):
        return False
    peer = pysocket.socket(fileno=os.dup(descriptor))
    try:
        credentials = peer.getsockopt(pysocket.SOL_SOCKET, pysocket.SO_PEERCRED, struct.calcsize("3i"))
    except OSError:
        return False
    finally:
        peer.close()
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return uid == os.getuid()


def hand_over(name: str, arguments: list[str], timeout_ms: int = TIMEOUT_MS) -> bool:
    """Give ``arguments`` to the instance listening on ``name``; False when there is none (or it did not
    answer). Works before any QApplication exists."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(timeout_ms):
        return False
    if not same_user(socket):
        log.warning("The socket %s belongs to another user: nothing was handed to it", name)
        socket.abort()
        return False
    socket.write(json.dumps({"arguments": arguments}).encode() + b"\n")
    answered = socket.waitForBytesWritten(timeout_ms) and _wait_for_line(socket, timeout_ms)
    reply = bytes(socket.readLine().data()) if answered else b""
    socket.disconnectFromServer()
    return reply == ACK


def _wait_for_line(socket: QLocalSocket, timeout_ms: int) -> bool:
    while not socket.canReadLine():
        if not socket.waitForReadyRead(timeout_ms):
            return False
    return True


class InstanceServer(QObject):
    """Listens for later launches on ``name``. Signal: ``arguments_received(list)``, the other launch's
    arguments (possibly none: it only wants the window raised)."""

    arguments_received = Signal(list)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._on_connection)

    def listen(self) -> bool:
        """Start listening (replacing a socket left behind by a crashed instance)."""
        if self._server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)
        if self._server.listen(self.name):
            return True
        log.warning("Cannot listen for other launches on %s: %s", self.name, self._server.errorString())
        return False

    def close(self) -> None:
        """Stop listening (the socket file goes too)."""
        self._server.close()

    @Slot()
    def _on_connection(self) -> None:
        while (socket := self._server.nextPendingConnection()) is not None:
            if not same_user(socket):
                log.warning("Refused a connection from another user's process")
                socket.abort()
                socket.deleteLater()
                continue
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(socket.deleteLater)
            self._read(socket)

    def _read(self, socket: QLocalSocket) -> None:
        while socket.canReadLine():
            line = bytes(socket.readLine().data())
            try:
                message = json.loads(line)
                arguments = [str(a) for a in message["arguments"]]
            except (ValueError, KeyError, TypeError):
                log.warning("Ignored a malformed message from another launch: %r", line[:200])
                continue
            socket.write(ACK)
            socket.flush()
            self.arguments_received.emit(arguments)


def claim_or_hand_over(name: str, arguments: list[str]) -> InstanceServer | None:
    """Become the instance for ``name`` (the listening server is returned), or hand ``arguments`` to the one
    already running and return None. A lock file keeps two simultaneous launches from both claiming."""
    lock = QLockFile(f"{name}.lock")
    lock.setStaleLockTime(10_000)
    locked = lock.tryLock(TIMEOUT_MS)
    try:
        if hand_over(name, arguments):
            return None
        server = InstanceServer(name)
        server.listen()
        return server
    finally:
        if locked:
            lock.unlock()
