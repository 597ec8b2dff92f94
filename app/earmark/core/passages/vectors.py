"""Sentence vectors: the model a folder holds (a static model's table, or a transformer in ONNX), and the
vectors kept as their signs' bits, compared by how many bits agree. Import this module only where vectors are made
or compared: it loads numpy (and a transformer, onnxruntime)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np


class Embedder(Protocol):
    """A loaded sentence model: ``vectors(texts)`` gives one normalised row per text."""

    name: str

    @property
    def dimensions(self) -> int: ...

    def vectors(self, texts: Sequence[str]) -> np.ndarray: ...


def load(folder: Path, name: str) -> Embedder:
    """The model ``folder`` holds: a static one (model.safetensors) or a transformer (model.onnx)."""
    from earmark.core.passages import static

    if (folder / static.WEIGHTS).is_file():
        return static.StaticEmbedder(folder, name)
    from earmark.core.passages.transformer import OnnxEmbedder

    return OnnxEmbedder(folder, name)


def to_bits(rows: np.ndarray) -> list[bytes]:
    """Each row's signs as bits (a row of 256 numbers: 32 bytes; of 384: 48)."""
    return [row.tobytes() for row in np.packbits(rows > 0, axis=1)]


def columns(bits: Sequence[bytes]) -> np.ndarray:
    """Rows of packed bits (one blob a passage) laid out as ``agreement`` scans them fastest: one row a 64-bit
    word (a byte, for rows not a whole number of words long), one column a passage (4× faster than a row a
    passage, whose short rows numpy sums slowly)."""
    kind = np.uint64 if bits and len(bits[0]) % 8 == 0 else np.uint8
    return np.ascontiguousarray(np.frombuffer(b"".join(bits), dtype=kind).reshape(len(bits), -1).T)


def agreement(query: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """For each column of packed bits (as ``columns`` lays them out), the share of the query's signs it agrees
    with (0–1)."""
    mine = np.packbits(query > 0).view(columns.dtype)
    differ = np.zeros(columns.shape[1], dtype=np.uint16)
    for word, row in zip(mine, columns, strict=True):
        differ += np.bitwise_count(row ^ word)
    return 1.0 - differ / (8 * columns.itemsize * len(columns))
