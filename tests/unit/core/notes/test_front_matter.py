"""The front matter as Obsidian reads its properties: each property of one type, the author when known, and no
text property that makes a link."""

from __future__ import annotations

import re
from pathlib import Path

from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.notes import NoteFilter, add_note
from earmark.core.models import EntryData, FeedData
from earmark.core.notes.export import export_notes
from earmark.core.notes.front_matter import published_date
from helpers.markdown_structure import front_matter_of
from helpers.notes_library import EXPORTED_AT, build

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def exported(library: Database, folder: Path) -> dict[str, dict[str, object]]:
    paths = export_notes(library, "markdown", NoteFilter(), folder, now=EXPORTED_AT).paths
    return {path.name: front_matter_of(path.read_text(encoding="utf-8")) for path in paths}


def test_published_is_always_a_date(library: Database, tmp_path: Path) -> None:
    build(library)
    with write_transaction(library):  # an article page that names only its day, as most do
        [day_only] = save_articles(library, [ArticleData(title="A dated page", url="https://example.org/day",
                                                         site="Example", html="<p>Text.</p>",
                                                         published="2024-05-21")])
    add_note(library, day_only, "Worth keeping.")
    matters = exported(library, tmp_path / "vault")
    published = {name: matter["published"] for name, matter in matters.items()}
    assert published["A dated page.md"] == "2024-05-21"
    assert published["Graph capture the basics.md"] == "2024-05-06"  # was "2024-05-06T10:00:00+00:00"
    assert all(isinstance(value, str) and DATE.match(value) for value in published.values()), published


def test_published_rule() -> None:
    assert published_date("2024-05-06T23:30:00-02:00") == "2024-05-07"  # the day in UTC
    assert published_date("2024-05-06T10:00:00Z") == "2024-05-06"
    assert published_date("2024-05-21") == "2024-05-21"
    assert published_date("sometime in May") is None and published_date(None) is None


def test_author_is_the_items_else_its_podcasts(library: Database, tmp_path: Path) -> None:
    build(library)
    authors = {name: matter["author"] for name, matter in exported(library, tmp_path / "vault").items()}
    assert authors["Graph capture the basics.md"] == "Ana Lopez"  # the episode's itunes:author
    assert authors["Ünïcode slashes a “quoted” title.md"] == "The Editors"  # found by the reader
    assert authors["Lowering in depth 2.md"] == "Ana Lopez & Ben Ito"  # the podcast's host


def test_a_title_makes_no_link_in_the_front_matter(library: Database, tmp_path: Path) -> None:
    feed = FeedData(title="[[Show]]", entries=[EntryData(identity="guid:1", kind="episode", guid="1",
                                                         title='C++: "fast" #1 [[draft]] [x]', author="[[me]]")])
    add_note(library, store_feed(library, "https://example.com/feed.xml", feed).item_ids["guid:1"], "A note.")
    [matter] = exported(library, tmp_path / "vault").values()
    assert matter["title"] == 'C++: "fast" #1 \\[\\[draft\\]\\] [x]'  # "[[" as the body's heading has it
    assert (matter["source"], matter["author"]) == ("\\[\\[Show\\]\\]", "\\[\\[me\\]\\]")
    unescaped = [re.sub(r"\\.", "", value) for value in matter.values() if isinstance(value, str)]
    assert not [text for text in unescaped if "[[" in text or "]]" in text]
