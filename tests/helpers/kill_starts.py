"""Killing a start of the real app while it upgrades a library (a migration, a merge), on copies of one library.

A probe on one copy times the start that does the work and a start that has nothing left to do; the kills land
between the two, so most land while the work is under way. A kill that came too late (the start had finished)
narrows the window for the next copy.
"""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from helpers.crash import KillCount, Victim, check_intact, earmark, earmark_command


@dataclass
class KillWindow:
    """Seconds after a start when a kill may land: ``low`` is past what a start alone takes, ``high`` before the
    work's end; ``work`` and ``start`` are what the probe measured."""

    low: float
    high: float
    work: float
    start: float

    def narrow(self, wait: float) -> None:
        """The start finished before a kill ``wait`` seconds in: the next kills come sooner."""
        self.high = max(self.low + 0.05, 0.9 * wait)


def probe_window(source: Path, folder: Path, check: Callable[[Path], None]) -> KillWindow:
    """Start the app on a copy of ``source`` twice (doing the work, then with nothing to do); ``check`` the copy
    after the first."""
    probe = folder / "probe" / "library.db"
    probe.parent.mkdir()
    shutil.copyfile(source, probe)
    started = time.monotonic()
    assert earmark(probe, "tags").returncode == 0
    work = time.monotonic() - started
    check(probe)
    started = time.monotonic()
    assert earmark(probe, "tags").returncode == 0
    start = time.monotonic() - started
    return KillWindow(0.8 * start, max(0.95 * work, start + 0.2), work, start)


def copies(source: Path, folder: Path, count: KillCount, kills: int, most: int) -> Iterator[Path]:
    """Fresh copies of ``source``, one at a time, until ``kills`` kills landed or ``most`` copies were made."""
    made = 0
    while count.kills < kills and made < most:
        made += 1
        library = folder / f"copy-{made}" / "library.db"
        library.parent.mkdir()
        shutil.copyfile(source, library)
        yield library


def kill_a_start(library: Path, rng: random.Random, window: KillWindow, count: KillCount) -> bool:
    """Start the app on ``library``, SIGKILL it at a random moment of the window and check the file is whole;
    True when the kill landed before the start finished."""
    victim = Victim(earmark_command(library, "tags"))
    wait = rng.uniform(window.low, window.high)
    time.sleep(wait)
    killed = victim.kill()
    count.record(victim, killed)
    check_intact(library)
    if not killed:
        window.narrow(wait)
    return killed
