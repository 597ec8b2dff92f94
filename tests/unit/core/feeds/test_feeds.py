"""Subscribing to feeds: real fixture files, a real HTTP server, and every way a source can be bad."""

from __future__ import annotations

import io
import json
import os
import time
import urllib.error
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import count_items, get_item, list_items, save_progress
from earmark.core.db.sources import get_source, list_sources
from earmark.core.db.tags import tag_item
from earmark.core.errors import EarmarkError, FeedError, GoneError, UnreachableError
from earmark.core.feeds.fetch import fetch
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Item, ProgressUpdate
from helpers.feed_server import (
    OWN_FIXTURES,
    FeedServer,
    closed_port,
    fixture_files,
    fixtures_dir,
    fixtures_root,
    own_fixture_files,
    rss,
)

Snapshot = Callable[[Database], dict[str, list[tuple[object, ...]]]]

GOOD_ENTRIES = [
    {"title": "Good episode one", "guid": "good-1", "pubDate": "Mon, 01 Jan 2024 10:00:00 +0000",
     "duration": "10:00", "enclosure": "https://example.com/good-1.mp3", "description": "First good episode."},
    {"title": "Good episode two", "guid": "good-2", "pubDate": "Tue, 02 Jan 2024 10:00:00 +0000",
     "duration": "01:00:00", "enclosure": "https://example.com/good-2.mp3", "description": "Second good episode."},
    {"title": "Good episode three", "guid": "good-3", "pubDate": "Wed, 03 Jan 2024 10:00:00 +0000",
     "duration": "300", "enclosure": "https://example.com/good-3.mp3", "description": "Third good episode."},
]
GOOD_FEED = rss("Known good feed", GOOD_ENTRIES)


def _items_of(db: Database, source_id: int) -> list[tuple[object, ...]]:
    return db.execute("SELECT * FROM items WHERE source_id = ? ORDER BY id", [source_id]).fetchall()


def _source_row(db: Database, source_id: int) -> tuple[object, ...]:
    return tuple(db.execute("SELECT * FROM sources WHERE id = ?", [source_id]).fetchone())


def _by_title(db: Database, source_id: int, title: str) -> Item:
    matches = [item for item in list_items(db, ItemFilter(source_id=source_id)) if item.title == title]
    assert len(matches) == 1, f"expected one item titled {title!r}, found {len(matches)}"
    return matches[0]


def _assert_sentence(exc: BaseException) -> None:
    message = str(exc)
    assert message.strip(), f"{type(exc).__name__} has an empty message"
    assert "\n" not in message, f"message is not one line: {message!r}"
    assert "Traceback" not in message


# (a) The hand-verified facts of the fixtures README, from the local files.

