"""The library's sync lock: a sync waits while another process holds it, says so in a sentence when that one
does not end, and takes over a lock left by a process that is gone (killed, or ended and not yet reaped)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.errors import SyncError
from earmark.core.sync.lock import one_sync_at_a_time


def _held_by(db: Database, pid: int) -> None:
    db.execute("INSERT OR REPLACE INTO sync_lock (id, pid, host, since) VALUES (1, ?, ?, '2026-01-01T00:00:00+00:00')",
               [pid, socket.gethostname()])


def _holder(db: Database) -> int | None:
    row = db.execute("SELECT pid FROM sync_lock").fetchone()
    return None if row is None else int(row[0])


def test_a_running_sync_holds_the_lock_and_another_waits_then_says_so(tmp_path: Path) -> None:
    db = open_library(tmp_path / "library.db")
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _held_by(db, other.pid)
        started = time.monotonic()
        with pytest.raises(SyncError, match=f"Another sync of this library is running .process {other.pid}"):
            with one_sync_at_a_time(db, wait=0.5):
                pass
        assert time.monotonic() - started >= 0.5  # it waited
        assert _holder(db) == other.pid  # and left the other's lock alone
    finally:
        other.kill()
        other.wait()
    with one_sync_at_a_time(db, wait=0.5):  # gone now: taken over
        assert _holder(db) is not None
    assert _holder(db) is None  # released


def test_a_lock_left_by_a_process_that_ended_unreaped_is_taken_over(tmp_path: Path) -> None:
    db = open_library(tmp_path / "library.db")
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    while subprocess.run(["ps", "-o", "stat=", "-p", str(ended.pid)], capture_output=True,
                         text=True).stdout.strip()[:1] != "Z":
        time.sleep(0.05)  # a zombie: ended, its exit status not read yet
    _held_by(db, ended.pid)
    with one_sync_at_a_time(db, wait=0.5):
        assert _holder(db) != ended.pid
    ended.wait()
