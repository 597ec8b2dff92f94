"""A fixed library with notes, tags, a cached transcript and listening history: every value chosen here, no
clock in anything an export shows, so exports of it can be compared with golden files."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from earmark.core.articles.highlights import highlight_text
from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.history import record_play
from earmark.core.db.merge import store_feed
from earmark.core.db.tags import tag_item, tag_source
from earmark.core.db.transcripts import store_transcript
from earmark.core.feeds.opml import OpmlDocument, OpmlFeed
from earmark.core.feeds.subscriptions import import_opml
from earmark.core.models import Cue, EntryData, FeedData, Transcript
from earmark.core.notes.transcripts import take_note

EXPORTED_AT = "2024-06-01T12:00:00+00:00"
TRANSCRIPT = Transcript([
    Cue(60.0, 63.0, "Dynamo reads the bytecode of your function.", "Ana"),
    Cue(63.0, 67.0, "It builds an FX graph as it goes,", "Ana"),
    Cue(67.0, 70.0, "and falls back to Python where it must.", "Ana"),
], "vtt")


@dataclass(slots=True)
class FixedLibrary:
    """The ids of what ``build`` stored."""

    podcast: int
    site: int
    basics: int  # episode with a page and an http enclosure, transcript cached, three notes
    video: int  # episode whose page is a YouTube video
    local: int  # episode with a local audio file and no page
    article: int  # with a note and two highlights, one of them with a note
    untouched: int  # episode without notes


def _entry(identity: str, title: str, **fields: object) -> EntryData:
    return EntryData(identity=identity, kind="episode", title=title, guid=identity, **fields)  # type: ignore[arg-type]


def build(db: Database) -> FixedLibrary:
    """Fill an empty library with the fixed content."""
    feed = FeedData(title="Compiler Cast", link="https://example.com/", author="Ana Lopez & Ben Ito", entries=[
        _entry("ep-1", "Graph capture: the basics", url="https://example.com/ep1",
               enclosure_url="https://cdn.example.com/ep1.mp3", published="2024-05-06T10:00:00+00:00",
               duration=750.0, author="Ana Lopez",
               description='<p>How graph capture works, part one. #pt2 [[draft]]</p><p>Links:</p><ul><li><a '
                           'href="https://isocpp.org/std">the C++ standard</a></li><li><a href="/credits">Credits'
                           "</a></li></ul>"),
        _entry("ep-2", 'Lowering "in depth" #2', url="https://www.youtube.com/watch?v=abc123&t=10",
               enclosure_url="https://cdn.example.com/ep2.mp3", published="2024-05-13T10:00:00+00:00",
               duration=4000.0, description="From FX graphs to kernels."),
        _entry("ep-3", "Local recording", enclosure_url="file:///music/local.mp3",
               published="2024-04-01T10:00:00+00:00"),
        _entry("ep-4", "Nobody noted this", enclosure_url="https://cdn.example.com/ep4.mp3",
               published="2024-03-01T10:00:00+00:00"),
    ])
    with write_transaction(db):
        result = store_feed(db, "https://example.com/compiler.xml", feed)
        ids = result.item_ids
        [article] = save_articles(db, [ArticleData(
            title="Ünïcode / slashes: a “quoted” title?", url="https://weekly.example.org/issue-1",
            site="PyTorch Weekly", html="<p>Three things happened this week.</p><p>Compiled autograd landed, "
                                        "and the new CI is faster.</p>", author="The Editors",
            published="2024-05-20T08:00:00+00:00")])
        site = int(db.execute("SELECT source_id FROM items WHERE id = ?", [article]).fetchone()[0])
    tag_item(db, ids["ep-1"], ["compiler", "pt2"])
    tag_item(db, article, ["reading"])
    tag_source(db, result.source_id, ["podcasts"])
    store_transcript(db, ids["ep-1"], "https://example.com/ep1.vtt", TRANSCRIPT)
    take_note(db, ids["ep-1"], "Dynamo traces bytecode, not source.", 65.0, now="2024-05-07T08:00:00+00:00")
    take_note(db, ids["ep-1"], "Intro: why \"graphs\" at all?\nSecond line.", 5.0, now="2024-05-07T08:05:00+00:00")
    take_note(db, ids["ep-1"], "Listen again before the meetup.", None, now="2024-05-07T08:10:00+00:00")
    take_note(db, ids["ep-2"], "Inductor picks the tile sizes here.", 3723.4, now="2024-05-14T09:00:00+00:00")
    take_note(db, ids["ep-3"], "My own recording, 1 minute in.", 60.0, now="2024-04-02T10:00:00+00:00")
    take_note(db, article, "Follow the links on compiled autograd.", None, now="2024-05-21T07:30:00+00:00")
    highlight_text(db, article, "the new CI is faster", now="2024-05-21T07:40:00+00:00")
    highlight_text(db, article, "compiled autograd landed", "Try it on the big model.", now="2024-05-21T07:45:00+00:00")
    with write_transaction(db):
        for item_id, position, played, last in ((ids["ep-1"], 120.0, 0, "2024-05-07T08:10:00+00:00"),
                                                (ids["ep-2"], 0.0, 1, "2024-05-14T10:00:00+00:00")):
            db.execute("UPDATE items SET position = ?, played = ?, last_played = ? WHERE id = ?",
                       [position, played, last, item_id])
        for item_id, position, finished, when in ((ids["ep-1"], 120.0, False, datetime(2024, 5, 7, 8, 10)),
                                                  (ids["ep-2"], 4000.0, True, datetime(2024, 5, 14, 10, 0))):
            record_play(db, item_id, position, finished, now=when.replace(tzinfo=UTC))
        db.execute("UPDATE items SET added = '2024-05-20T09:00:00+00:00', position = 2 WHERE id = ?", [article])
    # A subscription from another app's list: the user's title, in a folder in a folder, a local feed file.
    import_opml(db, OpmlDocument(None, [OpmlFeed("file:///home/ana/podcasts/recordings.xml", "Ana's recordings",
                                                 ["tech", "tech/deep & nested"])], []))
    return FixedLibrary(podcast=result.source_id, site=site, basics=ids["ep-1"], video=ids["ep-2"],
                        local=ids["ep-3"], article=article, untouched=ids["ep-4"])
