"""Finding an episode's silences (`earmark silence`): decoded with PyAV from the downloaded file or the stream
over real HTTP, analysed once and kept, the time each level saves; what cannot be analysed gets a sentence."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from earmark.core.audio.silence import jump_target, saved_seconds, skipped
from helpers.audio import write_corrupt, write_spoken_and_silent
from helpers.cli import Cli
from helpers.feed_server import FeedServer, rss

# Speech-like tone with 3 s silences at 2-5 s and 7-10 s, a 0.4 s pause at 12 s, a soft passage (not silence).
PARTS = [("tone", 2.0), ("quiet", 3.0), ("tone", 2.0), ("quiet", 3.0), ("tone", 2.0), ("quiet", 0.4),
         ("soft", 2.0), ("tone", 1.0)]
SILENCES = [(2.0, 5.0), (7.0, 10.0), (12.0, 12.4)]


def _subscribed(server: FeedServer, cli: Cli, media: dict[str, bytes],
                missing: tuple[str, ...] = ()) -> dict[str, int]:
    for name, body in media.items():
        server.serve_media(f"/{name}", body)
    for name in missing:
        server.serve_status(f"/{name}", 404)
    feed = server.serve_body("/feed.xml", rss("Quiet Cast", [
        {"title": name, "guid": name, "enclosure": server.url(f"/{name}")} for name in [*media, *missing]]))
    assert cli("subscribe", feed)[0] == 0
    return {item["title"]: item["id"] for item in cli.json("list")}


def test_silence_of_a_stream_over_http(tmp_path: Path, library_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cli = Cli(library_path, capsys)
    with FeedServer(tmp_path) as server:
        ids = _subscribed(server, cli, {"ep.wav": write_spoken_and_silent(tmp_path / "ep.wav", PARTS).read_bytes()})
        code, out, err = cli("silence", str(ids["ep.wav"]), "--json")
        assert code == 0, err
        found = json.loads(out)
        spans = [(span["start"], span["end"]) for span in found["spans"]]
        assert len(spans) == len(SILENCES)
        for (start, end), (want_start, want_end) in zip(spans, SILENCES, strict=True):
            assert start == pytest.approx(want_start, abs=0.03) and end == pytest.approx(want_end, abs=0.03)
        assert found["duration"] == pytest.approx(15.4, abs=0.03)
        # mild skips spans of 1 s or more, keeping 0.5 s of each; strong spans of 0.5 s or more, keeping 0.2 s
        assert found["saved_seconds"]["mild"] == pytest.approx(2 * 2.5, abs=0.06)
        assert found["saved_seconds"]["strong"] == pytest.approx(2 * 2.8, abs=0.06)
        assert found["error"] is None
        asked = len(server.received_for("/ep.wav"))
        assert json.loads(cli("silence", str(ids["ep.wav"]), "--json")[1]) == found  # kept: not analysed again
        assert len(server.received_for("/ep.wav")) == asked
        code, out, _ = cli("silence", str(ids["ep.wav"]))
        assert code == 0
        assert out.startswith("3 silent spans in 0:15; skipping silence saves 5.0 s (mild), 5.6 s (strong)")


def test_silence_of_a_compressed_file(tmp_path: Path, library_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    sox = shutil.which("sox")
    if sox is None:
        pytest.skip("sox is not installed (packaging/install-system-deps installs it)")
    wav = write_spoken_and_silent(tmp_path / "ep.wav", PARTS)
    subprocess.run([sox, str(wav), str(tmp_path / "ep.flac")], check=True)
    subprocess.run([sox, str(wav), str(tmp_path / "ep.ogg")], check=True)
    cli = Cli(library_path, capsys)
    with FeedServer(tmp_path) as server:
        ids = _subscribed(server, cli, {name: (tmp_path / name).read_bytes() for name in ("ep.flac", "ep.ogg")})
        for name in ("ep.flac", "ep.ogg"):
            found = json.loads(cli("silence", str(ids[name]), "--json")[1])
            assert [round(span["start"]) for span in found["spans"]] == [2, 7, 12], name


def test_what_cannot_be_analysed_gets_a_sentence(tmp_path: Path, library_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    cli = Cli(library_path, capsys)
    with FeedServer(tmp_path) as server:
        ids = _subscribed(server, cli, {"bad.mp3": write_corrupt(tmp_path / "bad.mp3").read_bytes()}, ("gone.mp3",))
        bad = server.url("/bad.mp3")
        code, _, err = cli("silence", str(ids["bad.mp3"]))
        assert code == 1
        assert err == f"earmark: {bad} cannot be opened as audio (Invalid data found when processing input).\n"
        found = json.loads(cli("silence", str(ids["bad.mp3"]), "--json")[1])
        assert found["spans"] == [] and found["error"].startswith(f"{bad} cannot be")
        code, _, err = cli("silence", str(ids["gone.mp3"]))
        assert code == 1 and err.startswith(f"earmark: {server.url('/gone.mp3')} cannot be opened as audio (")
    code, _, err = cli("silence", "999999")
    assert code == 1 and "There is no item with id 999999" in err


def test_levels_skip_only_long_enough_silences_and_jump_to_their_end() -> None:
    assert skipped(SILENCES, "off") == []
    assert skipped(SILENCES, "mild") == [(2.25, 4.75), (7.25, 9.75)]
    assert skipped(SILENCES, "strong") == [(2.1, 4.9), (7.1, 9.9)]
    assert saved_seconds(SILENCES, "strong") == pytest.approx(5.6)
    skips = skipped(SILENCES, "strong")
    assert jump_target(skips, 1.0) is None and jump_target(skips, 2.2) == 4.9 and jump_target(skips, 9.0) == 9.9
    assert jump_target(skips, 9.87) is None  # at its end already
