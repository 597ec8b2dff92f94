"""The fast parser's plain way through RSS 2.0 items (plain_items.py) against the feedparser path: the same FeedData
for every fixture, the bench's feeds and random items; and the documents it must leave to feedparser's handlers."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from earmark.core.feeds import fast_parse as fast_parse_module
from earmark.core.feeds.fast_parse import fast_parse
from earmark.core.feeds.parse import parse_feed
from earmark.core.models import FeedData
from helpers.feed_server import fixture_files, own_fixture_files

URL = "https://feeds.example.org/show/feed.xml"
RSS_TYPE = "application/rss+xml; charset=utf-8"
NAMESPACES = {"itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
              "content": "http://purl.org/rss/1.0/modules/content/", "dc": "http://purl.org/dc/elements/1.1/",
              "podcast": "https://podcastindex.org/namespace/1.0", "media": "http://search.yahoo.com/mrss/",
              "atom": "http://www.w3.org/2005/Atom"}
FEED_FILES = [path for path in fixture_files("feeds", "feeds-malformed", "hostile") + own_fixture_files("feeds")
              if path.suffix in (".xml", ".rss", ".rdf", ".atom")]
# Elements an item may hold: for each, variants the plain way reads, and variants it must leave to feedparser.
ELEMENTS: list[tuple[list[str], list[str]]] = [
    (["<title>Episode {n}: caf\u00e9 &amp; more</title>", "<title></title>",
      "<title> A &lt;b&gt;bold&lt;/b&gt; one </title>", "<title>Caf\u00c3\u00a9 \u0093quoted\u0094</title>"],
     ['<title type="html">Typed</title>']),
    (["<link>https://example.org/ep/{n}?a=1&amp;b=2</link>", "<link>/relative/{n}</link>", "<link></link>",
      "<link>https://example.org/&amp;amp;x</link>"],
     ['<atom:link href="https://example.org/ep/{n}" rel="alternate"/>']),
    (['<guid isPermaLink="false">show-{n}</guid>', "<guid>https://example.org/p/{n}</guid>", "<guid>ep-{n}</guid>",
      '<guid isPermaLink="true">ep/{n}</guid>', '<guid isPermaLink="False">x-{n}</guid>', "<guid></guid>"],
     ['<guid isPermaLink="false" extra="1">y-{n}</guid>']),
    (["<pubDate>Wed, 01 Jan 2025 12:39:00 +0000</pubDate>", "<pubDate>Tue, 31 Dec 2024 23:59:59 -0130</pubDate>",
      "<pubDate>2025-01-02T03:04:05Z</pubDate>", "<pubDate>not a date</pubDate>", "<pubDate></pubDate>",
      "<pubDate>Sun, 31 Feb 2025 10:00:00 GMT</pubDate>"], []),
    (["<description><![CDATA[<p>Notes for {n} &amp; more</p>]]></description>", "<description>Plain {n}</description>",
      "<description></description>"], ['<description type="text">Typed</description>']),
    (["<itunes:summary>Summary {n}, a longer one than the description</itunes:summary>", "<itunes:summary/>"], []),
    (["<content:encoded><![CDATA[<p>Full text of {n}, longer than anything else here</p>]]></content:encoded>"],
     ['<content:encoded mode="base64">QQ==</content:encoded>']),
    (['<enclosure url="https://cdn.example.org/{n}.mp3" length="123456" type="Audio/MPEG"/>',
      '<enclosure url="media/{n}.m4a"/>',
      '<enclosure href="https://cdn.example.org/{n}.ogg" type="audio/ogg" length="0"/>',
      '<enclosure url="" type="audio/mpeg"/>',
      '<enclosure url="https://cdn.example.org/{n}.pdf" type="application/pdf"/>',
      '<enclosure url="https://cdn.example.org/{n}.mp3" xml:lang="en"/>'], []),
    (["<itunes:duration>01:02:03</itunes:duration>", "<itunes:duration>3600</itunes:duration>",
      "<itunes:duration></itunes:duration>"], ['<itunes:duration unit="s">12</itunes:duration>']),
    (["<author>host@example.org (Host)</author>", "<itunes:author>The Host</itunes:author>",
      "<dc:creator>Writer {n}</dc:creator>"], ['<author role="x">Someone</author>']),
    (["<category>News</category>", '<category domain="https://example.org/">Tech</category>', "<category/>"],
     ['<category term="x">Termed</category>', '<itunes:category text="Comedy"/>']),
    (["<itunes:keywords>one, two,,Three </itunes:keywords>"], ['<itunes:keywords a="b">x</itunes:keywords>']),
    (["<itunes:explicit>yes</itunes:explicit>", '<itunes:image href="https://example.org/{n}.jpg"/>',
      "<itunes:subtitle>Sub</itunes:subtitle>", "<itunes:episodeType>full</itunes:episodeType>",
      "<itunes:season>2</itunes:season>", "<itunes:episode>{n}</itunes:episode>", "<itunes:block>no</itunes:block>",
      '<itunes:subtitle type="html">Typed sub</itunes:subtitle>', "<itunes:title>Own title</itunes:title>"], []),
    (['<podcast:transcript url="https://example.org/{n}.vtt" type="text/vtt"/>',
      '<podcast:person role="host" href="https://example.org/p">Ann</podcast:person>',
      '<podcast:value type="lightning"><podcast:valueRecipient name="a" split="100"/></podcast:value>',
      "<comments>https://example.org/c/{n}</comments>", "<unknownthing>text</unknownthing>",
      '<podcast:chapters url="https://example.org/{n}.json" type="application/json+chapters"/>'],
     ["<published_parsed>odd</published_parsed>", "<podcast:value><category>Inner</category></podcast:value>"]),
    ([], ['<media:content url="https://cdn.example.org/{n}.mp4" type="video/mp4"/>', "<source>Elsewhere</source>",
          "<title>Second title</title>", '<item xml:base="x">nested</item>']),
]
DOCUMENT = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" {declarations}><channel>'
            "<title>Show</title><link>https://example.org/</link><description>About</description>"
            '<itunes:image href="https://example.org/cover.jpg"/><itunes:author>Host</itunes:author>\n{items}'
            "</channel></rss>\n")


@pytest.fixture
def plain_ways(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each fast parse took the plain way through the items."""
    taken: list[bool] = []
    original = fast_parse_module._TreeParser.walk_plain_channel

    def spy(self: fast_parse_module._TreeParser, root: object) -> bool:
        taken.append(original(self, root))  # type: ignore[arg-type]
        return taken[-1]

    monkeypatch.setattr(fast_parse_module._TreeParser, "walk_plain_channel", spy)
    return taken


