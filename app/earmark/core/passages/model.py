"""The sentence model Ask uses for meaning: fetched once into the user's cache folder (its size said first,
progress shown), or a folder named by the setting ``ask.model``; without one, Ask works on words alone."""

from __future__ import annotations

import importlib.util
import platform
import shutil
from collections.abc import Callable
from pathlib import Path

from earmark.core.errors import EarmarkError
from earmark.core.user_folders import user_folder

DEFAULT = "all-MiniLM-L6-v2"
OFF = "off"
REPOSITORY = "sentence-transformers/all-MiniLM-L6-v2"
# The model's int8 ONNX exports (about 23 MB each): unsigned weights for AVX2, which every x86-64 CPU of the last
# ten years has; signed ones where the CPU multiplies bytes by VNNI (or AMX) instructions, which take a signed
# operand: on such a CPU (a Xeon of 2023) the signed export made vectors 1.6 times as fast (bench/README.md).
EXPORTS = {"avx2": "onnx/model_quint8_avx2.onnx", "vnni": "onnx/model_qint8_avx512_vnni.onnx",
           "arm64": "onnx/model_qint8_arm64.onnx"}
SIZE_MB = 23

Progress = Callable[[float, str], None]


class ModelError(EarmarkError):
    """The sentence model cannot be had: a sentence saying why."""


def engine_installed() -> bool:
    """Whether onnxruntime and tokenizers are installed (the ``transcribe`` extra brings them)."""
    return all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "tokenizers", "numpy"))


def is_model_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a sentence model: model.onnx and tokenizer.json."""
    return (folder / "model.onnx").is_file() and (folder / "tokenizer.json").is_file()


def cached_folder() -> Path:
    return user_folder("cache") / "models" / DEFAULT


def local_folder(name: str) -> Path | None:
    """The model's folder when it is here already (None when it must be fetched, or none is wanted)."""
    name = name.strip()
    if not name or name == OFF or not engine_installed():
        return None
    folder = cached_folder() if name == DEFAULT else Path(name).expanduser()
    return folder if is_model_folder(folder) else None


def export_for(machine: str | None = None, flags: str | None = None) -> str:
    """The export this CPU runs fastest (its architecture, and on Linux the instructions /proc/cpuinfo lists)."""
    machine = (machine or platform.machine()).lower()
    if machine in ("arm64", "aarch64"):
        return EXPORTS["arm64"]
    if flags is None:
        try:
            flags = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            flags = ""
    return EXPORTS["vnni"] if {"avx512_vnni", "avx_vnni", "amx_int8"} & set(flags.split()) else EXPORTS["avx2"]


def fetch_model(progress: Progress | None = None) -> Path:
    """Fetch the default model into the cache folder (a partial fetch is resumed); ModelError when it cannot be."""
    from huggingface_hub import hf_hub_download

    folder = cached_folder()
    folder.mkdir(parents=True, exist_ok=True)
    label = f"Fetching the sentence model ({SIZE_MB} MB, once)"
    files = {export_for(): "model.onnx", "tokenizer.json": "tokenizer.json"}
    for number, (remote, local) in enumerate(files.items()):
        if progress is not None:
            progress(number / len(files), label)
        try:
            fetched = hf_hub_download(REPOSITORY, remote, local_dir=str(folder / "fetched"))
        except Exception as exc:  # any failure of the hub or the network: one sentence, nothing half-kept
            raise ModelError(f"The sentence model could not be fetched ({type(exc).__name__}): Ask works on words "
                             "alone until it can be, or set ask.model to a folder holding one.") from exc
        shutil.copyfile(fetched, folder / local)
    if progress is not None:
        progress(1.0, label)
    return folder
