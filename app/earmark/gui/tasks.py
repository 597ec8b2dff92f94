"""Work off the UI thread: a pool for network and parsing, one writer for the library.

Each worker thread opens its own library connection. Results and errors come back to the GUI thread
through a queued signal; workers never touch widgets.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal, Slot

from earmark.core.db.connection import library_error, open_library
from earmark.core.db.database import Database
from earmark.core.errors import EarmarkError, LibraryReadOnlyError

log = logging.getLogger(__name__)
T = TypeVar("T")
Done = Callable[[Any], None]
Failed = Callable[[str], None]


class TaskRunner(QObject):
    """Runs ``fn(db, *args)`` in a worker with that thread's own connection to the library.

    ``read`` work runs in a pool; ``write`` work runs on the single writer thread, in submission order. With
    ``read_only`` every connection is opened read-only (writes then fail with the read-only sentence).
    Signals: ``failed(str)`` for errors that have no ``on_error`` handler; ``cannot_save(str)`` when work
    failed because the library is read-only or its disk is full (instead of ``failed``: the window says it
    once, not in a dialog per write; an ``on_error`` handler is still called); ``saved()`` after each write
    that succeeded.
    """

    failed = Signal(str)
    cannot_save = Signal(str)
    saved = Signal()
    _finished = Signal(object, object)

    def __init__(self, library_path: Path, parent: QObject | None = None, *, read_only: bool = False) -> None:
        super().__init__(parent)
        self.library_path = library_path
        self.read_only = read_only
        self._local = threading.local()
        # Every thread's connection, for shutdown to close: a pool thread's connection outlived the thread (still
        # referenced from elsewhere) when left to the garbage collector, and a restore must not move the library
        # while any connection of this process has it open.
        self._opened: list[sqlite3.Connection] = []
        self._opened_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="earmark-pool")
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="earmark-writer")
        self._finished.connect(self._deliver)
        self._stopped = False

    def _db(self) -> Database:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = open_library(self.library_path, read_only=self.read_only, any_thread=True)
            with self._opened_lock:
                self._opened.append(db.conn)
        return db

    def read(self, fn: Callable[..., T], *args: object, on_done: Done | None = None,
             on_error: Failed | None = None) -> Future[T]:
        """Run in the pool (network, parsing, large queries)."""
        return self._submit(self._pool, fn, args, on_done, on_error)

    def write(self, fn: Callable[..., T], *args: object, on_done: Done | None = None,
              on_error: Failed | None = None) -> Future[T]:
        """Run on the writer thread (everything that changes the library)."""
        return self._submit(self._writer, fn, args, on_done, on_error, is_write=True)

    def on_writer(self, fn: Callable[..., T], *args: object, on_done: Done | None = None,
                  on_error: Failed | None = None) -> Future[T]:
        """Run on the writer thread with its connection, without writing (what that connection sees changes
        only when another connection, another process's, writes)."""
        return self._submit(self._writer, fn, args, on_done, on_error)

    def compute(self, fn: Callable[..., T], *args: object, on_done: Done | None = None,
                on_error: Failed | None = None) -> Future[T]:
        """Run ``fn(*args)`` in the pool, without the library (network and parsing)."""
        return self._submit(self._pool, fn, args, on_done, on_error, with_db=False)

    def _submit(self, executor: ThreadPoolExecutor, fn: Callable[..., T], args: tuple[object, ...],
                on_done: Done | None, on_error: Failed | None, with_db: bool = True,
                is_write: bool = False) -> Future[T]:
        def work() -> T:
            return fn(self._db(), *args) if with_db else fn(*args)

        if self._stopped:  # asked for after shutdown (a part still finishing its own work): nobody to tell
            dropped: Future[T] = Future()
            dropped.cancel()
            return dropped
        future = executor.submit(work)
        future.add_done_callback(lambda f: self._finished.emit(f, (on_done, on_error, is_write)))
        return future

    @Slot(object, object)
    def _deliver(self, future: Future[Any], handlers: tuple[Done | None, Failed | None, bool]) -> None:
        on_done, on_error, is_write = handlers
        if self._stopped or future.cancelled():  # the window is gone: nobody to tell
            return
        error = future.exception()
        if error is None:
            if is_write:
                self.saved.emit()
            if on_done is not None:
                on_done(future.result())
            return
        if isinstance(error, sqlite3.Error):
            error = library_error(error, self.library_path)
        if isinstance(error, EarmarkError):
            message = str(error)
            if isinstance(error, LibraryReadOnlyError):
                self.cannot_save.emit(message)
                if on_error is not None:
                    on_error(message)
                return
        else:
            log.error("Background task failed", exc_info=error)
            message = f"Something went wrong inside Earmark: {error!r}. Details are in the log."
        if on_error is not None:
            on_error(message)
        else:
            self.failed.emit(message)

    def shutdown(self, wait_for_reads: bool = False) -> None:
        """Finish queued writes and close the writer's connection, then stop the threads (called on quit).
        Results that arrive afterwards, and work asked for afterwards, are dropped. With ``wait_for_reads`` the
        reads under way are waited for and every connection is closed on return: nothing of this runner has the
        library open any more (before a restore moves the file)."""
        self._stopped = True
        self._pool.shutdown(wait=wait_for_reads, cancel_futures=True)
        self._writer.submit(self._close_db)
        self._writer.shutdown(wait=True)
        if wait_for_reads:
            with self._opened_lock:
                opened, self._opened = self._opened, []
            for conn in opened:
                conn.close()

    def _close_db(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
