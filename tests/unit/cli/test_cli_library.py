"""The library commands on the command line: list and search (with the ``--json`` contract and filters) and
load-sample."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from helpers.cli import Cli
from helpers.feed_server import rss

ITEM_FIELDS = {"id", "kind", "title", "source", "url", "enclosure_url", "published", "duration", "position",
               "played", "tags"}


def test_list_json_has_the_contract_fields(cli: Cli, podcast: Path) -> None:
    items = cli.json("list")
    assert [item["title"] for item in items] == ["Compiler deep dive", "Listener mail"]
    for item in items:
        assert ITEM_FIELDS <= set(item), ITEM_FIELDS - set(item)
        assert isinstance(item["id"], int)
        assert item["kind"] == "episode" and item["source"] == "CLI podcast"
        assert isinstance(item["published"], str)
        datetime.fromisoformat(item["published"])
        assert item["duration"] is None or isinstance(item["duration"], int | float)
        assert isinstance(item["position"], int | float)
        assert isinstance(item["played"], bool)
        assert isinstance(item["tags"], list)
    first, second = items
    assert (first["duration"], second["duration"]) == (2700, None)
    assert first["published"] == "2024-03-01T09:00:00+00:00"
    assert (first["url"], first["enclosure_url"]) == ("https://example.com/c1", "https://example.com/c1.mp3")
    assert (first["position"], first["played"], first["tags"]) == (0, False, [])


def test_list_text_output(cli: Cli, podcast: Path) -> None:
    code, out, err = cli("list")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 2
    assert "Compiler deep dive" in lines[0] and "2024-03-01" in lines[0] and "[CLI podcast]" in lines[0]


def test_search_json_best_match_first(cli: Cli, podcast: Path) -> None:
    found = cli.json("search", "compiler")
    assert [item["title"] for item in found] == ["Compiler deep dive", "Listener mail"]
    assert ITEM_FIELDS <= set(found[0])
    assert [item["title"] for item in cli.json("search", "graph")] == ["Compiler deep dive"]
    assert cli.json("search", '"((') == []


def test_list_filters(cli: Cli, podcast: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.xml"
    other.write_bytes(rss("Other show", [{"title": "Other episode", "guid": "o1",
                                           "enclosure": "https://example.com/o1.mp3"}]))
    assert cli("subscribe", str(other))[0] == 0
    sources = {s["title"]: s["id"] for s in cli.json("sources")}

    assert [i["title"] for i in cli.json("list", "--source", str(sources["Other show"]))] == ["Other episode"]
    assert len(cli.json("list", "--source", str(sources["CLI podcast"]))) == 2
    assert len(cli.json("list", "--kind", "episode")) == 3
    assert cli.json("list", "--kind", "article") == []

    first = cli.json("list", "--source", str(sources["CLI podcast"]))[0]
    assert cli("tag", str(first["id"]), "Compilers")[0] == 0
    assert [i["title"] for i in cli.json("list", "--tag", "compilers")] == ["Compiler deep dive"]
    assert [i["title"] for i in cli.json("search", "episode", "--tag", "compilers")] == []


def test_load_sample_then_list(cli: Cli) -> None:
    code, out, err = cli("load-sample")
    assert (code, err) == (0, "")
    assert "51 episodes" in out and "3 articles" in out
    assert len(cli.json("list", "--kind", "episode")) == 51
    assert len(cli.json("list", "--kind", "article")) == 3
