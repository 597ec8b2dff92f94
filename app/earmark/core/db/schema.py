"""The library's schema version and the one this Earmark writes, without loading the migrations: opening a library
that is up to date needs none of them (their modules, and the search vocabulary one of them brings, cost ~8 ms of
every start)."""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 19  # the number of migrations in earmark.core.db.migrations (a test checks that they agree)


def schema_version(conn: sqlite3.Connection) -> int:
    """The library's schema version (0 for a new, empty file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])
