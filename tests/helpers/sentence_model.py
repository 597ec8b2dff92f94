"""The sentence model for Ask's tests: the default model's table (WordLlama's l2_supercat, 256 dimensions) and
its tokenizer, as the PyPI package wordllama ships them (installed without its dependencies: only its files are
read), put together as a model folder the way ``ask.model`` names one (.ci/run installs it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

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
