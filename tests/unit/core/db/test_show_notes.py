"""Show notes kept once (issue 40): the markup stored as a pattern over the item's plain text gives back the very
markup, for the sample library's show notes and articles and for markup made to be awkward."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from earmark.cli import main
from earmark.core.db.connection import open_library
from earmark.core.db.items import get_item
from earmark.core.db.merge import store_feed
from earmark.core.db.show_notes import VERSION, markup, pack, same_markup
from earmark.core.html import search_text, to_text
from earmark.core.models import EntryData, FeedData


def test_the_sample_librarys_show_notes_come_back_exactly_and_smaller(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    assert main(["--library", str(path), "load-sample"]) == 0
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT description, content, text FROM items").fetchall()
    conn.close()
    kept = written = 0
    for description, content, text in rows:
        for stored in (description, content):
            original = markup(stored, text)
            assert pack(original, text) == stored  # what is stored is what packing gives
            kept += len(stored) if isinstance(stored, bytes) else len(stored.encode())
            written += len(original.encode())
        assert search_text(markup(description, text), markup(content, text)) == text
    assert sum(isinstance(d, bytes) for d, _c, _t in rows) >= 50 and sum(isinstance(c, bytes) for _d, c, _t in rows)
    assert kept < written / 3


def test_markup_the_text_does_not_hold_is_kept_as_it_is() -> None:
    notes = "<p>Fish &amp; chips,   twice\n over: <a href='https://example.com/a?b=1&c=2'>the menu here</a></p>"
    text = to_text(notes)
    packed = pack(notes, text)
    assert isinstance(packed, bytes) and packed.startswith(VERSION) and markup(packed, text) == notes
    assert pack("<p>short</p>", "short") == "<p>short</p>"  # nothing to gain
    assert pack(notes, "") == notes  # no text to point into
    assert pack(notes + "\0", text) == notes + "\0"
    assert pack("<p>Nothing of this is in the text at all</p>", "something else entirely") == (
        "<p>Nothing of this is in the text at all</p>")
    assert markup("<p>as written before schema 19</p>", "anything") == "<p>as written before schema 19</p>"


def test_any_markup_comes_back_exactly_whatever_the_text() -> None:
    rng = random.Random(40)
    pieces = ["<p>", "</p>", "<a href=\"x\">", "</a>", "&amp;", "&#233;", "&nbsp", "  ", "\n", "é", "Ünïcode ✓ ",
              "the same words ", "the same words again ", "<br>", "<", ">", "&", "plain text that is long enough "]
    for _case in range(3000):
        notes = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        for text in (to_text(notes), search_text(notes, notes), "the same words again " * 3, notes):
            assert markup(pack(notes, text), text) == notes


def test_a_refresh_tells_changed_show_notes_from_unchanged_ones_by_their_pattern(tmp_path: Path) -> None:
    notes = "<p>Our guest this week talks about compilers: <a href='https://example.com/a1'>her page</a></p>"

    def feed(markup_of_2: str) -> FeedData:
        return FeedData(title="Compilers Weekly", entries=[
            EntryData(identity=f"guid:{n}", kind="episode", title=f"Episode {n}",
                      description=notes if n != 2 else markup_of_2)
            for n in (1, 2, 3)])

    db = open_library(tmp_path / "library.db")
    try:
        store_feed(db, "https://example.invalid/feed.xml", feed(notes))
        assert {row[0] for row in db.execute("SELECT typeof(description) FROM items")} == {"blob"}
        assert store_feed(db, "https://example.invalid/feed.xml", feed(notes)).updated == []
        moved = notes.replace("a1", "b2")  # the same length, one link changed
        assert same_markup(pack(notes, to_text(notes)), notes) and not same_markup(pack(notes, to_text(notes)), moved)
        assert len(store_feed(db, "https://example.invalid/feed.xml", feed(moved)).updated) == 1
        assert [item.description for item in (get_item(db, n) for n in (1, 2, 3))] == [notes, moved, notes]
    finally:
        db.close()


def test_a_text_changed_by_hand_gives_the_plain_text_not_a_mix_of_old_and_new() -> None:
    markup_ = '<p>Dynamo traces <a href="https://example.com/guards">guards</a> and graph breaks in bytecode.</p>'
    text = to_text(markup_)
    packed = pack(markup_, text)
    assert isinstance(packed, bytes) and markup(packed, text) == markup_
    edited = text.replace("Dynamo traces", "Inductor lowers <loops>")  # an UPDATE of text in the sqlite3 shell
    assert markup(packed, edited) == "Inductor lowers &lt;loops&gt;" + edited.removeprefix("Inductor lowers <loops>")
    damaged = packed[:-3] + b"\xff\xfe\xfd"
    assert markup(damaged, text) == text  # nothing to escape in it: the plain text as it is
