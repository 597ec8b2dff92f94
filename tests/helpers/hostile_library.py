"""Hypothesis strategies for libraries with hostile names, folders in folders and notes, built through Earmark's
own functions (so that they hold only what Earmark itself can store)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from hypothesis import strategies as st

from earmark.core.articles.highlights import highlight_text
from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.notes import add_note
from earmark.core.db.tags import tag_item, tag_source
from earmark.core.feeds.opml import OpmlDocument, OpmlFeed
from earmark.core.feeds.subscriptions import import_opml
from earmark.core.models import EntryData, FeedData

# What breaks formats: markup and Markdown/CSV/spreadsheet syntax, quotes, separators, non-Latin scripts, emoji,
# right-to-left and invisible characters, no-break and odd spaces, a control character.
HOSTILE = ("#[]|*_-=+@<>&\"'`\\/,:;%$^~!(){}?.\t\n\r "
           "éÜßçñ日本語Ωиע\u202e\u200b\u00a0\u2028🎧🙂\x07")
hostile_text = st.text(alphabet=st.sampled_from(HOSTILE) | st.characters(codec="utf-8", exclude_characters="\x00"),
                       min_size=1, max_size=30)
# Titles enter Earmark single-spaced (feeds' titles are cleaned when parsed, lists' when read), and from XML or
# HTML, which cannot hold control characters.
titles = hostile_text.map(lambda text: " ".join(re.sub("[\x00-\x1f\x7f-\x9f]", "", text).split())).filter(bool)
tag_names = st.lists(st.text(alphabet=st.sampled_from("ab#,/ &+:Té日"), min_size=1, max_size=6), min_size=1,
                     max_size=3).map("/".join)  # slashes make folders in folders


@dataclass(slots=True)
class FeedSpec:
    """A subscription: its address, title (the user's, or the feed's), tags, and episodes' notes."""

    url: str
    title: str
    user_title: bool
    tags: list[str]
    notes: list[str]


@dataclass(slots=True)
class ArticleSpec:
    """A saved article: its paragraphs, site, tags, state, notes and which paragraph starts are highlighted."""

    url: str
    title: str
    site: str
    paragraphs: list[str]
    tags: list[str]
    state: tuple[bool, bool, bool, bool, float]  # read, archived, favourite, images allowed, position
    notes: list[str] = field(default_factory=list)
    highlights: list[tuple[int, str]] = field(default_factory=list)  # (paragraph, note)


@st.composite
def feed_specs(draw: st.DrawFn, number: int) -> FeedSpec:
    local = draw(st.booleans())
    name = draw(st.text(alphabet=st.sampled_from("ab é#%&?;[]"), min_size=1, max_size=8))
    url = (PurePosixPath(f"/tmp/feeds/{number}/{name}.xml").as_uri() if local  # as `subscribe` stores a file
           else f"https://feed{number}.example/rss?n={number}")
    return FeedSpec(url, draw(titles), draw(st.booleans()), draw(st.lists(tag_names, max_size=4)),
                    draw(st.lists(hostile_text, max_size=2)))


@st.composite
def article_specs(draw: st.DrawFn, number: int) -> ArticleSpec:
    paragraphs = [f"P{n} {text}" for n, text in enumerate(draw(st.lists(titles, min_size=1, max_size=3)))]
    highlights = draw(st.lists(st.tuples(st.integers(0, len(paragraphs) - 1), hostile_text | st.just("")),
                               max_size=2, unique_by=lambda h: h[0]))
    state = draw(st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans(),
                           st.floats(0, 3600, allow_nan=False).map(lambda f: round(f, 1))))
    return ArticleSpec(f"https://site{number}.example/a?x={number}", draw(titles), draw(titles), paragraphs,
                       draw(st.lists(tag_names, max_size=3)), state, draw(st.lists(hostile_text, max_size=2)),
                       highlights)


@st.composite
def libraries(draw: st.DrawFn) -> tuple[list[FeedSpec], list[ArticleSpec]]:
    feeds = [draw(feed_specs(n)) for n in range(draw(st.integers(0, 4)))]
    articles = [draw(article_specs(n)) for n in range(draw(st.integers(0, 3)))]
    return feeds, articles


def feed_data(number: int, spec: FeedSpec) -> FeedData:
    """What the feed of a spec says: its own title (not the user's) and two episodes."""
    entries = [EntryData(identity=f"guid:{number}-{n}", kind="episode", title=f"Episode {n}", guid=f"{number}-{n}",
                         enclosure_url=f"https://cdn.example/{number}/{n}.mp3") for n in range(2)]
    return FeedData(title=f"Feed's own {number}" if spec.user_title else spec.title, entries=entries)


def fill(db: Database, feeds: list[FeedSpec], articles: list[ArticleSpec]) -> None:
    """Store the specs in an empty library the way a person's actions would."""
    for number, spec in enumerate(feeds):
        if spec.user_title:  # from another app's list, refreshed since
            import_opml(db, OpmlDocument(None, [OpmlFeed(spec.url, spec.title)], []))
        result = store_feed(db, spec.url, feed_data(number, spec))
        tag_source(db, result.source_id, spec.tags)
        for text in spec.notes:
            if text.strip():
                add_note(db, result.item_ids[f"guid:{number}-0"], text, 12.5)
    for article in articles:
        body = "".join(f"<p>{html.escape(paragraph)}</p>" for paragraph in article.paragraphs)
        [item_id] = save_articles(db, [ArticleData(title=article.title, url=article.url, site=article.site, html=body)])
        tag_item(db, item_id, article.tags)
        read, archived, favourite, images, position = article.state
        with write_transaction(db):
            db.execute("UPDATE items SET played = ?, archived = ?, favourite = ?, images_allowed = ?, position = ?, "
                       "last_played = '2024-01-02T03:04:05+00:00' WHERE id = ?",
                       [read, archived, favourite, images, position, item_id])
        for text in article.notes:
            if text.strip():
                add_note(db, item_id, text)
        for paragraph, note in article.highlights:
            highlight_text(db, item_id, article.paragraphs[paragraph].split(" ", 1)[0], note)
