"""`earmark transcribe` on a podcast served over HTTP whose episodes are espeak-ng speech: the transcript is
stored as the episode's (generated), a word said only in the audio finds the episode at its moment, a note at a
moment carries the words said there into every export, and bad cases get one sentence."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from helpers.audio import write_corrupt
from helpers.cli import Cli
from helpers.feed_server import FeedServer
from helpers.speech import speech_podcast, whisper_test_model, write_speech


@pytest.fixture
def model() -> Path:
    return whisper_test_model()


@pytest.fixture
def podcast(cli: Cli, model: Path, tmp_path: Path) -> Iterator[dict[str, int]]:
    """Subscribed to the speech podcast, the test model set; item ids by title (nothing downloaded yet)."""
    with FeedServer(tmp_path / "served") as server:
        (tmp_path / "served").mkdir(exist_ok=True)
        feed = speech_podcast(server, tmp_path / "served")
        db = open_library(cli.library)
        set_setting(db, "downloads.folder", str(tmp_path / "downloads"))
        set_setting(db, "transcribe.model", str(model))
        db.close()
        assert cli("subscribe", feed)[0] == 0
        ids = {str(item["title"]): int(item["id"]) for item in cli.json("list")}  # type: ignore[call-overload]
        assert cli("download", *map(str, ids.values()))[0] == 0
        yield ids


def _transcribe(cli: Cli, *args: str) -> dict[str, object]:
    code, out, err = cli("transcribe", *args, "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_transcribe_prints_the_contract_and_stores_a_generated_transcript(cli: Cli, podcast: dict[str, int],
                                                                          model: Path) -> None:
    item = podcast["Schedulers"]
    result = _transcribe(cli, str(item), "--model", str(model))
    assert {"item_id", "model", "language", "duration", "seconds_taken", "segments"} <= set(result)
    assert result["item_id"] == item and result["model"] == str(model) and result["language"] == "en"
    segments = result["segments"]
    assert isinstance(segments, list) and segments
    assert all({"start", "end", "text"} <= set(s) and 0 <= s["start"] <= s["end"] <= result["duration"]
               for s in segments)
    said = " ".join(s["text"] for s in segments).lower()
    assert "kubernetes" in said and "scheduler decides" in said and "cluster" in said  # primed by the show notes
    row = open_library(cli.library).execute("SELECT url, type FROM transcripts WHERE item_id = ?", [item]).fetchone()
    assert row == (f"generated:{model}", "generated")


def test_a_word_said_only_in_the_audio_finds_the_episode_at_its_moment(cli: Cli, podcast: dict[str, int]) -> None:
    item = podcast["Compilers for tensors"]
    assert cli.json("search", "handwritten") == []  # not in the title or the show notes
    _transcribe(cli, str(item))
    found = cli.json("search", "handwritten")
    assert [f["id"] for f in found] == [item] and found[0]["matched"] == "transcript"
    segments = _transcribe(cli, str(item))["segments"]
    said_at = next(s["start"] for s in segments if "handwritten" in s["text"].lower())  # type: ignore[union-attr]
    assert found[0]["at"] == said_at and said_at > 0
    assert "at" not in cli.json("search", "compilers")[0]  # a match in the title has no moment


def test_a_note_at_a_moment_carries_the_words_said_there_into_every_export(cli: Cli, podcast: dict[str, int],
                                                                          tmp_path: Path) -> None:
    item = podcast["Schedulers"]
    _transcribe(cli, str(item))
    assert cli("note", str(item), "where pods go", "--at", "6")[0] == 0
    note = cli.json("notes")[0]
    quote = str(note["quote"])
    assert "scheduler decides" in quote.lower() and "cluster" in quote.lower()
    assert cli("export-notes", "--format", "markdown", "--out", str(tmp_path / "md"))[0] == 0
    assert quote in "".join(p.read_text() for p in (tmp_path / "md").rglob("*.md"))
    code, out, _ = cli("export-notes", "--format", "csv", "--out", "-")
    rows = [(row["Highlight"], row["Note"]) for row in csv.DictReader(io.StringIO(out))]
    assert code == 0 and rows == [("where pods go", quote)]
    code, out, _ = cli("export-notes", "--format", "json", "--out", "-")
    assert code == 0 and quote in out


def test_transcribe_all_with_a_limit(cli: Cli, podcast: dict[str, int]) -> None:
    code, out, err = cli("transcribe", "--all", "--limit", "1")
    assert code == 0, err
    assert "Transcribed 1 episode (0 could not be)." in out
    assert len(open_library(cli.library).execute("SELECT * FROM transcripts").fetchall()) == 1
    code, out, _ = cli("transcribe", "--all")
    assert code == 0 and len(open_library(cli.library).execute("SELECT * FROM transcripts").fetchall()) == 2
    assert cli("transcribe", "--all")[1].strip() == "No downloaded episode is waiting to be transcribed."


def _fails(cli: Cli, *args: str) -> str:
    code, out, err = cli("transcribe", *args, "--json")
    assert code == 1 and out == "" and err.startswith("earmark: ") and len(err.strip().splitlines()) == 1
    return err


def test_an_episode_not_downloaded_gets_a_sentence(cli: Cli, model: Path, tmp_path: Path) -> None:
    with FeedServer(tmp_path / "served") as server:
        (tmp_path / "served").mkdir(exist_ok=True)
        assert cli("subscribe", speech_podcast(server, tmp_path / "served"))[0] == 0
    item = cli.json("list")[0]["id"]
    assert "is not downloaded: download it first" in _fails(cli, str(item), "--model", str(model))


def _replace_download(cli: Cli, item: int, body: Path) -> None:
    path = open_library(cli.library).execute("SELECT path FROM downloads WHERE item_id = ?", [item]).fetchone()[0]
    Path(path).write_bytes(body.read_bytes())


def test_a_broken_file_and_silence_get_a_sentence_and_store_nothing(cli: Cli, podcast: dict[str, int],
                                                                    tmp_path: Path) -> None:
    broken, quiet = podcast["Schedulers"], podcast["Compilers for tensors"]
    _replace_download(cli, broken, write_corrupt(tmp_path / "broken.wav"))
    assert "is not audio Earmark can read" in _fails(cli, str(broken))
    subprocess.run(["sox", "-n", "-r", "16000", str(tmp_path / "quiet.wav"), "trim", "0", "3"], check=True)
    _replace_download(cli, quiet, tmp_path / "quiet.wav")
    assert "holds only silence" in _fails(cli, str(quiet))
    assert open_library(cli.library).execute("SELECT count(*) FROM transcripts").fetchone()[0] == 0


def test_a_missing_model_gets_a_sentence(cli: Cli, podcast: dict[str, int], tmp_path: Path) -> None:
    item = str(podcast["Schedulers"])
    assert "There is no model 'huge'" in _fails(cli, item, "--model", "huge")
    (tmp_path / "empty").mkdir()
    assert "holds no Whisper model" in _fails(cli, item, "--model", str(tmp_path / "empty"))


def test_without_the_engine_the_command_says_how_to_add_it(cli: Cli, podcast: dict[str, int],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "faster_whisper"
                        else real(name, *a))
    assert "pip install 'earmark[transcribe]'" in _fails(cli, str(podcast["Schedulers"]))


def test_the_feeds_transcript_is_kept_unless_the_user_asks(cli: Cli, podcast: dict[str, int]) -> None:
    from earmark.core.db.transcripts import store_transcript
    from earmark.core.models import Cue, Transcript

    item = podcast["Schedulers"]
    db = open_library(cli.library)
    store_transcript(db, item, "https://example.com/t.vtt", Transcript([Cue(0, 2, "From the feed.")], "vtt"))
    assert "has a transcript from its feed, which is kept" in _fails(cli, str(item))
    assert _transcribe(cli, str(item), "--replace")["segments"]
    assert db.execute("SELECT type FROM transcripts WHERE item_id = ?", [item]).fetchone()[0] == "generated"


def test_speech_helper_makes_audio(tmp_path: Path) -> None:
    whisper_test_model()
    assert write_speech(tmp_path / "a.wav", "hello", silence_after=1).stat().st_size > 10_000


def test_speech_helper_speaks_a_text_that_starts_with_a_dash(model: Path, tmp_path: Path) -> None:
    from earmark.core.transcribe.engine import Engine

    spoken = write_speech(tmp_path / "dash.wav", "-minus signs come first. The tensor compiler fuses kernels.")
    heard = " ".join(segment.text for segment in Engine(model, "tiny.en").transcribe(spoken).segments).lower()
    assert "compiler" in heard  # spoken, not read by espeak-ng as its options


def test_a_queue_without_its_model_fails_once_and_stays_failed(cli: Cli, podcast: dict[str, int],
                                                               tmp_path: Path) -> None:
    from earmark.core.db import transcribe_queue as queue

    db = open_library(cli.library)
    queue.enqueue(db, list(podcast.values()))
    set_setting(db, "transcribe.model", str(tmp_path / "gone"))  # a model folder that was removed
    (tmp_path / "gone").mkdir()
    code, _, err = cli("transcribe", "--queue", "--jsonl")
    assert code == 1 and "holds no Whisper model" in err
    failed = queue.waiting(db)
    assert len(failed) == 2 and all(w.error and "holds no Whisper model" in w.error for w in failed)
    assert queue.next_waiting(db) is None  # the next start finds nothing to try again
    code, out, _ = cli("transcribe", "--queue", "--jsonl")
    assert code == 0 and json.loads(out.splitlines()[-1]) == {"transcribed": 0, "failed": 0}
    queue.enqueue(db, [podcast["Schedulers"]])  # Retry: asked again, it is tried again
    assert queue.next_waiting(db) == podcast["Schedulers"]
    db.close()
