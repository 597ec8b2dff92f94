"""The Markdown export as Obsidian and Logseq read it: parsed by a real CommonMark parser (markdown-it-py), the
only structure is Earmark's own (its headings, timestamp links, show-note links, lists and quotes); titles, show
notes and notes are text, whatever they hold; tags are tags those apps accept, the podcast's included."""

from __future__ import annotations

import html
from pathlib import Path
from urllib.parse import unquote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.notes import NoteFilter, add_note
from earmark.core.db.tags import tag_item, tag_source
from earmark.core.models import EntryData, FeedData
from earmark.core.notes.collect import collect
from earmark.core.notes.export import export_notes
from earmark.core.notes.markdown import render_markdown
from earmark.core.notes.note_tags import note_tag
from earmark.core.notes.show_notes import SUMMARY_CHARS, summary_markdown
from helpers.cli import Cli
from helpers.feed_server import FeedServer
from helpers.hostile_library import hostile_text
from helpers.markdown_structure import OBSIDIAN_TAG_VALUE, structure

TITLE = 'C++: "fast" #1 [[draft]]'
SHOW_NOTES = ("<p>We read #pytorch docs and [[Secret]] pages, ==marked== %%hidden%% $x^2$ {{macro}} ((ref)) "
              "key:: value.</p><p>---</p><p>* starred</p><p>1. not a list</p><p># not a heading</p>"
              "<p>&gt; not a quote &amp;amp; <code>`ticks`</code></p>"
              '<p>Links:</p><ul><li><a href="https://isocpp.org/std">the C++ standard</a></li>'
              '<li><a href="https://example.com/a_(b)?c=d e">odd * address</a></li>'
              '<li><a href="javascript:alert(1)">no script</a></li></ul>')
NOTES = ["---", "# not a heading", "* not a list", "> not a quote", "[[Secret]] and #tag", "=1+1",
         "first line\n\n- second paragraph, not a list\n===", "see https://example.com/x_y and <b>bold</b>"]
TAGS = ["café talk", "c++", "project:x", "2024", "tech/deep & nested"]


def hostile_episode(db: Database) -> int:
    feed = FeedData(title="Show #1", entries=[EntryData(
        identity="guid:ep-42", kind="episode", title=TITLE, guid="ep-42", url="https://example.com/ep",
        enclosure_url="https://cdn.example.com/ep.mp3", description=SHOW_NOTES)])
    result = store_feed(db, "https://example.com/feed.xml", feed)
    item_id = result.item_ids["guid:ep-42"]
    tag_item(db, item_id, TAGS)
    tag_source(db, result.source_id, ["podcasts", "c#"])
    for number, text in enumerate(NOTES):
        add_note(db, item_id, text, at=None if number % 2 else 60.0 * number, quote="[[q]] #q" if number == 2 else "")
    return item_id


def test_hostile_titles_show_notes_and_notes_are_text(library: Database, tmp_path: Path) -> None:
    hostile_episode(library)
    [path] = export_notes(library, "markdown", NoteFilter(), tmp_path / "vault").paths
    found = structure(path.read_text(encoding="utf-8"))

    assert found.headings == [(1, TITLE), (2, "Notes")]
    assert found.tags == [] and found.wiki_links == [] and found.other_syntax == []
    assert "hr" not in found.blocks and "html_block" not in found.blocks and "code_block" not in found.blocks
    assert found.blocks.count("blockquote_open") == 1  # the transcript quote of note 2, Earmark's own
    assert found.blocks.count("bullet_list_open") == 2  # the show notes' list of links, and the notes
    links = {text: unquote(url) for url, text in found.links if text != "web"}
    assert links.pop("the C++ standard") == "https://isocpp.org/std"
    assert links.pop("odd * address") == "https://example.com/a_(b)?c=d e"
    assert links.pop("https://example.com/x_y") == "https://example.com/x_y"
    assert {text for text in links} == {"[00:00:00]", "[00:02:00]", "[00:04:00]", "[00:06:00]"}  # timestamps
    assert all(url.startswith("earmark:item/") for url in links.values())  # that moment in Earmark
    assert [url for url, text in found.links if text == "web"] == [f"https://cdn.example.com/ep.mp3#t={t}"
                                                                    for t in (0, 120, 240, 360)]  # and the audio
    for text in ("no script", "---", "* starred", "1. not a list", "# not a heading", "> not a quote &amp;",
                 "`ticks`", "=1+1", "- second paragraph, not a list", "<b>bold</b>", "#pytorch", "[[Secret]]",
                 "==marked== %%hidden%% $x^2$ {{macro}} ((ref)) key:: value."):
        assert text in found.shown, text


def test_front_matter_tags_are_obsidian_tags_with_the_podcasts(library: Database,
                                                              tmp_path: Path) -> None:
    hostile_episode(library)
    [path] = export_notes(library, "markdown", NoteFilter(), tmp_path / "vault").paths
    tags_line = next(line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("tags: "))
    tags = eval(tags_line.removeprefix("tags: "))  # a JSON list (checked as YAML by test_export.py)
    assert tags == ["_2024", "c-plus-plus", "c-sharp", "café-talk", "podcasts", "project-x", "tech/deep-and-nested"]
    assert all(OBSIDIAN_TAG_VALUE.match(tag) for tag in tags)


