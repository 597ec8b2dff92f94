"""Every export that Earmark also imports round-trips: for libraries with hostile names, folders in folders and
notes (hypothesis), export → import into an empty library → export gives the same content. The formats: OPML,
the reading list's JSON and the backup."""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from earmark.core.articles.export import reading_list, render_reading_list
from earmark.core.articles.imports import import_entries, read_reading_list
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.tags import tags_for_sources
from earmark.core.feeds.opml import read_opml
from earmark.core.feeds.subscriptions import export_opml, import_opml
from earmark.core.notes.backup import backup_document, restore_backup, write_backup
from helpers.hostile_library import ArticleSpec, FeedSpec, feed_data, fill, libraries

EXAMPLES = settings(max_examples=int(os.environ.get("EARMARK_ROUND_TRIPS", "40")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
EXPORTED_AT = "2024-06-01T12:00:00+00:00"
_CREATED = re.compile(rb"<dateCreated>[^<]*</dateCreated>")


@contextmanager
def two_libraries() -> Iterator[tuple[Database, Database, Path]]:
    """A library to fill and an empty one to import into, and a folder for files."""
    with tempfile.TemporaryDirectory() as folder:
        first, second = open_library(Path(folder) / "first.db"), open_library(Path(folder) / "second.db")
        try:
            yield first, second, Path(folder)
        finally:
            first.close()
            second.close()


def opml_of(db: Database) -> bytes:
    return _CREATED.sub(b"", export_opml(db))  # the time of writing is not content


def subscriptions(db: Database) -> list[tuple[str, str, list[str]]]:
    """Each feed with its title and tags, as XML can hold them (no control characters: OPML drops those)."""
    tags = tags_for_sources(db)
    return sorted((url, written(title) or url, sorted(xml_safe(tag) for tag in tags.get(source_id, [])))
                  for source_id, url, title in db.execute("SELECT id, url, title FROM sources WHERE url IS NOT NULL"))


def written(title: str) -> str:
    return " ".join(xml_safe(title).split())


def xml_safe(text: str) -> str:
    return re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]", "", text)


@EXAMPLES
@given(libraries())
def test_opml_round_trip(library: tuple[list[FeedSpec], list[ArticleSpec]]) -> None:
    with two_libraries() as (first, second, _):
        fill(first, *library)
        exported = opml_of(first)
        import_opml(second, read_opml(exported, "export.opml"))
        assert opml_of(second) == exported
        assert subscriptions(second) == subscriptions(first)  # every feed, its title and its tags, nesting kept
        for number, spec in enumerate(library[0]):  # refreshed: the titles the user chose stay theirs
            store_feed(second, spec.url, feed_data(number, spec))
        chosen = {url for url, title in first.execute("SELECT url, title FROM sources WHERE user_title")
                  if written(title)}  # (those XML can hold)
        assert {url for (url,) in second.execute("SELECT url FROM sources WHERE user_title")} == chosen
        assert opml_of(second) == exported


def reading_list_json(db: Database) -> list[dict[str, object]]:
    document = json.loads(render_reading_list(reading_list(db, full=True), "json", EXPORTED_AT))
    return [{key: value for key, value in item.items() if key not in ("id", "source_id")}
            for item in document["items"]]


@EXAMPLES
@given(libraries())
def test_reading_list_json_round_trip(library: tuple[list[FeedSpec], list[ArticleSpec]]) -> None:
    with two_libraries() as (first, second, folder):
        fill(first, *library)
        path = folder / "list.json"
        path.write_text(render_reading_list(reading_list(first, full=True), "json", EXPORTED_AT), encoding="utf-8")
        if library[1]:
            import_entries(second, read_reading_list(path))
        assert reading_list_json(second) == reading_list_json(first)


@EXAMPLES
@given(libraries())
def test_backup_round_trip(library: tuple[list[FeedSpec], list[ArticleSpec]]) -> None:
    with two_libraries() as (first, second, folder):
        fill(first, *library)
        write_backup(first, folder / "backup.json", now=EXPORTED_AT)
        restore_backup(second, folder / "backup.json")
        assert backup_document(second, EXPORTED_AT) == backup_document(first, EXPORTED_AT)
        assert opml_of(second) == opml_of(first)
