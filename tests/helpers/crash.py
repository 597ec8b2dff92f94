"""Killing the real app with SIGKILL at random moments, and checking the library it leaves behind.

A Victim is a real ``earmark`` process (or a driver running the real app code); its output lines are collected
as they are printed, so a test knows what the process reported as done (committed) before it was killed.
"""

from __future__ import annotations

import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from earmark.core.db.show_notes_text import add_text_function

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("EARMARK_CRASH_SEED", "10"))  # a failure names its seed: rerun with it to reproduce


def app_env() -> dict[str, str]:
    """The environment for a child process: this tree's code (and the test helpers) first, Qt offscreen."""
    paths = [str(ROOT / "app"), str(ROOT / "tests"), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "QT_QPA_PLATFORM": "offscreen",
            "PYTHONUNBUFFERED": "1"}


def earmark_command(library: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "earmark", "--library", str(library), *args]


def earmark(library: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``earmark`` to the end (a real start of the app on the library)."""
    return subprocess.run(earmark_command(library, *args), capture_output=True, text=True, timeout=timeout,
                          env=app_env())


class Victim:
    """A real process to kill; ``lines`` holds what it printed so far (read as it is printed)."""

    def __init__(self, command: list[str]) -> None:
        self.started = time.monotonic()
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env=app_env())
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._errors: list[str] = []
        # Threads read both pipes: a child process that outlived the victim (holding them) must not hang the test.
        self._readers = [threading.Thread(target=self._read, daemon=True),
                         threading.Thread(target=self._read_errors, daemon=True)]
        for reader in self._readers:
            reader.start()
        self.stderr = ""
        self.descendants: set[int] = set()  # its child processes, as last seen before the kill

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def _read_errors(self) -> None:
        assert self.process.stderr is not None
        self._errors.extend(self.process.stderr)

    def wait_for(self, wanted: Callable[[str], bool], timeout: float) -> str | None:
        """The first new line that is ``wanted``, or None when the process ended or time ran out first."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._queue.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                self._queue.put(None)
                return None
            self.lines.append(line)
            if wanted(line):
                return line
        return None

    def drain(self) -> None:
        """Collect every line printed so far."""
        while True:
            try:
                line = self._queue.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._queue.put(None)
                return
            self.lines.append(line)

    def kill(self) -> bool:
        """SIGKILL now; True when it was still running, i.e. it really was killed."""
        running = self.process.poll() is None
        if running:
            self.descendants = descendants(self.process.pid)
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=20)
        for reader in self._readers:
            reader.join(timeout=10)
        self.drain()
        self.stderr = "".join(self._errors)
        if not any(reader.is_alive() for reader in self._readers):
            assert self.process.stdout is not None and self.process.stderr is not None
            self.process.stdout.close()
            self.process.stderr.close()
        return running and self.process.returncode == -signal.SIGKILL

    def survivors(self, timeout: float = 5.0) -> set[int]:
        """The victim's child processes still running ``timeout`` seconds after the kill (there should be none:
        a killed refresh's parsing processes end themselves)."""
        deadline = time.monotonic() + timeout
        while (left := {pid for pid in self.descendants if _running(pid)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        return left


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children, their children…), from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


def check_intact(path: Path) -> None:
    """The library left by a kill is sound: SQLite's integrity check, the search index's own check, and no
    broken references. Read with a plain connection (it recovers the WAL, as the next start would)."""
    conn = sqlite3.connect(path)
    add_text_function(conn)  # the check reads the items' text, worked out from their show notes (schema 19)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "search_index" in tables:
            conn.execute("INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)")
    finally:
        conn.close()


@dataclass(slots=True)
class KillCount:
    """How many kills a scenario made, and how many landed while the process was still working."""

    name: str
    kills: int = 0
    finished_first: int = 0  # the process ended before the kill (not counted as a kill)
    seconds: list[float] = field(default_factory=list)  # when each kill landed, after the process started

    def record(self, victim: Victim, killed: bool) -> None:
        if killed:
            self.kills += 1
            self.seconds.append(round(time.monotonic() - victim.started, 2))
        else:
            self.finished_first += 1

    def __str__(self) -> str:
        return f"{self.name}: {self.kills} kills (seed {SEED}) at {self.seconds}; {self.finished_first} finished first"