def test_tag_rule() -> None:
    assert [note_tag(name) for name in ("café talk", "c++", "project:x", "2024", "tech/deep & nested", "a//b/",
                                        "#", "!!!", "日本語", "r&d", "x—y", "12/34")] == [
        "café-talk", "c-plus-plus", "project-x", "_2024", "tech/deep-and-nested", "a/b", "sharp", None, "日本語",
        "r-and-d", "x-y", "_12/34"]


HREFS = ["https://example.com/a b(c)_d", "javascript:alert(1)", "mailto:ana@example.com", "/relative#x", ""]
show_notes_html = st.lists(st.tuples(hostile_text, st.sampled_from(HREFS), st.sampled_from(["p", "li", "h2"])),
                           max_size=4).map(lambda parts: "".join(
                               f"<{tag}><a href='{html.escape(href)}'>{html.escape(text)}</a></{tag}>" if href
                               else f"<{tag}>{html.escape(text)}</{tag}>" for text, href, tag in parts))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(title=hostile_text, show_notes=hostile_text | show_notes_html,
       notes=st.lists(hostile_text, min_size=1, max_size=3), tags=st.lists(hostile_text, max_size=3))
def test_any_text_stays_text(library: Database, title: str, show_notes: str, notes: list[str],
                             tags: list[str]) -> None:
    library.execute("DELETE FROM sources")
    result = store_feed(library, "https://example.com/feed.xml", FeedData(title="Show", entries=[EntryData(
        identity="guid:1", kind="episode", title=title, guid="1", description=show_notes,
        url="https://example.com/ep", enclosure_url="https://cdn.example.com/1.mp3")]))
    item_id = result.item_ids["guid:1"]
    tag_item(library, item_id, tags)
    kept = [text for text in notes if text.strip()]
    for text in kept:
        add_note(library, item_id, text, at=5.0)
    if not kept:
        return
    [item] = collect(library, NoteFilter())
    found = structure(render_markdown(item, "2024-06-01T12:00:00+00:00"))

    assert [level for level, _ in found.headings] == [1, 2]  # the title, then "Notes"
    assert found.tags == [] and found.wiki_links == [] and found.other_syntax == []
    assert not {"hr", "html_block", "code_block", "fence", "blockquote_open"} & set(found.blocks)
    written = unquote(show_notes + " ".join(kept))
    for url, _ in found.links:
        assert url.startswith(("https://cdn.example.com/1.mp3#t=5", "earmark:item/")) \
            or unquote(url).split("://")[-1] in written \
            or unquote(url) == "https://example.com/relative#x"
    shown = " ".join(found.shown.split())
    assert " ".join(title.split()) in shown
    for text in kept:
        assert " ".join(text.split()) in shown


def test_an_item_without_a_link_gets_no_address_made_from_its_guid(cli: Cli, feed_server: FeedServer,
                                                                    tmp_path: Path) -> None:
    feed = (b'<?xml version="1.0"?><rss version="2.0"><channel><title>Guids</title><link>https://example.com/</link>'
            b"<item><title>Only a guid</title><guid>ep-42</guid>"
            b'<enclosure url="https://cdn.example.com/42.mp3" type="audio/mpeg"/></item>'
            b"<item><title>A permalink guid</title><guid>https://example.com/posts/43</guid>"
            b'<enclosure url="https://cdn.example.com/43.mp3" type="audio/mpeg"/></item></channel></rss>')
    url = feed_server.serve_body("/guids.xml", feed)
    assert cli("subscribe", url)[0] == 0
    items = {item["title"]: item for item in cli.json("list")}
    assert items["Only a guid"]["url"] is None  # not http://127.0.0.1:…/ep-42
    assert items["A permalink guid"]["url"] == "https://example.com/posts/43"
    assert cli("note", str(items["Only a guid"]["id"]), "Worth it")[0] == 0
    assert cli("export-notes", "--format", "markdown", "--out", str(tmp_path / "vault"))[0] == 0
    text = (tmp_path / "vault" / "Only a guid.md").read_text(encoding="utf-8")
    assert 'url: "https://cdn.example.com/42.mp3"' in text and "ep-42" not in text  # the audio, a real address


def test_show_notes_summary_keeps_whole_blocks_and_cuts_one_long_paragraph() -> None:
    long = "word " * 150  # 750 characters
    cut = structure(summary_markdown(f'<p><a href="https://example.com/a">start</a> {long}</p><p>Never shown.</p>'))
    [text] = cut.text
    assert cut.links == [("https://example.com/a", "start")]
    assert text.endswith("…") and len(text) == SUMMARY_CHARS and "Never shown" not in cut.shown
    whole = structure(summary_markdown("<p>First.</p><p>Links:</p><ol><li><a href='https://a.example/'>A</a></li>"
                                       "<li>B</li></ol><p>" + "x" * 490 + "</p>"))
    assert whole.text == ["First.", "Links:", "A", "B"]  # the list whole; the long paragraph would pass 500
    assert whole.blocks.count("ordered_list_open") == 1
