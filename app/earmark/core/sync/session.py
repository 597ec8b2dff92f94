"""Logging in, syncing with the stored password, logging out, and the account's state: what the command
line and the window share."""

from __future__ import annotations

from dataclasses import field

from earmark.core.db.database import Database
from earmark.core.errors import SyncAuthError, SyncError
from earmark.core.records import record
from earmark.core.secrets.store import Secrets
from earmark.core.sync.account import (
    SyncAccount,
    default_device,
    device_caption,
    get_account,
    pending_changes,
    save_account,
    set_up_account,
    valid_device,
)
from earmark.core.sync.engine import FetchFeeds, run_sync
from earmark.core.sync.gpodder import GpodderServer
from earmark.core.sync.lock import one_sync_at_a_time
from earmark.core.sync.nextcloud import NextcloudServer
from earmark.core.sync.password import (
    forget_password,
    keep_password,
    keyring_reachable,
    password_or_reason,
    stored_password,
)
from earmark.core.sync.report import SyncReport
from earmark.core.sync.server import KINDS, SyncServer
from earmark.core.urls import is_web_address, split_userinfo

NOT_SET_UP = "This library does not sync yet: log in first with earmark sync login URL USERNAME."


def make_server(kind: str, server: str, user: str, password: str) -> SyncServer:
    """A client for the account (``kind``: gpodder or nextcloud)."""
    if kind == "nextcloud":
        return NextcloudServer(server, user, password)
    return GpodderServer(server, user, password)


@record
class LoggedIn:
    """The account a login set up, and sentences about it (the device id another library or app uses)."""

    account: SyncAccount
    warnings: list[str] = field(default_factory=list)


def log_in(db: Database, kind: str, server: str, user: str, password: str, device: str | None = None,
           secrets: Secrets | None = None) -> LoggedIn:
    """Check the user name and password with the server, register this device, keep the password (keyring)
    and make this the library's account. Nothing is stored when any of that fails (a sentence says why)."""
    if kind not in KINDS:
        raise SyncError(f"Earmark syncs with gpodder.net servers and Nextcloud, not {kind!r}.")
    server = split_userinfo(server.strip()).url.rstrip("/")
    if not is_web_address(server):
        raise SyncError(f"{server!r} is not a web address (http:// or https://) of a sync server.")
    device = device or default_device(db)
    if not valid_device(device):
        raise SyncError(f"{device!r} cannot name a device: use letters, digits, dots, dashes and underscores "
                        "(up to 64).")
    client = make_server(kind, server, user, password)
    caption = device_caption(db)
    old = get_account(db)
    try:
        client.login()
        warnings = [] if old is not None and (old.server, old.user, old.device) == (server, user, device) else \
            _device_in_use(client, device)
        client.register_device(device, caption)
    except SyncAuthError as exc:
        app_password = " (for Nextcloud, an app password from its security settings)" if kind == "nextcloud" else ""
        raise SyncAuthError(f"{server} refused the user name or password of {user}: check them{app_password}; "
                            "nothing was stored.") from exc
    except SyncError as exc:
        what = str(exc).split(";")[0].split(": check")[0].rstrip(".")  # the fault, without the sync's promises
        raise SyncError(f"Earmark could not log in: {what}. Nothing was stored: check the server's address "
                        f"({server}) and that it is a {'Nextcloud' if kind == 'nextcloud' else 'gpodder.net'} "
                        "sync server, then log in again.") from exc
    secrets = secrets or Secrets(db)
    if old is not None and (old.server, old.user) != (server, user):
        forget_password(secrets, old)
    keep_password(secrets, SyncAccount(kind, server, user, device), password)  # NoKeyringError: nothing stored
    account = set_up_account(db, kind, server, user, device)
    account.registered_caption = caption
    save_account(db, account)
    return LoggedIn(account, warnings)


def _device_in_use(client: SyncServer, device: str) -> list[str]:
    """The sentence when the server already has this device id (another library or app may sync as it)."""
    caption = client.devices().get(device)
    if caption is None:
        return []
    return [f"The server already has a device {device} (\"{caption}\"): if another library or app still syncs as "
            f"{device}, each will miss the other's changes. This library now syncs as {device} and gets its past "
            "actions at the first sync; to be a device of its own, log in again with --device NAME."]


def sync_now(db: Database, secrets: Secrets | None = None,
             fetch_feeds: FetchFeeds | None = None) -> SyncReport:
    """One sync with the stored account and password; SyncError when there is no account, SyncAuthError when
    no password is kept for it (logged out), NoKeyringError when the keyring cannot be reached."""
    if get_account(db) is None:
        raise SyncError(NOT_SET_UP)
    with one_sync_at_a_time(db):
        account = get_account(db)  # as the sync that held the lock left it
        if account is None:
            raise SyncError(NOT_SET_UP)
        password = password_or_reason(secrets or Secrets(db), account)
        server = make_server(account.kind, account.server, account.user, password)
        return run_sync(db, server, account, device_caption(db), fetch_feeds)


def log_out(db: Database, secrets: Secrets | None = None) -> str:
    """Forget this library's password for the account (other libraries keep theirs); the library, the account
    and the changes not sent yet stay. The sentence saying so."""
    account = get_account(db)
    if account is None:
        raise SyncError(NOT_SET_UP)
    shared = forget_password(secrets or Secrets(db), account)
    others = (" Libraries that still read the password entry Earmark shared between libraries before (they have "
              "not synced since this version) are logged out too, until they log in again.") if shared else ""
    return (f"Logged out of {account.server} ({account.user}) in this library: its password is forgotten; the "
            f"library and the changes not sent yet stay. Other libraries logged in as {account.user} stay logged "
            f"in.{others}")


@record
class SyncStatus:
    """The account as ``earmark sync status`` shows it."""

    account: SyncAccount
    pending: int
    logged_in: bool  # a password is kept for the account (False also when the keyring cannot be reached)
    keyring: bool = True  # where this library keeps passwords can be reached

    def as_json(self) -> dict[str, object]:
        a = self.account
        return {"kind": a.kind, "server": a.server, "user": a.user, "device": a.device,
                "caption": a.registered_caption, "last_sync": a.last_sync, "last_attempt": a.last_attempt,
                "last_error": a.last_error, "pending": self.pending, "logged_in": self.logged_in,
                "keyring_reachable": self.keyring}


def sync_status(db: Database, secrets: Secrets | None = None) -> SyncStatus:
    """The account's state; SyncError when this library does not sync."""
    account = get_account(db)
    if account is None:
        raise SyncError(NOT_SET_UP)
    secrets = secrets or Secrets(db)
    return SyncStatus(account, pending_changes(db), stored_password(secrets, account) is not None,
                      keyring_reachable(secrets))