HAND_VERIFIED = [
    # file, channel title, items, items with enclosure, first item title, first enclosure URL, first duration (s)
    ("rp__giantbomb-podcast.rss", "Giant Bombcast", 730, 730, "Giant Bombcast 603: Call of Tuesday",
     "https://dts.podtrac.com/redirect.mp3/www.giantbomb.com/podcasts/download/2823/"
     "603__Call_of_Tuesday-10-01-2019-6277737276.mp3", 10475),
    ("rsp__atp.rss", "Accidental Tech Podcast", 100, 100, "311: Mutually Assured Destruction",
     "http://traffic.libsyn.com/atpfm/atp311.mp3", 1 * 3600 + 54 * 60 + 9),
    ("pt__real-world__1865.xml", "1865", 61, 61, "Introducing 'History Daily' From Host Lindsay Graham",
     "https://dts.podtrac.com/redirect.mp3/chrt.fm/track/9EE2G/pdst.fm/e/rss.art19.com/episodes/"
     "7684b7cb-0de9-4f59-b657-08cf6c57a80e.mp3?rss_browser=BAhJIgtDaHJvbWUGOgZFVA%3D%3D--"
     "d05363d83ce333c74f32188013892b2863ad051c", 16 * 60),
    ("pt__real-world__dk-podcast.xml", "Langsam gesprochene Nachrichten | Audios | DW Deutsch lernen", 59, 59,
     "18.03.2022 – Langsam gesprochene Nachrichten",
     "https://radiodownloaddw-a.akamaihd.net/Events/podcasts/de/2288_DKpodcast_lgn_de/"
     "5F52703B_2-podcast-2288-61170826.mp3", 7 * 60),
    ("rsp__theomnishow.rss", "The Omni Show", 4, 4, "Andrea McVittie, User Experience Designer",
     "https://d2vstsfo8knv0p.cloudfront.net/audio/the-omni-show-004.mp3", 28 * 60 + 49),
    ("pt__pc20rss.xml", "Podcasting 2.0", 56, 56, "Episode 57: Rebel Rubes",
     "https://mp3s.nashownotes.com/PC20-57-2021-10-08-Final.mp3", None),
    ("ns__example.xml", "Podcasting 2.0 Namespace Example", 3, 3, "Episode 3 - The Future",
     "https://example.com/file-03.mp3", None),
    ("apod__parser__feed__src__test__resources__feed-rss-testRss2Basic.xml", "title", 10, 10, "item-0",
     "http://example.com/media-0", None),
    # The feeds written for these tests (tests/fixtures/feeds), which every clone has: the four ways of giving
    # a duration (01:54:09, 10475 seconds, 28:49, and 07:00, which is 7 minutes), ISO-8859-1, and an undeclared
    # itunes: prefix (not well-formed XML: feedparser's lenient reading).
    ("em__podcast.rss", "Compiler Corner", 4, 4, "Episode 4: Register Allocation",
     "https://media.example.org/cc/ep4.mp3", 1 * 3600 + 54 * 60 + 9),
    ("em__latin1.xml", "Café Crème", 1, 1, "Épisode 1: Le café", "https://cafe.example.org/1.mp3", None),
    ("em__undeclared-prefix.rss", "Forgot The Namespace", 2, 2, "First", "https://forgot.example.org/1.mp3", 300),
]


@pytest.mark.parametrize(
    ("name", "title", "count", "with_enclosure", "first_title", "first_enclosure", "first_duration"),
    HAND_VERIFIED,
    ids=[row[0] for row in HAND_VERIFIED],
)
def test_local_fixture_matches_the_hand_verified_facts(
    library: Database, name: str, title: str, count: int, with_enclosure: int, first_title: str,
    first_enclosure: str, first_duration: int | None,
) -> None:
    path = OWN_FIXTURES / "feeds" / name if name.startswith("em__") else fixtures_dir() / "feeds" / name
    result = subscribe(library, str(path))

    assert result.title == title
    source = get_source(library, result.source_id)
    assert (source.title, source.kind, source.status, source.url) == (title, "podcast", "ok", path.as_uri())
    assert source.item_count == count
    assert count_items(library, ItemFilter(source_id=result.source_id)) == count
    assert len(result.new) == count
    items = list_items(library, ItemFilter(source_id=result.source_id))
    assert sum(1 for item in items if item.enclosure_url) == with_enclosure
    assert all(item.kind == "episode" for item in items)

    first = _by_title(library, result.source_id, first_title)
    assert first.enclosure_url == first_enclosure
    assert first.duration == first_duration
    assert result.item_ids[next(iter(result.item_ids))] == first.id  # the feed's first entry

    again = subscribe(library, str(path))  # a re-read of an unchanged feed changes nothing
    assert (again.source_id, again.new, again.updated) == (result.source_id, [], [])
    assert count_items(library, ItemFilter(source_id=result.source_id)) == count


