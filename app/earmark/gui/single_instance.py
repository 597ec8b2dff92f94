"""One window per library: a second launch hands its arguments to the running one over a local socket
(QLocalServer) and exits."""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
from pathlib import Path

from PySide6.QtCore import QDir, QLockFile, QObject, Signal, Slot
from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)
TIMEOUT_MS = 3000
ACK = b"ok\n"


def server_name(library: Path) -> str:
    """The socket name of the instance that has ``library`` open (one per user and library file)."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no user name for this uid (containers)
        user = "user"
    digest = hashlib.sha1(str(library.expanduser().resolve()).encode()).hexdigest()[:12]
    return f"earmark-{user}-{digest}"


def hand_over(name: str, arguments: list[str], timeout_ms: int = TIMEOUT_MS) -> bool:
    """Give ``arguments`` to the instance listening on ``name``; False when there is none (or it did not
    answer). Works before any QApplication exists."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(timeout_ms):
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
    lock = QLockFile(str(Path(QDir.tempPath()) / f"{name}.lock"))
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
