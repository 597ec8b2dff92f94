"""The benchmarks' podcast feeds and the HTTP server that serves them (in a child process, on 127.0.0.1).

The feeds are RSS 2.0 with the iTunes namespace, each item with a title, guid, link, pubDate, enclosure,
itunes:duration and a few hundred bytes of HTML show notes. The same plan always builds the same feeds. Every feed
has an ETag and answers a matching If-None-Match with 304; bodies are gzipped when the client asks, as real hosts do.

    python bench/feed_server.py PLAN     # serve a plan; prints "PORT N", stops when standard input closes
"""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
import threading
import urllib.request
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape, quoteattr

from synthetic import SHOW_NOUNS, WORDS

SCRIPT = Path(__file__).resolve()
SLOW_DELAY = 1.5  # seconds a slow feed waits before answering
NEWEST = datetime(2025, 1, 1, 6, 0, tzinfo=UTC)


# The feeds ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """Which feeds exist: ``groups`` of (how many, items each); per group, how many are slow and how many
    change in the steady-state refresh; and the broken feeds (taken from the last group)."""

    groups: tuple[tuple[int, int], ...]
    slow: tuple[int, ...]
    changed: tuple[int, ...]
    broken: tuple[str, ...] = ("500", "404", "malformed")


PLANS = {
    # bench/refresh.py: 32,000 items, some feeds slow or broken, some changing between refreshes
    "refresh": Plan(groups=((10, 1000), (50, 200), (240, 50)), slow=(1, 1, 3), changed=(1, 2, 7)),
    "refresh-quick": Plan(groups=((1, 1000), (5, 200), (24, 50)), slow=(0, 1, 1), changed=(1, 1, 1)),
    # bench/first_import.py: 300 feeds, 30,000 items, every feed answering at once (the import)
    "import": Plan(groups=((10, 1000), (40, 200), (250, 48)), slow=(0, 0, 0), changed=(0, 0, 0), broken=()),
    "import-quick": Plan(groups=((1, 1000), (4, 200), (25, 48)), slow=(0, 0, 0), changed=(0, 0, 0), broken=()),
}


@dataclass(frozen=True, slots=True)
class FeedSpec:
    """One feed on the server. ``broken`` is None or how it fails: "500", "404" or "malformed"."""

    index: int
    items: int
    slow: bool = False
    changed: bool = False
    broken: str | None = None

    @property
    def path(self) -> str:
        return f"/feeds/{self.index:03d}.xml"


def feed_specs(plan: Plan) -> list[FeedSpec]:
    """The plan's feeds, sizes shuffled (seeded) as in a real subscription list, where big feeds sit anywhere."""
    sizes = [(group, items) for group, (count, items) in enumerate(plan.groups) for _ in range(count)]
    random.Random(7).shuffle(sizes)
    seen: Counter[int] = Counter()
    specs = []
    for index, (group, items) in enumerate(sizes):
        ordinal = seen[group]
        seen[group] += 1
        slow = ordinal < plan.slow[group]
        changed = plan.slow[group] <= ordinal < plan.slow[group] + plan.changed[group]
        broken = None
        first_broken = plan.slow[group] + plan.changed[group]
        if group == len(plan.groups) - 1 and first_broken <= ordinal < first_broken + len(plan.broken):
            broken = plan.broken[ordinal - first_broken]
        specs.append(FeedSpec(index, items, slow, changed, broken))
    return specs


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def _sentence(rng: random.Random) -> str:
    return _words(rng, 8, 18).capitalize() + "."


def show_notes(rng: random.Random, feed: int, number: int) -> str:
    """Show notes as podcast hosts write them: paragraphs, a guest link, a list of links, a plug."""
    guest = f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()}"
    links = "".join(
        f'<li><a href="https://example.invalid/notes/{feed}/{number}/{i}">{escape(_words(rng, 2, 5))}</a></li>'
        for i in range(rng.randint(2, 4))
    )
    return (f"<p>{_sentence(rng)} {_sentence(rng)}</p>"
            f'<p>Our guest: <a href="https://example.invalid/people/{guest.replace(" ", "-").lower()}">{guest}</a>'
            f"</p><p>Mentioned in this episode:</p><ul>{links}</ul>"
            f'<p>Support the show at <a href="https://example.invalid/support/{feed}">example.invalid</a>.</p>')


