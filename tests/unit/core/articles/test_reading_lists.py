"""Importing the reading lists people already have (Pocket HTML and CSV, Instapaper CSV, Wallabag JSON, a list of
addresses) and exporting Earmark's as CSV or JSON, which imports back."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from earmark.core.articles.export import CSV_FIELDS, reading_list, render_reading_list
from earmark.core.articles.imports import detect_format, import_entries, read_reading_list
from earmark.core.db.database import Database
from earmark.core.db.notes import highlights_for_item
from earmark.core.errors import EarmarkError
from helpers.cli import Cli
from helpers.reading import LISTS

GUARDS, PROFILING, FX = ("https://notebook.example/posts/guards", "https://blog.example/profiling",
                         "https://notebook.example/posts/fx")


def by_url(library: Database) -> dict[str, dict[str, object]]:
    return {entry.item.url: entry.as_json() for entry in reading_list(library)}  # type: ignore[misc]


@pytest.mark.parametrize(("name", "fmt"), [
    ("ril_export.html", "pocket-html"), ("pocket.csv", "pocket-csv"), ("instapaper-export.csv", "instapaper"),
    ("wallabag-export.json", "wallabag"), ("urls.txt", "urls"),
])
def test_each_format_is_recognised_by_its_content(name: str, fmt: str) -> None:
    assert detect_format((LISTS / name).read_text(encoding="utf-8")) == fmt


def test_pocket_html_export(library: Database) -> None:
    found = read_reading_list(LISTS / "ril_export.html")
    assert found.skipped == ["“A bookmarklet, not a page” has no web address (javascript:void(0)); left out."]
    result = import_entries(library, found)
    assert (len(result.new), len(result.unfetched), result.existing) == (3, 3, 0)
    articles = by_url(library)
    guards = articles[GUARDS]
    assert (guards["title"], guards["tags"], guards["added"], guards["read"], guards["archived"]) == (
        "How TorchDynamo guards decide when to recompile", ["compilers", "dynamo"], "2024-03-05T10:00:00+00:00",
        False, False)
    assert guards["source"] == "notebook.example" and guards["kind"] == "article"
    assert guards["fetch_problem"] == "Imported from Pocket export (HTML); Earmark has not fetched the page yet."
    assert (articles[FX]["read"], articles[FX]["archived"]) == (True, True)  # "Read Archive"


def test_pocket_csv_export(library: Database) -> None:
    import_entries(library, read_reading_list(LISTS / "pocket.csv"))
    articles = by_url(library)
    assert articles[PROFILING]["title"] == "Profiling a training loop, without guessing"
    assert articles[GUARDS]["tags"] == ["compilers", "dynamo"]
    assert articles[FX]["archived"] is True and articles[GUARDS]["archived"] is False


def test_instapaper_csv_export(library: Database) -> None:
    import_entries(library, read_reading_list(LISTS / "instapaper-export.csv"))
    articles = by_url(library)
    assert articles[PROFILING]["favourite"] is True  # Starred
    assert articles[FX]["archived"] is True  # Archive
    assert articles["https://lecture.example/week-3"]["tags"] == ["course"]  # a folder of one's own
    assert articles[GUARDS]["tags"] == ["compilers"]
    assert [{key: h[key] for key in ("quote", "note")} for h in articles[GUARDS]["highlights"]] == [  # type: ignore[attr-defined]
        {"quote": "Guards are evaluated before each call, so they must stay cheap.", "note": ""}]  # the selection


def test_wallabag_json_export_brings_the_text_and_annotations(library: Database) -> None:
    result = import_entries(library, read_reading_list(LISTS / "wallabag-export.json"))
    assert len(result.new) == 2 and len(result.unfetched) == 1  # the one without content is to be fetched
    articles = by_url(library)
    guards = articles[GUARDS]
    assert (guards["favourite"], guards["archived"], guards["author"], guards["published"]) == (
        True, False, "Ana Lopez", "2024-03-05T10:00:00+00:00")
    assert guards["added"] == "2024-03-05T10:00:00+00:00" and guards["fetch_problem"] is None
    assert guards["reading_time"] and guards["reading_time"] > 0
    [highlight] = highlights_for_item(library, int(guards["id"]))  # type: ignore[call-overload]
    assert (highlight.quote, highlight.text) == ("Guards are evaluated before each call, so they must stay cheap.",
                                                 "The reason recompiles are rare.")
    assert highlight.anchor is not None and highlight.anchor.prefix == "e compiled graph can be reused. "
    assert articles[FX]["read"] is True


def test_a_plain_list_of_addresses(library: Database) -> None:
    found = read_reading_list(LISTS / "urls.txt")
    assert found.skipped == ["Line 5 is not a web address: not a link, just a thought"]
    import_entries(library, found)
    articles = by_url(library)
    assert set(articles) == {GUARDS, PROFILING, FX}
    assert articles[PROFILING]["title"] == "Profiling a training loop without guessing"
    assert articles[GUARDS]["title"] == GUARDS  # a bare address until its page is fetched


def test_importing_again_changes_nothing_the_user_did(library: Database) -> None:
    import_entries(library, read_reading_list(LISTS / "pocket.csv"))
    guards = by_url(library)[GUARDS]
    library.execute("UPDATE items SET archived = 1 WHERE id = ?", [guards["id"]])
    again = import_entries(library, read_reading_list(LISTS / "ril_export.html"))
    assert (again.new, again.existing) == ([], 3)
    assert by_url(library)[GUARDS]["archived"] is True


def test_bad_files_are_one_sentence(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("[{not json")
    with pytest.raises(EarmarkError, match="broken.json is not a readable Wallabag export"):
        read_reading_list(broken)
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing here\n")
    with pytest.raises(EarmarkError, match="holds no web addresses to import"):
        read_reading_list(empty)
    with pytest.raises(EarmarkError, match="'kindle' is not a reading-list format"):
        read_reading_list(LISTS / "urls.txt", "kindle")


def test_export_csv_and_json_then_import_them_back(cli: Cli, tmp_path: Path) -> None:
    code, out, err = cli("import-reading-list", str(LISTS / "wallabag-export.json"))
    assert (code, out) == (0, "Imported 2 new articles; 0 were in the library already.\n"), err
    exported = json.loads(cli("export-reading-list", "--format", "json", "--out", "-")[1])
    assert exported["format"] == "earmark-reading-list" and exported["version"] == 1
    guards = next(item for item in exported["items"] if item["url"] == GUARDS)
    list_fields = set(cli.json("list")[0])
    assert list_fields <= set(guards)  # the `list --json` object, and the reading state
    assert {"added", "author", "read", "archived", "favourite", "progress", "reading_time", "highlights",
            "fetch_problem"} <= set(guards)
    rows = list(csv.DictReader(io.StringIO(cli("export-reading-list", "--format", "csv", "--out", "-")[1])))
    assert tuple(rows[0]) == CSV_FIELDS
    row = next(r for r in rows if r["url"] == GUARDS)
    assert (row["tags"], row["favourite"], row["highlights"], row["author"]) == ("compilers|dynamo", "true", "1",
                                                                                 "Ana Lopez")
    for fmt in ("csv", "json"):
        path = tmp_path / f"list.{fmt}"
        code, out, err = cli("export-reading-list", "--format", fmt, "--out", str(path))
        assert (code, out) == (0, f"Wrote 2 articles to {path}.\n"), err
        other = Cli(tmp_path / f"other-{fmt}.db", cli.capsys)
        assert other("import-reading-list", str(path))[0] == 0
        again = {item["url"]: item for item in other.json("list", "--kind", "article")}
        assert set(again) == {GUARDS, FX} and again[GUARDS]["tags"] == ["compilers", "dynamo"]
        assert again[FX]["played"] is True


def test_export_a_tag_only(cli: Cli) -> None:
    cli("import-reading-list", str(LISTS / "pocket.csv"))
    entries = json.loads(cli("export-reading-list", "--format", "json", "--tag", "FX", "--out", "-")[1])["items"]
    assert [entry["url"] for entry in entries] == [FX]
    assert render_reading_list([], "csv") == ",".join(CSV_FIELDS) + "\n"
