"""Made chapters kept in the library: made when a transcript is stored, shown where the feed names no chapters,
never over a feed's."""

from __future__ import annotations

import json
from pathlib import Path

from earmark.core.chaptering.made import item_chapters, keep_transcript
from earmark.core.chapters import cached_chapters, store_chapters
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import item_ids
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Chapter, Cue, Transcript
from helpers.feed_server import OWN_FIXTURES
from helpers.podcast import Episode, write_podcast

CUES = [Cue(a, b, text) for a, b, text in
        json.loads((OWN_FIXTURES / "spoken" / "em__seed-talks.json").read_text(encoding="utf-8"))["cues"]]


def _episode(library: Database, folder: Path) -> int:
    subscribe(library, str(write_podcast(folder / "cast", [Episode("Talks", 0.2)])))
    return item_ids(library, ItemFilter())[0]


def test_a_stored_transcript_brings_its_chapters(library: Database, tmp_path: Path) -> None:
    item_id = _episode(library, tmp_path)
    assert cached_chapters(library, item_id) is None
    keep_transcript(library, item_id, "generated:tiny.en", Transcript(CUES, "generated"))
    chapters = cached_chapters(library, item_id)
    assert chapters and len(chapters) >= 2
    assert {chapter.source for chapter in chapters} == {"made"}
    assert item_chapters(library, item_id) == chapters
    keep_transcript(library, item_id, "generated:tiny.en", Transcript(CUES[:10], "generated"))
    assert cached_chapters(library, item_id) is None  # a new, short transcript: its old chapters are gone


def test_a_feeds_chapters_win(library: Database, tmp_path: Path) -> None:
    item_id = _episode(library, tmp_path)
    keep_transcript(library, item_id, "generated:tiny.en", Transcript(CUES, "generated"))
    url = "https://example.invalid/chapters.json"
    library.execute("UPDATE items SET chapters_url = ? WHERE id = ?", [url, item_id])
    assert cached_chapters(library, item_id) is None  # named by the feed, not fetched yet: made ones stay hidden
    assert item_chapters(library, item_id) == []
    store_chapters(library, item_id, url, [Chapter(0.0, "Welcome"), Chapter(60.0, "News")])
    keep_transcript(library, item_id, "generated:tiny.en", Transcript(CUES, "generated"))
    assert cached_chapters(library, item_id) == [Chapter(0.0, "Welcome"), Chapter(60.0, "News")]
    assert item_chapters(library, item_id)[0].source == "feed"


def test_chapters_are_made_for_a_transcript_stored_before(library: Database, tmp_path: Path) -> None:
    from earmark.core.db.transcripts import store_transcript

    item_id = _episode(library, tmp_path)
    store_transcript(library, item_id, "generated:tiny.en", Transcript(CUES, "generated"))
    made = item_chapters(library, item_id)
    assert len(made) >= 2 and cached_chapters(library, item_id) == made
