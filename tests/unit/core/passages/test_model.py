"""The sentence models: each known one has its folder in the cache, a folder of either kind is a model, a fetch
says the size first and, offline, a sentence; of all-MiniLM-L6-v2's exports the one whose int8 kernels the CPU
has is fetched."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.passages.catalogue import DEFAULT, KNOWN, MINILM, OFF
from earmark.core.passages.model import (
    EXPORTS,
    ModelError,
    cached_folder,
    export_for,
    fetch_model,
    is_model_folder,
    local_folder,
)
from helpers.feed_server import closed_port
from helpers.sentence_model import sentence_test_model

XEON_2023 = "fpu sse2 avx avx2 avx512f avx512bw avx512_vnni amx_int8 amx_tile"  # as /proc/cpuinfo lists them
OLDER = "fpu sse2 avx avx2 fma"


def test_a_cpu_that_multiplies_bytes_by_vnni_gets_the_signed_export() -> None:
    assert export_for("x86_64", XEON_2023) == "onnx/model_qint8_avx512_vnni.onnx"
    assert export_for("AMD64", "avx2 avx_vnni") == EXPORTS["vnni"]


def test_any_other_x86_cpu_gets_the_avx2_export_and_arm_its_own() -> None:
    assert export_for("x86_64", OLDER) == "onnx/model_quint8_avx2.onnx"
    assert export_for("x86_64", "") == EXPORTS["avx2"]  # no /proc/cpuinfo (Windows, macOS): the safe one
    assert export_for("aarch64", "") == export_for("arm64", "") == "onnx/model_qint8_arm64.onnx"


def test_each_known_model_has_its_own_cached_folder_and_a_folder_of_either_kind_is_a_model(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert cached_folder() == tmp_path / "cache" / "earmark" / "models" / DEFAULT
    assert local_folder(DEFAULT) is None and local_folder(MINILM) is None and local_folder(OFF) is None
    static = sentence_test_model(cached_folder())
    assert local_folder(DEFAULT) == static and is_model_folder(static)
    onnx = tmp_path / "onnx"
    onnx.mkdir()
    (onnx / "tokenizer.json").write_text("{}")
    assert not is_model_folder(onnx)
    (onnx / "model.onnx").write_bytes(b"0")
    assert is_model_folder(onnx) and local_folder(str(static)) == static


def test_offline_the_fetch_said_the_size_first_then_a_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port()}")
    told: list[tuple[float, str]] = []
    with pytest.raises(ModelError, match=r"fetched \(offline: the hub cannot be reached\): Ask works on words alone"):
        fetch_model(lambda share, label: told.append((share, label)))
    assert told == [(0.0, f"Fetching the sentence model ({KNOWN[DEFAULT].size_mb} MB, once)")]
    assert KNOWN[DEFAULT].size_mb == 18 and KNOWN[MINILM].size_mb == 23
    assert not (cached_folder() / "model.safetensors").exists()
