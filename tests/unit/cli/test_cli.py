"""The command line through ``earmark.cli.main``: exit codes, messages and the ``--json`` contract."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from earmark import __version__
from earmark.cli import main
from helpers.cli import Cli
from helpers.feed_server import fixtures_dir, rss

ITEM_FIELDS = {"id", "kind", "title", "source", "url", "enclosure_url", "published", "duration", "position",
               "played", "tags"}
SOURCE_FIELDS = {"id", "title", "url", "status", "last_error", "item_count", "last_checked"}
EPISODES = [
    {"title": "Compiler deep dive", "guid": "c1", "pubDate": "Fri, 01 Mar 2024 09:00:00 +0000", "duration": "45:00",
     "enclosure": "https://example.com/c1.mp3", "link": "https://example.com/c1",
     "description": "All about graph capture."},
    {"title": "Listener mail", "guid": "c2", "pubDate": "Thu, 01 Feb 2024 09:00:00 +0000",
     "enclosure": "https://example.com/c2.mp3", "description": "Questions about the compiler and more."},
]


@pytest.fixture
def podcast(tmp_path: Path, cli: Cli) -> Path:
    """A two-episode feed file, subscribed."""
    feed = tmp_path / "podcast.xml"
    feed.write_bytes(rss("CLI podcast", EPISODES))
    code, out, err = cli("subscribe", str(feed))
    assert (code, err) == (0, "")
    return feed


def _assert_failure(code: int, out: str, err: str) -> None:
    assert code == 1
    assert out == ""
    assert err.startswith("earmark: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_subscribe_a_fixture_file(cli: Cli) -> None:
    code, out, err = cli("subscribe", str(fixtures_dir() / "feeds" / "rsp__theomnishow.rss"))
    assert (code, err) == (0, "")
    assert "The Omni Show" in out and "4 new" in out
    code, out, _ = cli("subscribe", str(fixtures_dir() / "feeds" / "rsp__theomnishow.rss"))
    assert code == 0 and "0 new" in out
    assert len(cli.json("list")) == 4


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


def test_tag_untag_and_tags(cli: Cli, podcast: Path) -> None:
    first, second = (item["id"] for item in cli.json("list"))
    code, out, err = cli("tag", str(first), "ML", "compilers")
    assert (code, err) == (0, "")
    assert "Compiler deep dive" in out and "compilers, ml" in out
    assert cli("tag", str(second), "ml")[0] == 0

    assert cli.json("tags") == [{"name": "compilers", "count": 1, "colour": None},
                                {"name": "ml", "count": 2, "colour": None}]
    assert {item["title"]: item["tags"] for item in cli.json("list")} == {
        "Compiler deep dive": ["compilers", "ml"], "Listener mail": ["ml"]}

    code, out, err = cli("untag", str(first), "ML")
    assert (code, err) == (0, "")
    assert "compilers" in out and "ml" not in out.split(":", 1)[1]
    assert [(t["name"], t["count"]) for t in cli.json("tags")] == [("compilers", 1), ("ml", 1)]
    code, out, _ = cli("tags")
    assert code == 0 and "compilers" in out and "ml" in out


def test_tag_of_an_unknown_item_is_a_sentence(cli: Cli, podcast: Path) -> None:
    code, out, err = cli("tag", "424242", "x")
    _assert_failure(code, out, err)
    assert "424242" in err


def test_sources_json(cli: Cli, podcast: Path) -> None:
    [source] = cli.json("sources")
    assert SOURCE_FIELDS <= set(source), SOURCE_FIELDS - set(source)
    assert (source["title"], source["url"], source["status"]) == ("CLI podcast", podcast.resolve().as_uri(), "ok")
    assert (source["last_error"], source["item_count"]) == (None, 2)
    assert isinstance(source["id"], int)
    assert isinstance(source["last_checked"], str)
    datetime.fromisoformat(source["last_checked"])


def test_sources_json_reports_a_failing_feed(cli: Cli, podcast: Path) -> None:
    podcast.write_text("<html><body>gone</body></html>")
    code, out, err = cli("subscribe", str(podcast))
    _assert_failure(code, out, err)
    [source] = cli.json("sources")
    assert source["status"] == "error"
    assert source["last_error"] == err.removeprefix("earmark: ").strip()
    assert source["item_count"] == 2
    code, out, _ = cli("sources")
    assert code == 0 and "error:" in out


@pytest.mark.parametrize(
    ("name", "content"),
    [("page.html", b"<!DOCTYPE html><html><body><p>Hello</p></body></html>"), ("empty.xml", b""),
     ("data.json", b'{"items": []}')],
)
def test_subscribe_a_non_feed_exits_1_with_a_sentence(cli: Cli, tmp_path: Path, name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    code, out, err = cli("subscribe", str(path))
    _assert_failure(code, out, err)
    assert name in err
    assert cli.json("sources") == []


def test_subscribe_a_missing_file_exits_1(cli: Cli, tmp_path: Path) -> None:
    code, out, err = cli("subscribe", str(tmp_path / "nope.xml"))
    _assert_failure(code, out, err)
    assert "nope.xml" in err


def test_subscribe_a_malformed_url_exits_1(cli: Cli) -> None:
    code, out, err = cli("subscribe", "http://127.0.0.1:80a/feed.xml")
    _assert_failure(code, out, err)


@pytest.mark.parametrize("content", [b"<html><body>not a library</body></html>", b"\x00\xff" * 100])
def test_a_non_sqlite_library_exits_1_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                content: bytes) -> None:
    bad = tmp_path / "library.db"
    bad.write_bytes(content)
    code = main(["--library", str(bad), "list", "--json"])
    out, err = capsys.readouterr()
    _assert_failure(code, out, err)
    assert "not an Earmark library" in err
    assert bad.read_bytes() == content


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.strip() == f"earmark {__version__}"
    assert __version__[0].isdigit()


def test_load_sample_then_list(cli: Cli) -> None:
    code, out, err = cli("load-sample")
    assert (code, err) == (0, "")
    assert "51 episodes" in out and "3 articles" in out
    assert len(cli.json("list", "--kind", "episode")) == 51
    assert len(cli.json("list", "--kind", "article")) == 3
