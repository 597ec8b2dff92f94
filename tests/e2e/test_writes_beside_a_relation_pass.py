"""A full relation pass (``earmark update-relations --full``, its own process) drops the terms' and relations'
indexes while it stores them and makes them again at its end. Another process writing meanwhile must lose
nothing: a transcript made by the transcription worker while a pass ran was lost once ("The library could not be
used: no such table: transcripts": its first statement after the pass changed the schema failed to prepare)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from earmark.cli import main
from earmark.core.db.connection import open_library
from helpers.feed_server import FeedServer
from helpers.speech import follow_speech_podcast, whisper_test_model


def earmark(library: Path, *args: str) -> subprocess.Popen[str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.Popen([sys.executable, "-m", "earmark", "--library", str(library), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_a_transcript_made_while_a_full_pass_runs_is_stored(tmp_path: Path) -> None:
    whisper_test_model()  # skips without the engine, the model or espeak-ng
    library = tmp_path / "library.db"
    (tmp_path / "served").mkdir()
    with FeedServer(tmp_path / "served") as server:
        follow_speech_podcast(server, library, tmp_path)
        assert main(["--library", str(library), "download", "1"]) == 0
    worker = earmark(library, "transcribe", "--all", "--jsonl")
    assert worker.stdout is not None
    first = json.loads(worker.stdout.readline())  # it has begun: the library open, the model loading
    assert first["item_id"] == 1
    time.sleep(0.3)
    relation_pass = earmark(library, "update-relations", "--full", "--jsonl")
    _, pass_errors = relation_pass.communicate(timeout=120)
    assert relation_pass.returncode == 0, pass_errors
    said, errors = worker.communicate(timeout=300)
    assert worker.returncode == 0, errors
    assert '"failed": 0' in said, said
    db = open_library(library)
    assert db.execute("SELECT count(*) FROM transcripts WHERE item_id = 1").fetchone()[0] == 1
    assert db.execute("SELECT count(*) FROM transcribe_queue WHERE error IS NOT NULL").fetchone()[0] == 0
    db.close()
