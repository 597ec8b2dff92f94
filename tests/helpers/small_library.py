"""A small library of episodes and articles with known dates, durations and words, for listing tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.feeds.subscribe import subscribe
from helpers.feed_server import rss

EPISODES = [
    {"title": "Inference at scale", "guid": "e1", "pubDate": "Fri, 01 Mar 2024 09:00:00 +0000", "duration": "30:00",
     "enclosure": "https://example.com/e1.mp3", "description": "How to serve models quickly."},
    {"title": "Quantization basics", "guid": "e2", "pubDate": "Thu, 01 Feb 2024 09:00:00 +0000", "duration": "20:00",
     "enclosure": "https://example.com/e2.mp3", "description": "Int8 and friends."},
    {"title": "Weekly roundup", "guid": "e3", "pubDate": "Mon, 01 Jan 2024 09:00:00 +0000", "duration": "10:00",
     "enclosure": "https://example.com/e3.mp3",
     "description": "This week we mention quantization in passing, among other news of the week."},
    {"title": "Undated episode", "guid": "e4", "enclosure": "https://example.com/e4.mp3", "description": "No date."},
]
ARTICLES = [
    ArticleData(title="Notes on Größe", url="https://blog.example/grosse", site="Blog",
                html="<p>Unicode words like Größe and café 🎧 and &lt;tags&gt;.</p>",
                published="2024-02-15T00:00:00+00:00", tags=["Unicode"]),
    ArticleData(title="Compilers", url="https://blog.example/compilers", site="Blog",
                html="<h2>Types</h2><p>The inference of types in compilers.</p>",
                published="2023-12-01T00:00:00+00:00"),
]
NEWEST_FIRST = ["Inference at scale", "Notes on Größe", "Quantization basics", "Weekly roundup", "Compilers",
                "Undated episode"]


@dataclass
class Library:
    """A populated library: its database and the ids of what was added, by title."""

    db: Database
    podcast_id: int
    site_id: int
    ids: dict[str, int]


def build_library(library: Database, tmp_path: Path) -> Library:
    """Fill ``library`` with EPISODES (a podcast) and ARTICLES (a site)."""
    feed = tmp_path / "podcast.xml"
    feed.write_bytes(rss("Test podcast", EPISODES))
    podcast = subscribe(library, str(feed))
    article_ids = save_articles(library, ARTICLES)
    site_id = get_item(library, article_ids[0]).source_id
    assert site_id is not None
    ids = {item.title: item.id for item in list_items(library, ItemFilter())}
    return Library(db=library, podcast_id=podcast.source_id, site_id=site_id, ids=ids)