def item_xml(spec: FeedSpec, number: int) -> str:
    """Item ``number`` of a feed (0 is the oldest): the same text every time it is built."""
    rng = random.Random(spec.index * 1_000_003 + number)
    every = timedelta(days=1 if spec.items >= 1000 else 7)
    published = NEWEST - every * (spec.items - 1 - number) + timedelta(minutes=rng.randint(0, 600))
    seconds = rng.randint(600, 9000)
    title = f"{number + 1}: {_words(rng, 2, 9).title()}"
    base = f"https://example.invalid/shows/{spec.index}"
    return (f"<item><title>{escape(title)}</title>"
            f'<guid isPermaLink="false">show-{spec.index}-episode-{number}-{rng.getrandbits(32):08x}</guid>'
            f"<link>{base}/episodes/{number + 1}</link><pubDate>{format_datetime(published)}</pubDate>"
            f'<enclosure url="https://cdn.example.invalid/{spec.index}/{number + 1}.mp3" '
            f'length="{seconds * 16_000}" type="audio/mpeg"/>'
            f"<itunes:duration>{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}</itunes:duration>"
            f"<itunes:episodeType>full</itunes:episodeType>"
            f"<description><![CDATA[{show_notes(rng, spec.index, number)}]]></description></item>\n")


def feed_body(spec: FeedSpec, version: int = 0) -> bytes:
    """The feed's document; ``version`` N has N more (newer) items than version 0, newest first."""
    rng = random.Random(spec.index)
    title = f"{_words(rng, 1, 3).title()} {rng.choice(SHOW_NOUNS)}"
    base = f"https://example.invalid/shows/{spec.index}"
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" '
            'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>\n'
            f"<title>{escape(title)}</title><link>{base}</link><language>en-us</language>"
            f"<description>{escape(_sentence(rng))}</description>"
            f"<itunes:author>{escape(_words(rng, 2, 2).title())}</itunes:author>"
            f"<itunes:image href={quoteattr(base + '/cover.jpg')}/><itunes:explicit>false</itunes:explicit>"
            f'<itunes:category text="Society &amp; Culture"/><itunes:type>episodic</itunes:type>\n')
    count = spec.items + version
    items = "".join(item_xml(spec, number) for number in range(count - 1, -1, -1))
    return (head + items + "</channel></rss>\n").encode()


MALFORMED = (b'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Broken & co</title>'
             b"<item><title>Half an item</titl><enclosure url=</channel>")


# The server (a child process) ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: bytes
    etag: str | None = None
    delay: float = 0.0
    content_type: str = "application/rss+xml; charset=utf-8"


