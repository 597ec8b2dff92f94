"""The sample library shipped in resources/sample: a podcast feed with offline audio, and articles."""

from __future__ import annotations

import json
from dataclasses import field
from pathlib import Path

from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.tags import tag_item
from earmark.core.feeds.parse import parse_feed
from earmark.core.models import Cue, FeedData, Transcript
from earmark.core.package_data import resource_folder
from earmark.core.records import record
from earmark.core.sample_clips import clips_prefix

FEED_FILE = "pytorch-dev-podcast.xml"
ARTICLES_FILE = "articles.json"
# What Earmark's own engine heard in each clip (packaging/build-sample-transcripts), by the clip's file name.
TRANSCRIPTS_FILE = "transcripts.json"
TRANSCRIPTS_MODEL = "tiny.en"
# The covers drawn for the sample (packaging/build-sample-covers): the podcast's, and each site's icon.
FEED_COVER = "pytorch-dev-podcast.png"
SITE_ICONS = {"PyTorch Weekly": "pytorch-weekly.png", "PyTorch Conference 2022 notes": "pytorch-conference.png",
              "PyTorch Shanghai Meetup": "pytorch-shanghai.png"}


@record
class SampleResult:
    """How many items the sample added (or refreshed)."""

    episodes: int
    articles: int


def sample_folder() -> Path:
    """Where the installed sample library lives (a real folder: VLC plays the clips from it)."""
    return resource_folder() / "sample"


@record
class SampleData:
    """The sample library read from the package: the feed (with its file URL) and the articles."""

    feed_url: str
    feed: FeedData
    articles: list[ArticleData]
    transcripts: dict[str, list[list[object]]] = field(default_factory=dict)  # by clip file name


def read_sample() -> SampleData:
    """Read and parse the shipped sample (file and CPU work; touches no library)."""
    folder = sample_folder()
    feed_path = folder / FEED_FILE
    url = feed_path.resolve().as_uri()
    raw_articles = json.loads((folder / ARTICLES_FILE).read_text(encoding="utf-8"))
    articles = [
        ArticleData(
            title=a["title"], url=a["url"], site=a["site"], html=a["html"], author=a.get("author"),
            published=a.get("published"), tags=a.get("tags", []), site_icon=_cover(folder, SITE_ICONS.get(a["site"])),
        )
        for a in raw_articles
    ]
    feed = parse_feed(feed_path.read_bytes(), url)
    feed.image_url = feed.image_url or _cover(folder, FEED_COVER)
    heard = folder / TRANSCRIPTS_FILE
    transcripts = json.loads(heard.read_text(encoding="utf-8")) if heard.is_file() else {}
    return SampleData(url, feed, articles, transcripts)


def _cover(folder: Path, name: str | None) -> str | None:
    """The file:// address of a sample cover (fetched into the cover cache as a web cover is)."""
    path = folder / "covers" / name if name else None
    return path.resolve().as_uri() if path is not None and path.is_file() else None


def store_sample(db: Database, sample: SampleData) -> SampleResult:
    """Add the sample podcast and articles in one transaction, then the transcripts of its clips (with the chapters
    made from them); storing it twice changes nothing."""
    with write_transaction(db):
        result = store_feed(db, sample.feed_url, sample.feed)
        new = set(result.new)
        for entry in sample.feed.entries:  # tag new items only: tags the user removed stay removed
            if result.item_ids[entry.identity] in new:
                tag_item(db, result.item_ids[entry.identity], entry.categories)
        saved = save_articles(db, sample.articles)
    store_sample_transcripts(db, sample.transcripts)
    return SampleResult(episodes=len(sample.feed.entries), articles=len(saved))


def load_sample(db: Database) -> SampleResult:
    """Read and store the sample library."""
    return store_sample(db, read_sample())


def store_sample_transcripts(db: Database, heard: dict[str, list[list[object]]]) -> int:
    """Store the transcripts of the sample's clips (by file name) for the episodes that have none; returns how many."""
    from earmark.core.chaptering.made import keep_transcript
    from earmark.core.notes.transcripts import GENERATED

    prefix = clips_prefix()
    rows = db.execute("""SELECT id, enclosure_url FROM items i WHERE kind = 'episode' AND enclosure_url LIKE ? AND
                         NOT EXISTS (SELECT 1 FROM transcripts t WHERE t.item_id = i.id)""", [prefix + "%"]).fetchall()
    stored = 0
    with write_transaction(db):  # one transaction: 51 of their own wrote a WAL six times the library's size
        for item_id, url in rows:
            lines = heard.get(url[len(prefix):])
            if lines:
                cues = [Cue(float(start), float(end), str(text)) for start, end, text in lines]  # type: ignore[arg-type]
                keep_transcript(db, item_id, GENERATED + TRANSCRIPTS_MODEL, Transcript(cues, "generated"))
                stored += 1
    return stored
