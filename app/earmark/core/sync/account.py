"""The library's sync account (server, user, this device) and where each sync left off."""

from __future__ import annotations

import re
import socket
from dataclasses import fields

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.secrets.store import SecretKey
from earmark.core.settings import get_setting
from earmark.core.timefmt import now_iso
from earmark.core.urls import origin

_DEVICE_CHARACTERS = re.compile(r"[^\w.-]+", re.ASCII)


@record
class SyncAccount:
    """The ``sync_account`` row: who this library syncs as, and the server timestamps to continue from."""

    kind: str
    server: str
    user: str
    device: str
    registered_caption: str | None = None
    subscriptions_since: int = 0
    actions_since: int = 0
    clock_offset: float = 0.0
    last_sync: str | None = None
    last_attempt: str | None = None
    last_error: str | None = None
    failures: int = 0

    @property
    def key(self) -> SecretKey:
        """Where every library's password for this server and user was kept before each library had its own
        entry (password_key): read once to move it, and forgotten at a logout."""
        return SecretKey("sync", origin(self.server), self.user)


_COLUMNS = [f.name for f in fields(SyncAccount)]


def get_account(db: Database) -> SyncAccount | None:
    """The sync account, or None when this library does not sync."""
    row = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM sync_account WHERE id = 1").fetchone()
    return None if row is None else SyncAccount(*row)


def save_account(db: Database, account: SyncAccount) -> None:
    """Store the account's state (one row)."""
    with write_transaction(db):
        db.execute(f"UPDATE sync_account SET {', '.join(f'{c} = ?' for c in _COLUMNS)} WHERE id = 1",
                   [getattr(account, c) for c in _COLUMNS])


def set_up_account(db: Database, kind: str, server: str, user: str, device: str) -> SyncAccount:
    """Make this the library's account. Another server, user or device starts over: the journal is filled
    with this library's whole state (every subscription, every episode started or played), to be sent at the
    first sync; logging in again to the same account keeps the journal and where the last sync left off."""
    account = SyncAccount(kind, server, user, device)
    with write_transaction(db):
        old = get_account(db)
        if old is not None and (old.kind, old.server, old.user, old.device) == (kind, server, user, device):
            return old
        db.execute("DELETE FROM sync_account")
        db.execute("DELETE FROM sync_journal")
        db.execute("DELETE FROM sync_seen")
        db.execute("DELETE FROM sync_waiting")
        db.execute("DELETE FROM sync_known_as")  # the new account learns the feeds' addresses of now
        db.execute("DELETE FROM sync_refetch")
        db.execute("INSERT INTO sync_account (id, kind, server, user, device, created) VALUES (1, ?, ?, ?, ?, ?)",
                   [kind, server, user, device, now_iso()])
        _seed_journal(db)
    return account


def _seed_journal(db: Database) -> None:
    web = "({0} LIKE 'http://%' OR {0} LIKE 'https://%')"
    db.execute(f"""INSERT INTO sync_journal (action, podcast, at)
                   SELECT 'subscribe', url, ? FROM sources WHERE {web.format('url')} ORDER BY id""", [now_iso()])
    db.execute(f"""INSERT INTO sync_journal (action, podcast, episode, guid, item_id, started, position, total, at)
                   SELECT 'play', s.url, i.enclosure_url, i.guid, i.id, 0,
                          CASE WHEN i.played = 1 THEN coalesce(i.media_duration, i.duration, 0) ELSE i.position END,
                          coalesce(i.media_duration, i.duration, i.position), coalesce(i.last_played, i.added)
                   FROM items i JOIN sources s ON s.id = i.source_id
                   WHERE i.kind = 'episode' AND (i.position > 0 OR i.played = 1)
                     AND {web.format('i.enclosure_url')} AND {web.format('s.url')} ORDER BY i.id""")
    db.execute("DELETE FROM sync_clock")
    db.execute("""INSERT INTO sync_clock (item_id, changed, local)
                  SELECT id, coalesce(last_played, added), 1 FROM items WHERE position > 0 OR played = 1""")


def password_key(db: Database, account: SyncAccount) -> SecretKey:
    """Where this library keeps the account's password: an entry of its own, so that logging out of one
    library leaves the others that sync as the same user logged in."""
    return SecretKey("sync", f"{origin(account.server)} library {library_uid(db)}", account.user)


def pending_changes(db: Database) -> int:
    """How many local changes wait to be sent."""
    return int(db.execute("SELECT count(*) FROM sync_journal").fetchone()[0])


def device_caption(db: Database) -> str:
    """The name this device shows on the server: the setting, else "Earmark on" the computer's name."""
    return str(get_setting(db, "sync.device_caption")).strip() or f"Earmark on {socket.gethostname()}"


def library_uid(db: Database) -> str:
    """This library's own id (six hex digits, made with the library)."""
    return str(db.execute("SELECT uid FROM sync_library").fetchone()[0])


def default_device(db: Database) -> str:
    """A device id for this library on this computer (letters, digits, dots, dashes and underscores, as
    gpodder.net takes): two libraries on one computer are two devices, not one."""
    host = _DEVICE_CHARACTERS.sub("-", socket.gethostname()).strip("-.") or "desktop"
    return f"earmark-{host[:48]}-{library_uid(db)}"


def valid_device(name: str) -> bool:
    """Whether ``name`` can be a device id on gpodder.net."""
    return bool(name) and len(name) <= 64 and _DEVICE_CHARACTERS.search(name) is None
