"""Before the first transcription: whether the chosen model is here, how large it is to fetch, and whether the
place it is fetched from can be reached now (so the window says so before anything is queued)."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

from earmark.core.records import record
from earmark.core.transcribe.models import SIZES, is_model_folder, models_folder

# The size of each model's files (model.bin and the rest), as the hub lists them for Systran/faster-whisper-*.
MODEL_MB = {"tiny": 75, "tiny.en": 75, "base": 145, "base.en": 145, "small": 484, "small.en": 484}
HUB = "https://huggingface.co"  # where models are fetched from; HF_ENDPOINT names another (a mirror)
REACH_SECONDS = 3.0


@record(frozen=True)
class Readiness:
    """What transcribing with the model ``name`` needs first: nothing (``ready``), a fetch of ``fetch_mb`` MB
    (``offline`` when the hub cannot be reached now), or a folder that holds no model (``sentence`` says so)."""

    name: str
    ready: bool
    fetch_mb: int | None = None
    offline: bool = False
    sentence: str = ""


def hub_reachable(timeout: float = REACH_SECONDS) -> bool:
    """Whether the models' hub answers a connection now (network; run it off the UI thread)."""
    address = urlsplit(os.environ.get("HF_ENDPOINT") or HUB)
    port = address.port or (443 if address.scheme == "https" else 80)
    try:
        with socket.create_connection((address.hostname or "", port), timeout=timeout):
            return True
    except OSError:
        return False


def readiness(name: str) -> Readiness:
    """What the model ``name`` (a size or a folder) needs before a first transcription."""
    name = name.strip()
    if name not in SIZES:
        folder = Path(name).expanduser()
        if is_model_folder(folder):
            return Readiness(name, True)
        return Readiness(name, False, sentence=f"The model folder {folder} holds no Whisper model in CTranslate2 "
                                               "format (model.bin and config.json): choose another.")
    if is_model_folder(models_folder() / name):
        return Readiness(name, True)
    size = MODEL_MB[name]
    if not hub_reachable():
        return Readiness(name, False, size, offline=True, sentence=(
            f"Earmark is offline: transcribing needs the {name} speech model ({size} MB), fetched once when the "
            "computer is online. Choose a folder holding a Whisper model to transcribe now."))
    return Readiness(name, False, size, sentence=(
        f"Transcribing needs the {name} speech model: {size} MB, fetched once into {models_folder()}, then "
        "everything stays on this computer. Or choose a folder holding a Whisper model."))
