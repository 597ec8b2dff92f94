"""The system keyring: the desktop's Secret Service over D-Bus (GNOME Keyring, KeePassXC, KWallet), through
the keyring library's SecretService backend."""

from __future__ import annotations

import logging
import os
from typing import Any, Protocol

from earmark.core.errors import NoKeyringError

log = logging.getLogger(__name__)

NO_KEYRING = ("No system keyring is running (a Secret Service such as GNOME Keyring or KeePassXC), so Earmark "
              "cannot keep passwords safely")
LOCKED = "The system keyring stayed locked (its unlock prompt was dismissed), so Earmark cannot reach its passwords"


class Vault(Protocol):
    """Where passwords are kept, by service and user name."""

    def available(self) -> bool:
        """Whether passwords can be kept here now."""

    def get(self, service: str, user: str) -> str | None:
        """The password, or None when none is stored; NoKeyringError when the vault cannot be reached."""

    def set(self, service: str, user: str, password: str) -> None:
        """Store (or replace) a password; NoKeyringError when the vault cannot be reached."""

    def delete(self, service: str, user: str) -> None:
        """Forget a password (nothing happens when none is stored)."""


class KeyringVault:
    """The Secret Service keyring. Each call opens its own D-Bus connection, so any thread may use it; a call
    may wait for the user to unlock the keyring, so none belongs on the UI thread."""

    def __init__(self) -> None:
        self._known: dict[str, bool] = {}  # by session bus address

    def available(self) -> bool:
        """Whether a Secret Service answers on the session bus (checked once per bus, and again after a
        call failed)."""
        bus = os.environ.get("DBUS_SESSION_BUS_ADDRESS", "")
        if bus not in self._known:
            try:
                backend = _backend()
                backend.priority  # noqa: B018  # raises when no Secret Service can be reached
                self._known[bus] = True
            except Exception as exc:  # noqa: BLE001  # D-Bus and keyring raise many kinds: all mean "none here"
                log.info("No Secret Service: %s", exc)
                self._known[bus] = False
        return self._known[bus]

    def get(self, service: str, user: str) -> str | None:
        try:
            return _backend().get_password(service, user)
        except Exception as exc:  # noqa: BLE001  # see available()
            raise self._failure(exc) from exc

    def set(self, service: str, user: str, password: str) -> None:
        try:
            _backend().set_password(service, user, password)
        except Exception as exc:  # noqa: BLE001  # see available()
            raise self._failure(exc) from exc

    def delete(self, service: str, user: str) -> None:
        from keyring.errors import PasswordDeleteError

        try:
            _backend().delete_password(service, user)
        except PasswordDeleteError:
            return
        except Exception as exc:  # noqa: BLE001  # see available()
            raise self._failure(exc) from exc

    def _failure(self, exc: Exception) -> NoKeyringError:
        self._known.clear()  # look again next time: the keyring may have been started or unlocked meanwhile
        locked = type(exc).__name__ in ("KeyringLocked", "PromptDismissedException")
        log.info("Secret Service call failed: %r", exc)
        return NoKeyringError((LOCKED if locked else NO_KEYRING) + ".")


def _backend() -> Any:  # keyring's backend classes are untyped
    from keyring.backends import SecretService  # imported when first needed: it pulls in D-Bus and crypto

    return SecretService.Keyring()
