"""A real gpodder.net (mygpo API v2) server for sync tests: the PyPI package gpodder-fastapi-router under
uvicorn with aiosqlite, in a virtual environment of its own (it declares Python >= 3.12 but runs on 3.11), on
127.0.0.1. Users are made with its own ``gpodder-router create-user`` command.

The environment is built once per machine in the user's cache folder; where it cannot be built (no network, no
venv module) the tests that need the server skip with the reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.server_process import ServerProcess

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


class MygpoServer(ServerProcess):
    """gpodder-fastapi-router running in its own process on 127.0.0.1 (a port of its own)."""

    name = "the mygpo server"

    def __init__(self, venv: Path, folder: Path) -> None:
        super().__init__()
        self.venv = venv
        self.folder = folder
        self.database = f"sqlite+aiosqlite:///{folder / 'gpodder.db'}"

    def start(self) -> MygpoServer:
        (self.folder / "mygpo_app.py").write_text(APP)
        env = {**os.environ, "GPODDER_DATABASE_URL": self.database, "PYTHONPATH": str(self.folder)}
        self._run([str(self.venv / "bin" / "python"), "-m", "uvicorn", "mygpo_app:app", "--host", "127.0.0.1",
                   "--port", str(self.port), "--log-level", "warning"], self.folder / "server.log",
                  "/api/2/auth/nobody/logout.json", STARTUP_SECONDS, cwd=self.folder, env=env)
        return self

    def new_user(self, password: str = "secret-pw") -> tuple[str, str]:
        """A new user (name, password), made with the server's own command."""
        name = self._next_name()
        subprocess.run([str(self.venv / "bin" / "gpodder-router"), "--database-url", self.database, "create-user",
                        name, "--password", password], check=True, capture_output=True, timeout=60)
        return name, password
