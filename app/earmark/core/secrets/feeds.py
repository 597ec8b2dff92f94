"""A feed's user name and password: the name in the library, the password in the keyring under the feed's
origin, so that it is only ever sent to the server it was given for."""

from __future__ import annotations

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.errors import NotFoundError
from earmark.core.secrets.store import SecretKey, Secrets
from earmark.core.urls import origin


def feed_key(url: str, user: str) -> SecretKey:
    """Where the password of ``user`` for the feed at ``url`` is kept."""
    return SecretKey("feed", origin(url), user)


def set_feed_credentials(db: Database, source_id: int, user: str | None, password: str | None,
                         secrets: Secrets | None = None) -> None:
    """Store (or with ``user`` None, forget) the basic-auth credentials of a feed and make it due again. The
    password goes to the keyring first: NoKeyringError (nothing changed) when it cannot be kept."""
    row = db.execute("SELECT url, auth_user FROM sources WHERE id = ?", [source_id]).fetchone()
    if row is None:
        raise NotFoundError(f"There is no source with id {source_id}.")
    url, old_user = str(row[0] or ""), row[1]
    secrets = secrets or Secrets(db)
    if user is not None:
        secrets.set(feed_key(url, user), password or "")
    with write_transaction(db):
        db.execute("UPDATE sources SET auth_user = ?, auth_password = NULL, retry_after = NULL WHERE id = ?",
                   [user, source_id])
    if old_user is not None and old_user != user:
        _forget_unless_shared(db, secrets, url, str(old_user))


def forget_on_move(db: Database, source_id: int, old_url: str, new_url: str,
                   secrets: Secrets | None = None) -> str | None:
    """After a feed moved for good: when it moved to another origin (another host or port, or from https to
    http), its stored credentials are dropped, never sent there; returns the sentence that asks for them."""
    if origin(old_url) == origin(new_url):
        return None
    row = db.execute("SELECT auth_user FROM sources WHERE id = ?", [source_id]).fetchone()
    if row is None or row[0] is None:
        return None
    with write_transaction(db):
        db.execute("UPDATE sources SET auth_user = NULL, auth_password = NULL WHERE id = ?", [source_id])
    _forget_unless_shared(db, secrets or Secrets(db), old_url, str(row[0]))
    return (f"The feed moved to {new_url}, another server than the one its password was given for: the user name "
            "and password were not sent there and are forgotten. Set them again (Feeds ▸ Set Feed Password…) if "
            "you trust the new address.")


def _forget_unless_shared(db: Database, secrets: Secrets, url: str, user: str) -> None:
    """Forget the password of ``user`` at ``url``'s origin unless another feed there still uses it."""
    key = feed_key(url, user)
    others = db.execute("SELECT url FROM sources WHERE auth_user = ? AND url IS NOT NULL", [user]).fetchall()
    if not any(origin(str(other)) == key.origin for (other,) in others):
        secrets.delete(key)
