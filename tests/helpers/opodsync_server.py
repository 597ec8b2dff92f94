"""oPodSync as a real sync server for tests: the PHP program (kd2org/opodsync, vendored unchanged under
tests/servers/opodsync) under PHP's built-in web server on 127.0.0.1, its SQLite data in a folder of the test's
own. It speaks both the gpodder.net API v2 and the Nextcloud gPodder Sync API. Users are written into its
database with a PHP ``password_hash``, as its registration page stores them.

Tests that need it skip with the reason only where php (Debian's php-cli and php-sqlite3) is missing;
packaging/install-system-deps installs both, so CI runs them."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from helpers.feed_server import basic_auth, closed_port

SERVER = Path(__file__).resolve().parents[1] / "servers" / "opodsync" / "server"
STARTUP_SECONDS = 20.0


def php() -> str:
    """The php program, with SQLite; skips the test with the reason when there is none."""
    found = shutil.which("php")
    if found is None:
        pytest.skip("php is not installed (Debian packages php-cli and php-sqlite3: packaging/install-system-deps)")
    check = subprocess.run([found, "-r", "exit(class_exists('SQLite3') ? 0 : 1);"], capture_output=True, timeout=30)
    if check.returncode != 0:
        pytest.skip("php has no SQLite3 (Debian package php-sqlite3: packaging/install-system-deps)")
    return found


class OpodsyncServer:
    """oPodSync in its own process on 127.0.0.1 (a port of its own)."""

    def __init__(self, program: str, folder: Path) -> None:
        self.php = program
        self.data = folder / "data"
        self.port = closed_port()
        self._process: subprocess.Popen[bytes] | None = None
        self._users = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> OpodsyncServer:
        self.data.mkdir(parents=True, exist_ok=True)
        log = (self.data.parent / "server.log").open("wb")
        self._process = subprocess.Popen(
            [self.php, "-S", f"127.0.0.1:{self.port}", "-d", "variables_order=EGPCS", "-t", str(SERVER),
             str(SERVER / "index.php")], env={"PATH": "/usr/bin:/bin", "DATA_ROOT": str(self.data)},
            stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"oPodSync stopped: {(self.data.parent / 'server.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(self.url + "/", timeout=2).close()  # makes its database
                return self
            except urllib.error.HTTPError:
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("oPodSync did not start within 20 s")

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait(10)

    def new_user(self, password: str = "secret-pw") -> tuple[str, str]:
        """A new user (name, password)."""
        self._users += 1
        name = f"user{self._users}"
        hashed = subprocess.run([self.php, "-r", "echo password_hash($argv[1], PASSWORD_DEFAULT);", password],
                                capture_output=True, text=True, check=True, timeout=30).stdout
        with sqlite3.connect(self.data / "data.sqlite") as db:
            db.execute("INSERT INTO users (name, password) VALUES (?, ?)", [name, hashed])
        db.close()
        return name, password

    def call(self, method: str, path: str, user: tuple[str, str], body: object = None) -> object:
        """A raw API request as another client makes it, with basic auth; the decoded answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Authorization": basic_auth(*user),
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as response:
            raw = response.read()
        return json.loads(raw) if raw else None
