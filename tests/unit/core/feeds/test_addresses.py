"""Addresses as people paste them: without a scheme, a podcast's web page, an Apple Podcasts page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.errors import FeedError, UnreachableError
from earmark.core.feeds.addresses import (
    FeedChoice,
    PageFeeds,
    candidates,
    feed_links,
    looks_like_address,
    read_address,
)
from earmark.core.feeds.subscribe import ReadFeed
from helpers.directory_server import DirectoryServer, Listing
from helpers.feed_server import FeedServer, rss

EPISODES = [{"title": "Episode 1", "guid": "e1", "enclosure": "https://example.com/1.mp3"}]


def page(*links: str, base: str = "") -> bytes:
    head = (f'<base href="{base}">' if base else "") + "".join(links)
    return f"<!DOCTYPE html><html><head><title>Show</title>{head}</head><body>Our show</body></html>".encode()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as feed_server:
        yield feed_server


def test_words_are_no_address_and_hosts_without_a_scheme_try_https_then_http(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert not looks_like_address("pytorch developer podcast") and not looks_like_address("pytorch")
    assert all(looks_like_address(a) for a in ("example.com", "https://x.org/f", "~/feed.xml", "./f.xml"))
    assert candidates("example.com/feed.xml") == ["https://example.com/feed.xml", "http://example.com/feed.xml"]
    assert candidates("localhost:8000/f") == ["https://localhost:8000/f", "http://localhost:8000/f"]
    assert candidates("http://example.com/f") == ["http://example.com/f"]
    (tmp_path / "example.com").mkdir()
    (tmp_path / "example.com" / "feed.xml").write_bytes(rss("Local", EPISODES))
    monkeypatch.chdir(tmp_path)
    assert candidates("example.com/feed.xml") == ["example.com/feed.xml"]  # an existing path is a file


def test_a_host_and_path_without_a_scheme_is_read_over_http_when_https_fails(server: FeedServer) -> None:
    url = server.serve_body("/show.xml", rss("Plain Show", EPISODES))
    read = read_address(url.removeprefix("http://"))
    assert isinstance(read, ReadFeed) and read.feed.title == "Plain Show" and read.url == url


def test_a_web_page_leads_to_the_feed_it_names(server: FeedServer) -> None:
    server.serve_body("/feeds/show.xml", rss("Page Show", EPISODES))
    url = server.serve_body("/show.html", page('<link rel="alternate" type="application/rss+xml" title="Audio" '
                                               'href="feeds/show.xml">'), "text/html; charset=utf-8")
    read = read_address(url)
    assert isinstance(read, ReadFeed) and read.feed.title == "Page Show"
    assert read.url == server.url("/feeds/show.xml")  # the relative link, resolved against the page


def test_a_page_naming_several_feeds_lets_the_person_choose(server: FeedServer) -> None:
    url = server.serve_body("/show.html", page(
        '<link rel="alternate" type="application/rss+xml" title="MP3" href="/mp3.xml">',
        '<link rel="alternate stylesheet" type="text/css" href="/style.css">',
        "<link rel='alternate' type='application/atom+xml' href='https://cdn.example.com/atom'>",
        '<link rel="alternate" type="application/feed+json" title="JSON" href="feed.json">',
        '<link rel="alternate" type="application/rss+xml" href="/mp3.xml">', base="/sub/"), "text/html")
    found = read_address(url)
    assert found == PageFeeds(url, [FeedChoice(server.url("/mp3.xml"), "MP3", "RSS"),
                                    FeedChoice("https://cdn.example.com/atom", "Atom", "Atom"),
                                    FeedChoice(server.url("/sub/feed.json"), "JSON", "JSON Feed")])


def test_a_page_naming_no_feed_says_so(server: FeedServer) -> None:
    url = server.serve_body("/plain.html", page(), "text/html")
    with pytest.raises(FeedError, match=r"plain\.html is a web page that names no feed"):
        read_address(url)
    assert feed_links("<html><link rel=alternate type=application/rss+xml></html>", url) == []  # no href


def test_an_apple_podcasts_page_resolves_through_the_lookup_api(server: FeedServer) -> None:
    feed = server.serve_body("/apple.xml", rss("Apple Show", EPISODES))
    with DirectoryServer([Listing("Apple Show", feed, itunes_id=1566080008)]) as directories:
        read = read_address("https://podcasts.apple.com/us/podcast/apple-show/id1566080008",
                            apple_url=directories.base_url("apple"))
        assert isinstance(read, ReadFeed) and read.feed.title == "Apple Show"
        assert directories.asked[0].path == "/lookup" and directories.asked[0].query["id"] == "1566080008"


def test_a_missing_path_is_still_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UnreachableError, match="no file"):
        read_address(str(tmp_path / "nothing.xml"))


def test_a_malformed_ipv6_host_is_no_crash() -> None:
    """Found by fuzzing: urllib's "Invalid IPv6 URL" escaped from reading what was typed and a page's links."""
    assert looks_like_address("http://[hl") and candidates("http://[hl") == ["http://[hl"]
    links = '<base href="http://[x"><link rel="alternate" type="application/rss+xml" href="//[y/feed">' \
            '<link rel="alternate" type="application/rss+xml" href="/ok.xml">'
    assert feed_links(links, "http://example.com/") == [FeedChoice("http://example.com/ok.xml", "RSS", "RSS")]
