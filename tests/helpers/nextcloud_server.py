"""A local server that follows the Nextcloud gPodder Sync app's published API (there is no Nextcloud here):
``/index.php/apps/gpoddersync/subscriptions`` and ``subscription_change/create``, ``episode_action`` and
``episode_action/create``, each user's data apart, basic auth with an app password on every request.

As the app does: subscriptions are per user (no devices), each URL's latest change kept with the server time
it arrived, ``since`` compares strictly; of the episode actions only plays are kept, one per episode (found by
GUID, else by episode URL) and replaced by a newer upload; actions come back with upper-case names and ISO
times with an offset; every answer carries the server's time."""

from __future__ import annotations

import base64
import json
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

APP = "/index.php/apps/gpoddersync"


class _Data:
    def __init__(self) -> None:
        self.subscriptions: dict[str, tuple[bool, float]] = {}  # url → (subscribed, updated)
        self.actions: list[dict[str, object]] = []


class NextcloudServer:
    """Users and their app passwords in ``passwords``; ``url`` is the Nextcloud's address."""

    def __init__(self) -> None:
        self.passwords: dict[str, str] = {}
        self.data: dict[str, _Data] = {}
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
                """Quiet."""

            def do_GET(self) -> None:
                server._handle(self)

            def do_POST(self) -> None:
                server._handle(self)

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def add_user(self, user: str, app_password: str) -> None:
        self.passwords[user] = app_password
        self.data[user] = _Data()

    def __enter__(self) -> NextcloudServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        user = self._user(handler.headers.get("Authorization", ""))
        if user is None:
            self._send(handler, 401, {"message": "Current user is not logged in"})
            return
        parts = urlsplit(handler.path)
        since = int(parse_qs(parts.query).get("since", ["0"])[0])
        length = int(handler.headers.get("Content-Length") or 0)
        body = json.loads(handler.rfile.read(length) or b"null") if length else None
        route = (handler.command, parts.path.removeprefix(APP))
        with self.lock:
            data = self.data[user]
            if route == ("GET", "/subscriptions"):
                answer: object = self._subscriptions(data, since)
            elif route == ("POST", "/subscription_change/create"):
                answer = self._change_subscriptions(data, body)
            elif route == ("GET", "/episode_action"):
                answer = {"actions": [self._shown(a) for a in data.actions if int(str(a["timestamp_epoch"])) > since],
                          "timestamp": int(time.time())}
            elif route == ("POST", "/episode_action/create"):
                answer = self._create_actions(data, body)
            else:
                self._send(handler, 404, {"message": "Page not found"})
                return
        self._send(handler, 200, answer)

    def _user(self, authorization: str) -> str | None:
        if not authorization.startswith("Basic "):
            return None
        user, _, password = base64.b64decode(authorization[6:]).decode().partition(":")
        return user if self.passwords.get(user) == password else None

    @staticmethod
    def _subscriptions(data: _Data, since: int) -> dict[str, object]:
        state = data.subscriptions.items()
        return {"add": [url for url, (on, at) in state if on and at > since],
                "remove": [url for url, (on, at) in state if not on and at > since], "timestamp": int(time.time())}

    @staticmethod
    def _change_subscriptions(data: _Data, body: object) -> dict[str, object]:
        assert isinstance(body, dict)
        now = time.time()
        for url in body.get("add", []):
            data.subscriptions[url] = (True, now)
        for url in body.get("remove", []):
            data.subscriptions[url] = (False, now)
        return {"timestamp": int(now)}

    @staticmethod
    def _create_actions(data: _Data, body: object) -> dict[str, object]:
        assert isinstance(body, list)
        for action in body:
            if str(action.get("action", "")).lower() != "play":
                continue  # the app keeps plays only
            when = datetime.fromisoformat(action["timestamp"]).replace(tzinfo=UTC)
            row = {"podcast": action["podcast"], "episode": action["episode"], "guid": action.get("guid"),
                   "action": "PLAY", "timestamp_epoch": int(when.timestamp()),
                   "started": action.get("started", -1), "position": action.get("position", -1),
                   "total": action.get("total", -1)}
            same = [a for a in data.actions if (row["guid"] and a["guid"] == row["guid"])
                    or a["episode"] == row["episode"]]
            for old in same:
                data.actions.remove(old)
            data.actions.append(row)
        return {"timestamp": int(time.time())}

    @staticmethod
    def _shown(action: dict[str, object]) -> dict[str, object]:
        shown = {k: v for k, v in action.items() if k != "timestamp_epoch"}
        shown["timestamp"] = datetime.fromtimestamp(int(str(action["timestamp_epoch"])), UTC).isoformat()
        return shown

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, answer: object) -> None:
        payload = json.dumps(answer).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)
