"""The Nextcloud gPodder Sync app's API (``/index.php/apps/gpoddersync/``), used with an app password.

It keeps subscriptions per user rather than per device, and of the episode actions only plays (one per episode,
the latest); every request carries basic auth (Nextcloud checks app passwords on each)."""

from __future__ import annotations

from earmark.core.sync.actions import EpisodeAction, read_actions
from earmark.core.sync.http import TIMEOUT_SECONDS, JsonClient
from earmark.core.sync.server import ActionsPage, SubscriptionChanges, expect_dict, timestamp, url_list

APP = "/index.php/apps/gpoddersync"


class NextcloudServer:
    """A user's gPodder Sync data on a Nextcloud server."""

    kind = "nextcloud"
    actions_sent = frozenset({"play"})

    def __init__(self, base_url: str, user: str, password: str, timeout: float = TIMEOUT_SECONDS) -> None:
        base = base_url.rstrip("/")
        self.http = JsonClient(base.removesuffix("/index.php"), user, password, cookies=False, timeout=timeout)

    @property
    def clock_offset(self) -> float | None:
        return self.http.clock_offset

    def login(self) -> None:
        self.http.call("GET", f"{APP}/subscriptions", query={"since": 2**31 - 1})

    def devices(self) -> dict[str, str]:
        """Nextcloud keeps no devices."""
        return {}

    def register_device(self, device: str, caption: str) -> None:
        """Nextcloud keeps no devices."""

    def keep_in_step(self, device: str) -> None:
        """Every device of a Nextcloud user shares one subscription list."""

    def subscription_changes(self, device: str, since: int) -> SubscriptionChanges:
        answer = expect_dict(self.http.call("GET", f"{APP}/subscriptions", query={"since": since}),
                             self.http.host, "subscription changes")
        return SubscriptionChanges(url_list(answer.get("add")), url_list(answer.get("remove")),
                                   timestamp(answer.get("timestamp")))

    def send_subscription_changes(self, device: str, add: list[str], remove: list[str]) -> None:
        self.http.call("POST", f"{APP}/subscription_change/create", body={"add": add, "remove": remove})

    def episode_actions(self, since: int, device: str | None = None, podcast: str | None = None) -> ActionsPage:
        """Every device's and every podcast's (the app filters neither)."""
        answer = expect_dict(self.http.call("GET", f"{APP}/episode_action", query={"since": since}),
                             self.http.host, "episode actions")
        actions, unusable = read_actions(answer.get("actions"))
        return ActionsPage(actions, timestamp(answer.get("timestamp")), unusable)

    def send_episode_actions(self, device: str, actions: list[EpisodeAction]) -> None:
        self.http.call("POST", f"{APP}/episode_action/create", body=[a.as_json() for a in actions])
