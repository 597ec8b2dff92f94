"""What Earmark asks of a sync server, whichever kind it is (gpodder.net API v2, Nextcloud gPodder Sync)."""

from __future__ import annotations

from dataclasses import field
from typing import Protocol

from earmark.core.errors import SyncError
from earmark.core.records import record
from earmark.core.sync.actions import EpisodeAction

KINDS = ("gpodder", "nextcloud")


@record
class SubscriptionChanges:
    """Feeds added and removed on the server since a timestamp, and the server's timestamp to ask from next."""

    add: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    timestamp: int = 0


@record
class ActionsPage:
    """Episode actions since a timestamp, the server's timestamp to ask from next, and how many were unusable."""

    actions: list[EpisodeAction] = field(default_factory=list)
    timestamp: int = 0
    unusable: int = 0


class SyncServer(Protocol):
    """One user's account on a sync server."""

    kind: str
    actions_sent: frozenset[str]  # the episode actions this kind of server keeps

    @property
    def clock_offset(self) -> float | None:
        """The server's clock minus this computer's (seconds), once it answered."""

    def login(self) -> None:
        """Check the user name and password with the server (and start a session where there are sessions)."""

    def devices(self) -> dict[str, str]:
        """The user's devices on the server (id → caption); empty where the server keeps none."""

    def register_device(self, device: str, caption: str) -> None:
        """Make this device known under ``device`` with its caption, and keep it in step with the others."""

    def keep_in_step(self, device: str) -> None:
        """Make sure the server hands this device the subscriptions of the user's other devices."""

    def subscription_changes(self, device: str, since: int) -> SubscriptionChanges:
        """Feeds added and removed since ``since`` (0: every subscription)."""

    def send_subscription_changes(self, device: str, add: list[str], remove: list[str]) -> None:
        """Tell the server what this device subscribed to and unsubscribed from."""

    def episode_actions(self, since: int, device: str | None = None, podcast: str | None = None) -> ActionsPage:
        """Episode actions since ``since``; with ``device``, only that device's (where the server can tell); with
        ``podcast``, only those about that feed."""

    def send_episode_actions(self, device: str, actions: list[EpisodeAction]) -> None:
        """Upload episode actions done on this device."""


def expect_dict(value: object, host: str, what: str) -> dict[str, object]:
    """A JSON object from the server, or the sentence saying it sent something else."""
    if not isinstance(value, dict):
        raise SyncError(f"The sync server at {host} sent {what} Earmark cannot read (not a JSON object); nothing "
                        "was applied, and your changes are kept and sent at the next sync.")
    return value


def url_list(value: object) -> list[str]:
    """The feed addresses of a JSON list (gpodder.net sends strings; its device updates send objects)."""
    if not isinstance(value, list):
        return []
    urls = []
    for entry in value:
        url = entry.get("url") if isinstance(entry, dict) else entry
        if isinstance(url, str) and url.strip():
            urls.append(url.strip())
    return urls


def timestamp(value: object) -> int:
    """The server's timestamp (seconds since 1970), 0 when missing or junk."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 2**35:
        return 0
    return int(value)
