"""``earmark subscribe`` and ``import-opml`` recognise a podcast already subscribed under another address (scheme,
``www.``, trailing slash, default port, host case, a redirect, the feed's self link, ``itunes:new-feed-url``,
``podcast:guid``): they say "already subscribed" and add nothing. Real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.merge import store_feed
from earmark.core.feeds.parse import parse_feed
from helpers.cli import Cli
from helpers.feed_server import FeedServer, rss

EPISODES = [{"title": f"Episode {n}", "guid": f"ep-{n}", "enclosure": f"https://cdn.example.com/{n}.mp3",
             "pubDate": f"Mon, {n % 28 + 1:02d} Jan 2024 10:00:00 +0000"} for n in range(1, 52)]
FEED = rss("PyTorch Developer Podcast", EPISODES)
ALREADY = "Already subscribed to PyTorch Developer Podcast (source 1): 0 new, 0 updated.\n"


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "library.db", capsys)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as running:
        yield running


def channel_tags(tags: str, feed: bytes = FEED) -> bytes:
    """The feed with these tags at the start of its channel (the Atom and podcast namespaces declared)."""
    feed = feed.replace(b"<rss ", b'<rss xmlns:atom="http://www.w3.org/2005/Atom" '
                                  b'xmlns:podcast="https://podcastindex.org/namespace/1.0" ')
    return feed.replace(b"<channel>", b"<channel>" + tags.encode())


def stored_as(cli: Cli, url: str, body: bytes = FEED) -> None:
    """A subscription to ``url`` as an earlier subscribe left it (for addresses this server cannot answer)."""
    db = open_library(cli.library)
    store_feed(db, url, parse_feed(body, url))
    db.close()


def counts(cli: Cli) -> tuple[int, int]:
    """How many subscriptions and items the library holds."""
    sources = cli.json("sources")
    return len(sources), sum(int(str(source["item_count"])) for source in sources)


def test_the_http_address_of_an_https_subscription_adds_nothing(cli: Cli, server: FeedServer) -> None:
    """The issue's finding: subscribed over https, subscribing by http:// added 51 duplicate episodes."""
    http_url = server.serve_body("feed.xml", FEED)
    https_url = http_url.replace("http://", "https://")
    stored_as(cli, https_url)  # this server speaks plain http only
    assert counts(cli) == (1, 51)
    assert cli("subscribe", http_url) == (0, ALREADY, "")
    assert counts(cli) == (1, 51)
    assert [source["url"] for source in cli.json("sources")] == [https_url]


@pytest.mark.parametrize("stored", ["https://{host}/feed.xml", "http://{host}/feed.xml/", "HTTP://{host}/feed.xml",
                                    "http://alice@{host}/feed.xml"])
def test_the_subscriptions_address_written_differently_adds_nothing(cli: Cli, server: FeedServer,
                                                                   stored: str) -> None:
    """Subscribing again reads the feed again, into the subscription there is."""
    url = server.serve_body("feed.xml", FEED)
    stored_as(cli, stored.format(host=f"127.0.0.1:{server.port}"))
    assert cli("subscribe", url) == (0, ALREADY, "")
    assert counts(cli) == (1, 51)
    assert [source["url"] for source in cli.json("sources")] == [stored.format(host=f"127.0.0.1:{server.port}")]


def test_a_failing_read_of_the_subscriptions_other_address_is_noted_on_it(cli: Cli, server: FeedServer) -> None:
    url = server.serve_status("feed.xml", 500)
    stored_as(cli, url.replace("http://", "https://"))
    code, out, err = cli("subscribe", url)
    assert (code, out) == (1, "") and "500" in err
    [source] = cli.json("sources")
    assert (source["status"], source["item_count"]) == ("error", 51)


def test_an_address_that_redirects_to_the_subscription_adds_nothing(cli: Cli, server: FeedServer) -> None:
    url = server.serve_body("feed.xml", FEED)
    assert cli("subscribe", url)[0] == 0
    old = server.serve_redirect("old.xml", "feed.xml", 302)  # a temporary redirect: its target is not stored
    assert cli("subscribe", old) == (0, ALREADY, "")
    assert cli("subscribe", server.serve_redirect("older.xml", "feed.xml", 301)) == (0, ALREADY, "")
    assert counts(cli) == (1, 51)


def test_the_feeds_self_link_names_the_subscription(cli: Cli, server: FeedServer) -> None:
    """Both ways: the feed at another address says it lives at the subscription's, or the subscribed feed said
    it lives at the address typed now."""
    canonical = server.url("feed.xml")
    body = channel_tags(f'<atom:link rel="self" href="{canonical}" type="application/rss+xml"/>')
    server.serve_body("feed.xml", body)
    assert cli("subscribe", canonical)[0] == 0
    assert cli("subscribe", server.serve_body("mirror.xml", body)) == (0, ALREADY, "")
    assert counts(cli) == (1, 51)


def test_an_address_the_subscribed_feed_named_as_its_own_is_already_subscribed(cli: Cli, server: FeedServer) -> None:
    body = channel_tags(f'<atom:link rel="self" href="{server.url("home.xml")}"/>')
    assert cli("subscribe", server.serve_body("cdn.xml", body))[0] == 0
    assert cli("subscribe", server.serve_body("home.xml", body)) == (0, ALREADY, "")
    assert [source["url"] for source in cli.json("sources")] == [server.url("cdn.xml")]