def test_the_durations_and_podcast_facts_of_the_feed_written_here(library: Database) -> None:
    result = subscribe(library, str(OWN_FIXTURES / "feeds" / "em__podcast.rss"))
    items = {item.title: item for item in list_items(library, ItemFilter(source_id=result.source_id))}
    assert [items[title].duration for title in ("Episode 3: SSA Form", "Episode 2: Parsing Without Tears",
                                                "Episode 1: Hello, Compiler")] == [10475, 28 * 60 + 49, 7 * 60]
    fourth = items["Episode 4: Register Allocation"]
    assert fourth.url == "https://compiler-corner.example.org/4" and fourth.published.startswith("2024-06-03")
    row = library.execute("SELECT chapters_url, transcripts, season, episode FROM items WHERE id = ?",
                          [fourth.id]).fetchone()
    assert row[0] == "https://compiler-corner.example.org/4.chapters.json"
    assert [link["url"] for link in json.loads(row[1])] == ["https://compiler-corner.example.org/4.vtt",
                                                          "https://compiler-corner.example.org/4.srt"]
    assert (row[2], row[3]) == (1, 4)


def test_articles_from_the_atom_and_rss_1_feeds_written_here(library: Database) -> None:
    blog = subscribe(library, str(OWN_FIXTURES / "feeds" / "em__blog.atom"))
    assert blog.title == "Notes on Tensors & Shapes"
    posts = list_items(library, ItemFilter(source_id=blog.source_id))
    assert [(post.title, post.kind, post.url) for post in posts] == [
        ("Broadcasting, explained", "article", "https://blog.example.org/posts/broadcasting"),  # xml:base applied
        ("Views & copies", "article", "https://blog.example.org/posts/views"),
        ("Strides", "article", "https://blog.example.org/posts/strides"),
    ]
    news = subscribe(library, str(OWN_FIXTURES / "feeds" / "em__news.rdf"))
    assert [item.title for item in list_items(library, ItemFilter(source_id=news.source_id))] == [
        "Linkers get faster", "Caches, again"]
    with pytest.raises(FeedError, match="em__not-a-feed.html is not a podcast or news feed"):
        subscribe(library, str(OWN_FIXTURES / "feeds" / "em__not-a-feed.html"))
    assert len(list_sources(library)) == 2


def test_the_same_file_by_path_uri_or_relative_path_is_one_source(library: Database) -> None:
    path = fixtures_dir() / "feeds" / "ns__example.xml"
    first = subscribe(library, str(path))
    for spelling in (path.as_uri(), os.path.relpath(path), str(path.parent / ".." / "feeds" / path.name)):
        assert subscribe(library, spelling).source_id == first.source_id
    assert len(list_sources(library)) == 1
    assert count_items(library, ItemFilter()) == 3


def test_escaped_html_title_is_shown_as_text(library: Database) -> None:
    result = subscribe(library, str(fixtures_dir() / "feeds" / "fp__wellformed__amp__amp01.xml"))
    assert [item.title for item in list_items(library, ItemFilter(source_id=result.source_id))] == ["&"]


# Every XML feed in fixtures/feeds is a real feed and must import; these two are not feeds (README).
NOT_FEEDS = {
    "ns__docs__schema__podcast-example.xml": "an XSD example under a non-RSS root",
    "fp__wellformed__cdf__channel_abstract_map_description.xml": "a CDF channel with no items",
}
XML_FEEDS = [p for p in fixture_files("feeds") + own_fixture_files("feeds")
             if p.suffix not in (".json", ".html") and p.name not in NOT_FEEDS]


@pytest.mark.parametrize("path", XML_FEEDS, ids=[p.name for p in XML_FEEDS])
def test_every_xml_feed_fixture_imports(library: Database, path: Path) -> None:
    result = subscribe(library, str(path))
    assert result.title.strip()
    assert len(result.item_ids) == len(list_items(library, ItemFilter(source_id=result.source_id)))


# (b) Every fixture over HTTP: a result or an EarmarkError, in bounded time, never touching another feed.