def same(data: bytes, url: str = URL, content_type: str | None = RSS_TYPE) -> FeedData | None:
    """The fast result, equal to the feedparser path's whenever there is one."""
    fast = fast_parse(data, url, content_type)
    if fast is not None:
        assert fast == parse_feed(data, url, content_type, fast=False)
    return fast


def document(items: list[str]) -> bytes:
    declarations = " ".join(f'xmlns:{prefix}="{uri}"' for prefix, uri in NAMESPACES.items())
    return DOCUMENT.format(declarations=declarations, items="\n".join(items)).encode()


@pytest.mark.parametrize("path", FEED_FILES, ids=[f"{p.parent.name}/{p.name}" for p in FEED_FILES])
def test_every_fixture_gives_the_feedparser_result(path: Path) -> None:
    data = path.read_bytes()
    for url, content_type in ((URL, "application/xml"), (path.as_uri(), None)):
        same(data, url, content_type)


def test_real_podcast_fixtures_mostly_take_the_plain_way(plain_ways: list[bool]) -> None:
    real = [path for path in fixture_files("feeds") if path.suffix in (".xml", ".rss") and path.name[:4] != "fp__"]
    if not real:
        pytest.skip("the shared fixtures are missing")
    for path in real:
        same(path.read_bytes())
    assert sum(plain_ways) >= 25  # 28 of the 53 RSS fixtures on 2026-11-27 (the others: media:content, xml:base, Atom)


