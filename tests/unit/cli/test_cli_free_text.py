"""Free text on the command line is taken as text, whatever it starts with: `earmark note ID '---'` keeps the note
"---" (argparse alone took it for an unknown option); options are still options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.cli import Cli
from helpers.feed_server import rss
from helpers.reading import long_article

TEXTS = ["---", "-", "- starred", "-5 dB louder here", "--not-an-option", "-v", "->", "-=+@"]


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    cli = Cli(tmp_path / "library.db", capsys)
    feed = tmp_path / "feed.xml"
    feed.write_bytes(rss("Cast", [{"title": "One", "guid": "1", "enclosure": "https://example.com/1.mp3"}]))
    assert cli("subscribe", str(feed))[0] == 0
    return cli


@pytest.mark.parametrize("text", TEXTS)
def test_a_note_may_start_with_a_dash(cli: Cli, text: str) -> None:
    code, out, err = cli("note", "1", text)
    assert (code, err) == (0, ""), err
    code, out, err = cli("note", "1", text, "--at", "65")  # with an option after it
    assert (code, err) == (0, ""), err
    assert [(note["text"], note["at"]) for note in cli.json("notes")] == [(text, 65.0), (text, None)]


def test_dashes_in_other_free_text(cli: Cli, tmp_path: Path) -> None:
    assert cli("tag", "1", "-draft", "--x")[0] == 0
    assert cli.json("list")[0]["tags"] == ["--x", "-draft"]
    assert cli("rename-tag", "-draft", "-done")[0] == 0
    assert [tag["name"] for tag in cli.json("tags")] == ["--x", "-done"]
    assert cli("search", "-nothing-like-it")[0] == 0
    page = tmp_path / "page.html"
    page.write_bytes(long_article("Guards", 3))
    assert cli("add-article", str(page))[0] == 0
    code, out, err = cli("highlight", "2", "guards are evaluated", "--note", "-1: too slow")
    assert (code, err) == (0, ""), err
    assert cli.json("notes")[0]["text"] == "-1: too slow"


def test_options_stay_options(cli: Cli, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("note", "1", "text", "--at", "1:05")[0] == 0
    assert cli("note", "1", "--at", "5", "--", "--at")[0] == 0  # "--" still ends the options
    assert [(note["text"], note["at"]) for note in cli.json("notes")] == [("--at", 5.0), ("text", 65.0)]
    with pytest.raises(SystemExit) as caught:
        cli("note", "--help")
    assert caught.value.code == 0 and "--at SECONDS" in capsys.readouterr().out
    with pytest.raises(SystemExit) as caught:
        cli("list", "--jsn")
    assert caught.value.code == 2 and "unrecognized arguments: --jsn" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        cli("note", "1", "text", "--at")
    assert caught.value.code == 2 and "expected one argument" in capsys.readouterr().err


def test_the_reading_list_json_on_standard_output_is_complete(cli: Cli, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(long_article("Guards", 3))
    assert cli("add-article", str(page))[0] == 0
    code, out, err = cli("export-reading-list", "--format", "json", "--out", "-")
    assert code == 0, err
    assert "Paragraph 1: guards are evaluated" in json.loads(out)["items"][0]["content"]