ALL_FIXTURES = fixture_files("feeds", "feeds-malformed", "hostile", "opml", "chapters", "transcripts")


@pytest.fixture(scope="session")
def own_fixtures_server() -> Iterator[FeedServer]:
    """One server over the fixtures written for these tests, for the whole session."""
    with FeedServer(OWN_FIXTURES) as server:
        yield server


OWN_FILES = [path for folder in ("feeds", "chapters", "transcripts") for path in own_fixture_files(folder)]


@pytest.mark.timeout(20)
@pytest.mark.parametrize("path", ALL_FIXTURES + OWN_FILES, ids=[f"{p.parent.name}/{p.name}"
                                                               for p in ALL_FIXTURES + OWN_FILES])
def test_every_fixture_subscribes_or_fails_cleanly(request: pytest.FixtureRequest, tmp_path: Path, path: Path) -> None:
    own = path.is_relative_to(OWN_FIXTURES)
    fixtures_server: FeedServer = request.getfixturevalue("own_fixtures_server" if own else "fixtures_server")
    root = OWN_FIXTURES if own else fixtures_root()
    db = open_library(tmp_path / "library.db")
    try:
        good_url = fixtures_server.serve_body("/earmark-tests/good.xml", GOOD_FEED)
        good = subscribe(db, good_url)
        good_items, good_source = _items_of(db, good.source_id), _source_row(db, good.source_id)

        url = fixtures_server.url(path.relative_to(root).as_posix())
        try:
            result = subscribe(db, url)
        except EarmarkError as exc:
            _assert_sentence(exc)
            assert [s.url for s in list_sources(db)] == [good_url]  # a failed new feed leaves no source
        else:
            source = get_source(db, result.source_id)
            assert source.url == url and source.status == "ok" and source.title.strip()
            items = list_items(db, ItemFilter(source_id=result.source_id))
            assert {item.id for item in items} == set(result.item_ids.values())
            for item in items:  # a web feed may only point at the web, never at local files or scripts
                assert item.enclosure_url is None or urlparse(item.enclosure_url).scheme in ("http", "https")
                assert item.url is None or urlparse(item.url).scheme in ("http", "https")
            stored = db.execute(
                "SELECT coalesce(sum(length(title) + length(description) + length(content) + length(text)), 0) "
                "FROM items WHERE source_id = ?", [result.source_id],
            ).fetchone()[0]
            assert stored <= 4 * path.stat().st_size + 1000, "entities expanded far beyond the document's size"
            assert "root:x:0:0" not in str(db.execute("SELECT group_concat(text) FROM items").fetchone()[0])
            for chapters, transcripts in db.execute("SELECT chapters_url, transcripts FROM items"):
                linked = [chapters or "https://"] + [t["url"] for t in json.loads(transcripts)]
                assert all(urlparse(link).scheme in ("http", "https") for link in linked)

        assert _items_of(db, good.source_id) == good_items
        assert _source_row(db, good.source_id) == good_source
    finally:
        db.close()


def test_a_web_feed_cannot_point_at_local_files_or_scripts(library: Database,
                                                           feed_server: FeedServer) -> None:
    hostile = rss("Hostile", [
        {"title": "Local file", "guid": "h1", "enclosure": "file:///etc/passwd.mp3", "link": "javascript:alert(1)"},
        {"title": "Relative", "guid": "h2", "enclosure": "../../etc/passwd.mp3", "link": "file:///etc/hosts"},
    ])
    result = subscribe(library, feed_server.serve_body("/hostile.xml", hostile))
    local = get_item(library, result.item_ids["guid:h1"])
    assert (local.enclosure_url, local.url) == (None, None)
    relative = get_item(library, result.item_ids["guid:h2"])
    assert relative.enclosure_url == feed_server.url("/etc/passwd.mp3")  # resolved on the server, not the disk
    assert relative.url is None