def test_a_feed_that_says_it_moved_to_the_subscription_adds_nothing(cli: Cli, server: FeedServer) -> None:
    new = server.serve_body("new.xml", FEED)
    assert cli("subscribe", new)[0] == 0
    old = server.serve_body("old.xml", channel_tags(f"<itunes:new-feed-url>{new}</itunes:new-feed-url>"))
    assert cli("subscribe", old) == (0, ALREADY, "")
    assert counts(cli) == (1, 51)


def test_the_same_podcast_guid_is_the_same_podcast(cli: Cli, server: FeedServer) -> None:
    guid = "<podcast:guid>917393e3-1b1e-5cef-ace4-edaa54e1f810</podcast:guid>"
    assert cli("subscribe", server.serve_body("one.xml", channel_tags(guid)))[0] == 0
    other_host = channel_tags(guid, rss("PyTorch Developer Podcast (mirror)", EPISODES[:3]))
    assert cli("subscribe", server.serve_body("two.xml", other_host)) == (0, ALREADY, "")
    assert counts(cli) == (1, 51)
    different = channel_tags("<podcast:guid>another</podcast:guid>", rss("Another", EPISODES[:3]))
    assert cli("subscribe", server.serve_body("three.xml", different))[1].startswith("Subscribed to Another")


def test_an_opml_list_naming_the_subscription_otherwise_adds_nothing(cli: Cli, tmp_path: Path) -> None:
    """Scheme, www., host case, default port, trailing slash: recognised without a fetch (example.com cannot be
    reached from here); another path, port, query or host is another podcast."""
    stored_as(cli, "https://www.example.com/show/feed.xml")
    same = ["http://example.com/show/feed.xml", "https://WWW.Example.COM:443/show/feed.xml/",
            "http://example.com:80/show/feed.xml", "feed://example.com/show/feed.xml"]
    other = ["https://www.example.com/show/feed.XML", "https://www.example.com:8443/show/feed.xml",
             "https://www.example.com/show/feed.xml?page=2", "https://www.example.org/show/feed.xml"]
    opml = tmp_path / "mine.opml"
    opml.write_text('<?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>' + "".join(
        f'<outline type="rss" text="Feed {n}" xmlUrl="{url}"/>' for n, url in enumerate(same + other)) +
        "</body></opml>", encoding="utf-8")
    code, out, err = cli("import-opml", str(opml), "--no-refresh")
    assert (code, out, err) == (0, "4 new subscriptions, 4 already subscribed.\n", "")
    assert sorted(source["url"] for source in cli.json("sources")) == sorted(
        ["https://www.example.com/show/feed.xml", *other])


def test_a_listed_feed_found_to_be_a_subscribed_podcast_once_read_is_not_added(cli: Cli, server: FeedServer,
                                                                               tmp_path: Path) -> None:
    """A list naming a mirror (the same podcast:guid) and an address whose feed names the subscription as its own:
    recorded at first (nothing tells them apart before they are read), dropped once read, their folder tags kept."""
    guid = "<podcast:guid>917393e3-1b1e-5cef-ace4-edaa54e1f810</podcast:guid>"
    url = server.serve_body("feed.xml", channel_tags(guid))
    assert cli("subscribe", url)[0] == 0
    mirror = server.serve_body("mirror.xml", channel_tags(guid, rss("PyTorch Developer Podcast", EPISODES[:2])))
    cdn = server.serve_body("cdn.xml", channel_tags(f'<atom:link rel="self" href="{url}"/>'))
    other = server.serve_body("other.xml", rss("Another Show", EPISODES[:2]))
    opml = tmp_path / "mine.opml"
    opml.write_text('<?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>'
                    f'<outline text="Listening"><outline type="rss" text="Mirror" xmlUrl="{mirror}"/>'
                    f'<outline type="rss" text="CDN" xmlUrl="{cdn}"/><outline type="rss" text="Another Show" '
                    f'xmlUrl="{other}"/></outline></body></opml>', encoding="utf-8")
    outcomes = cli.json("import-opml", str(opml))
    assert sorted((o["title"], o["new"], o["warning"]) for o in outcomes) == [
        ("Another Show", 2, None),
        ("PyTorch Developer Podcast", 0, f"{cdn} is PyTorch Developer Podcast, subscribed to already: it was not "
                                         "added again."),
        ("PyTorch Developer Podcast", 0, f"{mirror} is PyTorch Developer Podcast, subscribed to already: it was not "
                                         "added again.")]
    sources = {source["title"]: source for source in cli.json("sources")}
    assert sorted(sources) == ["Another Show", "PyTorch Developer Podcast"]
    assert (sources["PyTorch Developer Podcast"]["url"], sources["PyTorch Developer Podcast"]["item_count"]) == (
        url, 51)
    assert cli("subscribe", mirror) == (0, ALREADY, "")
    code, out, _ = cli("list", "--tag", "listening", "--json")
    assert code == 0 and len(json.loads(out)) == 53  # the folder's tag went to the podcast there was
