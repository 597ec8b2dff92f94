"""Timestamps in the Markdown export are earmark: links to that moment of the item, by a key made of what the
feed says of it: the same item in another library (a re-import, another computer) is found by the same link."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.notes import NoteFilter
from earmark.core.errors import EarmarkError
from earmark.core.models import EntryData, FeedData
from earmark.core.notes.export import export_notes
from earmark.core.notes.moment_links import find_moment, parse_moment
from helpers.markdown_structure import structure
from helpers.notes_library import EXPORTED_AT, FixedLibrary, build


@pytest.fixture
def fixed(library: Database) -> FixedLibrary:
    return build(library)


def timestamp_links(library: Database, folder: Path) -> dict[str, list[tuple[str, str]]]:
    """Each exported file's links whose text is a timestamp, by file name: (link, text)."""
    paths = export_notes(library, "markdown", NoteFilter(), folder, now=EXPORTED_AT).paths
    return {path.name: [(url, text) for url, text in structure(path.read_text(encoding="utf-8")).links
                        if text.startswith("[")] for path in paths}


def test_every_timestamp_links_to_its_moment_in_earmark(library: Database, fixed: FixedLibrary,
                                                        tmp_path: Path) -> None:
    links = timestamp_links(library, tmp_path / "vault")
    local = links["Local recording.md"]  # a local file: its timestamp was dead text
    assert len(local) == 1 and local[0][0].startswith("earmark:item/") and local[0][1] == "[00:01:00]"
    assert find_moment(library, local[0][0]) == (fixed.local, 60.0)
    basics = links["Graph capture the basics.md"]
    assert [text for _url, text in basics] == ["[00:00:05]", "[00:01:05]"]
    assert [find_moment(library, url) for url, _text in basics] == [(fixed.basics, 5.0), (fixed.basics, 65.0)]
    assert find_moment(library, links["Lowering in depth 2.md"][0][0]) == (fixed.video, 3723.0)
    text = (tmp_path / "vault" / "Graph capture the basics.md").read_text(encoding="utf-8")
    assert f"]({basics[1][0]}) ([web](https://cdn.example.com/ep1.mp3#t=65)) Dynamo traces" in text  # kept


def test_a_link_finds_the_item_in_another_library(library: Database, fixed: FixedLibrary, tmp_path: Path) -> None:
    [(url, _text)] = timestamp_links(library, tmp_path / "vault")["Lowering in depth 2.md"]
    other = open_library(tmp_path / "other.db")  # the same feed subscribed anew, after another
    try:
        store_feed(other, "https://example.com/else.xml", FeedData(title="Else", entries=[
            EntryData(identity=f"guid:{n}", kind="episode", title=f"Else {n}", guid=str(n)) for n in range(5)]))
        again = store_feed(other, "https://example.com/compiler.xml", FeedData(title="Compiler Cast", entries=[
            EntryData(identity="ep-2", kind="episode", title='Lowering "in depth" #2', guid="ep-2")]))
        item_id = again.item_ids["ep-2"]
        assert item_id != fixed.video
        assert find_moment(other, url) == (item_id, 3723.0)
    finally:
        other.close()


def test_links_that_cannot_be_opened_say_why(library: Database, fixed: FixedLibrary) -> None:
    assert parse_moment("earmark:item/0123456789ABCDEF?t=65s").seconds == 65.0
    assert parse_moment("EARMARK:item/0123456789abcdef").seconds is None  # the item, from where it was left
    assert parse_moment("earmark:item/0123456789abcdef?t=soon").seconds is None
    for bad in ("earmark:item/42?t=5", "earmark:feed/0123456789abcdef", "earmark:", "podcast:item/0123456789abcdef"):
        with pytest.raises(EarmarkError, match="not a link Earmark can open"):
            parse_moment(bad)
    with pytest.raises(EarmarkError, match="not in this library"):
        find_moment(library, "earmark:item/0123456789abcdef?t=5")
