"""Tags across the library: sources, rename, merge, delete, colours, and the same from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.db.tags import (
    delete_tag,
    rename_tag,
    set_tag_colour,
    tag_colours,
    tag_counts,
    tag_item,
    tag_names,
    tag_source,
    tags_for_sources,
    untag_source,
)
from earmark.core.errors import EarmarkError, NotFoundError
from helpers.cli import Cli
from helpers.small_library import Library, build_library


@pytest.fixture
def lib(library: Database, tmp_path: Path) -> Library:
    return build_library(library, tmp_path)


def test_a_source_tag_counts_for_its_items_once(lib: Library) -> None:
    tag_source(lib.db, lib.podcast_id, ["ML Ops"])
    tag_item(lib.db, lib.ids["Weekly roundup"], ["ml ops"])  # also tagged on the item itself
    assert ("ml ops", 4) in tag_counts(lib.db)
    assert len(list_items(lib.db, ItemFilter(tag="ML ops"))) == 4
    untag_source(lib.db, lib.podcast_id, ["ml ops"])
    assert ("ml ops", 1) in tag_counts(lib.db)
    assert tags_for_sources(lib.db) == {}


def test_rename_keeps_items_and_colour(lib: Library) -> None:
    tag_item(lib.db, lib.ids["Compilers"], ["compilres"])
    set_tag_colour(lib.db, "compilres", "#AA3300")
    rename_tag(lib.db, "Compilres", "Compilers")
    assert get_item(lib.db, lib.ids["Compilers"]).tags == ["compilers"]
    assert tag_colours(lib.db)["compilers"] == "#aa3300"
    assert "compilres" not in tag_names(lib.db)


def test_renaming_onto_an_existing_tag_merges(lib: Library) -> None:
    tag_item(lib.db, lib.ids["Compilers"], ["pt2", "pytorch 2"])
    tag_item(lib.db, lib.ids["Weekly roundup"], ["pytorch 2"])
    tag_source(lib.db, lib.site_id, ["pytorch 2"])
    set_tag_colour(lib.db, "pt2", "#112233")
    rename_tag(lib.db, "pytorch 2", "pt2")
    assert "pytorch 2" not in tag_names(lib.db)
    assert get_item(lib.db, lib.ids["Compilers"]).tags.count("pt2") == 1
    assert "pt2" in get_item(lib.db, lib.ids["Weekly roundup"]).tags
    assert tags_for_sources(lib.db) == {lib.site_id: ["pt2"]}
    assert tag_colours(lib.db) == {"pt2": "#112233"}


def test_delete_and_errors(lib: Library) -> None:
    tag_item(lib.db, lib.ids["Compilers"], ["temp"])
    delete_tag(lib.db, "TEMP")
    assert "temp" not in tag_names(lib.db)
    assert get_item(lib.db, lib.ids["Compilers"]).id == lib.ids["Compilers"]  # the item stays
    with pytest.raises(NotFoundError):
        delete_tag(lib.db, "temp")
    with pytest.raises(NotFoundError):
        rename_tag(lib.db, "nothing", "else")
    with pytest.raises(EarmarkError):
        rename_tag(lib.db, "unicode", "   ")
    with pytest.raises(EarmarkError, match="#rrggbb"):
        set_tag_colour(lib.db, "unicode", "red")


def test_tag_commands(cli: Cli, tmp_path: Path) -> None:
    db = open_library(cli.library)
    lib = build_library(db, tmp_path)
    db.close()
    assert cli("tag-source", str(lib.podcast_id), "Podcasts", "ml")[0] == 0
    assert ("podcasts", 4) in [(t["name"], t["count"]) for t in cli.json("tags")]
    assert cli("tag-colour", "ml", "#00ff00")[0] == 0
    assert {"name": "ml", "count": 4, "colour": "#00ff00"} in cli.json("tags")
    assert cli("rename-tag", "podcasts", "ml")[0] == 0
    assert [(t["name"], t["count"]) for t in cli.json("tags") if t["name"] in ("ml", "podcasts")] == [("ml", 4)]
    code, out, err = cli("delete-tag", "nope")
    assert code == 1 and err.startswith("earmark: There is no tag")
    assert cli("untag-source", str(lib.podcast_id), "ml")[0] == 0
    assert cli("favourite", str(lib.ids["Compilers"]))[0] == 0
    assert [i["title"] for i in cli.json("list", "--favourite")] == ["Compilers"]
    assert cli("save-search", "Long episodes", "--kind", "episode", "--min-duration", "15", "--sort", "title")[0] == 0
    [smart] = cli.json("smart-lists")
    assert (smart["name"], smart["count"]) == ("Long episodes", 2)
    assert [i["title"] for i in cli.json("list", "--smart", str(smart["id"]))] == ["Inference at scale",
                                                                                    "Quantization basics"]
    found = cli.json("search", "quantization")
    assert [(i["title"], i["matched"]) for i in found] == [("Quantization basics", "title"),
                                                           ("Weekly roundup", "text")]
    assert "[quantization]" in str(found[1]["snippet"])
    assert cli("delete-smart-list", str(smart["id"]))[0] == 0
    assert cli.json("smart-lists") == []
    code, _out, err = cli("list", "--from", "yesterday")
    assert code == 1 and "YYYY-MM-DD" in err
