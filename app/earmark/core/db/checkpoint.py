"""Copying the write-ahead log into the library file in a thread of its own, while a writer works things out.

Writes go to the library's WAL; the commit that leaves it past 1,000 pages copies them all into the library file and
syncs both files before it returns, which is mostly waiting on the disk (~0.25 s for the 1,100 pages of two
refreshes' relations at 100,000 items, 30 ms of it copying). A writer that starts the copy before it works things
out waits on the disk while it thinks; once the copy is whole, its own transaction writes the WAL from its start,
and its commit copies nothing.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from urllib.parse import quote


def checkpoint_meanwhile(library: Path) -> threading.Thread:
    """Start copying the library's WAL into the library file (a passive checkpoint: it never waits for readers or
    writers, and copies what they leave it); ``join()`` the thread to wait for it."""

    def checkpoint() -> None:
        try:  # never creating it (when it does not exist yet, the command says so)
            conn = sqlite3.connect(f"file:{quote(str(library.absolute()))}?mode=rw", uri=True, isolation_level=None)
        except sqlite3.Error:
            return
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            pass  # another connection copies it (or the next commit past the limit will)
        finally:
            conn.close()

    thread = threading.Thread(target=checkpoint, name="checkpoint", daemon=True)
    thread.start()
    return thread
