"""Quitting never waits for the relation pass: the real app, playing an episode on a library of 20,000 items, is
quit mid-pass (Ctrl+Q, closing the window, SIGTERM as at logout); within two seconds the window's process and the
pass (with its worker processes) are gone, the playing position is saved and the library is whole."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.feeds.subscribe import subscribe
from earmark.gui.mainwindow.frame.quit_watchdog import HANG_AFTER_S
from helpers.big_library import add_episodes
from helpers.crash import app_env, check_intact
from helpers.podcast import Episode, write_podcast

DRIVER = Path(__file__).resolve().parents[1] / "helpers" / "quit_driver.py"
ITEMS = 20_000
EXIT_WITHIN = 2.0


@pytest.fixture(scope="module")
def big_library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    folder = tmp_path_factory.mktemp("big")
    library = folder / "library.db"
    db = open_library(library)
    subscribe(db, str(write_podcast(folder / "cast", [Episode("Long listen", 40.0)])))
    item_id = list_items(db, ItemFilter())[0].id
    db.close()
    add_episodes(library, ITEMS)
    return library, item_id


def descendants(pid: int) -> set[int]:
    """Every process started by ``pid``, and theirs."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if ppid == parent and int(entry) not in found:
                found.add(int(entry))
                todo.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def assert_whole_with_the_position(library: Path, item_id: int, position: float) -> None:
    """The library passes its checks and keeps the item's place as it was played to ``position``."""
    check_intact(library)
    conn = sqlite3.connect(library)
    stored = conn.execute("SELECT position FROM items WHERE id = ?", [item_id]).fetchone()[0]
    conn.close()
    assert position - 0.5 <= stored <= position + 1.5, f"played to {position:.1f} s, {stored:.1f} s kept"


class Driver:
    """The app in its own process; ``lines`` is what it printed so far."""

    def __init__(self, library: Path, item_id: int, *options: str) -> None:
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self.process = subprocess.Popen([sys.executable, str(DRIVER), str(library), str(item_id), *options],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
                                        text=True, env=app_env())
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def close(self) -> None:
        """Kill it if it still runs, and close its pipes."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._reader.join(timeout=5)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()
        self.errors.close()

    def standard_error(self) -> str:
        """What it wrote to standard error so far (its log)."""
        self.errors.seek(0)
        return self.errors.read().decode(errors="replace")

    def stuck_at(self) -> str:
        """Where each of its threads is (Python's stacks, through faulthandler), while it still runs."""
        self.process.send_signal(signal.SIGUSR1)
        time.sleep(1)
        return self.standard_error()[-4000:]

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.strip())

    def wait_for_pass(self, share: float, timeout: float) -> bool:
        """Whether the pass said it had done at least ``share`` (and not all of it) within ``timeout`` seconds (it
        reports its share in steps of a few hundredths, how many depending on its pace)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(line.startswith("pass ") and share <= float(line.split()[1]) < 1.0 for line in self.lines):
                return True
            time.sleep(0.05)
        return False

    def send(self, command: str) -> None:
        """A line on its standard input: "ctrl-q" presses Ctrl+Q, "close" closes the window."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{command}\n")
        self.process.stdin.flush()

    def played(self, past: float, within: float) -> float:
        """The playing position, once it is past ``past`` seconds or after ``within`` seconds (0 if none yet)."""
        started = time.monotonic()
        while time.monotonic() - started < within:
            playing = self.last("position playing")
            if playing and float(playing.split()[-1]) > past:
                break
            time.sleep(0.05)
        return float((self.last("position playing") or "position playing 0").split()[-1])

    def news(self) -> list[str]:
        """What it printed beside the position and the pass's progress (windows shown, the keys pressed)."""
        return [line for line in self.lines if not line.startswith(("position", "pass "))]

    def last(self, prefix: str) -> str | None:
        found = [line for line in self.lines if line.startswith(prefix)]
        return found[-1] if found else None


@pytest.mark.vlc
@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-q", "close", "sigterm"])
def test_quitting_mid_pass_exits_within_two_seconds_and_keeps_the_position(
        big_library: tuple[Path, int], tmp_path: Path, how: str) -> None:
    library = tmp_path / "library.db"
    shutil.copyfile(big_library[0], library)
    driver = Driver(library, big_library[1])
    try:
        assert driver.wait_for_pass(0.1, 90), f"no pass under way: {[x for x in driver.lines if 'pass' in x]}"
        position = driver.played(1.0, within=10)
        family = descendants(driver.process.pid)
        assert family, "the pass runs in a process of its own"
        quit_at = time.monotonic()
        if how == "sigterm":
            driver.process.send_signal(signal.SIGTERM)
        else:
            driver.send(how)
        try:
            driver.process.wait(timeout=EXIT_WITHIN + 5)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{how}: still running {EXIT_WITHIN + 5:.0f} s after; it said {driver.news()}; "
                        f"its threads:\n{driver.stuck_at()}")
        while any(alive(pid) for pid in family) and time.monotonic() - quit_at < EXIT_WITHIN + 5:
            time.sleep(0.02)
        took = time.monotonic() - quit_at
        assert not any(alive(pid) for pid in family), "the pass outlived the window"
        assert took <= EXIT_WITHIN, f"{how}: the window and the pass took {took:.2f} s to end"
        print(f"{how}: the window and the pass ended {took:.2f} s after, {len(family)} processes of the pass")
    finally:
        driver.close()
    assert_whole_with_the_position(library, big_library[1], position)


@pytest.mark.vlc
@pytest.mark.slow
def test_a_quit_that_hangs_in_the_player_ends_anyway_with_the_position_kept(
        big_library: tuple[Path, int], tmp_path: Path) -> None:
    """libVLC's stop can block for good: the process still ends, soon after HANG_AFTER_S, and says where it hung."""
    library = tmp_path / "library.db"
    shutil.copyfile(big_library[0], library)
    driver = Driver(library, big_library[1], "hang")
    try:
        assert driver.wait_for_pass(0.0, 90), "the window never started its pass"
        position = driver.played(1.0, within=30)
        assert position > 1.0, f"it never played: {driver.news()}"
        family = descendants(driver.process.pid)
        quit_at = time.monotonic()
        driver.send("ctrl-q")
        try:
            status = driver.process.wait(timeout=HANG_AFTER_S + 5)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {HANG_AFTER_S + 5:.0f} s after Ctrl+Q; it said {driver.news()}")
        took = time.monotonic() - quit_at
        assert status == 0
        assert took >= HANG_AFTER_S - 0.5, f"it ended after {took:.1f} s: the player did not hang"
        assert f"Quitting hung for {HANG_AFTER_S:.0f} s; Earmark ended anyway" in driver.standard_error()
        assert "in <lambda>" in driver.standard_error()  # where: the player's shutdown, which never returned
        assert not any(alive(pid) for pid in family), "the pass outlived the window"
    finally:
        driver.close()
    assert_whole_with_the_position(library, big_library[1], position)