# (c) Re-reading a feed keeps the user's state; upstream changes update items in place.


def test_resubscribing_keeps_ids_and_user_state(library: Database, feed_server: FeedServer) -> None:
    url = feed_server.serve_body("/show/feed.xml", GOOD_FEED)
    first = subscribe(library, url)
    assert len(first.new) == 3
    item_id = first.item_ids["guid:good-2"]
    save_progress(library, ProgressUpdate(item_id=item_id, position=125.0, duration=3600.0))
    tag_item(library, item_id, ["Favourites"])
    played_id = first.item_ids["guid:good-1"]
    save_progress(library, ProgressUpdate(item_id=played_id, position=600.0, duration=600.0))

    again = subscribe(library, url)
    assert (again.source_id, again.new, again.updated) == (first.source_id, [], [])
    assert again.item_ids == first.item_ids
    assert count_items(library, ItemFilter()) == 3
    item = get_item(library, item_id)
    assert (item.position, item.played, item.tags) == (125.0, False, ["favourites"])
    assert get_item(library, played_id).played is True


def test_upstream_title_change_updates_in_place(library: Database, feed_server: FeedServer) -> None:
    url = feed_server.serve_body("/show/feed.xml", GOOD_FEED)
    first = subscribe(library, url)
    item_id = first.item_ids["guid:good-3"]
    save_progress(library, ProgressUpdate(item_id=item_id, position=42.0, duration=300.0))
    tag_item(library, item_id, ["keep"])

    renamed = [dict(e) for e in GOOD_ENTRIES]
    renamed[2]["title"] = "Renamed upstream: quasar special"
    feed_server.serve_body("/show/feed.xml", rss("Known good feed (renamed)", renamed))
    again = subscribe(library, url)

    assert again.source_id == first.source_id and again.new == [] and again.updated == [item_id]
    assert again.item_ids == first.item_ids
    item = get_item(library, item_id)
    assert item.title == "Renamed upstream: quasar special"
    assert (item.position, item.tags) == (42.0, ["keep"])
    assert [s.title for s in list_sources(library)] == ["Known good feed (renamed)"]
    assert count_items(library, ItemFilter()) == 3
    assert [i.id for i in list_items(library, ItemFilter(text="quasar"))] == [item_id]
    assert list_items(library, ItemFilter(text="three")) == []  # the old title left the search index


# (d) Bad input: the right error class, one sentence, nothing in the library changed.

BadSource = Callable[[FeedServer, Path], str]
BAD_SOURCES: dict[str, tuple[BadSource, type[EarmarkError]]] = {
    "html page": (lambda s, _: s.serve_body("/page.html", b"<!DOCTYPE html><html><head><title>Home</title></head>"
                                            b"<body><h1>Welcome</h1><p>Not a feed.</p></body></html>",
                                            "text/html; charset=utf-8"), FeedError),
    # JSON Feeds subscribe (test_json_feed.py); JSON that is not one is refused.
    "json, not a feed": (lambda s, _: s.serve_body("/api.json", b'{"title": "JSON", "items": []}',
                                                   "application/json"), FeedError),
    "empty file": (lambda _, t: str(_write(t / "empty.xml", b"")), FeedError),
    "whitespace file": (lambda _, t: str(_write(t / "blank.rss", b"  \n\t\n")), FeedError),
    "empty http body": (lambda s, _: s.serve_body("/empty.xml", b""), FeedError),
    "binary file": (lambda _, t: str(_write(t / "audio.mp3", bytes(range(256)) * 40)), FeedError),
    "missing file": (lambda _, t: str(t / "no-such-feed.xml"), UnreachableError),
    "folder": (lambda _, t: str(t), UnreachableError),
    "404": (lambda s, _: s.serve_status("/gone.xml", 404), UnreachableError),
    "410": (lambda s, _: s.serve_status("/removed.xml", 410), GoneError),
    "500": (lambda s, _: s.serve_status("/broken.xml", 500), UnreachableError),
    "closed port": (lambda _, t: f"http://127.0.0.1:{closed_port()}/feed.xml", UnreachableError),
    "unsupported scheme": (lambda _, t: "ftp://127.0.0.1/feed.xml", UnreachableError),
}


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path




