"""Passwords (of feeds and of the sync account): kept in the system keyring; in the library file only when
the user opted in (``secrets.store_in_library``), or until a keyring can take them."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.errors import NoKeyringError
from earmark.core.plurals import counted, verb
from earmark.core.records import record
from earmark.core.secrets.vault import NO_KEYRING, KeyringVault, Vault
from earmark.core.settings import get_setting

OPT_IN = "secrets.store_in_library"


@record(frozen=True)
class SecretKey:
    """What a password opens: a feed's or the sync server's ``origin`` (scheme://host:port) for ``user``."""

    purpose: str  # "feed" or "sync"
    origin: str
    user: str

    @property
    def service(self) -> str:
        """The name it is stored under in the keyring (shown by keyring managers such as Seahorse)."""
        return f"earmark {self.purpose} {self.origin}"


class Secrets:
    """The passwords of one library. Keyring calls go over D-Bus and may wait for an unlock prompt: use this
    off the UI thread."""

    def __init__(self, db: Database, vault: Vault | None = None) -> None:
        self.db = db
        self.vault = vault if vault is not None else default_vault()

    @property
    def in_library(self) -> bool:
        """Whether the user chose to keep passwords in the library file (unencrypted)."""
        return bool(get_setting(self.db, OPT_IN))

    def can_keep(self) -> bool:
        """Whether a new password can be kept now: in the keyring, or in the library when opted in."""
        return self.in_library or self.vault.available()

    def get(self, key: SecretKey) -> str | None:
        """The password, from the keyring or (opted in, or not moved yet) the library; None when unknown.
        An unreachable keyring counts as not knowing it."""
        if not self.in_library and self.vault.available():
            try:
                found = self.vault.get(key.service, key.user)
            except NoKeyringError:
                found = None
            if found is not None:
                return found
        row = self.db.execute("SELECT password FROM secrets WHERE service = ? AND user = ?",
                              [key.service, key.user]).fetchone()
        return None if row is None else str(row[0])

    def set(self, key: SecretKey, password: str) -> None:
        """Keep a password: in the keyring, or in the library when opted in. NoKeyringError (with its
        sentence) when there is no keyring and no opt-in: nothing is stored then."""
        if self.in_library:
            with write_transaction(self.db):
                self.db.execute("INSERT OR REPLACE INTO secrets (service, user, password) VALUES (?, ?, ?)",
                                [key.service, key.user, password])
            return
        if not self.vault.available():
            raise NoKeyringError(f"{NO_KEYRING}; the password was not stored. To keep passwords in the library "
                                 "file instead (unencrypted: anyone who can read the file can read them), opt in.")
        self.vault.set(key.service, key.user, password)
        self._forget_in_library(key)

    def delete(self, key: SecretKey) -> None:
        """Forget a password wherever it is kept."""
        if self.vault.available():
            try:
                self.vault.delete(key.service, key.user)
            except NoKeyringError:
                pass  # the library copy goes below; the keyring's is out of reach
        self._forget_in_library(key)

    def waiting(self) -> int:
        """How many passwords wait in the library file for a keyring (0 when opted in to keep them there)."""
        if self.in_library:
            return 0
        return int(self.db.execute("SELECT count(*) FROM secrets").fetchone()[0])

    def settle(self) -> int:
        """Move the passwords waiting in the library file into the keyring (unless opted in to keep them
        there), wiping them from the file; returns how many moved. NoKeyringError when they cannot move."""
        rows = [] if self.in_library else self.db.execute("SELECT service, user, password FROM secrets").fetchall()
        if not rows:
            return 0
        if not self.vault.available():
            raise NoKeyringError(f"{NO_KEYRING}: {counted(len(rows), 'password')} {verb(len(rows), 'stays', 'stay')} "
                                 "in the library file until one runs.")
        for service, user, password in rows:
            self.vault.set(service, user, password)
        with write_transaction(self.db), secure_delete(self.db):
            self.db.conn.executemany("DELETE FROM secrets WHERE service = ? AND user = ?",
                                     [(s, u) for s, u, _p in rows])
        wipe_wal(self.db)
        return len(rows)

    def _forget_in_library(self, key: SecretKey) -> None:
        if self.db.execute("SELECT 1 FROM secrets WHERE service = ? AND user = ?", [key.service, key.user]).fetchone():
            with write_transaction(self.db), secure_delete(self.db):
                self.db.execute("DELETE FROM secrets WHERE service = ? AND user = ?", [key.service, key.user])
            wipe_wal(self.db)


@contextmanager
def secure_delete(db: Database) -> Iterator[None]:
    """Deleted and overwritten values are zeroed in the file, not left in free space for anyone to read."""
    before = db.execute("PRAGMA secure_delete").fetchone()[0]
    db.execute("PRAGMA secure_delete = ON")
    try:
        yield
    finally:
        db.execute(f"PRAGMA secure_delete = {int(before)}")


def wipe_wal(db: Database) -> None:
    """Copy the write-ahead log into the file and empty it: older frames in it still hold what was wiped.
    Readers in other connections can keep it from finishing; the next checkpoint then does."""
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except sqlite3.OperationalError:
        pass  # busy: SQLite checkpoints again by itself


_DEFAULT: Vault | None = None


def default_vault() -> Vault:
    """The system keyring, one per process (it remembers whether a Secret Service answered)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = KeyringVault()
    return _DEFAULT
