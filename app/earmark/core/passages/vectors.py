"""Sentence vectors with a small local model (all-MiniLM-L6-v2 in ONNX, run by onnxruntime): mean of the last
layer over the words, normalised; kept as their signs' bits, compared by how many bits agree. Import this module
only where vectors are made or compared: it loads numpy, and the model loads onnxruntime."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

MAX_TOKENS = 128  # the length all-MiniLM-L6-v2 was trained on; the rest of a longer passage counts for words alone
BATCH = 32


class Embedder:
    """A loaded model: ``vectors(texts)`` gives one normalised row per text."""

    def __init__(self, folder: Path, name: str, threads: int = 1) -> None:
        import onnxruntime  # type: ignore[import-untyped]  # it ships no type hints
        from tokenizers import Tokenizer

        self.name = name
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # A waiting thread of onnxruntime's spins by default: with the indexing child beside the window on a
        # loaded machine, the spinning cost as much CPU as the work (68 ms of CPU a passage, 30 with one thread).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = onnxruntime.InferenceSession(str(folder / "model.onnx"), options,
                                                     providers=["CPUExecutionProvider"])
        self._inputs = {given.name for given in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding()

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Rows of unit length, one per text (batched; texts of like length together to pad little)."""
        order = sorted(range(len(texts)), key=lambda n: len(texts[n]))
        rows = np.zeros((len(texts), self.dimensions if texts else 0), dtype=np.float32)
        for first in range(0, len(order), BATCH):
            chosen = order[first:first + BATCH]
            rows[chosen] = self._batch([texts[n] for n in chosen])
        return rows

    @property
    def dimensions(self) -> int:
        return int(self._session.get_outputs()[0].shape[-1])

    def _batch(self, texts: list[str]) -> np.ndarray:
        encoded = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
        summed = (hidden * mask[:, :, None]).sum(axis=1)
        means = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        return means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-9)


def to_bits(rows: np.ndarray) -> list[bytes]:
    """Each row's signs as bits (a row of 384 numbers: 48 bytes)."""
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