@pytest.mark.parametrize("case", list(BAD_SOURCES))
def test_bad_source_raises_a_sentence_and_changes_nothing(
    library: Database, feed_server: FeedServer, tmp_path: Path, snapshot: Snapshot, case: str,
) -> None:
    subscribe(library, feed_server.serve_body("/good.xml", GOOD_FEED))
    before = snapshot(library)
    make, error = BAD_SOURCES[case]
    source = make(feed_server, tmp_path)
    with pytest.raises(EarmarkError) as info:
        subscribe(library, source)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    _assert_sentence(info.value)
    assert snapshot(library) == before


@pytest.mark.timeout(10)
def test_slow_server_hits_the_fetch_timeout(feed_server: FeedServer) -> None:
    url = feed_server.serve_slow("/slow.xml", delay=5.0, body=GOOD_FEED)
    with pytest.raises(UnreachableError) as info:
        fetch(url, timeout=0.2)
    _assert_sentence(info.value)
    assert "timed out" in str(info.value)


def test_fetch_returns_the_bytes_and_content_type(feed_server: FeedServer) -> None:
    url = feed_server.serve_body("/feed.rss", GOOD_FEED, "application/rss+xml; charset=utf-8")
    fetched = fetch(url, timeout=5)
    assert (fetched.data, fetched.url, fetched.content_type) == (GOOD_FEED, url, "application/rss+xml; charset=utf-8")


@pytest.mark.parametrize(
    "failure",
    ["500", "404", "html"],
)
def test_failing_reread_marks_the_source_as_in_error(
    library: Database, feed_server: FeedServer, snapshot: Snapshot, failure: str,
) -> None:
    url = feed_server.serve_body("/show.xml", GOOD_FEED)
    first = subscribe(library, url)
    items_before = snapshot(library)["items"]

    if failure == "html":
        feed_server.serve_body("/show.xml", b"<html><body><p>Maintenance</p></body></html>", "text/html")
    else:
        feed_server.serve_status("/show.xml", int(failure))
    with pytest.raises(EarmarkError) as info:
        subscribe(library, url)

    [source] = list_sources(library)
    assert (source.id, source.status, source.last_error) == (first.source_id, "error", str(info.value))
    assert source.item_count == 3
    assert snapshot(library)["items"] == items_before

    feed_server.serve_body("/show.xml", GOOD_FEED)  # the feed is back: the error is cleared
    subscribe(library, url)
    [source] = list_sources(library)
    assert (source.status, source.last_error) == ("ok", None)


def test_http_error_response_is_closed(feed_server: FeedServer) -> None:
    with pytest.raises(UnreachableError) as info:
        fetch(feed_server.serve_status("/missing.xml", 404), timeout=5)
    cause = info.value.__cause__
    assert isinstance(cause, urllib.error.HTTPError)
    response = cause.fp
    try:
        assert response is None or response.isclosed(), "the error response was left open"
    finally:
        cause.close()


def test_redirect_loop_is_one_sentence(library: Database, feed_server: FeedServer,
                                       snapshot: Snapshot) -> None:
    before = snapshot(library)
    with pytest.raises(UnreachableError) as info:
        subscribe(library, feed_server.serve_redirect("/loop.xml", "/loop.xml", 302))
    assert snapshot(library) == before
    _assert_sentence(info.value)


def test_a_server_that_does_not_speak_http_is_unreachable(library: Database,
                                                          feed_server: FeedServer) -> None:
    url = feed_server.serve_raw("/feed.xml", b"SSH-2.0-OpenSSH_9.6\r\n")
    with pytest.raises(UnreachableError, match="did not answer like a web server"):
        subscribe(library, url)


