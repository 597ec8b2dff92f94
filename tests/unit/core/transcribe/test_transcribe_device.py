"""The engine's device: the CPU on a machine without a GPU; when CTranslate2 counts a GPU the engine cannot load
the model on (no CUDA driver here), it falls back to the CPU and still transcribes; asked for CUDA only, it says
so by failing. The GPU itself is measured by bench/transcribe_throughput.py --device cuda."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.transcribe import engine
from helpers.speech import whisper_test_model, write_speech


@pytest.fixture
def model() -> Path:
    return whisper_test_model()


def test_without_a_gpu_the_cpu(model: Path) -> None:
    if engine.gpu_count():
        pytest.skip("this machine has a GPU: the lead's bench measures it")
    assert engine.Engine(model, "tiny.en").device == "cpu"


def test_a_gpu_that_cannot_load_the_model_falls_back_to_the_cpu(model: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    if engine.gpu_count():
        pytest.skip("this machine's GPU can load the model")
    monkeypatch.setattr(engine, "gpu_count", lambda: 1)  # CTranslate2 counting a device its driver cannot run
    heard = engine.Engine(model, "tiny.en")
    assert heard.device == "cpu"
    result = heard.transcribe(write_speech(tmp_path / "hello.wav", "The tensor compiler fuses kernels."))
    assert "compiler" in " ".join(segment.text for segment in result.segments).lower()
    with pytest.raises(RuntimeError):
        engine.Engine(model, "tiny.en", device="cuda")
