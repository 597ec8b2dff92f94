"""``earmark subscribe`` takes what Add Podcast takes: an address without a scheme, a podcast's web page, an Apple
Podcasts page; a page with several feeds lists them, a page with none says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.cli import Cli
from helpers.directory_server import DirectoryServer, Listing
from helpers.feed_server import FeedServer, rss

EPISODES = [{"title": f"Episode {n}", "guid": f"e{n}", "enclosure": f"https://example.com/{n}.mp3"} for n in range(3)]


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "library.db", capsys)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as feed_server:
        yield feed_server


def html(links: str) -> bytes:
    return f"<!doctype html><html><head>{links}</head><body>A show</body></html>".encode()


def test_subscribe_to_a_website_subscribes_to_its_feed(cli: Cli, server: FeedServer) -> None:
    server.serve_body("/feed.xml", rss("Site Show", EPISODES))
    site = server.serve_body("/", html('<link rel="alternate" type="application/rss+xml" href="/feed.xml">'),
                             "text/html")
    code, out, err = cli("subscribe", site.removeprefix("http://"))  # as pasted: no scheme, a web page
    assert code == 0, err
    assert out.startswith("Subscribed to Site Show") and "3 new" in out
    [source] = cli.json("sources")
    assert source["url"] == server.url("/feed.xml")


def test_a_page_with_several_feeds_lists_them_and_one_with_none_says_so(cli: Cli, server: FeedServer) -> None:
    page = server.serve_body("/two.html", html('<link rel="alternate" type="application/rss+xml" href="/a.xml" '
                                               'title="Audio"><link rel="alternate" type="application/atom+xml" '
                                               'href="/b.xml" title="Blog">'), "text/html")
    code, _out, err = cli("subscribe", page)
    assert code == 1
    assert f"{page} names 2 feeds; subscribe to one of them:" in err
    assert f"{server.url('/a.xml')}  (Audio, RSS)" in err and f"{server.url('/b.xml')}  (Blog, Atom)" in err
    none = server.serve_body("/none.html", html(""), "text/html")
    code, _out, err = cli("subscribe", none)
    assert code == 1 and "is a web page that names no feed" in err
    assert "mismatched tag" not in err and "not an XML media type" not in err
    assert cli.json("sources") == []


def test_subscribe_to_an_apple_podcasts_page(cli: Cli, server: FeedServer) -> None:
    feed = server.serve_body("/apple.xml", rss("Apple Show", EPISODES))
    with DirectoryServer([Listing("Apple Show", feed, itunes_id=42)]) as directories:
        assert cli("setting", "directory.apple_url", directories.base_url("apple"))[0] == 0
        code, out, err = cli("subscribe", "https://podcasts.apple.com/us/podcast/apple-show/id42")
    assert code == 0, err
    assert out.startswith("Subscribed to Apple Show")