@pytest.mark.parametrize("url", ["http://127.0.0.1:notaport/feed.xml", "http://[::1/feed.xml"])
def test_a_malformed_url_is_an_earmark_error(library: Database, url: str) -> None:
    with pytest.raises(UnreachableError):
        subscribe(library, url)


# (e) Redirects.


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_redirect_to_a_feed_is_followed(library: Database, feed_server: FeedServer, status: int) -> None:
    relative = rss("Moved show", [{"title": "Relative enclosure", "guid": "r1", "enclosure": "media/ep1.mp3"}])
    feed_server.serve_body("/new/feed.xml", relative)
    old_url = feed_server.serve_redirect("/old/feed.xml", "/new/feed.xml", status)

    result = subscribe(library, old_url)

    assert result.title == "Moved show"
    [source] = list_sources(library)
    stored = feed_server.url("/new/feed.xml") if status in (301, 308) else old_url  # only a permanent move sticks
    assert (source.url, source.status) == (stored, "ok")
    [item] = list_items(library, ItemFilter())
    assert item.enclosure_url == feed_server.url("/new/media/ep1.mp3")  # resolved against where the feed is
    assert feed_server.requests[-2:] == ["/old/feed.xml", "/new/feed.xml"]


def test_redirect_to_a_real_fixture(library: Database, feed_server: FeedServer) -> None:
    fixtures_dir()
    url = feed_server.serve_redirect("/atp", "/feeds/rsp__atp.rss", 301)
    result = subscribe(library, url)
    assert result.title == "Accidental Tech Podcast"
    assert count_items(library, ItemFilter(source_id=result.source_id)) == 100


def test_a_body_that_takes_too_long_is_given_up() -> None:
    from earmark.core.feeds import fetch as fetch_module

    body = io.BytesIO(b"<rss/>" * 100_000)  # several chunks: the deadline is checked between them
    with pytest.raises(UnreachableError, match="took more than"):
        fetch_module._read_within(body, "http://slow.example/feed", deadline=time.monotonic() - 1)
    assert fetch_module._read_within(io.BytesIO(b"<rss/>"), "u", deadline=time.monotonic() + 60) == b"<rss/>"


def test_podcast_namespace_facts_are_stored_with_the_items(library: Database,
                                                           fixtures_server: FeedServer) -> None:
    result = subscribe(library, fixtures_server.url("/feeds/ns__example.xml"))
    source = library.execute("SELECT podcast_guid, locked, funding FROM sources WHERE id = ?",
                             [result.source_id]).fetchone()
    assert source[:2] == ("y0ur-gu1d-g035-h3r3", 1)
    assert json.loads(source[2]) == [{"text": "Support the show!", "url": "https://example.com/donate"}]
    row = library.execute(
        "SELECT chapters_url, transcripts, persons FROM items WHERE source_id = ? AND title = ?",
        [result.source_id, "Episode 3 - The Future"],
    ).fetchone()
    assert row[0] == "https://example.com/ep3_chapters.json"
    assert [t["url"] for t in json.loads(row[1])] == ["https://example.com/ep3/transcript.txt",
                                                       "https://example.com/episode1/transcript.vtt"]
    assert json.loads(row[1])[1]["language"] == "es"
    persons = json.loads(row[2])
    assert [(p["name"], p.get("role")) for p in persons] == [
        ("Adam Curry", None), ("Dave Jones", "guest"), ("Becky Smith", "cover art designer")]


def test_rereading_an_unchanged_namespace_feed_writes_nothing(library: Database,
                                                              fixtures_server: FeedServer) -> None:
    url = fixtures_server.url("/feeds/pt__pc20rss.xml")
    first = subscribe(library, url)
    assert len(first.new) == 56
    again = subscribe(library, url)
    assert (again.new, again.updated) == ([], [])
