"""The library's connection as Earmark's code holds it: ``conn``, ``execute``, ``savepoint`` and ``close``.

Earmark writes its own SQL (its migrations, bulk writes, search) on connections in autocommit mode with explicit
transactions (core/db/connection.py), so its statements go to SQLite as written. It used nothing else of
sqlite-utils, whose Database held the connection until 2026-11-27: loading sqlite-utils (with its CSV, decimal,
UUID, hashing and FTS4 helpers) cost ~18 ms of every start and every command."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

_SAVEPOINTS = itertools.count(1)


class Database:
    """A library connection (opened by core/db/connection.py, in autocommit mode)."""

    __slots__ = ("conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] | None = None) -> sqlite3.Cursor:
        """Run one statement (part of the transaction open on the connection, if one is)."""
        return self.conn.execute(sql) if parameters is None else self.conn.execute(sql, parameters)

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A part of the open transaction that is undone alone when it fails (the transaction goes on)."""
        name = f"earmark_{next(_SAVEPOINTS)}"
        self.conn.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            # A RAISE(ROLLBACK) or a failed COMMIT can end the whole transaction, savepoints included: then there
            # is nothing left to undo here, and trying would hide the error with "no such savepoint".
            if self.conn.in_transaction:
                self.conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                self.conn.execute(f"RELEASE SAVEPOINT {name}")
            raise
        self.conn.execute(f"RELEASE SAVEPOINT {name}")

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()
