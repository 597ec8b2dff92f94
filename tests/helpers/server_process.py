"""A sync server for tests in a process of its own on 127.0.0.1 (a port of its own): started and waited for until
it answers, stopped, and called as another client (a phone) calls it."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from helpers.feed_server import basic_auth, closed_port


class ServerProcess:
    """What mygpo's and oPodSync's servers share; ``name`` says which one in a failure's sentence."""

    name = "the server"

    def __init__(self) -> None:
        self.port = closed_port()
        self._process: subprocess.Popen[bytes] | None = None
        self._users = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _run(self, command: list[str], log: Path, probe: str, seconds: float, **popen: object) -> None:
        """Start ``command`` (its output to ``log``) and wait until ``probe`` (a path) answers, at most ``seconds``."""
        with log.open("wb") as out:
            self._process = subprocess.Popen(command, stdout=out, stderr=out, **popen)  # type: ignore[call-overload]
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"{self.name} stopped: {log.read_text()[-2000:]}")
            try:
                urllib.request.urlopen(self.url + probe, data=None if probe == "/" else b"", timeout=2).close()
                return
            except urllib.error.HTTPError:
                return  # it answers
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not start within {seconds:g} s")

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()

    def _next_name(self) -> str:
        self._users += 1
        return f"user{self._users}"

    def call(self, method: str, path: str, user: tuple[str, str], body: object = None) -> object:
        """A raw API request as another client makes it, with basic auth; the decoded answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Authorization": basic_auth(*user),
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as response:
            raw = response.read()
        return json.loads(raw) if raw else None
