"""The sync password: each library keeps its own keyring entry (logging out of one leaves the others logged
in), and says whether it is missing because the user logged out or because no keyring can be reached."""

from __future__ import annotations

from earmark.core.errors import NoKeyringError, SyncAuthError
from earmark.core.secrets.store import Secrets
from earmark.core.secrets.vault import NO_KEYRING
from earmark.core.sync.account import SyncAccount, password_key

START_ONE = ("start one (GNOME Keyring starts with a desktop session; without one, run "
             "gnome-keyring-daemon --start --components=secrets; or turn on KeePassXC's Secret Service "
             "integration) and sync again, or log in again with earmark sync login --store-in-library to keep "
             "the password in the library file (unencrypted: anyone who can read the file can read it)")


def keep_password(secrets: Secrets, account: SyncAccount, password: str) -> None:
    """Keep the password in this library's own entry; NoKeyringError (naming the opt-in) when it cannot be."""
    if not secrets.can_keep():
        raise NoKeyringError(f"{NO_KEYRING}; nothing was stored: {START_ONE}.")
    secrets.set(password_key(secrets.db, account), password)


def stored_password(secrets: Secrets, account: SyncAccount) -> str | None:
    """The password this library keeps for the account. One kept in the entry every library shared (before
    each had its own) is copied into this library's own. None when the user logged out."""
    own = password_key(secrets.db, account)
    password = secrets.get(own)
    if password is None:
        password = secrets.get(account.key)
        if password is not None:
            secrets.set(own, password)
    return password


def password_or_reason(secrets: Secrets, account: SyncAccount) -> str:
    """The password; else NoKeyringError when no keyring can be reached, SyncAuthError when logged out."""
    password = stored_password(secrets, account)
    if password is not None:
        return password
    if not keyring_reachable(secrets):
        raise NoKeyringError(f"{NO_KEYRING}, so it cannot read the sync password of {account.user} on "
                             f"{account.server}: {START_ONE}.")
    raise SyncAuthError(f"This library has no password for {account.user} on {account.server} (logged out): log "
                        "in again with earmark sync login.")


def keyring_reachable(secrets: Secrets) -> bool:
    """Whether passwords can be read where this library keeps them (always, when kept in the library)."""
    return secrets.in_library or secrets.vault.available()


def forget_password(secrets: Secrets, account: SyncAccount) -> bool:
    """Forget this library's password; and the shared entry of before, if there is one (the libraries that
    still read it are logged out too: True then)."""
    secrets.delete(password_key(secrets.db, account))
    shared = secrets.get(account.key) is not None
    if shared:
        secrets.delete(account.key)
    return shared

