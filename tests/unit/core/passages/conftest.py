"""A small library to ask: two episodes (one with a transcript) and an article, in a real library file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.transcripts import store_transcript
from earmark.core.feeds.parse import parse_feed
from earmark.core.models import Cue, Transcript

FEED = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Cast</title><link>http://example.invalid/</link>
<description>A cast</description>
<item><title>Guards</title><guid>g</guid><description>How the compiler checks what it assumed.</description>
<enclosure url="http://example.invalid/g.mp3" type="audio/mpeg" length="1"/></item>
<item><title>Strides</title><guid>s</guid><description>Strides say how a tensor's elements lie in memory, and
how views share them without copying.</description>
<enclosure url="http://example.invalid/s.mp3" type="audio/mpeg" length="1"/></item>
</channel></rss>"""
SPOKEN = ["Welcome to the show.", "Today we talk about compilers.", "First some history of the project.",
          "It started as a research effort.", "Then it grew.", "Now the main part.",
          "A guard is a check that the inputs still look as they did when the graph was traced.",
          "When a guard fails, the function is recompiled.", "That is all for today.", "Thanks for listening."]


@pytest.fixture
def asked(tmp_path: Path) -> Iterator[tuple[Database, Path, dict[str, int]]]:
    """The library (open), its path and its items' ids by title."""
    path = tmp_path / "library.db"
    db = open_library(path)
    store_feed(db, "http://example.invalid/feed.xml", parse_feed(FEED, "http://example.invalid/feed.xml"))
    save_articles(db, [ArticleData(title="Fixing cars", url="http://example.invalid/cars", site="Garage",
                                   html="<p>Changing the oil of an automobile every year keeps its engine healthy "
                                        "and the mechanic happy.</p>")])
    ids = dict((title, item_id) for item_id, title in db.execute("SELECT id, title FROM items"))
    store_transcript(db, ids["Guards"], "generated:test",
                     Transcript([Cue(n * 9.0, n * 9.0 + 8, text) for n, text in enumerate(SPOKEN)], "generated"))
    yield db, path, ids
    db.close()
