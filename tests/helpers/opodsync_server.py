"""oPodSync as a real sync server for tests: the PHP program (kd2org/opodsync, vendored unchanged under
tests/servers/opodsync) under PHP's built-in web server on 127.0.0.1, its SQLite data in a folder of the test's
own. It speaks both the gpodder.net API v2 and the Nextcloud gPodder Sync API. Users are written into its
database with a PHP ``password_hash``, as its registration page stores them.

Tests that need it skip with the reason only where php (Debian's php-cli and php-sqlite3) is missing;
packaging/install-system-deps installs both, so CI runs them."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from helpers.server_process import ServerProcess

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


class OpodsyncServer(ServerProcess):
    """oPodSync in its own process on 127.0.0.1 (a port of its own)."""

    name = "oPodSync"

    def __init__(self, program: str, folder: Path) -> None:
        super().__init__()
        self.php = program
        self.data = folder / "data"

    def start(self) -> OpodsyncServer:
        self.data.mkdir(parents=True, exist_ok=True)
        self._run([self.php, "-S", f"127.0.0.1:{self.port}", "-d", "variables_order=EGPCS", "-t", str(SERVER),
                   str(SERVER / "index.php")], self.data.parent / "server.log", "/",  # "/" makes its database
                  STARTUP_SECONDS, env={"PATH": "/usr/bin:/bin", "DATA_ROOT": str(self.data)})
        return self

    def new_user(self, password: str = "secret-pw") -> tuple[str, str]:
        """A new user (name, password)."""
        name = self._next_name()
        hashed = subprocess.run([self.php, "-r", "echo password_hash($argv[1], PASSWORD_DEFAULT);", password],
                                capture_output=True, text=True, check=True, timeout=30).stdout
        with sqlite3.connect(self.data / "data.sqlite") as db:
            db.execute("INSERT INTO users (name, password) VALUES (?, ?)", [name, hashed])
        db.close()
        return name, password
