"""What a parsing process sends back: FeedData as tuples, made back into the very same FeedData on the other side,
for every feed fixture (entries with and without search text, extras, warnings)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from earmark.core.errors import FeedError
from earmark.core.feeds.parse import parse_with_text
from earmark.core.feeds.parse_worker import packed, parse_packed, unpacked
from earmark.core.models import EntryData, FeedData
from helpers.feed_server import fixture_files, own_fixture_files

URL = "https://feeds.example.org/show/feed.xml"
FEED_FILES = fixture_files("feeds", "feeds-malformed", "hostile") + own_fixture_files("feeds")


@pytest.mark.parametrize("path", FEED_FILES, ids=[f"{p.parent.name}/{p.name}" for p in FEED_FILES])
@pytest.mark.parametrize("with_text", [True, False])
def test_a_parsed_feed_comes_back_as_it_was(path: Path, with_text: bool) -> None:
    data = path.read_bytes()
    try:
        sent = parse_packed(with_text, data, URL, None)
    except FeedError:
        return  # refused in the parsing process as in this one (the refusal itself is test_feeds.py's)
    feed = unpacked(pickle.loads(pickle.dumps(sent)))
    expected = parse_with_text(data, URL) if with_text else None
    if expected is not None:
        assert feed == expected
    assert packed(feed) == sent


def test_every_field_travels() -> None:
    entry = EntryData(identity="guid:x", kind="episode", title="T", guid="x", url="https://e/1",
                      enclosure_url="https://e/1.mp3", enclosure_type="audio/mpeg", published="2025-01-01T00:00:00Z",
                      duration=61.5, author="A", description="<p>D</p>", content="C", categories=["news"],
                      image_url="https://e/i.jpg", season=2, episode=3, episode_type="full", explicit=False,
                      chapters_url="https://e/c.json", chapters_type="application/json+chapters",
                      transcripts='[{"url": "https://e/t.vtt"}]', persons='[{"name": "P"}]',
                      remote_items='[{"feedGuid": "g"}]', enclosure_length=1234, text="D")
    feed = FeedData(title="F", link="https://e/", description="d", author="a", image_url="https://e/f.jpg",
                    entries=[entry, EntryData(identity="link:y", kind="article", title="U")], warning="w",
                    podcast_guid="g", itunes_type="serial", explicit=True, locked=False, funding='[{"url": "u"}]',
                    persons='[{"name": "Q"}]', podroll='[{"feedGuid": "h"}]')
    assert unpacked(pickle.loads(pickle.dumps(packed(feed)))) == feed


def test_the_garbage_collector_runs_again_after_a_parse_even_a_failed_one() -> None:
    import gc

    feed = b"<rss><channel><title>T</title><item><title>I</title></item></channel></rss>"
    assert gc.isenabled()
    parse_packed(True, feed, URL, None)
    assert gc.isenabled()
    with pytest.raises(FeedError):
        parse_packed(True, b"not a feed", URL, None)
    assert gc.isenabled()
    gc.disable()
    try:  # and stays off when it was off
        parse_packed(True, feed, URL, None)
        assert not gc.isenabled()
    finally:
        gc.enable()
