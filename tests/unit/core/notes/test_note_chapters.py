"""A timed note names its chapter in the Markdown export: the feed's chapters when it gives some, else those
Earmark made from the transcript (the seed talks heard by the engine)."""

from __future__ import annotations

import json

from earmark.core.chaptering.made import keep_transcript
from earmark.core.chapters import store_chapters
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.notes import NoteFilter, add_note
from earmark.core.models import Chapter, Cue, EntryData, FeedData, Transcript
from earmark.core.notes.collect import collect
from earmark.core.notes.markdown import render_markdown
from helpers.feed_server import OWN_FIXTURES
from helpers.markdown_structure import structure

CUES = [Cue(a, b, text) for a, b, text in
        json.loads((OWN_FIXTURES / "spoken" / "em__seed-talks.json").read_text(encoding="utf-8"))["cues"]]


def _episode(db: Database) -> int:
    feed = FeedData(title="Talks", entries=[EntryData(identity="guid:day", kind="episode", title="Conference day",
                                                      guid="day", enclosure_url="https://cdn.example.com/day.mp3")])
    return store_feed(db, "https://example.com/feed.xml", feed).item_ids["guid:day"]


def test_timed_notes_name_their_made_chapter(library: Database) -> None:
    item_id = _episode(library)
    keep_transcript(library, item_id, "generated:tiny.en", Transcript(CUES, "generated"))
    add_note(library, item_id, "first thought", at=30.0)
    add_note(library, item_id, "near the end", at=CUES[-1].start)
    add_note(library, item_id, "on the whole talk")
    [item] = collect(library, NoteFilter())
    first, last = item.chapters[0].title, item.chapters[-1].title
    assert first != last and item.chapters[-1].source == "made"
    text = render_markdown(item, "2024-06-01T10:00:00Z")
    assert f"*{first}:* first thought" in text
    assert f"*{last}:* near the end" in text
    assert "- on the whole talk" in text
    assert structure(text)  # still only Earmark's own structure: parses


def test_a_feeds_chapter_names_the_note(library: Database) -> None:
    item_id = _episode(library)
    url = "https://example.com/chapters.json"
    library.execute("UPDATE items SET chapters_url = ? WHERE id = ?", [url, item_id])
    store_chapters(library, item_id, url, [Chapter(0.0, "Welcome"), Chapter(60.0, "News *and* [[links]]")])
    keep_transcript(library, item_id, "generated:tiny.en", Transcript(CUES, "generated"))
    add_note(library, item_id, "late", at=90.0)
    text = render_markdown(collect(library, NoteFilter())[0], "2024-06-01T10:00:00Z")
    assert r"*News \*and\* \[\[links\]\]:* late" in text
