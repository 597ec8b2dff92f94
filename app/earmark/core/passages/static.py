"""Sentence vectors from a static model (WordLlama, model2vec's kind): a table of one vector per word piece; a
text's vector is the mean of its pieces' rows, normalised. No network of layers runs: a passage costs its
tokenising and a few hundred additions, thousands of passages a second on one core (a transformer of the
all-MiniLM-L6-v2 class made 30 here: bench/README.md). Reads the table from its safetensors file with numpy."""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from pathlib import Path

import numpy as np

WEIGHTS, TOKENIZER = "model.safetensors", "tokenizer.json"
_KINDS: dict[str, np.dtype] = {"F16": np.dtype("<f2"), "F32": np.dtype("<f4")}  # safetensors is little-endian


def read_table(path: Path) -> np.ndarray:
    """The one table of a safetensors file (8 bytes of header length, a JSON header, the raw data), in its own
    numbers (half floats stay so: 16 MB in memory, not 32; a passage's rows are summed in float32)."""
    with path.open("rb") as file:
        length = struct.unpack("<Q", file.read(8))[0]
        header = json.loads(file.read(length))
        tensors = {name: spec for name, spec in header.items() if name != "__metadata__"}
        if len(tensors) != 1:
            raise ValueError(f"{path.name} holds {len(tensors)} tables, not one")
        (spec,) = tensors.values()
        kind = _KINDS.get(spec["dtype"])
        if kind is None:
            raise ValueError(f"{path.name}: numbers of kind {spec['dtype']} are not read")
        first, last = spec["data_offsets"]
        file.seek(8 + length + first)
        data = np.frombuffer(file.read(last - first), dtype=kind)
    return data.reshape(spec["shape"])


class StaticEmbedder:
    """A loaded static model: ``vectors(texts)`` gives one normalised row per text."""

    def __init__(self, folder: Path, name: str) -> None:
        from tokenizers import Tokenizer

        self.name = name
        self._table = read_table(folder / WEIGHTS)
        self.tokenizer = Tokenizer.from_file(str(folder / TOKENIZER))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()

    @property
    def dimensions(self) -> int:
        return int(self._table.shape[1])

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Rows of unit length, one per text (zeros for a text of no word pieces)."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        pieces = [e.ids for e in self.tokenizer.encode_batch(list(texts), add_special_tokens=False)]
        counts = np.array([len(ids) for ids in pieces], dtype=np.int64)
        ids = np.fromiter((i for ids in pieces for i in ids), dtype=np.int64, count=int(counts.sum()))
        np.clip(ids, 0, len(self._table) - 1, out=ids)
        sums = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        some = counts > 0  # reduceat would give an empty text the next text's first row
        if some.any():
            sums[some] = np.add.reduceat(self._table[ids], (np.cumsum(counts) - counts)[some], axis=0,
                                         dtype=np.float32)
        means = sums / np.maximum(counts, 1).astype(np.float32)[:, None]
        return means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-9)
