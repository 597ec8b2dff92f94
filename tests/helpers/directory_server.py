"""One real HTTP server on 127.0.0.1 that speaks the four podcast directories' documented APIs, for the search
tests: the iTunes Search API (search, lookup, the top-podcasts chart), Podcast Index (search/byterm and
podcasts/trending, refusing a request whose Authorization is not the SHA-1 of key, secret and X-Auth-Date with
401, as its documentation says), fyyd (search/podcast) and gpodder.net (search.json, toplist). Each directory
lives under its own path (``base_url("apple")``), answers from one catalogue of podcasts, and can be made slow
or down by itself. Answers are written here from the APIs' documentation; the real services are never asked."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import parse_qs, urlsplit

MAX_DELAY = 10.0  # a slow directory never holds a request longer, even when a test forgets to stop it
DIRECTORIES = ("apple", "podcastindex", "fyyd", "gpodder")
KEY, SECRET = "TESTKEY123", "test-secret-456"  # the Podcast Index credentials this server accepts


@dataclass
class Listing:
    """A podcast as every directory knows it."""

    title: str
    feed_url: str
    author: str = "Someone"
    image: str = ""
    episodes: int = 10
    latest: int = 1715594400  # the newest episode, Unix seconds (2024-05-13 10:00 UTC)
    description: str = ""
    guid: str = ""
    itunes_id: int = 0
    genre: str = "1318"  # Apple's genre id (Technology)
    category: str = "Technology"  # Podcast Index's
    only_in: tuple[str, ...] = DIRECTORIES  # the directories that list it

    def matches(self, query: str) -> bool:
        words = query.lower().split()
        return bool(words) and all(word in f"{self.title} {self.author}".lower() for word in words)


@dataclass
class Asked:
    """One request a directory received."""

    directory: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]


@dataclass
class _State:
    catalogue: list[Listing] = field(default_factory=list)
    delay: dict[str, float] = field(default_factory=dict)
    down: set[str] = field(default_factory=set)
    asked: list[Asked] = field(default_factory=list)


def _iso(seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def apple_row(p: Listing) -> dict[str, object]:
    return {"wrapperType": "track", "kind": "podcast", "collectionId": p.itunes_id, "trackId": p.itunes_id,
            "artistName": p.author, "collectionName": p.title, "trackName": p.title, "feedUrl": p.feed_url,
            "artworkUrl100": p.image, "artworkUrl600": p.image, "trackCount": p.episodes,
            "releaseDate": _iso(p.latest), "primaryGenreName": "Technology", "genreIds": [p.genre, "26"],
            "collectionViewUrl": f"https://podcasts.apple.com/us/podcast/x/id{p.itunes_id}"}


def apple_chart_entry(p: Listing) -> dict[str, object]:
    return {"im:name": {"label": p.title}, "im:artist": {"label": p.author}, "summary": {"label": p.description},
            "im:image": [{"label": p.image, "attributes": {"height": "170"}}],
            "id": {"label": f"https://podcasts.apple.com/us/podcast/x/id{p.itunes_id}?uo=2",
                   "attributes": {"im:id": str(p.itunes_id)}}}


def podcastindex_row(p: Listing) -> dict[str, object]:
    return {"id": abs(hash(p.feed_url)) % 10**7, "podcastGuid": p.guid, "title": p.title, "url": p.feed_url,
            "originalUrl": p.feed_url, "link": "https://example.com/", "description": p.description,
            "author": p.author, "ownerName": p.author, "image": p.image, "artwork": p.image,
            "lastUpdateTime": p.latest, "itunesId": p.itunes_id or None, "language": "en",
            "episodeCount": p.episodes, "newestItemPubdate": p.latest, "newestItemPublishTime": p.latest,
            "categories": {"102": p.category}}


def fyyd_row(p: Listing) -> dict[str, object]:
    return {"id": abs(hash(p.feed_url)) % 10**6, "title": p.title, "xmlURL": p.feed_url,
            "htmlURL": "https://example.com/", "imgURL": p.image, "author": p.author, "description": p.description,
            "lastpub": _iso(p.latest).replace("Z", "+00:00"), "episode_count": p.episodes, "language": "en",
            "iTunesID": p.itunes_id or None, "status": 200}


def gpodder_row(p: Listing) -> dict[str, object]:
    return {"url": p.feed_url, "title": p.title, "author": p.author, "description": p.description,
            "subscribers": 100, "subscribers_last_week": 90, "logo_url": p.image, "scaled_logo_url": p.image,
            "website": "https://example.com/", "mygpo_link": "https://gpodder.net/podcast/x"}


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        directory, _, rest = parts.path.lstrip("/").partition("/")
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        state = self.server.state
        state.asked.append(Asked(directory, "/" + rest, query, dict(self.headers.items())))
        if directory not in DIRECTORIES:
            return self._send(404, {"error": "no such directory"})
        self.server.stopping.wait(min(state.delay.get(directory, 0.0), MAX_DELAY))
        if directory in state.down:
            return self._send(503, {"error": "down for maintenance"})
        listed = [p for p in state.catalogue if directory in p.only_in]
        answer = getattr(self, f"_{directory}")("/" + rest, query, listed)
        if answer is not None:
            self._send(*answer)
        return None

    def _apple(self, path: str, q: dict[str, str], listed: list[Listing]) -> tuple[int, object]:
        if path == "/search":
            found = [apple_row(p) for p in listed if p.matches(q.get("term", ""))][: int(q.get("limit", 50))]
            return 200, {"resultCount": len(found), "results": found}
        if path == "/lookup":
            ids = {int(i) for i in q.get("id", "").split(",") if i.isdigit()}
            found = [apple_row(p) for p in listed if p.itunes_id in ids]
            return 200, {"resultCount": len(found), "results": found}
        chart = re.fullmatch(r"/(\w\w)/rss/toppodcasts/limit=(\d+)/genre=(\d+)/json", path)
        if chart:
            genre = chart.group(3)
            entries = [apple_chart_entry(p) for p in listed if genre in ("26", p.genre)][: int(chart.group(2))]
            return 200, {"feed": {"author": {"name": {"label": "iTunes Store"}}, "entry": entries}}
        return 404, {"errorMessage": "Invalid value(s) for key(s)"}

    def _podcastindex(self, path: str, q: dict[str, str], listed: list[Listing]) -> tuple[int, object]:
        date = self.headers.get("X-Auth-Date", "")
        expected = hashlib.sha1((KEY + SECRET + date).encode()).hexdigest()  # noqa: S324 - the API's scheme
        if (self.headers.get("X-Auth-Key") != KEY or self.headers.get("Authorization") != expected
                or not date.isdigit() or abs(time.time() - int(date)) > 180 or not self.headers.get("User-Agent")):
            return 401, {"status": "false", "description": "Authorization header doesn't match"}
        if path == "/search/byterm":
            found = [podcastindex_row(p) for p in listed if p.matches(q.get("q", ""))][: int(q.get("max", 40))]
            return 200, {"status": "true", "feeds": found, "count": len(found), "query": q.get("q", ""),
                         "description": "Found matching feeds"}
        if path == "/podcasts/trending":
            cat = q.get("cat", "")
            found = [podcastindex_row(p) for p in listed if cat in ("", p.category)][: int(q.get("max", 10))]
            return 200, {"status": "true", "feeds": found, "count": len(found), "max": q.get("max"),
                         "description": "Found matching feeds"}
        return 404, {"status": "false", "description": "no such endpoint"}

    def _fyyd(self, path: str, q: dict[str, str], listed: list[Listing]) -> tuple[int, object]:
        if path.rstrip("/") == "/search/podcast":
            words = q.get("title") or q.get("term") or ""
            found = [fyyd_row(p) for p in listed if p.matches(words)][: int(q.get("count", 10))]
            return 200, {"status": 1, "msg": "ok", "meta": {"paging": {"count": len(found), "page": 0}},
                         "data": found}
        return 404, {"status": 0, "msg": "not found", "data": []}

    def _gpodder(self, path: str, q: dict[str, str], listed: list[Listing]) -> tuple[int, object]:
        if path == "/search.json":
            return 200, [gpodder_row(p) for p in listed if p.matches(q.get("q", ""))]
        top = re.fullmatch(r"/toplist/(\d+)\.json", path)
        if top:
            return 200, [gpodder_row(p) for p in listed][: int(top.group(1))]
        return 404, {"error": "not found"}

    def _send(self, code: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = _State()
        self.stopping = threading.Event()


class DirectoryServer:
    """The four directories on one port of 127.0.0.1. ``catalogue`` is what they list; ``slow(name, seconds)``
    and ``down(name)`` change one directory; ``asked`` is every request received, in order."""

    def __init__(self, catalogue: list[Listing] | None = None) -> None:
        self._server = _Server()
        self._server.state.catalogue = list(catalogue or [])
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True)

    def __enter__(self) -> DirectoryServer:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._server.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    @property
    def catalogue(self) -> list[Listing]:
        return self._server.state.catalogue

    @property
    def asked(self) -> list[Asked]:
        return self._server.state.asked

    def base_url(self, directory: str) -> str:
        """What the ``directory.NAME_url`` setting is set to, for this server."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/{directory}"

    def settings(self) -> dict[str, str]:
        """Every directory's address setting, pointed here."""
        return {f"directory.{name}_url": self.base_url(name) for name in DIRECTORIES}

    def slow(self, directory: str, seconds: float) -> None:
        self._server.state.delay[directory] = seconds

    def down(self, directory: str) -> None:
        self._server.state.down.add(directory)

    def when_asked(self, directory: str) -> Callable[[], list[Asked]]:
        """A check for ``qtbot.waitUntil``: the requests ``directory`` received so far."""
        return lambda: [a for a in self.asked if a.directory == directory]