class FeedHost:
    """The feeds' current answers. ``set_stage``: changed feeds serve version ``version``; slow feeds wait
    only with ``slow``; broken feeds fail only with ``broken`` (else they serve their real feed)."""

    def __init__(self, specs: list[FeedSpec]) -> None:
        self._specs = {spec.path: spec for spec in specs}
        self._bodies: dict[tuple[int, int], tuple[bytes, bytes]] = {}
        self._lock = threading.Lock()
        self.version, self.slow, self.broken = 0, True, True
        self.sent: Counter[int] = Counter()  # answers by status code, since the last ``take_counts``
        for spec in specs:
            self._body(spec, 0)

    def _body(self, spec: FeedSpec, version: int) -> tuple[bytes, bytes]:
        key = (spec.index, version)
        with self._lock:
            if key not in self._bodies:
                plain = feed_body(spec, version)
                self._bodies[key] = (plain, gzip.compress(plain, compresslevel=6, mtime=0))
            return self._bodies[key]

    def set_stage(self, version: int, slow: bool, broken: bool) -> None:
        for spec in self._specs.values():
            if spec.changed:
                self._body(spec, version)  # built now, not while a timed refresh waits for it
        self.version, self.slow, self.broken = version, slow, broken

    def stats(self) -> dict[str, int]:
        """Bytes of every feed's version 0, plain and gzipped."""
        with self._lock:
            first = [bodies for (_index, version), bodies in self._bodies.items() if version == 0]
        return {"plain": sum(len(plain) for plain, _ in first), "gzip": sum(len(packed) for _, packed in first)}

    def count(self, status: int) -> None:
        with self._lock:
            self.sent[status] += 1

    def take_counts(self) -> dict[str, int]:
        """How many answers of each status were sent since the last call (which tells a 304 refresh from a full
        one, for any client)."""
        with self._lock:
            counts, self.sent = self.sent, Counter()
        return {str(status): count for status, count in sorted(counts.items())}

    def answer(self, path: str, gzip_ok: bool) -> Answer:
        spec = self._specs.get(path)
        if spec is None:
            return Answer(404, b"no such feed", content_type="text/plain")
        delay = SLOW_DELAY if spec.slow and self.slow else 0.0
        if spec.broken and self.broken:
            if spec.broken == "malformed":
                return Answer(200, MALFORMED, delay=delay)
            return Answer(int(spec.broken), f"error {spec.broken}".encode(), delay=delay, content_type="text/html")
        version = self.version if spec.changed else 0
        plain, packed = self._body(spec, version)
        return Answer(200, packed if gzip_ok else plain, f'"{spec.index}.{version}"', delay)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def __init__(self, host: FeedHost) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.host = host
        self.stopping = threading.Event()


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        """Quiet."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        parts = urlsplit(self.path)
        if parts.path == "/_stage":
            query = {key: values[0] for key, values in parse_qs(parts.query).items()}
            self.server.host.set_stage(int(query["version"]), query["slow"] == "1", query["broken"] == "1")
            self._send(200, b"ok", [("Content-Type", "text/plain")])
            return
        if parts.path == "/_counts":
            self._send(200, json.dumps(self.server.host.take_counts()).encode(), [("Content-Type", "application/json")])
            return
        if parts.path == "/_stats":
            self._send(200, json.dumps(self.server.host.stats()).encode(), [("Content-Type", "application/json")])
            return
        gzip_ok = "gzip" in (self.headers.get("Accept-Encoding") or "")
        answer = self.server.host.answer(parts.path, gzip_ok)
        if answer.delay and self.server.stopping.wait(answer.delay):
            return
        sent = {tag.strip() for tag in (self.headers.get("If-None-Match") or "").split(",")}
        if answer.etag is not None and answer.etag in sent:
            self._send(304, b"", [("ETag", answer.etag)])
            return
        headers = [("Content-Type", answer.content_type), ("ETag", answer.etag)]
        if gzip_ok and answer.etag is not None:
            headers.append(("Content-Encoding", "gzip"))
        self._send(answer.status, answer.body, headers)

    def _send(self, status: int, body: bytes, headers: list[tuple[str, str | None]]) -> None:
        if not self.path.startswith("/_"):
            self.server.host.count(status)
        self.send_response(status)
        for name, value in headers:
            if value is not None:
                self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(plan: str) -> None:
    """Build the plan's feeds, print the port, serve until standard input closes."""
    server = _Server(FeedHost(feed_specs(PLANS[plan])))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    print(f"PORT {server.server_address[1]}", flush=True)
    sys.stdin.read()  # the parent closes our stdin to stop us
    server.stopping.set()
    server.shutdown()
    server.server_close()


class ServerProcess:
    """The feed server in a child process; ``stage`` switches what it answers."""

    def __init__(self, plan: str) -> None:
        self.specs = feed_specs(PLANS[plan])
        self._proc = subprocess.Popen([sys.executable, str(SCRIPT), plan], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line.startswith("PORT "):
            self.stop()
            raise RuntimeError(f"the feed server did not start (exit code {self._proc.returncode})")
        self.port = int(line.split()[1])

    def url(self, spec: FeedSpec) -> str:
        return f"http://127.0.0.1:{self.port}{spec.path}"

    def stage(self, version: int, slow: bool, broken: bool) -> None:
        query = f"version={version}&slow={int(slow)}&broken={int(broken)}"
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_stage?{query}", timeout=60) as response:
            response.read()

    def stats(self) -> dict[str, int]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_stats", timeout=60) as response:
            return dict(json.loads(response.read()))

    def take_counts(self) -> dict[str, int]:
        """Answers by status code since the last call, e.g. {"304": 300}."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_counts", timeout=60) as response:
            return dict(json.loads(response.read()))

    def stop(self) -> None:
        if self._proc.stdin is not None and not self._proc.stdin.closed:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()


def write_opml(path: Path, server: ServerProcess, specs: list[FeedSpec]) -> None:
    """An OPML 2.0 subscription list of every feed."""
    outlines = "".join(
        f'<outline type="rss" text="Feed {spec.index}" xmlUrl={quoteattr(server.url(spec))}/>\n'
        for spec in specs
    )
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0"><head><title>Bench</title></head>'
                    f"<body>\n{outlines}</body></opml>\n", encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in PLANS:
        sys.exit(f"usage: feed_server.py {{{','.join(PLANS)}}}")
    serve(sys.argv[1])
