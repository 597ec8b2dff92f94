"""Passwords older versions kept in the library file: moved into the keyring as soon as one answers, and
wiped from the library and from the backups made before."""

from __future__ import annotations

import glob
import logging
import sqlite3
from pathlib import Path

from earmark.core.db.backups import backups_folder
from earmark.core.db.database import Database
from earmark.core.db.scrub import scrub_secrets
from earmark.core.errors import NoKeyringError
from earmark.core.plurals import counted, verb
from earmark.core.secrets.store import Secrets

log = logging.getLogger(__name__)


def settle_secrets(db: Database, library: Path, secrets: Secrets | None = None) -> str | None:
    """Move the passwords waiting in the library file into the keyring (unless the user chose to keep them in
    the file) and wipe them from the backups beside it. Returns the sentence to show when they must wait (no
    keyring runs); None when there was nothing to move or all moved."""
    secrets = secrets or Secrets(db)
    waiting = secrets.waiting()
    if not waiting:
        return None
    try:
        secrets.settle()
    except NoKeyringError:
        return (f"{counted(waiting, 'password')} {verb(waiting, 'is', 'are')} still kept in the library file, "
                "unencrypted: no system keyring is running to take them. Start one (GNOME Keyring, KeePassXC), or "
                "keep them in the file on purpose (setting secrets.store_in_library).")
    for copy in _copies(library):
        try:
            conn = sqlite3.connect(copy)
            try:
                scrub_secrets(conn)
            finally:
                conn.close()
        except sqlite3.Error as exc:
            log.warning("Could not wipe the passwords from %s: %s", copy, exc)
    return None


def _copies(library: Path) -> list[Path]:
    """The library's backups: daily ones and those made before format upgrades."""
    found = list(library.parent.glob(f"{glob.escape(library.name)}.v*.bak"))
    folder = backups_folder(library)
    if folder.is_dir():
        found += [path for path in folder.iterdir() if path.is_file() and path.suffix == library.suffix]
    return found
