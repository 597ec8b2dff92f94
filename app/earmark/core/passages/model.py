"""The sentence model Ask uses for meaning: fetched once into the user's cache folder (its size said first,
progress shown), or a folder named by the setting ``ask.model``; without one, Ask works on words alone.

The default is a static model, WordLlama's l2_supercat table of 256 dimensions (18 MB, MIT): a text's vector is
the mean of its word pieces' rows, thousands of passages a second on one core. all-MiniLM-L6-v2 (a transformer in
int8 ONNX, 23 MB) may be chosen instead: a little better by meaning alone, ~30 passages a second (bench/README.md).
"""

from __future__ import annotations

import importlib.util
import os
import platform
import shutil
from collections.abc import Callable
from pathlib import Path

from earmark.core.errors import EarmarkError
from earmark.core.passages.catalogue import DEFAULT, KNOWN, MINILM, OFF
from earmark.core.transcribe.readiness import hub_reachable
from earmark.core.user_folders import user_folder

# all-MiniLM-L6-v2's int8 ONNX exports: unsigned weights for AVX2, which every x86-64 CPU of the last ten years
# has; signed ones where the CPU multiplies bytes by VNNI (or AMX) instructions, which take a signed operand: on
# such a CPU (a Xeon of 2023) the signed export made vectors 1.6 times as fast (bench/README.md).
EXPORTS = {"avx2": "onnx/model_quint8_avx2.onnx", "vnni": "onnx/model_qint8_avx512_vnni.onnx",
           "arm64": "onnx/model_qint8_arm64.onnx"}

Progress = Callable[[float, str], None]
_UNFETCHED = ("The sentence model could not be fetched ({why}): Ask works on words alone until it can be, or set "
              "ask.model to a folder holding one.")


class ModelError(EarmarkError):
    """The sentence model cannot be had: a sentence saying why."""


def engine_installed(name: str = DEFAULT) -> bool:
    """Whether what the named model runs on is installed (the ``transcribe`` extra brings it); a folder's model
    is a static one (numpy and tokenizers) or, holding model.onnx, a transformer (onnxruntime too)."""
    needs = KNOWN[name].engine if name in KNOWN else KNOWN[
        MINILM if (Path(name).expanduser() / "model.onnx").is_file() else DEFAULT].engine
    return all(importlib.util.find_spec(module) is not None for module in needs)


def is_model_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a sentence model: tokenizer.json and model.safetensors (a static model's table)
    or model.onnx (a transformer)."""
    return (folder / "tokenizer.json").is_file() and any(
        (folder / weights).is_file() for weights in ("model.safetensors", "model.onnx"))


def cached_folder(name: str = DEFAULT) -> Path:
    return user_folder("cache") / "models" / name


def local_folder(name: str) -> Path | None:
    """The model's folder when it is here already (None when it must be fetched, or none is wanted)."""
    name = name.strip()
    if not name or name == OFF or not engine_installed(name):
        return None
    folder = cached_folder(name) if name in KNOWN else Path(name).expanduser()
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


def fetch_model(progress: Progress | None = None, name: str = DEFAULT) -> Path:
    """Fetch a known model into the cache folder (a partial fetch is resumed); ModelError when it cannot be."""
    from huggingface_hub import hf_hub_download

    known = KNOWN[name]
    folder = cached_folder(name)
    folder.mkdir(parents=True, exist_ok=True)
    label = f"Fetching the sentence model ({known.size_mb} MB, once)"
    for number, (remote, local) in enumerate(known.files):
        if progress is not None:
            progress(number / len(known.files), label)
        if number == 0 and not hub_reachable():  # at once, not after the hub client's retries (23 s)
            raise ModelError(_UNFETCHED.format(why="offline: the hub cannot be reached"))
        try:
            fetched = hf_hub_download(known.repository, remote.format(export=export_for()),
                                      local_dir=str(folder / "fetched"), endpoint=os.environ.get("HF_ENDPOINT"))
        except Exception as exc:  # any failure of the hub or the network: one sentence, nothing half-kept
            raise ModelError(_UNFETCHED.format(why=type(exc).__name__)) from exc
        shutil.copyfile(fetched, folder / local)
    if progress is not None:
        progress(1.0, label)
    return folder
