"""podcast:chapters JSON: the shared fixtures, odd input, fetching over HTTP and the cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from earmark.core.chapters import (
    cached_chapters,
    chapter_index,
    fetch_chapters,
    parse_chapters,
    store_chapters,
)
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import item_ids
from earmark.core.errors import FeedError
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Chapter
from helpers.feed_server import OWN_FIXTURES, FeedServer, fixture_files, own_fixture_files
from helpers.podcast import Episode, write_podcast

JSON_FIXTURES = [p for p in fixture_files("chapters") if p.suffix == ".json"]
OWN_JSON = [p for p in own_fixture_files("chapters") if p.name != "em__truncated.json"]


@pytest.mark.parametrize("path", JSON_FIXTURES + OWN_JSON, ids=lambda p: p.name)
def test_every_chapters_fixture_parses_in_order(path: Path) -> None:
    document = json.loads(path.read_bytes())
    if not isinstance(document.get("chapters"), list):  # another tool's output, not podcast:chapters
        with pytest.raises(FeedError, match="no list of chapters"):
            parse_chapters(path.read_bytes())
        return
    chapters = parse_chapters(path.read_bytes())
    assert chapters
    assert [c.start for c in chapters] == sorted(c.start for c in chapters)
    assert all(c.title for c in chapters)


def test_the_namespace_example() -> None:
    example = next((p for p in JSON_FIXTURES if p.name.endswith("example.json")), None)
    if example is None:
        pytest.skip("the shared fixtures are not there")
    chapters = parse_chapters(example.read_bytes())
    assert chapters[0] == Chapter(0.0, "Intro")
    assert chapters[3] == Chapter(410.0, "Namespace", "https://github.com/Podcastindex-org/podcast-namespace")
    assert len(chapters) == 9


def test_the_chapters_written_here() -> None:
    chapters = parse_chapters((OWN_FIXTURES / "chapters" / "em__chapters.json").read_bytes())
    assert chapters == [Chapter(0.0, "Intro"), Chapter(95.0, "Graph colouring"),
                        Chapter(754.5, "Linear scan", "https://example.org/linear-scan"),
                        Chapter(1500.0, "Listener questions"),  # its javascript: link dropped
                        Chapter(1900.0, "Chapter 5")]  # no title: named by its number; "toc": false left out
    with pytest.raises(FeedError, match="not JSON"):
        parse_chapters((OWN_FIXTURES / "chapters" / "em__truncated.json").read_bytes())


def test_odd_entries_are_skipped_and_bad_documents_refused() -> None:
    data = """{"version": "1.2.0", "chapters": [{"startTime": 30, "title": "B"}, {"startTime": 0},
        {"title": "no start"}, {"startTime": -1, "title": "neg"}, {"startTime": true, "title": "bool"},
        {"startTime": 10, "title": "hidden", "toc": false}, {"startTime": 5, "title": "L", "url": "javascript:x"}]}"""
    assert parse_chapters(data) == [Chapter(0.0, "Chapter 1"), Chapter(5.0, "L"), Chapter(30.0, "B")]
    for bad in ("not json", "[1, 2]", '{"chapters": 3}'):
        with pytest.raises(FeedError):
            parse_chapters(bad)


def test_chapter_index_follows_the_position() -> None:
    chapters = [Chapter(2.0, "a"), Chapter(10.0, "b")]
    assert [chapter_index(chapters, p) for p in (0.0, 1.99, 2.0, 9.9, 10.0, 500.0)] == [None, 0, 0, 0, 1, 1]
    assert chapter_index([], 3.0) is None


def test_chapters_are_fetched_over_http_and_cached_per_url(library: Database, tmp_path: Path) -> None:
    subscribe(library, str(write_podcast(tmp_path / "cast", [Episode("One", 0.2)])))
    item_id = item_ids(library, ItemFilter())[0]
    with FeedServer(tmp_path) as server:
        url = server.serve_body("/ch.json", b'{"version":"1.2.0","chapters":[{"startTime":0,"title":"Hi"}]}',
                                "application/json+chapters")
        chapters = fetch_chapters(url)
    assert chapters == [Chapter(0.0, "Hi")]
    assert cached_chapters(library, item_id) is None
    library.execute("UPDATE items SET chapters_url = ? WHERE id = ?", [url, item_id])
    store_chapters(library, item_id, url, chapters)
    assert cached_chapters(library, item_id) == chapters
    library.execute("UPDATE items SET chapters_url = 'https://elsewhere/ch.json' WHERE id = ?", [item_id])
    assert cached_chapters(library, item_id) is None  # the feed names other chapters now
