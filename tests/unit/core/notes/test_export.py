"""Exports of a fixed library compared with golden files, and what note tools need from each format.

Set EARMARK_UPDATE_GOLDEN=1 to rewrite the golden files after an intended change (then review the diff).
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from earmark.core.articles.export import reading_list, render_reading_list
from earmark.core.db.database import Database
from earmark.core.db.notes import NoteFilter, add_note
from earmark.core.errors import UnreachableError
from earmark.core.feeds.subscriptions import export_opml
from earmark.core.notes.collect import collect
from earmark.core.notes.export import READWISE_HEADER, export_history, export_notes
from earmark.core.notes.files import safe_name
from earmark.core.notes.front_matter import yaml_value
from earmark.core.notes.markdown import stamp, timestamp_url
from helpers.notes_library import EXPORTED_AT, FixedLibrary, build

GOLDEN = Path(__file__).parent / "golden" / "notes"
UPDATE = os.environ.get("EARMARK_UPDATE_GOLDEN") == "1"


@pytest.fixture
def fixed(library: Database) -> FixedLibrary:
    return build(library)


def compare(actual: Path, golden: Path) -> None:
    """``actual`` (a file or a folder of files) equals ``golden`` byte for byte."""
    if UPDATE:
        if golden.is_dir():
            shutil.rmtree(golden)
        golden.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if actual.is_dir() else shutil.copyfile)(actual, golden)
    if actual.is_dir():
        assert sorted(p.name for p in actual.iterdir()) == sorted(p.name for p in golden.iterdir())
        for path in actual.iterdir():
            compare(path, golden / path.name)
        return
    assert actual.read_text(encoding="utf-8") == golden.read_text(encoding="utf-8"), f"{actual.name} differs"


@pytest.mark.parametrize("fmt, name", [("markdown", "markdown"), ("json", "notes.json"), ("csv", "readwise.csv")])
def test_each_note_format_matches_its_golden_file(library: Database, fixed: FixedLibrary,
                                                  tmp_path: Path, fmt: str, name: str) -> None:
    result = export_notes(library, fmt, NoteFilter(), tmp_path / name, now=EXPORTED_AT)  # type: ignore[arg-type]
    assert (result.items, result.notes) == (4, 8)  # two of them highlights
    compare(tmp_path / name, GOLDEN / name)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_history_formats_match_their_golden_files(library: Database, fixed: FixedLibrary,
                                                  tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"history.{fmt}"
    assert export_history(library, fmt, NoteFilter(), out, now=EXPORTED_AT) == 2  # type: ignore[arg-type]
    compare(out, GOLDEN / out.name)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_reading_list_formats_match_their_golden_files(library: Database, fixed: FixedLibrary,
                                                       tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"reading-list.{fmt}"
    out.write_text(render_reading_list(reading_list(library, full=True), fmt, EXPORTED_AT), encoding="utf-8")  # type: ignore[arg-type]
    compare(out, GOLDEN / out.name)


def test_opml_matches_its_golden_file(library: Database, fixed: FixedLibrary, tmp_path: Path) -> None:
    out = tmp_path / "subscriptions.opml"
    created = re.compile(rb"<dateCreated>[^<]*</dateCreated>")  # the time of writing
    out.write_bytes(created.sub(b"<dateCreated>Sat, 01 Jun 2024 12:00:00 GMT</dateCreated>", export_opml(library)))
    compare(out, GOLDEN / out.name)


def parse_front_matter(text: str) -> dict[str, object]:
    """A strict reader of the YAML subset the export writes: ``key: <JSON value>`` lines between ``---``.
    JSON is YAML (1.2), so what this accepts is valid YAML with the same values."""
    assert text.startswith("---\n")
    head, _, _ = text[4:].partition("\n---\n")
    values: dict[str, object] = {}
    for line in head.splitlines():
        key, sep, raw = line.partition(": ")
        assert sep and key.replace("-", "").isalpha() and key.islower(), line
        values[key] = json.loads(raw)
    return values


def test_markdown_front_matter_re_parses_with_every_field(library: Database, fixed: FixedLibrary,
                                                          tmp_path: Path) -> None:
    result = export_notes(library, "markdown", NoteFilter(), tmp_path / "vault", now=EXPORTED_AT)
    matters = {path.name: parse_front_matter(path.read_text(encoding="utf-8")) for path in result.paths}
    basics = matters["Graph capture the basics.md"]
    assert basics == {
        "title": "Graph capture: the basics", "source": "Compiler Cast", "author": "Ana Lopez",
        "url": "https://example.com/ep1", "published": "2024-05-06", "duration": "00:12:30",
        "tags": ["compiler", "podcasts", "pt2"],
        "exported-at": EXPORTED_AT, "earmark-id": fixed.basics,
    }
    article = matters["Ünïcode slashes a “quoted” title.md"]
    assert article["title"] == "Ünïcode / slashes: a “quoted” title?" and article["duration"] is None
    assert matters['Lowering in depth 2.md']["title"] == 'Lowering "in depth" #2'


def test_yaml_reader_refuses_what_yaml_would_misread() -> None:
    with pytest.raises((AssertionError, ValueError)):
        parse_front_matter("---\ntitle: Graph: capture\n---\n")


def test_bullets_link_each_timestamp_to_the_audio_at_that_time(library: Database, fixed: FixedLibrary,
                                                               tmp_path: Path) -> None:
    export_notes(library, "markdown", NoteFilter(), tmp_path, now=EXPORTED_AT)
    basics = (tmp_path / "Graph capture the basics.md").read_text(encoding="utf-8")
    assert "- [\\[00:01:05\\]](earmark:item/d2a1c8a0618ae1db?t=65) ([web](https://cdn.example.com/ep1.mp3#t=65)) " \
           "Dynamo traces bytecode, not source.\n" in basics
    assert "  > Dynamo reads the bytecode of your function. It builds an FX graph as it goes," in basics
    assert basics.index("[00:00:05") < basics.index("[00:01:05") < basics.index("- Listen again")
    video = (tmp_path / "Lowering in depth 2.md").read_text(encoding="utf-8")
    assert "(https://www.youtube.com/watch?v=abc123&t=3723s)" in video
    local = (tmp_path / "Local recording.md").read_text(encoding="utf-8")
    assert "?t=60) My own recording" in local  # a local file: linked to that moment in Earmark alone


def test_timestamp_rule(library: Database, fixed: FixedLibrary) -> None:
    items = {item.id: item for item in collect(library, NoteFilter())}
    assert timestamp_url(items[fixed.basics], 90.7) == "https://cdn.example.com/ep1.mp3#t=90"
    assert timestamp_url(items[fixed.video], 5) == "https://www.youtube.com/watch?v=abc123&t=5s"
    assert timestamp_url(items[fixed.local], 5) is None
    assert stamp(3723.9) == "01:02:03"


def test_re_export_updates_the_same_files_and_spares_the_users_own(library: Database,
                                                                   fixed: FixedLibrary, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    own = vault / "Local recording.md"
    own.write_text("my own note, not Earmark's\n", encoding="utf-8")
    first = export_notes(library, "markdown", NoteFilter(), vault, now=EXPORTED_AT)
    assert own.read_text(encoding="utf-8") == "my own note, not Earmark's\n"
    assert vault / f"Local recording ({fixed.local}).md" in first.paths
    renamed = vault / "Renamed in Obsidian.md"
    (vault / "Graph capture the basics.md").rename(renamed)
    add_note(library, fixed.basics, "A later thought.", 200.0, now="2024-06-02T00:00:00+00:00")
    second = export_notes(library, "markdown", NoteFilter(), vault, now="2024-06-03T00:00:00+00:00")
    assert sorted(second.paths) == sorted(renamed if p.name == "Graph capture the basics.md" else p
                                          for p in first.paths)
    assert "A later thought." in renamed.read_text(encoding="utf-8")
    assert len(list(vault.glob("*.md"))) == 5
    assert not list(vault.glob(".*partial"))


def test_readwise_csv_header_and_rows(library: Database, fixed: FixedLibrary, tmp_path: Path) -> None:
    out = tmp_path / "readwise.csv"
    export_notes(library, "csv", NoteFilter(tag="compiler"), out, now=EXPORTED_AT)
    with out.open(newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["Highlight", "Title", "Author", "URL", "Note", "Location", "Date"] == list(READWISE_HEADER)
    assert rows[1] == ["Intro: why \"graphs\" at all?\nSecond line.", "Graph capture: the basics", "Ana Lopez",
                       "https://example.com/ep1", "", "5", "2024-05-07T08:05:00+00:00"]
    assert rows[2][4].startswith("Dynamo reads the bytecode") and rows[2][5] == "65"
    assert rows[3][5] == ""  # a note on the whole episode has no location
    assert len(rows) == 4


def test_readwise_author_is_the_episodes_else_the_podcasts_host(library: Database,
                                                                fixed: FixedLibrary, tmp_path: Path) -> None:
    out = tmp_path / "readwise.csv"
    export_notes(library, "csv", NoteFilter(item_ids=(fixed.basics, fixed.video)), out, now=EXPORTED_AT)
    with out.open(newline="", encoding="utf-8") as file:
        authors = {row["Title"]: row["Author"] for row in csv.DictReader(file)}
    assert authors == {"Graph capture: the basics": "Ana Lopez",  # the episode's own itunes:author
                       'Lowering "in depth" #2': "Ana Lopez & Ben Ito"}  # the feed's, not "Compiler Cast"


def test_json_export_holds_every_note_column_and_what_finds_the_item_again(library: Database,
                                                                           fixed: FixedLibrary, tmp_path: Path) -> None:
    out = tmp_path / "notes.json"
    export_notes(library, "json", NoteFilter(), out, now=EXPORTED_AT)
    document = json.loads(out.read_text(encoding="utf-8"))
    exported = {(item["source_url"], item["identity"], note["id"]): (note["at"], note["text"], note["quote"],
                                                                     note["created"], note["updated"])
                for item in document["items"] for note in item["notes"]}
    stored = {(src, identity, note_id): (at, text, quote, created, updated)
              for src, identity, note_id, at, text, quote, created, updated in library.execute(
                  """SELECT s.url, i.identity, n.id, n.at, n.text, n.quote, n.created, n.updated
                     FROM notes n JOIN items i ON i.id = n.item_id LEFT JOIN sources s ON s.id = i.source_id""")}
    assert exported == stored


@pytest.mark.parametrize("scope, titles", [
    (NoteFilter(tag="podcasts"), {"Graph capture: the basics", 'Lowering "in depth" #2', "Local recording"}),
    (NoteFilter(tag="reading"), {"Ünïcode / slashes: a “quoted” title?"}),
    (NoteFilter(text="inductor"), {'Lowering "in depth" #2'}),
])
def test_scopes(library: Database, fixed: FixedLibrary, scope: NoteFilter, titles: set[str]) -> None:
    assert {item.title for item in collect(library, scope)} == titles


def test_scope_by_item_and_source(library: Database, fixed: FixedLibrary) -> None:
    assert [i.id for i in collect(library, NoteFilter(item_ids=(fixed.video, fixed.untouched)))] == [fixed.video]
    assert [i.id for i in collect(library, NoteFilter(source_id=fixed.site))] == [fixed.article]
    assert collect(library, NoteFilter(item_ids=())) == []


def test_markdown_into_a_file_is_refused_with_a_sentence(library: Database, fixed: FixedLibrary,
                                                         tmp_path: Path) -> None:
    target = tmp_path / "notes.md"
    target.write_text("keep me")
    with pytest.raises(UnreachableError, match="is a file"):
        export_notes(library, "markdown", NoteFilter(), target)
    assert target.read_text() == "keep me"


@pytest.mark.parametrize("title, name", [
    ("a/b\\c:d*e?f\"g<h>i|j", "a b c d e f g h i j"),
    ("  ..hidden.  ", "hidden"),
    ("CON", "CON_"),
    ("[[wiki]] #tag ^block", "wiki tag block"),
    ("\x00\x1f", "Untitled"),
    ("word " * 40, ("word " * 20).strip()),
])
def test_safe_names(title: str, name: str) -> None:
    assert safe_name(title) == name


def test_front_matter_values_survive_characters_yaml_treats_specially() -> None:
    title = 'a\u2028b\x85c\u200d\ufeff: #x "q" \\ \x00 \t \U0001f600 [1, 2] {k: v} - *alias &anchor !tag'
    line = yaml_value(title)
    assert json.loads(line) == title
    assert not re.search("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]", line)  # no raw break, control or BOM
    assert parse_front_matter(f"---\ntitle: {line}\n---\n") == {"title": title}


def test_markdown_names_related_items_as_wikilinks(library: Database, fixed: FixedLibrary,
                                                   tmp_path: Path) -> None:
    from earmark.core.notes.markdown import wikilink
    from earmark.core.topics.build import update_relations

    update_relations(library)
    related = library.execute("SELECT r.item_id, i.title FROM relations r JOIN items i ON i.id = r.other_id "
                              "WHERE r.item_id = ? AND r.score >= 0.25 ORDER BY r.score DESC", [fixed.basics]
                              ).fetchall()
    assert related  # "Graph capture: the basics" and the video about lowering graphs share a podcast and words
    export_notes(library, "markdown", NoteFilter(), tmp_path / "md", now=EXPORTED_AT)
    text = (tmp_path / "md" / "Graph capture the basics.md").read_text(encoding="utf-8")
    section = text.split("\n## Related\n\n", 1)[1]
    assert section.splitlines()[0] == f"- {wikilink(related[0][1])}"
    assert wikilink('Lowering "in depth" #2') == '[[Lowering in depth 2|Lowering "in depth" #2]]'
    assert wikilink("Local recording") == "[[Local recording]]"
