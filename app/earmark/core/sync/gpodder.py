"""The gpodder.net API v2 ("mygpo"), which gpodder.net and self-hosted servers speak."""

from __future__ import annotations

from urllib.parse import quote

from earmark.core.errors import SyncAuthError, SyncError
from earmark.core.sync.actions import ACTIONS, EpisodeAction, read_actions
from earmark.core.sync.http import TIMEOUT_SECONDS, JsonClient
from earmark.core.sync.server import ActionsPage, SubscriptionChanges, expect_dict, timestamp, url_list


class GpodderServer:
    """A user's account on a gpodder.net server. Logging in sends basic auth up front and keeps the session
    cookie the server answers with; later requests send only the cookie, and basic auth again when the
    session ran out (or the server keeps no sessions)."""

    kind = "gpodder"
    actions_sent = frozenset(ACTIONS)

    def __init__(self, base_url: str, user: str, password: str, timeout: float = TIMEOUT_SECONDS) -> None:
        self.http = JsonClient(base_url, user, password, timeout=timeout)
        self._user = quote(user, safe="")
        self._basic = False  # send basic auth with every request (the session did not work)
        self._group: set[str] = set()  # the devices kept in step with this one

    @property
    def clock_offset(self) -> float | None:
        return self.http.clock_offset

    def login(self) -> None:
        self.http.call("POST", f"/api/2/auth/{self._user}/login.json", expect_json=False)

    def devices(self) -> dict[str, str]:
        answer = self._call("GET", f"/api/2/devices/{self._user}.json")
        return {str(d["id"]): str(d.get("caption") or "") for d in _list(answer)
                if isinstance(d, dict) and isinstance(d.get("id"), str)}

    def register_device(self, device: str, caption: str) -> None:
        self._call("POST", f"/api/2/devices/{self._user}/{quote(device)}.json",
                   body={"caption": caption, "type": "desktop"}, expect_json=False)

    def keep_in_step(self, device: str) -> None:
        """Put this device in one sync group with the user's other devices, so that the server hands each the
        others' subscriptions (gpodder.net keeps subscriptions per device)."""
        try:
            status = expect_dict(self._call("GET", f"/api/2/sync-devices/{self._user}.json"), self.http.host,
                                 "its device groups")
        except SyncAuthError:
            raise
        except SyncError:
            return  # a server without device groups: each device's own subscriptions are all it can have
        groups = [[str(d) for d in group] for group in _list(status.get("synchronized")) if isinstance(group, list)]
        alone = {str(d) for d in _list(status.get("not-synchronized"))} - {device}
        ours = next((group for group in groups if device in group), None)
        members = {*(ours or (groups[0] if groups else [])), *alone, device}
        if (ours is None or alone) and len(members) > 1:
            self._call("POST", f"/api/2/sync-devices/{self._user}.json",
                       body={"synchronize": [sorted(members)], "stop-synchronize": []})
        self._group = members - {device}

    def subscription_changes(self, device: str, since: int) -> SubscriptionChanges:
        answer = expect_dict(self._call("GET", f"/api/2/subscriptions/{self._user}/{quote(device)}.json",
                                        query={"since": since}), self.http.host, "subscription changes")
        return SubscriptionChanges(url_list(answer.get("add")), url_list(answer.get("remove")),
                                   timestamp(answer.get("timestamp")))

    def send_subscription_changes(self, device: str, add: list[str], remove: list[str]) -> None:
        """This device's changes; its unsubscriptions also for the devices in step with it, which may hold the
        subscription in their own lists (gpodder.net keeps a list per device, and shows a group their union)."""
        self._call("POST", f"/api/2/subscriptions/{self._user}/{quote(device)}.json",
                   body={"add": add, "remove": remove})
        if remove:
            for other in sorted(self._group):
                self._call("POST", f"/api/2/subscriptions/{self._user}/{quote(other)}.json",
                           body={"add": [], "remove": remove})

    def episode_actions(self, since: int, device: str | None = None, podcast: str | None = None) -> ActionsPage:
        query: dict[str, object] = {"since": since}
        if device:
            query["device"] = device
        if podcast:
            query["podcast"] = podcast
        answer = expect_dict(self._call("GET", f"/api/2/episodes/{self._user}.json", query=query),
                             self.http.host, "episode actions")
        actions, unusable = read_actions(answer.get("actions"))
        return ActionsPage(actions, timestamp(answer.get("timestamp")), unusable)

    def send_episode_actions(self, device: str, actions: list[EpisodeAction]) -> None:
        self._call("POST", f"/api/2/episodes/{self._user}.json", body=[a.as_json(device) for a in actions])

    def _call(self, method: str, path: str, **kwargs: object) -> object:
        if self._basic:
            return self.http.call(method, path, **kwargs)  # type: ignore[arg-type]  # call's own keywords
        try:
            return self.http.call(method, path, auth=False, **kwargs)  # type: ignore[arg-type]  # as above
        except SyncAuthError:
            self._basic = True  # the session ran out, or there is none: log in again, then basic auth each time
            self.login()
            return self.http.call(method, path, **kwargs)  # type: ignore[arg-type]  # as above


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []
