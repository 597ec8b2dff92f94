"""Every entry point that takes outside data, as the robustness suite drives it: one Parser line each.

Adding a parser to the suite is one line in PARSERS (see helpers.fuzz.Parser): every fuzz, corpus and size-cap
test of tests/robustness then runs on it. For instance, the article extraction and reading-list imports of
issue #5 would be:

    Parser("article-html", lambda d: extract_article(d, URL), (ArticleError,), ("hostile", "feeds"), _article_ok),
    Parser("reading-list", lambda d: read_reading_list(d, "list.csv"), (ImportError_,), ("opml",)),
"""

from __future__ import annotations

import atexit
import io
import json
import math
import shutil
import tempfile
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from earmark.core.chapters import MAX_CHAPTERS, MAX_CHAPTERS_BYTES, parse_chapters
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.history import list_history
from earmark.core.db.items import list_items
from earmark.core.db.notes import list_notes
from earmark.core.db.search import search_ids, snippets
from earmark.core.db.sources import list_sources
from earmark.core.db.tags import tag_colours, tags_for_sources
from earmark.core.downloads.names import MAX_NAME_BYTES, download_path
from earmark.core.errors import BackupError, FeedError, SyncError, TranscriptError, UnreachableError
from earmark.core.feeds import fetch as fetch_module
from earmark.core.feeds.fetch import MAX_FEED_BYTES, canonical_source, parse_retry_after
from earmark.core.feeds.namespaces import read_extras
from earmark.core.feeds.opml import MAX_BYTES as MAX_OPML_BYTES
from earmark.core.feeds.opml import read_opml
from earmark.core.feeds.parse import parse_feed
from earmark.core.html import sanitize, to_text
from earmark.core.models import Chapter, FeedData, Transcript
from earmark.core.notes.backup import backup_document, read_backup, restore_backup
from earmark.core.notes.transcript_parse import MAX_TRANSCRIPT_BYTES, parse_transcript
from earmark.core.settings import SETTINGS, get_setting, library_settings
from earmark.core.sync.actions import MAX_SECONDS, EpisodeAction, read_actions
from earmark.core.sync.http import decode_json
from earmark.core.sync.server import expect_dict
from earmark.core.timefmt import parse_duration
from helpers import notes_library
from helpers.fuzz import Parser

FEED_URL = "https://feeds.example.com/show/feed.xml"  # a web feed: nothing in it may point at local files
WEB = ("http", "https")
_SECRET = "root:x:0:0"  # what /etc/passwd would leak through an external entity


@cache
def _workdir() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="earmark-fuzz-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _text(data: bytes) -> str:
    """Bytes as the text a parser of strings gets (invalid UTF-8 replaced, as a decoder upstream would)."""
    return data.decode("utf-8", "replace")


def _web(url: str | None) -> bool:
    """No link or a web link (``http:/path`` without a host is let through: it can reach nothing local)."""
    return url is None or urlsplit(url).scheme in WEB


def _finite(value: float | None) -> bool:
    return value is None or math.isfinite(value)


# --- feeds ---------------------------------------------------------------------------------------------------


def _feed_ok(data: bytes, feed: FeedData) -> None:
    assert isinstance(feed, FeedData) and feed.title.strip()
    assert _web(feed.link) and _web(feed.image_url)
    stored = len(feed.title) + len(feed.description)
    for entry in feed.entries:
        for url in (entry.url, entry.enclosure_url, entry.image_url, entry.chapters_url):
            assert _web(url), f"{entry.title!r} points at {url!r}"
        for link in json.loads(entry.transcripts) + json.loads(entry.persons):
            assert all(_web(link[key]) for key in ("url", "href", "img") if key in link), link
        assert entry.duration is None or 0 < entry.duration < 7 * 86400
        stored += len(entry.title) + len(entry.description) + len(entry.content)
    assert stored <= 4 * len(data) + 1000, "entities expanded far beyond the document's size"
    assert _SECRET not in repr(feed)


def _extras_ok(_data: bytes, extras: Any) -> None:
    links = [link for item in extras.items for link in (item.chapters_url, item.image_url)]
    links += [entry.get(key) for item in extras.items for entry in item.transcripts + item.persons
              for key in ("url", "href", "img")]
    assert all(_web(link) for link in links), links


# --- OPML, chapters, transcripts ------------------------------------------------------------------------------


def _opml_ok(_data: bytes, document: Any) -> None:
    for feed in document.feeds:
        assert _web(feed.url) and urlsplit(feed.url).hostname and feed.title
        assert all(isinstance(tag, str) and tag for tag in feed.tags)
    assert all(sentence.endswith(".") for sentence in document.skipped)


def _chapters_ok(_data: bytes, chapters: list[Chapter]) -> None:
    assert len(chapters) <= MAX_CHAPTERS
    starts = [chapter.start for chapter in chapters]
    assert starts == sorted(starts)
    for chapter in chapters:
        assert math.isfinite(chapter.start) and chapter.start >= 0, chapter
        assert chapter.title and _web(chapter.url), chapter


def _transcript_ok(_data: bytes, transcript: Transcript) -> None:
    assert transcript.cues and transcript.format in ("srt", "vtt", "sbv", "json", "html")
    starts = [cue.start for cue in transcript.cues]
    assert starts == sorted(starts)
    for cue in transcript.cues:
        assert math.isfinite(cue.start) and math.isfinite(cue.end) and 0 <= cue.start <= cue.end, cue
        assert cue.text.strip(), cue


# --- HTML ----------------------------------------------------------------------------------------------------


class _Markup(HTMLParser):
    """The tags and attributes of sanitized output, to check nothing active survived."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


SAFE_TAGS = {"a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1", "h2",
             "h3", "h4", "h5", "h6", "hr", "i", "img", "li", "ol", "p", "pre", "s", "span", "strong", "sub",
             "sup", "table", "tbody", "td", "th", "thead", "tr", "u", "ul"}


def _sanitized_ok(_data: bytes, markup: str) -> None:
    check_sanitized(markup, relative_ok=False)


def check_sanitized(markup: str, relative_ok: bool) -> None:
    """Only safe tags, no event handlers or styles, only web (and mailto) links; relative links only when
    sanitize had no base address to resolve them against."""
    parser = _Markup()
    try:
        parser.feed(markup)
        parser.close()
    except AssertionError:  # html.parser's complaint about a broken <![ section: nh3 never writes one
        raise AssertionError(f"sanitize wrote markup html.parser cannot read: {markup[:200]!r}") from None
    for tag, attrs in parser.tags:
        assert tag in SAFE_TAGS, f"<{tag}> survived sanitizing"
        for name, value in attrs:
            assert not name.startswith("on") and name not in ("style", "srcset", "background"), (tag, name)
            if name in ("href", "src"):
                scheme = urlsplit(value or "").scheme.lower()
                allowed = ("http", "https", "mailto", "") if relative_ok else ("http", "https", "mailto")
                assert scheme in allowed, f"<{tag} {name}={value!r}>"


# --- the library: search and backups -------------------------------------------------------------------------


@cache
def _search_library() -> Database:
    db = open_library(_workdir() / "search.db")
    notes_library.build(db)
    return db


def _search(data: bytes) -> list[int]:
    """What the search box and ``earmark search`` run for a query (argv text may hold surrogate escapes)."""
    db = _search_library()
    text = data.decode("utf-8", "surrogateescape")
    found = search_ids(db, ItemFilter(text=text))
    search_ids(db, ItemFilter(text=text, sort="title", reverse=True), limit=5)
    snippets(db, text, found)
    return found


def _search_ok(_data: bytes, found: list[int]) -> None:
    known = {row[0] for row in _search_library().execute("SELECT id FROM items")}
    assert set(found) <= known and len(found) == len(set(found))


@cache
def _backup_seed() -> bytes:
    db = open_library(_workdir() / "backup-seed.db")
    try:
        notes_library.build(db)
        return json.dumps(backup_document(db, now=notes_library.EXPORTED_AT), ensure_ascii=False).encode()
    finally:
        db.close()


def backup_seed_document() -> dict[str, Any]:
    """A fresh copy of a real backup (of helpers.notes_library), as the JSON document."""
    document: dict[str, Any] = json.loads(_backup_seed())
    return document


def _read_backup(data: bytes) -> Any:
    path = _workdir() / "backup.json"
    path.write_bytes(data)
    return read_backup(path)


@cache
def _empty_library() -> Path:
    path = _workdir() / "empty.db"
    open_library(path).close()
    return path


def _restore(data: bytes) -> dict[str, int]:
    """Restore into a new library, then read it back the way the app does at start-up: nothing may fail."""
    path = _workdir() / "backup.json"
    path.write_bytes(data)
    library = _workdir() / "restored.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{library}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(_empty_library(), library)
    db = open_library(library)
    try:
        counts = restore_backup(db, path)
        list_items(db, ItemFilter())
        list_notes(db)
        list_history(db)
        list_sources(db)
        tags_for_sources(db)
        tag_colours(db)
        search_ids(db, ItemFilter(text="graph"))
        for key in (setting.key for setting in library_settings()):
            value = get_setting(db, key)
            assert isinstance(value, SETTINGS[key].type) and not (isinstance(value, float) and not math.isfinite(value))
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return counts
    finally:
        db.close()


# --- small things feeds and servers say ----------------------------------------------------------------------


def _download_name(data: bytes) -> Path:
    """An episode's file name from a feed's podcast title, episode title and enclosure URL."""
    podcast, _, rest = _text(data).partition("\x1f")
    title, _, url = rest.partition("\x1f")
    return download_path(_workdir() / "downloads", podcast, title, url or "https://cdn.example.com/a.mp3", None)


def _download_name_ok(_data: bytes, path: Path) -> None:
    root = (_workdir() / "downloads").resolve()
    assert path.resolve().is_relative_to(root) and len(path.relative_to(root).parts) == 2, path
    for part in path.relative_to(root).parts:
        assert 0 < len(part.encode()) <= MAX_NAME_BYTES and not part.startswith("."), part
        assert not any(ord(c) < 32 for c in part), part


def _duration_ok(_data: bytes, seconds: float | None) -> None:
    assert seconds is None or 0 < seconds < 7 * 86400


def _retry_after_ok(_data: bytes, seconds: float | None) -> None:
    assert seconds is None or (math.isfinite(seconds) and seconds >= 0)


def _address_ok(_data: bytes, url: str) -> None:
    assert urlsplit(url).scheme in ("http", "https", "file"), url


def _body(encoding: str) -> Any:
    """What the fetcher makes of a compressed response body (gzip or deflate) from a server."""

    return lambda data: fetch_module._read_within(io.BytesIO(data), "https://feeds.example.com/x", encoding)


def _compressed_seeds(encoding: str) -> Any:
    import gzip
    import zlib

    def seeds() -> list[bytes]:
        plain = [b"", b"<rss/>", _backup_seed()[:4000], b"x" * 100_000]
        if encoding == "gzip":
            return [gzip.compress(p, mtime=0) for p in plain]
        return [zlib.compress(p) for p in plain] + [zlib.compress(p)[2:-4] for p in plain]  # and raw deflate

    return seeds


def _body_ok(_data: bytes, body: bytes) -> None:
    assert len(body) <= MAX_FEED_BYTES


def _sync_actions(data: bytes) -> list[EpisodeAction]:
    """An episode-actions answer from a sync server, as the client reads it."""
    answer = expect_dict(decode_json(data, "sync.example.com", "/api/2/episodes/u.json"), "sync.example.com", "x")
    return read_actions(answer.get("actions"))[0]


def _sync_actions_ok(_data: bytes, actions: list[EpisodeAction]) -> None:
    for action in actions:
        assert action.action in ("play", "download", "delete", "new", "flattr") and 0 <= action.at < 2**35
        for seconds in (action.started, action.position, action.total):
            assert seconds is None or 0 <= seconds <= MAX_SECONDS
        assert action.as_json()["timestamp"]  # every action read can be written back


def _sync_seeds() -> list[bytes]:
    action = {"podcast": FEED_URL, "episode": "https://feeds.example.com/1.mp3", "guid": "g1", "action": "PLAY",
              "timestamp": "2024-01-02T03:04:05+00:00", "started": 0, "position": 120, "total": -1}
    return [json.dumps({"actions": [action, {**action, "action": "download", "timestamp": 1700000000}],
                        "timestamp": 1700000000}).encode(), b'{"actions": [], "timestamp": 0}']


PARSERS: dict[str, Parser] = {p.name: p for p in (
    Parser("feed", lambda d: parse_feed(d, FEED_URL), (FeedError,), ("feeds", "feeds-malformed", "hostile"),
           _feed_ok, examples=500, notes="parse_feed (fast path, feedparser fallback, namespaces pass)"),
    Parser("feed-feedparser", lambda d: parse_feed(d, FEED_URL, fast=False), (FeedError,),
           ("feeds-malformed", "hostile"), _feed_ok, notes="parse_feed(fast=False): feedparser only"),
    Parser("feed-extras", lambda d: read_extras(d, FEED_URL), (), ("feeds", "hostile"), _extras_ok,
           notes="namespaces.read_extras (Podcasting 2.0 / iTunes): never raises"),
    Parser("opml", lambda d: read_opml(d, "list.opml"), (FeedError,), ("opml", "hostile"), _opml_ok,
           max_bytes=MAX_OPML_BYTES, notes="opml.read_opml"),
    Parser("chapters", parse_chapters, (FeedError,), ("chapters", "transcripts"), _chapters_ok,
           max_bytes=MAX_CHAPTERS_BYTES, notes="chapters.parse_chapters (podcast:chapters JSON)"),
    Parser("transcript", lambda d: parse_transcript(d, "episode.vtt"), (TranscriptError,),
           ("transcripts", "chapters"), _transcript_ok, max_bytes=MAX_TRANSCRIPT_BYTES,
           notes="transcript_parse.parse_transcript (SRT, WebVTT, SBV, JSON, HTML)"),
    Parser("sanitize", lambda d: sanitize(_text(d), "https://example.com/ep/1"), (), ("hostile",), _sanitized_ok,
           notes="html.sanitize (show notes for the detail pane)"),
    Parser("to-text", lambda d: to_text(_text(d)), (), ("hostile",), lambda _d, text: None,
           notes="html.to_text (titles, search text)"),
    Parser("search", _search, (), (), _search_ok, seeds=lambda: [b"graph", b'"a" OR b* NEAR(c) -d ^e :f'],
           notes="search_ids + snippets on a library, any query text"),
    Parser("backup", _read_backup, (BackupError,), (), None, seeds=lambda: [_backup_seed()],
           notes="backup.read_backup"),
    Parser("restore", _restore, (BackupError,), (), None, seeds=lambda: [_backup_seed()], examples=120,
           notes="backup.restore_backup into a new library, then the library read back"),
    Parser("download-name", _download_name, (), (), _download_name_ok,
           seeds=lambda: [b"Show\x1fEpisode 1\x1fhttps://cdn.example.com/ep1.mp3", b"..\x1f../../x\x1f/a/b.exe"],
           notes="downloads.names.download_path (feed titles and URLs to a file path)"),
    Parser("duration", lambda d: parse_duration(_text(d)), (), (), _duration_ok,
           seeds=lambda: [b"1:02:03", b"10475", b"07:00"], notes="timefmt.parse_duration (itunes:duration)"),
    Parser("retry-after", lambda d: parse_retry_after(_text(d), now=0.0), (), (), _retry_after_ok,
           seeds=lambda: [b"120", b"Wed, 21 Oct 2015 07:28:00 GMT"], notes="fetch.parse_retry_after (header)"),
    Parser("address", lambda d: canonical_source(_text(d)), (UnreachableError,), (),
           _address_ok, seeds=lambda: [b"https://example.com/feed", b"feed://example.com/rss", b"itpc:x"],
           notes="fetch.canonical_source (typed, pasted or OPML addresses)"),
    Parser("gzip-body", _body("gzip"), (UnreachableError,), (), _body_ok, seeds=_compressed_seeds("gzip"),
           notes="fetch._read_within with Content-Encoding: gzip"),
    Parser("deflate-body", _body("deflate"), (UnreachableError,), (), _body_ok, seeds=_compressed_seeds("deflate"),
           notes="fetch._read_within with Content-Encoding: deflate (zlib or raw)"),
    Parser("sync-actions", _sync_actions, (SyncError,), (), _sync_actions_ok, seeds=_sync_seeds,
           notes="sync: a server's episode actions (gpodder.net API v2, Nextcloud gPodder Sync)"),
)}
