"""A real Secret Service for tests: gnome-keyring-daemon on a private D-Bus session bus (dbus-run-session),
its login keyring created and unlocked with a test password, in a home folder of the test's own.

Skips the test with the reason where gnome-keyring-daemon or dbus-run-session is missing (a user's clone
without the Debian packages)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

START_SECONDS = 20.0
SCRIPT = """printf '%s\\n' "$DBUS_SESSION_BUS_ADDRESS" > "$1.partial" && mv "$1.partial" "$1"
printf 'test-unlock' | gnome-keyring-daemon --unlock --components=secrets > /dev/null
exec sleep 3600
"""


class KeyringService:
    """The bus address to put in DBUS_SESSION_BUS_ADDRESS while the keyring runs."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.address = ""
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> KeyringService:
        for program in ("dbus-run-session", "gnome-keyring-daemon"):
            if shutil.which(program) is None:
                pytest.skip(f"{program} is not installed (Debian packages dbus-bin and gnome-keyring)")
        home = self.folder / "home"
        home.mkdir(parents=True, exist_ok=True)
        address_file = self.folder / "bus-address"
        env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
               "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"),
               "XDG_RUNTIME_DIR": str(self.folder)}
        env.pop("DISPLAY", None)  # an unlock prompt must never appear on someone's screen
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        self._process = subprocess.Popen(["dbus-run-session", "--", "sh", "-c", SCRIPT, "keyring",
                                          str(address_file)], env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if address_file.exists() and self._ready(address_file.read_text().strip()):
                return self
            if self._process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        pytest.skip("gnome-keyring-daemon did not offer an unlocked keyring on a private bus")

    def _ready(self, address: str) -> bool:
        """Whether the login keyring exists and is unlocked on the bus at ``address``."""
        import secretstorage

        previous = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = address
        try:
            connection = secretstorage.dbus_init()
            try:
                collection = secretstorage.get_default_collection(connection)
                ready = not collection.is_locked()
            finally:
                connection.close()
        except Exception:  # noqa: BLE001  # not up yet, in any of D-Bus's ways
            ready = False
        finally:
            if previous is None:
                os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
            else:
                os.environ["DBUS_SESSION_BUS_ADDRESS"] = previous
        if ready:
            self.address = address
        return ready

    def stop(self) -> None:
        """End the bus and everything on it (the keyring daemon exits with its bus)."""
        if self._process is not None and self._process.poll() is None:
            os.killpg(self._process.pid, signal.SIGTERM)
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self._process.pid, signal.SIGKILL)
                self._process.wait()
