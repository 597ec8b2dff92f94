"""Which Whisper model to use: a size fetched once into the user's cache folder, or a local model folder."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

from earmark.core.errors import TranscribeError
from earmark.core.user_folders import user_folder

SIZES = ("tiny", "tiny.en", "base", "base.en", "small", "small.en")
REPOSITORY = "Systran/faster-whisper-{size}"  # CTranslate2 conversions of OpenAI's Whisper models
MODEL_FILES = ["config.json", "preprocessor_config.json", "model.bin", "tokenizer.json", "vocabulary.*"]
INSTALL_HINT = ("Transcribing needs the speech-recognition engine, which is not installed: add it with "
                "pip install 'earmark[transcribe]' (in the environment Earmark runs from).")

Progress = Callable[[float, str], None]


def require_engine() -> None:
    """TranscribeError saying how to add the engine when faster-whisper is not installed."""
    if importlib.util.find_spec("faster_whisper") is None:
        raise TranscribeError(INSTALL_HINT)


def models_folder() -> Path:
    """Where fetched models are kept: ``~/.cache/earmark/models`` on Linux."""
    return user_folder("cache") / "models"


def is_model_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a CTranslate2 Whisper model."""
    return (folder / "model.bin").is_file() and (folder / "config.json").is_file()


def model_folder(name: str, progress: Progress | None = None) -> Path:
    """The folder of the model ``name`` (a size, or a folder), fetching a size on first use with progress.

    TranscribeError with a sentence when the folder holds no model or the size cannot be fetched."""
    name = name.strip()
    if name in SIZES:
        folder = models_folder() / name
        if not is_model_folder(folder):
            _fetch(name, folder, progress)
        return folder
    folder = Path(name).expanduser()
    if is_model_folder(folder):
        return folder
    if folder.is_dir():
        raise TranscribeError(f"The folder {folder} holds no Whisper model in CTranslate2 format (model.bin and "
                              "config.json).")
    raise TranscribeError(f"There is no model {name!r}: name a size ({', '.join(SIZES)}) or a model folder.")


def _fetch(size: str, folder: Path, progress: Progress | None) -> None:
    """Fetch a model from the Hugging Face hub into ``folder`` (a partial fetch is resumed next time)."""
    from huggingface_hub import snapshot_download

    if progress is not None:
        progress(0.0, f"Fetching the {size} model")
    try:
        snapshot_download(REPOSITORY.format(size=size), local_dir=str(folder), allow_patterns=MODEL_FILES,
                          tqdm_class=_progress_bar(size, progress))
    except Exception as exc:  # any failure of the hub or the network: one sentence, the model stays unfetched
        raise TranscribeError(f"The {size} model could not be fetched ({type(exc).__name__}): check the "
                              "connection, or set transcribe.model to a local model folder.") from exc
    if not is_model_folder(folder):
        raise TranscribeError(f"The {size} model fetched into {folder} is incomplete.")


def _progress_bar(size: str, progress: Progress | None) -> Any:
    """A tqdm class that reports the bytes fetched through ``progress``."""
    from tqdm.auto import tqdm

    class Reported(tqdm):
        def update(self, n: float | None = 1) -> bool | None:
            shown = super().update(n)
            if progress is not None and self.total and self.unit == "B":
                progress(min(1.0, self.n / self.total), f"Fetching the {size} model")
            return shown

    return Reported
