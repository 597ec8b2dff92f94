"""A fault-injecting proxy in front of a real sync server, on 127.0.0.1: it forwards every request unless a
fault is set for the request's path, and can go down and come back on the same port.

Faults: an HTTP status (401, 500…), a malformed or a huge JSON answer, an answer slower than the client waits,
an answer that never comes after the request was forwarded (the server has it, the client never hears), and a
clock skew (the Date header moved by some seconds)."""

from __future__ import annotations

import http.client
import threading
import time
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "date", "server"}


@dataclass(frozen=True, slots=True)
class Fault:
    """What to do instead of (or after) forwarding."""

    status: int = 0  # answer with this status instead
    body: bytes = b""  # answer 200 with these bytes instead (malformed JSON)
    huge: int = 0  # answer 200 with this many bytes of a JSON array that never ends
    delay: float = 0.0  # wait this long before answering
    swallow: bool = False  # forward, then never answer (until the proxy stops)
    method: str = ""  # only for requests of this method (GET, POST); every method when empty


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class SyncProxy:
    """Forwards to ``target`` (``http://127.0.0.1:port``). ``faults`` maps a path prefix to a Fault;
    ``skew`` seconds are added to the server's Date header; ``forwarded`` counts requests by method and path."""

    def __init__(self, target: str, port: int = 0) -> None:
        self.target = urlsplit(target)
        self.faults: dict[str, Fault] = {}
        self.skew = 0.0
        self.forwarded: list[tuple[str, str]] = []
        self.stopping = threading.Event()
        self._port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    def up(self) -> SyncProxy:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
                """Quiet."""

            def do_GET(self) -> None:
                proxy._handle(self)

            def do_POST(self) -> None:
                proxy._handle(self)

        self.stopping.clear()
        self._server = _Server(("127.0.0.1", self._port), Handler)
        self._port = int(self._server.server_address[1])
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def down(self) -> None:
        """Stop listening: connections are refused until ``up()`` (on the same port)."""
        self.stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def fault(self, prefix: str, fault: Fault | None) -> None:
        """Set (or with None, clear) the fault for paths starting with ``prefix``."""
        if fault is None:
            self.faults.pop(prefix, None)
        else:
            self.faults[prefix] = fault

    def _fault_for(self, method: str, path: str) -> Fault | None:
        return next((fault for prefix, fault in self.faults.items()
                     if path.startswith(prefix) and fault.method in ("", method)), None)

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        path = urlsplit(handler.path).path
        fault = self._fault_for(handler.command, path)
        if fault is not None and fault.delay and self.stopping.wait(fault.delay):
            return
        if fault is not None and (fault.status or fault.body or fault.huge):
            self._answer_fault(handler, fault)
            return
        status, headers, answer = self._forward(handler, body)
        self.forwarded.append((handler.command, path))
        if fault is not None and fault.swallow:
            self.stopping.wait(60)
            handler.close_connection = True
            return
        handler.send_response_only(status)  # its own Date would come before the skewed one
        for name, value in headers:
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(answer)))
        handler.end_headers()
        handler.wfile.write(answer)

    def _forward(self, handler: BaseHTTPRequestHandler, body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        connection = http.client.HTTPConnection(self.target.hostname or "127.0.0.1", self.target.port, timeout=30)
        try:
            headers = {k: v for k, v in handler.headers.items() if k.lower() not in HOP_BY_HOP}
            connection.request(handler.command, handler.path, body=body or None, headers=headers)
            response = connection.getresponse()
            answer = response.read()
            kept = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP]
            date = response.getheader("Date")
            when = parsedate_to_datetime(date).timestamp() if date else time.time()
            kept.append(("Date", formatdate(when + self.skew, usegmt=True)))
            return response.status, kept, answer
        finally:
            connection.close()

    def _answer_fault(self, handler: BaseHTTPRequestHandler, fault: Fault) -> None:
        handler.send_response_only(fault.status or 200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Date", formatdate(time.time() + self.skew, usegmt=True))
        if fault.huge:
            handler.send_header("Content-Length", str(fault.huge))
            handler.end_headers()
            chunk = b'{"podcast": "http://x/", "episode": "http://x/1", "action": "play"}, ' * 1000
            sent = 0
            try:
                handler.wfile.write(b"[")
                sent = 1
                while sent < fault.huge and not self.stopping.is_set():
                    part = chunk[: fault.huge - sent]
                    handler.wfile.write(part)
                    sent += len(part)
            except OSError:
                pass  # the client stopped reading: that is the point
            return
        payload = fault.body or f'{{"error": "status {fault.status}"}}'.encode()
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)
