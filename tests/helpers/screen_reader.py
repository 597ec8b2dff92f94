"""The real app as a screen reader meets it: Earmark's own process on a private X server (Xvfb -displayfd) and a
private D-Bus session bus, with Qt's accessibility always on, read through AT-SPI by tests/helpers/atspi_probe.py
(run with the system Python that has Debian's python3-pyatspi); keys are typed with xdotool."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers.waiting import wait_for

SYSTEM_PYTHON = "/usr/bin/python3"
PROBE = Path(__file__).with_name("atspi_probe.py")
WINDOW = "Earmark — library.db"


def missing() -> str:
    """Why the screen-reader journeys cannot run here ("" when they can)."""
    for tool in ("Xvfb", "xdotool", "dbus-daemon"):
        if not shutil.which(tool):
            return f"needs {tool} (packaging/install-system-deps)"
    if not Path(SYSTEM_PYTHON).exists() or subprocess.run(
            [SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, timeout=30).returncode:
        return "needs Debian's python3-pyatspi and at-spi2-core (packaging/install-system-deps)"
    return ""



@dataclass
class AccessibleApp:
    """The running app: ``keys`` types, ``tree``/``focused`` read the accessibility bus, ``listen`` hears."""

    env: dict[str, str]

    def xdotool(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], capture_output=True, text=True, env=self.env,
                              timeout=30).stdout.strip()

    def keys(self, *names: str) -> None:
        for name in names:
            self.xdotool("key", "--clearmodifiers", name)
            time.sleep(0.4)

    def probe(self, *command: str) -> object:
        done = subprocess.run([SYSTEM_PYTHON, str(PROBE), *command], capture_output=True, text=True,
                              env=self.env, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def tree(self) -> list[dict[str, object]]:
        """Every object of the app's window, in order, with its depth."""
        found = self.probe("tree")
        assert isinstance(found, list)
        return found

    def focused(self) -> dict[str, object]:
        """The object with the keyboard focus, as the screen reader reads it."""
        found = self.probe("focused")
        assert isinstance(found, dict), "nothing has the focus"
        return found

    def listen(self, seconds: float = 120) -> Listener:
        """Start hearing the app's announcements and focus changes for ``seconds`` (returns once listening)."""
        process = subprocess.Popen([SYSTEM_PYTHON, str(PROBE), "listen", str(seconds)], stdout=subprocess.PIPE,
                                   env=self.env, bufsize=0)
        listener = Listener(process)
        listener.wait_ready()
        return listener


class Listener:
    """What the app says while it runs: the probe's ``listen`` output, read line by line as it comes."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.heard: list[dict[str, object]] = []
        self._pending = b""

    def wait_ready(self) -> None:
        """Wait until the probe listens (it says ``ready``)."""
        stream = self.process.stdout
        assert stream is not None
        while b"ready\n" not in self._pending:
            chunk = os.read(stream.fileno(), 65536)
            assert chunk, "the probe stopped before listening"
            self._pending += chunk
        self._pending = self._pending.split(b"ready\n", 1)[1]

    def next_focus(self, seconds: float = 10) -> dict[str, object]:
        """The next object the app says got the keyboard focus (focus changes before it are skipped)."""
        deadline = time.monotonic() + seconds
        focus: dict[str, object] | None = None
        while time.monotonic() < deadline:
            line = self._line(0.8 if focus is not None else deadline - time.monotonic())
            if line is None:
                if focus is not None:
                    return focus  # the last focus change of this burst
                continue
            if line["type"] == "object:state-changed:focused" and line["detail"] == 1:
                focus = line
        if focus is None:
            raise AssertionError(f"no focus change heard; heard {self.heard[-5:]}")
        return focus

    def said(self, seconds: float) -> list[str]:
        """The announcements heard from the start until ``seconds`` from now."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._line(deadline - time.monotonic())
        return [str(event["text"]) for event in self.heard if event["type"] == "object:announcement"]

    def _line(self, seconds: float) -> dict[str, object] | None:
        """The next event heard within ``seconds`` (None: none came). Read straight from the pipe, so no line
        waits unseen in a reader's buffer."""
        stream = self.process.stdout
        assert stream is not None
        deadline = time.monotonic() + max(seconds, 0)
        while b"\n" not in self._pending:
            # poll, not select: a long test run has far more than FD_SETSIZE (1024) files open by now
            if not _readable(stream.fileno(), max(deadline - time.monotonic(), 0)):
                return None
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                return None
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        if not line.startswith(b"{"):
            return None
        event = json.loads(line)
        self.heard.append(event)
        return event

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        if self.process.stdout is not None:
            self.process.stdout.close()


def _start(command: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    """Start a server that prints where to reach it on its first line."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen([arg.replace("{fd}", str(write_end)) for arg in command], pass_fds=(write_end,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, text=True)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        return server, pipe.readline().strip()


@pytest.fixture
def accessible_app(tmp_path: Path, library_path: Path, sample: None) -> Iterator[AccessibleApp]:
    """The app on the sample library, its window shown and given the keyboard, readable through AT-SPI."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    servers: list[subprocess.Popen[str] | subprocess.Popen[bytes]] = []
    try:
        xvfb, display = _start(["Xvfb", "-displayfd", "{fd}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
        servers.append(xvfb)
        bus, address = _start(["dbus-daemon", "--session", "--nofork", "--print-address={fd}"])
        servers.append(bus)
        env = {**os.environ, "DISPLAY": f":{display}", "DBUS_SESSION_BUS_ADDRESS": address, "QT_QPA_PLATFORM": "xcb",
               "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1", "HOME": str(tmp_path), "NO_AT_BRIDGE": "0",
               "EARMARK_CONFIG": str(tmp_path / "earmark.conf"), "EARMARK_VLC_ARGS": "--aout=dummy"}
        env.pop("QT_ACCESSIBILITY", None)
        with (tmp_path / "earmark.log").open("w") as log:
            app = subprocess.Popen([sys.executable, "-m", "earmark", "--library", str(library_path)], env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
        servers.insert(0, app)
        reader = AccessibleApp(env)
        wait_for(lambda: reader.xdotool("search", "--onlyvisible", "--name", WINDOW), 30, "the window")
        window = reader.xdotool("search", "--onlyvisible", "--name", WINDOW).split()[0]
        reader.xdotool("windowfocus", "--sync", window)  # no window manager: the person clicks the window
        wait_for(lambda: reader.xdotool("getwindowfocus") == window, 10, "the window to have the keyboard")
        time.sleep(1)
        yield reader
    finally:
        for server in servers:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


def _readable(fd: int, seconds: float) -> bool:
    """Whether ``fd`` has something to read within ``seconds``."""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    return bool(poller.poll(seconds * 1000))
