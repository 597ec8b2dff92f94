"""Backup and restore: the whole library as one JSON file (ids kept) plus the subscriptions as OPML."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.schema import SCHEMA_VERSION
from earmark.core.db.show_notes import markup, pack
from earmark.core.errors import BackupError
from earmark.core.feeds.subscriptions import export_opml
from earmark.core.files import read_file, write_file
from earmark.core.plurals import counted
from earmark.core.records import record
from earmark.core.timefmt import now_iso

BACKUP_FORMAT, BACKUP_VERSION = "earmark-backup", 1
# The user's data, parents before children. Not kept: the transcript cache (fetched again when needed).
TABLES = ("sources", "items", "tags", "item_tags", "source_tags", "notes", "settings", "play_history")
# Feed passwords stay out of backups, so that a backup can be synced or shared; set them again after a restore.
LEFT_OUT = {"sources": ("auth_user", "auth_password")}
_MUST_BE_EMPTY = ("sources", "items", "tags", "notes", "play_history")


@record
class BackupResult:
    """Where a backup went and how much it holds."""

    path: Path
    opml_path: Path
    counts: dict[str, int]

    @property
    def message(self) -> str:
        """A sentence for the command line."""
        return (f"Backed up {counted(self.counts['items'], 'item')}, {counted(self.counts['notes'], 'note')} and "
                f"{counted(self.counts['sources'], 'source')} to {self.path} (subscriptions also in {self.opml_path}).")


def _columns(db: Database, table: str) -> list[str]:
    names = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
    return [name for name in names if name not in LEFT_OUT.get(table, ())]


def _show_notes(columns: list[str], row: Sequence[object], change: Callable[[object, str], object]) -> list[object]:
    """A row with its show notes (an item's description and content) changed by ``change(value, text)``: read as
    their markup for the JSON, stored as a pattern over the text again when restored (core/db/show_notes.py)."""
    values = list(row)
    text = values[columns.index("text")] if "text" in columns else None
    if isinstance(text, str):
        for name in ("description", "content"):
            if name in columns:
                values[columns.index(name)] = change(values[columns.index(name)], text)
    return values


def _as_written(value: object, text: str) -> object:
    return markup(value, text) if isinstance(value, bytes) else value


def _as_stored(value: object, text: str) -> object:
    return pack(value, text) if isinstance(value, str) else value


def backup_document(db: Database, now: str | None = None) -> dict[str, object]:
    """Every user-data table, column names and rows, read in one transaction (a consistent picture)."""
    tables: dict[str, object] = {}
    own = not db.conn.in_transaction
    if own:  # one read transaction: writers in other connections cannot change the picture halfway
        db.execute("BEGIN")
    try:
        for table in TABLES:
            columns = _columns(db, table)
            rows = db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY 1, 2").fetchall()
            tables[table] = {"columns": columns, "rows": [_show_notes(columns, row, _as_written) for row in rows]}
    finally:
        if own:
            db.execute("COMMIT")
    return {"format": BACKUP_FORMAT, "version": BACKUP_VERSION, "schema": SCHEMA_VERSION,
            "exported_at": now or now_iso(), "tables": tables}


def write_backup(db: Database, path: Path, now: str | None = None) -> BackupResult:
    """Write the library to ``path`` (JSON) and its subscriptions to the same name with ``.opml``."""
    opml_path = path.with_suffix(".opml")
    if opml_path == path:
        raise BackupError(f"Give the backup a name ending in .json: {path.name} is where the OPML copy would go.")
    document = backup_document(db, now)
    write_file(path, json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    write_file(opml_path, export_opml(db))
    tables = document["tables"]
    assert isinstance(tables, dict)
    return BackupResult(path, opml_path, {name: len(table["rows"]) for name, table in tables.items()})


def read_backup(path: Path) -> dict[str, tuple[list[str], list[list[object]]]]:
    """The tables of a backup file, checked; BackupError with a sentence when it is not one this Earmark reads."""
    data = read_file(path, "a backup file")
    try:
        document = json.loads(data)
    except ValueError as exc:
        raise BackupError(f"{path} is not an Earmark backup (it is not JSON).") from exc
    if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
        raise BackupError(f"{path} is not an Earmark backup (made with `earmark backup`).")
    if not isinstance(document.get("version"), int) or document["version"] > BACKUP_VERSION:
        raise BackupError(f"{path} was written by a newer version of Earmark; please update Earmark to restore it.")
    tables = document.get("tables")
    if not isinstance(tables, dict) or set(tables) - set(TABLES):
        raise BackupError(f"{path} is damaged or from a newer Earmark: its tables are not the ones expected.")
    checked: dict[str, tuple[list[str], list[list[object]]]] = {}
    for name, table in tables.items():
        columns, rows = (table.get("columns"), table.get("rows")) if isinstance(table, dict) else (None, None)
        if (not isinstance(columns, list) or not all(isinstance(c, str) for c in columns)
                or not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == len(columns) for r in rows)
                or (rows and not columns)):  # found by fuzzing: rows of no columns made an INSERT without any
            raise BackupError(f"{path} is damaged: the table {name} is not a list of rows of its columns.")
        checked[name] = (columns, rows)
    return checked


def restore_backup(db: Database, path: Path) -> dict[str, int]:
    """Fill an empty library from a backup, ids and all, in one transaction; returns the rows per table.

    BackupError (and nothing changed) when the library is not empty or the backup cannot be used."""
    tables = read_backup(path)
    with write_transaction(db):
        filled = [table for table in _MUST_BE_EMPTY if db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()]
        if filled:
            raise BackupError("This library is not empty (it has " + ", ".join(filled) + "); restore into a new "
                              "library, e.g. `earmark --library restored.db restore BACKUP`. Nothing was changed.")
        for table in TABLES:
            columns, rows = tables.get(table, ([], []))
            unknown = set(columns) - {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if unknown:
                raise BackupError(f"{path} has data this Earmark does not know ({table}: "
                                  f"{', '.join(sorted(unknown))}); please update Earmark to restore it. Nothing "
                                  "was changed.")
            if not rows:
                continue
            verb = "INSERT OR REPLACE" if table == "settings" else "INSERT"
            sql = f"{verb} INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            try:
                db.conn.executemany(sql, [_show_notes(columns, row, _as_stored) for row in rows])
            except sqlite3.IntegrityError as exc:
                raise BackupError(f"{path} is damaged ({table}: {exc}); nothing was changed.") from exc
            except (sqlite3.InterfaceError, sqlite3.ProgrammingError, OverflowError, UnicodeEncodeError) as exc:
                # found by fuzzing: sqlite3 raises OverflowError for integers beyond 64 bits and UnicodeEncodeError
                # for text with a lone surrogate ("\ud800" is valid JSON); both are damage, not bugs
                raise BackupError(f"{path} is damaged ({table}: a value of the wrong kind); nothing was "
                                  "changed.") from exc
    return {table: len(tables.get(table, ([], []))[1]) for table in TABLES}
