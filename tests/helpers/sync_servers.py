"""The sync servers the tests run against, each with a phone that is not Earmark: the real mygpo server
(gpodder-fastapi-router) and oPodSync in both its flavours (the gpodder.net API and the Nextcloud gPodder Sync
API). On oPodSync's gpodder.net API the phone is gPodder's own client library, mygpoclient; on the mygpo server it
speaks raw HTTP (sync_devices.Phone: that server's 401 carries no Basic challenge, which mygpoclient's urllib waits
for before it sends the password); on the Nextcloud API it posts raw HTTP, as AntennaPod does."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from mygpoclient import api

from helpers.feed_server import FeedServer
from helpers.sync_devices import DURATION

NEXTCLOUD = "/index.php/apps/gpoddersync"


class ApiServer(Protocol):
    url: str

    def call(self, method: str, path: str, user: tuple[str, str], body: object = None) -> object:
        """A raw API request with basic auth; the decoded answer."""


class ServerPhone(Protocol):
    def play(self, feed_url: str, server: FeedServer, number: int, position: int, *, at: datetime | None = None,
             name: str = "cast") -> None:
        """Post a play of episode ``number`` of the podcast ``name`` up to ``position`` seconds."""

    def subscribe(self, *feeds: str) -> None:
        """Subscribe the phone to these feeds."""

    def move(self, old: str, new: str) -> None:
        """Unsubscribe the phone from ``old`` and subscribe it to ``new`` in one change (a feed that moved)."""

    def subscriptions(self) -> list[str]:
        """The feeds the server lists for the phone."""

    def actions(self) -> list[dict[str, object]]:
        """Every episode action the server holds for the user."""


@dataclass
class SyncService:
    """A user on a sync server: how Earmark logs in (``kind``, ``url``) and the user's phone."""

    kind: str
    url: str
    user: tuple[str, str]
    phone: ServerPhone


def _when(at: datetime | None) -> str:
    return (at or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%S")


class MygpoclientPhone:
    """A phone that syncs through mygpoclient (device ``phone``)."""

    def __init__(self, server: ApiServer, user: tuple[str, str]) -> None:
        self.client = api.MygPodderClient(user[0], user[1], server.url)
        self.client.update_device_settings("phone", "Phone", "mobile")

    def play(self, feed_url: str, server: FeedServer, number: int, position: int, *, at: datetime | None = None,
             name: str = "cast") -> None:
        self.client.upload_episode_actions([api.EpisodeAction(
            feed_url, server.url(f"{name}/audio/{number}.mp3"), "play", device="phone", timestamp=_when(at),
            started=0, position=position, total=DURATION)])

    def subscribe(self, *feeds: str) -> None:
        self.client.update_subscriptions("phone", list(feeds), [])

    def move(self, old: str, new: str) -> None:
        self.client.update_subscriptions("phone", [new], [old])

    def subscriptions(self) -> list[str]:
        return sorted(self.client.pull_subscriptions("phone", 0).add)

    def actions(self) -> list[dict[str, object]]:
        return [action.to_dictionary() for action in self.client.download_episode_actions(0).actions]


class NextcloudPhone:
    """A phone that syncs through the Nextcloud gPodder Sync API with raw HTTP, as AntennaPod does."""

    def __init__(self, server: ApiServer, user: tuple[str, str]) -> None:
        self.server = server
        self.user = user

    def play(self, feed_url: str, server: FeedServer, number: int, position: int, *, at: datetime | None = None,
             name: str = "cast") -> None:
        self.server.call("POST", f"{NEXTCLOUD}/episode_action/create", self.user, [
            {"podcast": feed_url, "episode": server.url(f"{name}/audio/{number}.mp3"), "guid": f"{name}-{number}",
             "action": "PLAY", "timestamp": _when(at), "started": 0, "position": position, "total": DURATION}])

    def subscribe(self, *feeds: str) -> None:
        self.server.call("POST", f"{NEXTCLOUD}/subscription_change/create", self.user,
                         {"add": list(feeds), "remove": []})

    def move(self, old: str, new: str) -> None:
        self.server.call("POST", f"{NEXTCLOUD}/subscription_change/create", self.user, {"add": [new], "remove": [old]})

    def subscriptions(self) -> list[str]:
        answer = self.server.call("GET", f"{NEXTCLOUD}/subscriptions?since=0", self.user)
        assert isinstance(answer, dict)
        return sorted(str(url) for url in answer["add"])

    def actions(self) -> list[dict[str, object]]:
        answer = self.server.call("GET", f"{NEXTCLOUD}/episode_action?since=0", self.user)
        assert isinstance(answer, dict)
        return list(answer["actions"])
