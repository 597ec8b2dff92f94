"""One sync per library at a time: a row in the library (``sync_lock``) names the process that syncs. Another
sync waits for it to end; a row left by a process that is gone (killed, or the computer restarted) is taken over.

The window syncs on its own while the command line may run beside it: two syncs at once would each send the
changes waiting in the journal, and the server would keep both copies."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.errors import SyncError
from earmark.core.timefmt import now_iso

WAIT_SECONDS = 120.0  # a sync waits this long for the one running to end
POLL_SECONDS = 0.2
ELSEWHERE_SECONDS = 30 * 60  # a lock taken on another computer (a library on a shared folder) counts this long


@contextmanager
def one_sync_at_a_time(db: Database, wait: float = WAIT_SECONDS) -> Iterator[None]:
    """Hold the library's sync lock while the block runs; SyncError (a sentence) when another sync still holds
    it after ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while not _take(db):
        if time.monotonic() >= deadline:
            pid, host, since = db.execute("SELECT pid, host, since FROM sync_lock").fetchone() or (0, "", "")
            raise SyncError(f"Another sync of this library is running (process {pid} on {host}, since {since}) and "
                            f"did not end within {wait:g} s; this one sent nothing: your changes are kept and sent "
                            "by that sync or the next.")
        time.sleep(POLL_SECONDS)
    try:
        yield
    finally:
        with write_transaction(db):
            db.execute("DELETE FROM sync_lock WHERE pid = ? AND host = ?", [os.getpid(), socket.gethostname()])


def _take(db: Database) -> bool:
    with write_transaction(db):
        row = db.execute("SELECT pid, host, since FROM sync_lock").fetchone()
        if row is not None and _alive(int(row[0]), str(row[1]), str(row[2])):
            return False
        db.execute("INSERT OR REPLACE INTO sync_lock (id, pid, host, since) VALUES (1, ?, ?, ?)",
                   [os.getpid(), socket.gethostname(), now_iso()])
    return True


def _alive(pid: int, host: str, since: str) -> bool:
    """Whether the process that took the lock may still be syncing."""
    if host != socket.gethostname():
        return (datetime.now(UTC) - datetime.fromisoformat(since)).total_seconds() < ELSEWHERE_SECONDS
    if pid == os.getpid():
        return True  # another thread of this process syncs
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process of that id: alive
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether the process ended and only waits for its parent to read its exit status."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except (OSError, IndexError):
        return False
