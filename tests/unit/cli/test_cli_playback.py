"""The command line's listening commands: mark-played, mark-unplayed, queue, download and downloads."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.cli import main
from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from helpers.audio import write_tone
from helpers.feed_server import FeedServer, rss

DOWNLOAD_FIELDS = {"item_id", "url", "path", "status", "size", "received", "error", "finished", "title"}


def run(library: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--library", str(library), *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def served(tmp_path: Path, library_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[list[int]]:
    """A podcast of two episodes on a real HTTP server (the second 404s), subscribed; the item ids."""
    with FeedServer(tmp_path) as server:
        server.serve_media("/one.wav", write_tone(tmp_path / "one.wav", 0.5).read_bytes())
        server.serve_status("/two.wav", 404)
        feed = server.serve_body("/feed.xml", rss("../Evil/Cast", [
            {"title": "One", "guid": "1", "enclosure": server.url("/one.wav"),
             "pubDate": "Mon, 02 Jan 2024 10:00:00 GMT"},
            {"title": "../../two", "guid": "2", "enclosure": server.url("/two.wav"),
             "pubDate": "Sun, 01 Jan 2024 10:00:00 GMT"}]))
        assert run(library_path, capsys, "subscribe", feed)[0] == 0
        yield [item["id"] for item in json.loads(run(library_path, capsys, "list", "--json")[1])]


def test_mark_played_and_unplayed(library_path: Path, capsys: pytest.CaptureFixture[str], served: list[int]) -> None:
    code, out, _ = run(library_path, capsys, "mark-played", *map(str, served))
    assert code == 0 and out.count("played.") == 2
    assert all(item["played"] for item in json.loads(run(library_path, capsys, "list", "--json")[1]))
    code, _, _ = run(library_path, capsys, "mark-unplayed", str(served[0]))
    assert not json.loads(run(library_path, capsys, "list", "--json")[1])[0]["played"]
    code, _, err = run(library_path, capsys, "mark-played", "999999")
    assert code == 1 and err.startswith("earmark: There is no item with id 999999")


def test_queue_add_next_remove_clear(library_path: Path, capsys: pytest.CaptureFixture[str],
                                     served: list[int]) -> None:
    one, two = served
    queue = json.loads(run(library_path, capsys, "queue", "--add", str(one), "--json")[1])
    assert [item["id"] for item in queue] == [one]
    queue = json.loads(run(library_path, capsys, "queue", "--next", str(two), "--json")[1])
    assert [item["id"] for item in queue] == [two, one] and {"id", "title", "position"} <= set(queue[0])
    queue = json.loads(run(library_path, capsys, "queue", "--remove", str(two), "--json")[1])
    assert [item["id"] for item in queue] == [one]
    code, out, _ = run(library_path, capsys, "queue", "--clear")
    assert (code, out) == (0, "")


def test_download_saves_inside_the_folder_and_reports_failures(library_path: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str],
                                                               served: list[int]) -> None:
    folder = tmp_path / "dl"
    db = open_library(library_path)
    set_setting(db, "downloads.folder", str(folder))
    set_setting(db, "downloads.retries", 0)
    db.close()
    code, out, err = run(library_path, capsys, "download", *map(str, served), "--json")
    assert code == 1 and "the server has no such file (404 Not Found)" in err
    records = {record["item_id"]: record for record in json.loads(out)}
    assert DOWNLOAD_FIELDS <= set(records[served[0]])
    assert records[served[0]]["status"] == "done" and records[served[1]]["status"] == "failed"
    for record in records.values():
        assert Path(record["path"]).resolve().is_relative_to(folder.resolve())
    assert Path(records[served[0]]["path"]).read_bytes()[:4] == b"RIFF"
    listed = json.loads(run(library_path, capsys, "downloads", "--json")[1])
    assert {record["item_id"] for record in listed} == set(served)
    code, out, _ = run(library_path, capsys, "downloads")
    assert code == 0 and "MiB on disk" in out
