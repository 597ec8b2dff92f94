"""A feed's cover and its episodes' images, by both parsers: itunes:image, RSS image, podcast:images, Atom
logo and icon, in the order podcast apps prefer them."""

from __future__ import annotations

import pytest

from earmark.core.feeds.parse import parse_feed

URL = "https://example.com/show/feed.xml"
HEAD = (b'<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
        b'xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Show</title>')
ITEM = (b'<item><title>One</title><guid>1</guid><enclosure url="https://example.com/1.mp3" type="audio/mpeg"/>'
        b'%s</item>')


def rss(channel: bytes, item: bytes = b"") -> bytes:
    return HEAD + channel + (ITEM % item) + b"</channel></rss>"


RSS_IMAGE = b"<image><url>https://example.com/rss.png</url><title>Show</title><link>https://example.com/</link></image>"
ITUNES = b'<itunes:image href="https://example.com/itunes.jpg"/>'
IMAGES = b'<podcast:images srcset="https://example.com/600.jpg 600w, https://example.com/1500.jpg 1500w"/>'


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "feedparser"])
@pytest.mark.parametrize(("channel", "expected"), [
    (RSS_IMAGE + ITUNES + IMAGES, "https://example.com/itunes.jpg"),
    (ITUNES + RSS_IMAGE, "https://example.com/itunes.jpg"),
    (RSS_IMAGE + IMAGES, "https://example.com/1500.jpg"),
    (RSS_IMAGE, "https://example.com/rss.png"),
    (b'<podcast:image href="https://example.com/3000.png" width="3000" purpose="artwork"/>'
     b'<podcast:image href="https://example.com/social.png" width="4000" purpose="social"/>' + IMAGES,
     "https://example.com/3000.png"),
    (b'<itunes:image href="art/cover.png"/>', "https://example.com/show/art/cover.png"),
    (b'<itunes:image href="javascript:alert(1)"/>', None),
    (b"", None),
])
def test_a_podcast_s_cover_is_the_image_apps_show(fast: bool, channel: bytes, expected: str | None) -> None:
    assert parse_feed(rss(channel), URL, fast=fast).image_url == expected


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "feedparser"])
def test_an_episode_s_own_image_is_kept(fast: bool) -> None:
    feed = parse_feed(rss(ITUNES, b'<itunes:image href="/ep1.jpg"/>'), URL, fast=fast)
    assert [entry.image_url for entry in feed.entries] == ["https://example.com/ep1.jpg"]


ATOM = (b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Notes</title>%s'
        b"<entry><title>A post</title><id>urn:1</id><link href='https://example.com/a'/></entry></feed>")


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "feedparser"])
@pytest.mark.parametrize(("head", "expected"), [
    (b"<logo>https://example.com/logo.png</logo><icon>/favicon.png</icon>", "https://example.com/logo.png"),
    (b"<icon>/favicon.png</icon>", "https://example.com/favicon.png"),
])
def test_an_atom_feed_s_cover_is_its_logo_else_its_icon(fast: bool, head: bytes, expected: str) -> None:
    assert parse_feed(ATOM % head, URL, fast=fast).image_url == expected
