"""One window per library: a second launch hands its arguments to the running one over a Unix socket and exits.

The socket lives in a folder only its user can enter (core/privacy.py's runtime_folder), and both ends check
with SO_PEERCRED that the other is the same user: the arguments can hold private links (a feed's token), and
a name another user could take first would hand them to that user. The sockets are Python's, watched by Qt's
event loop through QSocketNotifier (QtNetwork's local sockets did the same and cost ~7 ms of every start to
load). The message is one line of JSON, ``{"arguments": [...]}``, answered by ``ok``."""

from __future__ import annotations

import errno
import json
import logging
import os
import socket
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QSocketNotifier, Signal

from earmark.core.privacy import runtime_folder

log = logging.getLogger(__name__)
TIMEOUT_MS = 3000
ACK = b"ok\n"
_MESSAGE_LIMIT = 1 << 20  # a launch's arguments are a few links and paths; more is not a launch's message


def server_name(library: Path) -> str:
    """The socket path of the instance that has ``library`` open (one per user and library file), named by two
    32-bit checksums of the file's path (zlib's, loaded already: hashlib's OpenSSL cost ~3 ms of every start);
    only the few libraries of one user meet in that folder."""
    path = str(library.expanduser().resolve()).encode()
    return str(runtime_folder() / f"earmark-{zlib.crc32(path):08x}{zlib.adler32(path):08x}")


def same_user(peer: socket.socket) -> bool:
    """Whether the process at the other end of a connected Unix socket runs as this user (SO_PEERCRED)."""
    if not hasattr(socket, "SO_PEERCRED"):
        return False
    try:
        credentials = peer.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except OSError:
        return False
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return uid == os.getuid()


def hand_over(name: str, arguments: list[str], timeout_ms: int = TIMEOUT_MS) -> bool:
    """Give ``arguments`` to the instance listening on ``name``; False when there is none (or it did not
    answer). Works before any QApplication exists."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as peer:
        peer.settimeout(timeout_ms / 1000)
        try:
            peer.connect(name)
        except OSError:  # no socket, or nobody listening on it (a crashed instance's)
            return False
        if not same_user(peer):
            log.warning("The socket %s belongs to another user: nothing was handed to it", name)
            return False
        try:
            peer.sendall(json.dumps({"arguments": arguments}).encode() + b"\n")
            reply = _read_line(peer)
        except OSError:  # it went away, or did not answer in time
            return False
    return reply == ACK


def _read_line(peer: socket.socket) -> bytes:
    received = b""
    while not received.endswith(b"\n") and len(received) < _MESSAGE_LIMIT:
        chunk = peer.recv(4096)
        if not chunk:
            break
        received += chunk
    return received


class InstanceServer(QObject):
    """Listens for later launches on ``name``. Signal: ``arguments_received(list)``, the other launch's
    arguments (possibly none: it only wants the window raised)."""

    arguments_received = Signal(list)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self._listener: socket.socket | None = None
        self._notifier: QSocketNotifier | None = None
        self._clients: set[_Client] = set()

    def listen(self) -> bool:
        """Start listening (replacing a socket left behind by a crashed instance)."""
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            try:
                listener.bind(self.name)
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE:
                    raise
                os.unlink(self.name)  # nobody answered on it (see claim_or_hand_over): a crashed instance's
                listener.bind(self.name)
            os.chmod(self.name, 0o600)
            listener.listen(8)
        except OSError as exc:
            listener.close()
            log.warning("Cannot listen for other launches on %s: %s", self.name, exc)
            return False
        listener.setblocking(False)
        self._listener = listener
        self._notifier = QSocketNotifier(listener.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._accept)
        return True

    def close(self) -> None:
        """Stop listening (the socket file goes too)."""
        if self._notifier is not None:
            self._notifier.setEnabled(False)
        for client in list(self._clients):
            client.close()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
            try:
                os.unlink(self.name)
            except FileNotFoundError:
                pass

    def _accept(self) -> None:
        while self._listener is not None:
            try:
                peer, _address = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            if not same_user(peer):
                log.warning("Refused a connection from another user's process")
                peer.close()
                continue
            peer.setblocking(False)
            self._clients.add(_Client(peer, self, self._clients.discard))


class _Client(QObject):
    """One later launch's connection: reads its lines, answers each, passes on its arguments."""

    def __init__(self, peer: socket.socket, server: InstanceServer,
                 closed: Callable[[_Client], None]) -> None:
        super().__init__(server)
        self._peer, self._server, self._closed, self._received = peer, server, closed, b""
        self._notifier = QSocketNotifier(peer.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._read)

    def close(self) -> None:
        self._notifier.setEnabled(False)
        self._peer.close()
        self._closed(self)
        self.deleteLater()

    def _read(self) -> None:
        try:
            chunk = self._peer.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        self._received += chunk
        while b"\n" in self._received:
            line, self._received = self._received.split(b"\n", 1)
            self._answer(line)
        if not chunk or len(self._received) > _MESSAGE_LIMIT:
            self.close()

    def _answer(self, line: bytes) -> None:
        try:
            message = json.loads(line)
            arguments = [str(a) for a in message["arguments"]]
        except (ValueError, KeyError, TypeError):
            log.warning("Ignored a malformed message from another launch: %r", line[:200])
            return
        try:
            self._peer.sendall(ACK)
        except OSError:
            pass  # it went away: its arguments are still opened
        self._server.arguments_received.emit(arguments)


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
