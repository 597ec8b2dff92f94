"""A real gpodder.net (mygpo API v2) server for sync tests: the PyPI package gpodder-fastapi-router under
uvicorn with aiosqlite, in a virtual environment of its own (it declares Python >= 3.12 but runs on 3.11), on
127.0.0.1. Users are made with its own ``gpodder-router create-user`` command.

The environment is built once per machine in the user's cache folder; where it cannot be built (no network, no
venv module) the tests that need the server skip with the reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from helpers.feed_server import basic_auth, closed_port

PACKAGES = ("gpodder-fastapi-router==0.1.3", "uvicorn", "aiosqlite")
STARTUP_SECONDS = 60.0
APP = '''"""The mygpo server the sync tests talk to (made by tests/helpers/mygpo_server.py)."""
import os
from fastapi import FastAPI
from gpodder_router import GPodderConfig, attach

app = FastAPI()
attach(app, config=GPodderConfig(database_url=os.environ["GPODDER_DATABASE_URL"], bcrypt_rounds=4,
                                 enable_dashboard=False, allow_registration=False))
'''


def environment() -> Path:
    """The server's virtual environment, built when missing; skips the test with the reason when it cannot be."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "earmark-tests"
    venv = cache / "mygpo-venv"
    ready = venv / ".ready"
    if ready.exists() and (venv / "bin" / "gpodder-router").exists():
        return venv
    cache.mkdir(parents=True, exist_ok=True)
    steps = [[sys.executable, "-m", "venv", "--clear", str(venv)],
             [str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
              "--ignore-requires-python", *PACKAGES]]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            reason = (done.stderr.strip().splitlines() or ["no output"])[-1]
            pytest.skip(f"the mygpo test server could not be installed ({' '.join(step[:3])}…: {reason})")
    ready.write_text(" ".join(PACKAGES) + "\n")
    return venv


class MygpoServer:
    """gpodder-fastapi-router running in its own process on 127.0.0.1 (a port of its own)."""

    def __init__(self, venv: Path, folder: Path) -> None:
        self.venv = venv
        self.folder = folder
        self.port = closed_port()
        self.database = f"sqlite+aiosqlite:///{folder / 'gpodder.db'}"
        self._process: subprocess.Popen[bytes] | None = None
        self._users = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> MygpoServer:
        (self.folder / "mygpo_app.py").write_text(APP)
        env = {**os.environ, "GPODDER_DATABASE_URL": self.database, "PYTHONPATH": str(self.folder)}
        log = (self.folder / "server.log").open("wb")
        self._process = subprocess.Popen(
            [str(self.venv / "bin" / "python"), "-m", "uvicorn", "mygpo_app:app", "--host", "127.0.0.1",
             "--port", str(self.port), "--log-level", "warning"], cwd=self.folder, env=env, stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"the mygpo server stopped: {(self.folder / 'server.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(f"{self.url}/api/2/auth/nobody/logout.json", data=b"", timeout=2).close()
                return self
            except urllib.error.HTTPError:
                return self  # it answers
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the mygpo server did not start within a minute")

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()

    def new_user(self, password: str = "secret-pw") -> tuple[str, str]:
        """A new user (name, password), made with the server's own command."""
        self._users += 1
        name = f"user{self._users}"
        subprocess.run([str(self.venv / "bin" / "gpodder-router"), "--database-url", self.database, "create-user",
                        name, "--password", password], check=True, capture_output=True, timeout=60)
        return name, password

    def call(self, method: str, path: str, user: tuple[str, str], body: object = None) -> object:
        """A raw API request as another client (a phone) makes it, with basic auth; the decoded answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Authorization": basic_auth(*user),
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as response:
            raw = response.read()
        return json.loads(raw) if raw else None