def test_the_bench_feeds_take_the_plain_way(plain_ways: list[bool]) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
    try:
        from feed_server import PLANS, feed_body, feed_specs  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    specs = feed_specs(PLANS["import-quick"])
    for spec in [*specs[:4], *[spec for spec in specs if spec.items >= 1000][:1]]:
        feed = same(feed_body(spec), f"http://127.0.0.1:8000{spec.path}")
        assert feed is not None and len(feed.entries) == spec.items
    assert plain_ways and all(plain_ways)


@pytest.mark.parametrize("seed", range(60))
def test_random_items_give_the_feedparser_result(seed: int, plain_ways: list[bool]) -> None:
    """Items of random elements in random order, relative links resolved against a web and a file address. Odd
    seeds use only what the plain way reads, and it must read every document; even seeds add, here and there, what
    it must refuse (repeated, nested, attributes feedparser reads, elements only feedparser's handlers read)."""
    rng = random.Random(seed)
    for _ in range(8):
        items = []
        for number in range(rng.randint(1, 6)):
            choices = []
            for plain, refused in ELEMENTS:
                variants = plain + refused if seed % 2 == 0 and rng.random() < 0.15 else plain
                if variants and rng.random() < 0.6:
                    choices.append(rng.choice(variants))
            rng.shuffle(choices)
            items.append("<item>" + "".join(choices).replace("{n}", str(number)) + "</item>")
        data = document(items)
        same(data)
        same(data, "file:///srv/feeds/show.xml", None)
    assert plain_ways and (not seed % 2 or all(plain_ways))


@pytest.mark.parametrize("items", [
    ["<item><title>1</title></item>", "<item><title>2</title></item>"],
    ["<item><description>Short</description><itunes:summary>The longer summary</itunes:summary></item>"],
    ["<item><itunes:summary>First</itunes:summary><description>Then</description>"
     "<content:encoded>Full</content:encoded></item>"],
    ['<item><guid>https://example.org/a</guid><link>https://example.org/b</link></item>'],
    ["<item><category>A</category><itunes:keywords>b, c</itunes:keywords><category>A</category></item>"],
])
def test_common_items_take_the_plain_way(items: list[str], plain_ways: list[bool]) -> None:
    assert same(document(items)) is not None
    assert plain_ways == [True]


@pytest.mark.parametrize("items", [
    ["<item><title>1</title><title>2</title></item>"],
    ['<item><media:content url="https://cdn.example.org/1.mp4" type="video/mp4"/></item>'],
    ['<item xml:lang="en"><title>1</title></item>'],
    ["<item><source>Elsewhere</source></item>"],
    ['<item><title type="html">1</title></item>'],
    ["<item><description>1</description><itunes:summary>2</itunes:summary><description>3</description></item>"],
])
def test_items_only_feedparser_reads_exactly_take_the_whole_walk(items: list[str], plain_ways: list[bool]) -> None:
    same(document(items))
    assert plain_ways == [False]


def test_channel_elements_after_the_items_take_the_whole_walk(plain_ways: list[bool]) -> None:
    data = document(["<item><title>1</title></item>"]).replace(b"</channel>", b"<title>Late</title></channel>")
    same(data)
    assert plain_ways == [False]


def test_a_title_without_a_tag_or_reference_is_never_html_to_feedparser() -> None:
    """entries._clean_title asks feedparser's looks_like_html only of titles holding "<" or "&"."""
    from feedparser.mixin import _FeedParserMixin

    rng = random.Random(5)
    pieces = ["a", "p", "/", ">", ";", "#", "x1", " ", "br", "\u00e9", "amp", "</", "&", "<"]
    for _ in range(3000):
        title = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        if "<" not in title and "&" not in title:
            assert not _FeedParserMixin.looks_like_html(title), title
