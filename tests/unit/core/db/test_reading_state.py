"""Reading an article: progress and reading time, read, archived, Continue Reading, highlights anchored to their
text (found again after re-rendering, searchable), the commands for them, the schema upgrade, and blog feeds
whose items are articles."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from earmark.core.articles.anchor import find_text, locate, make_anchor
from earmark.core.articles.highlights import highlight_text
from earmark.core.articles.readtime import reading_minutes, reading_seconds
from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, item_ids, list_items, mark_played
from earmark.core.db.migrations import MIGRATIONS, m007_reading_list
from earmark.core.db.notes import delete_note, highlights_for_item, put_back_note, update_note
from earmark.core.db.reading import article_state, save_reading_progress, set_archived
from earmark.core.db.sources import feed_targets
from earmark.core.errors import EarmarkError, NotFoundError
from earmark.core.feeds.refresh import Refresher
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Anchor
from helpers.cli import Cli
from helpers.feed_server import FeedServer
from helpers.reading import PAGES

TEXT = ("Guards are cheap. They run before every call. Guards are cheap, and the cache keeps the graphs. "
        "When a guard fails, Dynamo recompiles.")
WORDS_230 = " ".join(["word"] * 230)


def article(library: Database, title: str, html: str = f"<p>{WORDS_230}</p>") -> int:
    return save_articles(library, [ArticleData(title, f"https://blog.example/{title}", "Blog", html)])[0]


def test_reading_time_is_the_articles_duration() -> None:
    assert reading_seconds(WORDS_230) == 60.0
    assert reading_seconds("two words") == 1.0 and reading_seconds("  ") is None
    assert (reading_minutes(600.0), reading_minutes(20.0), reading_minutes(None)) == ("10 min read",
                                                                                     "under a minute", "")


def test_progress_is_kept_as_a_share_of_the_reading_time(library: Database) -> None:
    item_id = article(library, "guards")
    assert get_item(library, item_id).duration == 60.0
    assert save_reading_progress(library, item_id, 0.5) is False
    item = get_item(library, item_id)
    assert (item.position, item.played) == (30.0, False) and item.last_played is not None
    assert article_state(library, item_id).progress == 0.5
    assert save_reading_progress(library, item_id, 1.0) is True  # the end: read, and starts over next time
    assert (get_item(library, item_id).position, article_state(library, item_id).read) == (0.0, True)
    with pytest.raises(NotFoundError):
        save_reading_progress(library, 999, 0.5)


def test_continue_reading_read_and_archive(library: Database) -> None:
    first, second, third = (article(library, name) for name in ("first", "second", "third"))
    save_reading_progress(library, first, 0.3)
    save_reading_progress(library, second, 0.6)
    library.execute("UPDATE items SET last_played = '2024-01-01T00:00:00+00:00' WHERE id = ?", [first])
    continue_reading = ItemFilter(kind="article", state="in_progress", archived=False, sort="last_played")
    assert item_ids(library, continue_reading) == [second, first]  # most recently read first
    set_archived(library, [second], True)
    assert item_ids(library, continue_reading) == [first]
    assert item_ids(library, ItemFilter(archived=True)) == [second]
    assert sorted(item_ids(library, ItemFilter(archived=False))) == [first, third]
    mark_played(library, [first], True)
    assert item_ids(library, continue_reading) == []
    assert item_ids(library, ItemFilter(kind="article", state="played")) == [first]
    mark_played(library, [first], False)
    assert article_state(library, first).read is False
    with pytest.raises(NotFoundError):
        set_archived(library, [404], True)


@pytest.mark.parametrize("rendered", [
    TEXT,
    TEXT.replace(". ", ".\n\n"),  # another renderer breaks the paragraphs
    "Title of the page\n\n" + TEXT.replace("  ", " ") + "\n\nFooter",  # with more around it
])
def test_a_highlight_is_found_again_by_its_quote_and_context(rendered: str) -> None:
    second = TEXT.index("Guards are cheap, and")
    quote, anchor = make_anchor(TEXT, second, second + len("Guards are cheap"))
    assert quote == "Guards are cheap" and anchor.prefix == "re cheap. They run before every call. "[-32:]
    span = locate(rendered, quote, anchor)
    assert span is not None and rendered[span[0]:span[1]] == "Guards are cheap"
    assert span[0] == rendered.index("Guards are cheap, and")  # the second one, by its context


def test_a_highlight_whose_text_is_gone_is_not_found() -> None:
    quote, anchor = make_anchor(TEXT, 0, 17)
    assert locate("Completely different text.", quote, anchor) is None
    assert locate(TEXT, "   ", anchor) is None
    assert find_text(TEXT, "GUARDS ARE\n cheap") == (0, 16)
    assert find_text(TEXT, "not there") is None


def test_highlights_are_notes_with_an_optional_note_searchable_and_undoable(library: Database) -> None:
    item_id = article(library, "guards", f"<p>{TEXT}</p>")
    plain = highlight_text(library, item_id, "when a guard fails")
    noted = highlight_text(library, item_id, "the cache keeps the graphs", "Why it is fast")
    assert (plain.quote, plain.text, plain.is_highlight) == ("When a guard fails", "", True)
    assert [h.id for h in highlights_for_item(library, item_id)] == [noted.id, plain.id]  # in the text's order
    assert [i.id for i in list_items(library, ItemFilter(text="recompiles"))] == [item_id]
    library.execute("UPDATE items SET own_text = '' WHERE id = ?", [item_id])  # only the highlights say it now
    assert [i.id for i in list_items(library, ItemFilter(text="graphs"))] == [item_id]
    assert update_note(library, noted.id, "").text == ""  # a highlight's note may be emptied
    gone = delete_note(library, noted.id)
    assert list_items(library, ItemFilter(text="graphs")) == []
    assert put_back_note(library, gone).anchor == noted.anchor  # undo brings the anchor back
    assert [i.id for i in list_items(library, ItemFilter(text="graphs"))] == [item_id]
    with pytest.raises(EarmarkError, match="“not in here” is not in the text of “guards”"):
        highlight_text(library, item_id, "not in here")


def test_the_highlight_and_state_commands(cli: Cli, page_server: FeedServer) -> None:
    code, out, err = cli("add-article", page_server.url("messy.html"), "--tag", "compilers", "--json")
    assert code == 0, err
    [saved] = json.loads(out)
    assert saved["title"] == "How TorchDynamo guards decide when to recompile" and saved["tags"] == ["compilers"]
    assert saved["reading_time"] == saved["duration"] and saved["fetch_problem"] is None
    item = str(saved["id"])
    code, out, _err = cli("highlight", item, "guards are evaluated before each call", "--note", "keep them cheap")
    assert code == 0 and out.startswith("Highlighted in “How TorchDynamo guards decide when to recompile”: “Guards")
    [note] = cli.json("notes")
    assert note["quote"] == "Guards are evaluated before each call" and note["text"] == "keep them cheap"
    assert note["highlight"]["start"] > 0
    assert cli("highlight", item, "words that are not there")[0] == 1
    assert cli("mark-played", item)[0] == 0  # an article played is read
    assert cli.json("list", "--kind", "article")[0]["played"] is True
    assert cli("archive", item)[1] == "1 article archived.\n"
    assert [i["id"] for i in cli.json("list", "--archived")] == [saved["id"]]
    assert cli.json("list", "--unarchived") == []
    cli("unarchive", item)
    cli("mark-unplayed", item)
    assert [i["id"] for i in cli.json("list", "--unarchived", "--state", "unplayed")] == [saved["id"]]
    code, _out, err = cli("archive", "999")
    assert (code, err) == (1, "earmark: There is no item with id 999.\n")


def test_add_article_says_what_it_could_not_do(cli: Cli, page_server: FeedServer) -> None:
    missing = page_server.serve_status("/missing", 404)
    code, out, err = cli("add-article", missing)
    assert code == 0, err  # saved, as its link
    assert out.startswith(f"Saved {missing} as a link (article 1): {missing} answered with HTTP error 404")
    code, _out, err = cli("add-article", page_server.url("blog.atom"))
    assert code == 1 and "is a feed, not an article: subscribe to it instead" in err
    code, _out, err = cli("add-article", "ftp://example.com/x")
    assert code == 1 and "only http, https and local files are supported" in err
    assert len(cli.json("list")) == 1


def test_a_library_from_before_the_reading_list_is_upgraded(library_file: Path) -> None:
    raw = sqlite3.connect(library_file)
    position = MIGRATIONS.index(m007_reading_list)
    for migration in MIGRATIONS[:position]:  # the library as the previous version left it
        migration(raw)
    raw.execute(f"PRAGMA user_version = {position}")
    raw.execute("INSERT INTO items (kind, identity, title, text, added) VALUES ('article', 'a', 'Old', ?, 'then')",
                [f"{WORDS_230}\n{WORDS_230}"])
    raw.commit()
    raw.close()
    db = open_library(library_file)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    [old] = list_items(db, ItemFilter())
    assert old.duration == 120.0  # its reading time, from its words
    assert article_state(db, old.id).archived is False
    db.execute("UPDATE items SET content = ? WHERE id = ?", [f"<p>{WORDS_230}</p>", old.id])
    highlight_text(db, old.id, "word word")
    db.execute("UPDATE items SET own_text = '' WHERE id = ?", [old.id])
    assert [i.id for i in list_items(db, ItemFilter(text="word"))] == [old.id]  # found by its highlight
    db.close()


def test_a_blog_feed_without_enclosures_is_a_site_of_articles_refreshed_like_podcasts(
        library: Database, feed_server: FeedServer) -> None:
    atom = (PAGES / "blog.atom").read_bytes()
    url = feed_server.serve_feed("/blog.atom", atom, content_type="application/atom+xml")
    result = subscribe(library, url)
    items = list_items(library, ItemFilter(source_id=result.source_id))
    assert [(i.kind, i.title) for i in items] == [("article", "FX graphs by example"),
                                                  ("article", "How TorchDynamo guards decide when to recompile")]
    assert all(i.duration and i.enclosure_url is None for i in items)  # reading times, nothing to play
    assert list_items(library, ItemFilter(kind="episode")) == []
    source_kind = library.execute("SELECT kind FROM sources WHERE id = ?", [result.source_id]).fetchone()[0]
    assert source_kind == "site"
    newer = atom.replace(b"<entry>", b"<entry><title>Inside Inductor</title><id>urn:uuid:notebook-inductor</id>"
                         b"<link href='https://notebook.example/posts/inductor'/>"
                         b"<updated>2024-03-19T09:00:00Z</updated><content type='html'>&lt;p&gt;Inductor lowers "
                         b"FX graphs to Triton kernels.&lt;/p&gt;</content></entry><entry>", 1)
    feed_server.serve_feed("/blog.atom", newer, content_type="application/atom+xml")
    with Refresher() as refresher:
        [outcome] = refresher.refresh(library, feed_targets(library, [result.source_id]))
    assert outcome.status == "ok" and len(outcome.new) == 1
    [inductor] = [get_item(library, item_id) for item_id in outcome.new]
    assert (inductor.kind, inductor.title, inductor.duration) == ("article", "Inside Inductor", 2.0)


def test_an_anchor_can_be_damaged_without_losing_the_highlight(library: Database) -> None:
    item_id = article(library, "guards", f"<p>{TEXT}</p>")
    note = highlight_text(library, item_id, "the cache keeps the graphs")
    library.execute("UPDATE notes SET anchor = '{broken' WHERE id = ?", [note.id])
    [damaged] = highlights_for_item(library, item_id)
    assert damaged.anchor == Anchor("", "", 0) and locate(TEXT, damaged.quote, damaged.anchor) is not None
