"""The static sentence model: its table read from a safetensors file as written by hand here, a text's vector the
normalised mean of its word pieces' rows; the default model's test copy puts a paraphrase nearer than another
topic."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from earmark.core.passages.static import StaticEmbedder, read_table
from earmark.core.passages.vectors import load
from helpers.sentence_model import sentence_test_model

WORDS = {"<unk>": 0, "guard": 1, "graph": 2, "cat": 3}
TABLE = np.array([[0, 0, 0], [2, 0, 0], [0, 2, 0], [0, 0, -1]], dtype=np.float16)


def write_table(path: Path, tables: dict[str, np.ndarray], kind: str = "F16") -> None:
    """A safetensors file: 8 bytes giving the header's length, the JSON header, the tables' bytes."""
    header, data = {"__metadata__": {"format": "np"}}, b""
    for name, table in tables.items():
        header[name] = {"dtype": kind, "shape": list(table.shape),
                        "data_offsets": [len(data), len(data) + table.nbytes]}
        data += table.tobytes()
    encoded = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(encoded)) + encoded + data)


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A model folder of four words and three dimensions (a word-level tokenizer, split at spaces)."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    tokenizer = Tokenizer(models.WordLevel(WORDS, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(str(tmp_path / "tokenizer.json"))
    write_table(tmp_path / "model.safetensors", {"embedding.weight": TABLE})
    return tmp_path


def test_a_text_is_the_normalised_mean_of_its_pieces(tiny: Path) -> None:
    model = load(tiny, "tiny")
    assert isinstance(model, StaticEmbedder) and model.dimensions == 3
    rows = model.vectors(["guard graph", "", "cat", "cat cat guard"])
    half = 1 / np.sqrt(2)
    assert np.allclose(rows, [[half, half, 0], [0, 0, 0], [0, 0, -1], [2 / np.sqrt(8), 0, -2 / np.sqrt(8)]])
    assert model.vectors([]).shape == (0, 3)


def test_a_file_of_several_tables_or_of_unread_numbers_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "model.safetensors"
    write_table(path, {"a": TABLE, "b": TABLE})
    with pytest.raises(ValueError, match="2 tables"):
        read_table(path)
    write_table(path, {"a": TABLE}, kind="BF16")
    with pytest.raises(ValueError, match="BF16"):
        read_table(path)


def test_the_default_models_copy_puts_a_paraphrase_nearer_than_another_topic(tmp_path: Path) -> None:
    model = load(sentence_test_model(tmp_path / "model"), "test")
    assert model.dimensions == 256
    question, answer, other = model.vectors(["why must the compiled code be checked again",
                                             "guards verify the assumptions made when the graph was compiled",
                                             "my grandmother bakes bread on sundays"])
    assert question @ answer > question @ other + 0.1
