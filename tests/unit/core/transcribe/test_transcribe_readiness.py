"""Before the first transcription: a model here is ready; a size not fetched says its size, and offline says so
(the hub's address is a closed port on 127.0.0.1, or a local server that accepts); a folder without a model says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.transcribe.readiness import MODEL_MB, readiness
from helpers.feed_server import FeedServer, closed_port
from helpers.speech import whisper_test_model


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_offline_says_so_with_the_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port()}")
    found = readiness("base.en")
    assert not found.ready and found.offline and found.fetch_mb == MODEL_MB["base.en"] == 145
    assert found.sentence.startswith("Earmark is offline: transcribing needs the base.en speech model (145 MB)")


def test_online_says_the_size_fetched_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with FeedServer(tmp_path) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url(""))
        found = readiness("tiny.en")
    assert not found.ready and not found.offline and found.fetch_mb == 75
    assert "75 MB, fetched once into" in found.sentence and str(tmp_path / "cache") in found.sentence


def test_a_model_here_is_ready(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port()}")
    assert readiness(str(whisper_test_model())).ready
    fetched = cache / "earmark" / "models" / "base.en"
    fetched.mkdir(parents=True)
    (fetched / "model.bin").write_bytes(b"0")
    (fetched / "config.json").write_text("{}")
    assert readiness("base.en").ready  # fetched before: nothing to say, even offline


def test_a_folder_without_a_model(tmp_path: Path) -> None:
    found = readiness(str(tmp_path))
    assert not found.ready and "holds no Whisper model" in found.sentence
