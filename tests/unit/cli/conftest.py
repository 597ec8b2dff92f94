"""What the command line's tests share: a small podcast subscribed from a feed file."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.cli import Cli
from helpers.feed_server import rss

EPISODES = [
    {"title": "Compiler deep dive", "guid": "c1", "pubDate": "Fri, 01 Mar 2024 09:00:00 +0000", "duration": "45:00",
     "enclosure": "https://example.com/c1.mp3", "link": "https://example.com/c1",
     "description": "All about graph capture."},
    {"title": "Listener mail", "guid": "c2", "pubDate": "Thu, 01 Feb 2024 09:00:00 +0000",
     "enclosure": "https://example.com/c2.mp3", "description": "Questions about the compiler and more."},
]


@pytest.fixture
def podcast(tmp_path: Path, cli: Cli) -> Path:
    """A two-episode feed file, subscribed."""
    feed = tmp_path / "podcast.xml"
    feed.write_bytes(rss("CLI podcast", EPISODES))
    code, out, err = cli("subscribe", str(feed))
    assert (code, err) == (0, "")
    return feed
