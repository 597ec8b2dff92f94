"""Sync test pieces: a podcast served over HTTP, Earmark libraries as devices, and a phone that speaks the
gpodder.net API with raw HTTP."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.settings import set_setting
from helpers.feed_server import FeedServer, rss
from helpers.mygpo_server import MygpoServer

EPISODES = 3
DURATION = 600  # seconds, each episode


def serve_podcast(server: FeedServer, name: str = "cast") -> str:
    """A podcast of three ten-minute episodes with web enclosures; its feed's address."""
    entries = [{"title": f"{name} episode {n}", "guid": f"{name}-{n}", "link": server.url(f"{name}/page/{n}"),
                "enclosure": server.url(f"{name}/audio/{n}.mp3"), "duration": str(DURATION),
                "pubDate": f"Mon, 0{n} Jan 2024 10:00:00 +0000"} for n in range(1, EPISODES + 1)]
    return server.serve_body(f"{name}/feed.xml", rss(f"{name.title()} Cast", entries))


def device(folder: Path, name: str, *, passwords_in_library: bool = True) -> Database:
    """A library as one device (passwords kept in the library file unless a test keyring is used)."""
    db = open_library(folder / f"{name}.db")
    set_setting(db, "secrets.store_in_library", passwords_in_library)
    set_setting(db, "sync.device_caption", f"Test {name}")
    return db


def on_both(a: Database, b: Database, feed_server: FeedServer) -> str:
    """Subscribe A to a podcast and sync both: each has it. Its feed's address."""
    from earmark.core.feeds.subscribe import subscribe
    from earmark.core.sync.session import sync_now

    feed = serve_podcast(feed_server)
    subscribe(a, feed)
    sync_now(a)
    sync_now(b)
    return feed


def episode(db: Database, feed_url: str, number: int) -> int:
    """The id of episode ``number`` of the podcast at ``feed_url`` in this library."""
    row = db.execute("""SELECT i.id FROM items i JOIN sources s ON s.id = i.source_id
                        WHERE s.url = ? AND i.guid = ?""", [feed_url, f"{feed_url.split('/')[-2]}-{number}"]).fetchone()
    assert row is not None, f"episode {number} of {feed_url} is not in the library"
    return int(row[0])


def state(db: Database, item_id: int) -> tuple[float, int]:
    """An episode's (position, played)."""
    row = db.execute("SELECT position, played FROM items WHERE id = ?", [item_id]).fetchone()
    return float(row[0]), int(row[1])


class Phone:
    """Another podcast app on the user's phone: it speaks the API with raw HTTP (device ``phone``)."""

    def __init__(self, server: MygpoServer, user: tuple[str, str]) -> None:
        self.server = server
        self.user = user
        server.call("POST", f"/api/2/devices/{user[0]}/phone.json", user, {"caption": "Phone", "type": "mobile"})

    def play(self, feed_url: str, server: FeedServer, number: int, position: int, *, at: datetime | None = None,
             name: str = "cast") -> None:
        """Post a play of episode ``number`` up to ``position`` seconds."""
        when = (at or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%S")
        action = {"podcast": feed_url, "episode": server.url(f"{name}/audio/{number}.mp3"), "device": "phone",
                  "guid": f"{name}-{number}", "action": "play", "timestamp": when, "started": 0,
                  "position": position, "total": DURATION}
        self.server.call("POST", f"/api/2/episodes/{self.user[0]}.json", self.user, [action])

    def subscribe(self, *feeds: str) -> None:
        """Subscribe the phone to these feeds (as typed there)."""
        self.server.call("POST", f"/api/2/subscriptions/{self.user[0]}/phone.json", self.user,
                         {"add": list(feeds), "remove": []})

    def move(self, old: str, new: str) -> None:
        """Unsubscribe the phone from ``old`` and subscribe it to ``new`` in one change (a feed that moved)."""
        self.server.call("POST", f"/api/2/subscriptions/{self.user[0]}/phone.json", self.user,
                         {"add": [new], "remove": [old]})

    def subscriptions(self, device: str = "phone") -> list[str]:
        """The feeds the server lists for a device of the user."""
        answer = self.server.call("GET", f"/api/2/subscriptions/{self.user[0]}/{device}.json?since=0", self.user)
        assert isinstance(answer, dict)
        return sorted(str(url) for url in answer["add"])

    def devices(self) -> list[str]:
        """The ids of the user's devices on the server."""
        answer = self.server.call("GET", f"/api/2/devices/{self.user[0]}.json", self.user)
        assert isinstance(answer, list)
        return [str(d["id"]) for d in answer]

    def actions(self) -> list[dict[str, object]]:
        """Every episode action the server holds for the user."""
        answer = self.server.call("GET", f"/api/2/episodes/{self.user[0]}.json?since=0", self.user)
        assert isinstance(answer, dict)
        return list(answer["actions"])
