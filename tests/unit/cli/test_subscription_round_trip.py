"""Subscriptions out and back in through OPML, as a person moving between libraries does it on the command line:
local-file feeds, folders in folders, and titles the user chose, which refreshes leave alone."""

from __future__ import annotations

import os
from html import escape
from pathlib import Path

import defusedxml.ElementTree as DefusedET  # type: ignore[import-untyped]
import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.tags import tags_for_sources
from helpers.cli import Cli
from helpers.feed_server import FeedServer, rss

ENTRIES = [
    {"title": "First", "guid": "e1", "pubDate": "Mon, 01 Jan 2024 10:00:00 +0000",
     "enclosure": "https://example.com/e1.mp3"},
    {"title": "Second", "guid": "e2", "pubDate": "Tue, 02 Jan 2024 10:00:00 +0000",
     "enclosure": "https://example.com/e2.mp3"},
]


def opml_file(path: Path, body: str) -> Path:
    path.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0"><head><title>Mine</title></head>'
                    f"<body>{body}</body></opml>\n", encoding="utf-8")
    return path


def outline(title: str, url: str) -> str:
    return f'<outline type="rss" text="{escape(title)}" xmlUrl="{escape(url)}"/>'


def sources(library: Path) -> dict[str, tuple[str, list[str]]]:
    """Each subscription's title and tags, by feed address."""
    db = open_library(library)
    try:
        tags = tags_for_sources(db)
        return {url: (title, tags.get(source_id, [])) for source_id, url, title in
                db.execute("SELECT id, url, title FROM sources WHERE url IS NOT NULL")}
    finally:
        db.close()


def folder_paths(opml: Path, url: str) -> list[list[str]]:
    """The folders (outer first) of every outline of ``url`` in an OPML file."""
    def walk(element: object, path: list[str]) -> list[list[str]]:
        found = []
        for child in element:  # type: ignore[attr-defined]
            if child.get("xmlUrl") == url:
                found.append(path)
            elif child.get("xmlUrl") is None:
                found += walk(child, [*path, child.get("text")])
        return found

    return walk(DefusedET.fromstring(opml.read_bytes(), forbid_dtd=True).find("body"), [])


def test_a_feed_subscribed_from_a_local_file_comes_back_from_the_exported_opml(
        cli: Cli, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    feed = tmp_path / "my feeds" / "home recordings.xml"
    feed.parent.mkdir()
    feed.write_bytes(rss("Home recordings", ENTRIES))
    assert cli("subscribe", str(feed))[0] == 0
    exported = tmp_path / "out.opml"
    assert cli("export-opml", str(exported))[0] == 0

    fresh = Cli(tmp_path / "fresh.db", capsys)
    code, out, err = fresh("import-opml", str(exported))

    assert (code, err) == (0, ""), err
    assert "1 new subscription, 0 already subscribed." in out.splitlines()
    assert sources(fresh.library) == {feed.as_uri(): ("Home recordings", [])}
    assert [item["title"] for item in fresh.json("list")] == ["Second", "First"]  # the file was read


def test_nested_folders_stay_nested_out_and_back(cli: Cli, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep, flat = "https://deep.example/feed.xml", "https://flat.example/feed.xml"
    given = opml_file(tmp_path / "in.opml", f'<outline text="Tech"><outline text="Deep &amp; Nested">'
                                            f'{outline("Deep show", deep)}</outline>{outline("Flat show", flat)}'
                                            "</outline>")
    assert cli("import-opml", str(given), "--no-refresh")[0] == 0
    assert sources(cli.library) == {deep: ("Deep show", ["tech", "tech/deep & nested"]),
                                    flat: ("Flat show", ["tech"])}
    assert [item["name"] for item in cli.json("tags")] == ["tech", "tech/deep & nested"]

    exported = tmp_path / "out.opml"
    assert cli("export-opml", str(exported))[0] == 0
    assert folder_paths(exported, deep) == [["tech", "deep & nested"]]  # once, in the inner folder
    assert folder_paths(exported, flat) == [["tech"]]
    fresh = Cli(tmp_path / "fresh.db", capsys)
    assert fresh("import-opml", str(exported), "--no-refresh")[0] == 0
    assert sources(fresh.library) == sources(cli.library)


def test_a_feed_in_two_folders_is_exported_in_both(cli: Cli, tmp_path: Path) -> None:
    url = "https://both.example/feed.xml"
    given = opml_file(tmp_path / "in.opml", f'<outline text="News">{outline("Both", url)}</outline>'
                                            f'<outline text="Tech">{outline("Both", url)}</outline>')
    assert cli("import-opml", str(given), "--no-refresh")[0] == 0
    exported = tmp_path / "out.opml"
    assert cli("export-opml", str(exported))[0] == 0
    assert folder_paths(exported, url) == [["news"], ["tech"]]


def test_titles_from_the_list_are_the_users_and_stay_across_refreshes(
        cli: Cli, feed_server: FeedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    renamed = feed_server.serve_body("/renamed.xml", rss("The Official Long Podcast Name", ENTRIES))
    same = feed_server.serve_body("/same.xml", rss("Same Name", ENTRIES))
    given = opml_file(tmp_path / "in.opml", outline("Lex", renamed) + outline("Same Name", same))
    assert cli("import-opml", str(given))[0] == 0  # fetches both feeds
    assert cli("refresh")[0] == 0
    assert {url: title for url, (title, _) in sources(cli.library).items()} == {renamed: "Lex", same: "Same Name"}

    # The feed that had the list's title follows its feed from now on; the renamed one stays "Lex".
    feed_server.serve_body("/same.xml", rss("Same Name, Season 2", ENTRIES))
    feed_server.serve_body("/renamed.xml", rss("The Official Long Podcast Name (new)", ENTRIES))
    [*outcomes] = cli.json("refresh")
    assert {o["url"]: o["title"] for o in outcomes} == {renamed: "Lex", same: "Same Name, Season 2"}
    assert sorted(source["title"] for source in cli.json("sources")) == ["Lex", "Same Name, Season 2"]

    exported = tmp_path / "out.opml"
    assert cli("export-opml", str(exported))[0] == 0
    fresh = Cli(tmp_path / "fresh.db", capsys)
    assert fresh("import-opml", str(exported))[0] == 0
    assert fresh("refresh")[0] == 0
    assert sorted(source["title"] for source in fresh.json("sources")) == ["Lex", "Same Name, Season 2"]


def test_a_list_naming_a_device_or_a_pipe_as_a_feed_gets_a_sentence_not_a_hang(cli: Cli, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # reading it would wait for a writer forever
    given = opml_file(tmp_path / "in.opml", outline("Zeros", "file:///dev/zero") + outline("Pipe", pipe.as_uri()))
    outcomes = cli.json("import-opml", str(given))
    assert {o["url"]: (o["status"], o["error"]) for o in outcomes} == {
        "file:///dev/zero": ("error", "/dev/zero is not a file (a device or a pipe), so it is not a feed file."),
        pipe.as_uri(): ("error", f"{pipe} is not a file (a device or a pipe), so it is not a feed file.")}
