"""Episode actions as gpodder.net names them (play, download, delete, new), read from and written to JSON."""

from __future__ import annotations

import hashlib
import math
from datetime import UTC, datetime

from earmark.core.records import record
from earmark.core.urls import comparable

ACTIONS = ("play", "download", "delete", "new")
MAX_SECONDS = 7 * 24 * 3600 * 52  # positions past a year are junk


@record(frozen=True)
class EpisodeAction:
    """One thing done to one episode, at ``at`` (seconds since 1970, the sending device's clock).
    ``started``, ``position`` and ``total`` (seconds) belong to plays."""

    podcast: str
    episode: str
    action: str
    at: int
    guid: str | None = None
    device: str | None = None
    started: int | None = None
    position: int | None = None
    total: int | None = None

    @property
    def digest(self) -> str:
        """What tells this action from any other (the same action sent twice has the same digest)."""
        key = "|".join((comparable(self.podcast), comparable(self.episode), self.action, str(self.at),
                        str(self.position)))
        return hashlib.blake2b(key.encode(), digest_size=16).hexdigest()

    def as_json(self, device: str | None = None) -> dict[str, object]:
        """The action as gpodder.net's API takes it (times in UTC, whole seconds)."""
        data: dict[str, object] = {"podcast": self.podcast, "episode": self.episode, "action": self.action,
                                   "timestamp": datetime.fromtimestamp(self.at, UTC).strftime("%Y-%m-%dT%H:%M:%S")}
        if self.guid:
            data["guid"] = self.guid
        if device:
            data["device"] = device
        if self.action == "play" and self.position is not None:
            data.update(started=self.started or 0, position=self.position,
                        total=self.total if self.total is not None else self.position)
        return data


def read_actions(value: object) -> tuple[list[EpisodeAction], int]:
    """The usable actions of a server's list, and how many were unusable (missing fields, junk values)."""
    if not isinstance(value, list):
        return [], 0
    actions = [action for action in map(read_action, value) if action is not None]
    return actions, len(value) - len(actions)


def read_action(value: object) -> EpisodeAction | None:
    """One action from the server's JSON, or None when it cannot be used."""
    if not isinstance(value, dict):
        return None
    podcast, episode, action = value.get("podcast"), value.get("episode"), value.get("action")
    at = read_time(value.get("timestamp"))
    if not (isinstance(podcast, str) and isinstance(episode, str) and isinstance(action, str)) or at is None:
        return None
    action = action.lower()
    if action not in ACTIONS and action != "flattr":
        return None
    guid, device = value.get("guid"), value.get("device")
    return EpisodeAction(podcast, episode, action, at, guid if isinstance(guid, str) and guid else None,
                         device if isinstance(device, str) and device else None,
                         _seconds(value.get("started")), _seconds(value.get("position")), _seconds(value.get("total")))


def read_time(value: object) -> int | None:
    """Seconds since 1970 from an ISO 8601 time (with or without a zone: UTC when none) or a number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if math.isfinite(value) and 0 <= value < 2**35 else None
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return read_time(int(text))
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return read_time(when.timestamp())


def _seconds(value: object) -> int | None:
    """Seconds of a play (-1, as Nextcloud sends for "none", and junk are None)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return int(value) if 0 <= value <= MAX_SECONDS else None
