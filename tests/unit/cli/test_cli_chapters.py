"""`earmark chapters`: made from the transcript where the feed gives none (the seed talks heard by the engine),
the feed's own fetched over HTTP when it names some, and one sentence for an unknown item."""

from __future__ import annotations

import json
from pathlib import Path

from earmark.core.db.connection import open_library
from earmark.core.db.transcripts import store_transcript
from earmark.core.models import Cue, Transcript
from helpers.cli import Cli
from helpers.feed_server import OWN_FIXTURES, FeedServer
from helpers.podcast import Episode, write_podcast

CUES = [Cue(a, b, text) for a, b, text in
        json.loads((OWN_FIXTURES / "spoken" / "em__seed-talks.json").read_text(encoding="utf-8"))["cues"]]
FEEDS_OWN = b'{"version":"1.2.0","chapters":[{"startTime":0,"title":"Welcome"},{"startTime":95.5,"title":"News"}]}'


def _podcast(cli: Cli, folder: Path) -> dict[str, int]:
    feed = write_podcast(folder, [Episode("Talks", 0.2), Episode("Chaptered", 0.2)])
    assert cli("subscribe", str(feed))[0] == 0
    return {str(item["title"]): int(item["id"]) for item in cli.json("list")}  # type: ignore[call-overload]


def test_chapters_made_from_the_transcript(cli: Cli, tmp_path: Path) -> None:
    ids = _podcast(cli, tmp_path / "cast")
    code, out, _ = cli("chapters", str(ids["Talks"]))
    assert code == 0 and "has no chapters" in out and f"earmark transcribe {ids['Talks']}" in out
    assert cli.json("chapters", str(ids["Talks"])) == []
    db = open_library(cli.library)
    store_transcript(db, ids["Talks"], "generated:tiny.en", Transcript(CUES, "generated"))
    db.close()
    chapters = cli.json("chapters", str(ids["Talks"]))
    assert len(chapters) >= 2
    assert {chapter["source"] for chapter in chapters} == {"made"}
    assert chapters[0]["start"] == 0.0
    assert [c["end"] for c in chapters[:-1]] == [c["start"] for c in chapters[1:]]
    assert all(chapter["title"] for chapter in chapters)
    code, out, _ = cli("chapters", str(ids["Talks"]))
    assert code == 0 and out.count("(made by Earmark)") == len(chapters)
    assert chapters[1]["title"] in out


def test_a_feeds_chapters_win(cli: Cli, tmp_path: Path) -> None:
    ids = _podcast(cli, tmp_path / "cast")
    with FeedServer(tmp_path) as server:
        url = server.serve_body("/chapters.json", FEEDS_OWN, "application/json+chapters")
        db = open_library(cli.library)
        db.execute("UPDATE items SET chapters_url = ? WHERE id = ?", [url, ids["Chaptered"]])
        store_transcript(db, ids["Chaptered"], "generated:tiny.en", Transcript(CUES, "generated"))
        db.close()
        chapters = cli.json("chapters", str(ids["Chaptered"]))
    assert [(c["start"], c["end"], c["title"], c["source"]) for c in chapters] == [
        (0.0, 95.5, "Welcome", "feed"), (95.5, chapters[-1]["end"], "News", "feed")]
    assert cli.json("chapters", str(ids["Chaptered"])) == chapters  # kept: the server is gone


def test_an_unknown_item_is_one_sentence(cli: Cli, tmp_path: Path) -> None:
    _podcast(cli, tmp_path / "cast")
    code, out, err = cli("chapters", "999", "--json")
    assert code == 1 and out == "" and err.strip() == "earmark: There is no item with id 999."
