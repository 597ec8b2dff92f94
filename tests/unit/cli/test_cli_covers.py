"""``sources --json`` and ``list --json`` name each cover's address (``image_url``) and its cached file
(``cover``, null until fetched)."""

from __future__ import annotations

import os
from pathlib import Path

from earmark.core.db.connection import open_library
from earmark.core.db.covers import record_covers
from earmark.core.images.fetch import CoverState, fetch_cover
from helpers.cli import Cli
from helpers.feed_server import FeedServer, Route, rss

IMAGES = Path(__file__).parents[2] / "fixtures" / "images"


def test_covers_in_the_json_of_sources_and_items(cli: Cli, feed_server: FeedServer, cover_cache: Path) -> None:
    cover = feed_server.route("cover.jpg", Route(body=(IMAGES / "cover.jpg").read_bytes(), content_type="image/jpeg"))
    own = feed_server.url("episode.jpg")
    body = rss("Show", [{"title": "One", "guid": "1", "enclosure": "https://example.com/1.mp3"},
                        {"title": "Two", "guid": "2", "enclosure": "https://example.com/2.mp3"}])
    body = body.replace(b"<title>Show</title>", b"<title>Show</title><image><url>%s</url><title>Show</title>"
                        b"<link>https://example.com/</link></image>" % cover.encode(), 1)
    body = body.replace(b"<title>Two</title>", b'<title>Two</title><itunes:image href="%s"/>' % own.encode(), 1)
    assert cli("subscribe", feed_server.serve_body("feed.xml", body))[0] == 0

    [source] = cli.json("sources")
    assert (source["image_url"], source["cover"]) == (cover, None)
    items = {item["title"]: item for item in cli.json("list")}
    assert (items["One"]["image_url"], items["Two"]["image_url"]) == (cover, own)  # the podcast's, else its own
    assert items["One"]["cover"] is None

    db = open_library(cli.library)
    record_covers(db, [fetch_cover(CoverState(cover))])
    db.close()
    [source] = cli.json("sources")
    assert isinstance(source["cover"], str) and os.path.isfile(source["cover"])
    assert source["cover"].startswith(str(cover_cache))
    items = {item["title"]: item for item in cli.json("list")}
    assert items["One"]["cover"] == source["cover"] and items["Two"]["cover"] is None


def test_a_saved_article_takes_its_page_s_picture_and_its_site_its_icon(cli: Cli, feed_server: FeedServer) -> None:
    words = " ".join(["Kernel fusion saves a trip to memory for every elementwise operation."] * 12)
    page = (f'<html><head><title>Fusion</title><meta property="og:image" content="/fusion.png">'
            f'<link rel="icon" href="/icon.png" sizes="32x32"></head><body><article><h1>Fusion</h1><p>{words}</p>'
            f"<p>{words}</p></article></body></html>")
    url = feed_server.serve_body("posts/fusion.html", page.encode(), "text/html; charset=utf-8")
    assert cli("add-article", url)[0] == 0
    [article] = cli.json("list")
    assert article["image_url"] == feed_server.url("fusion.png")
    [site] = cli.json("sources")
    assert site["image_url"] == feed_server.url("icon.png")
