"""Sentence vectors from a small transformer (all-MiniLM-L6-v2 in ONNX, run by onnxruntime): mean of the last
layer over the word pieces, normalised. Better at meaning than a static model, but ~30 passages a second on one
core here (bench/README.md): chosen by ``ask.model``, not the default."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

MAX_TOKENS = 128  # the length all-MiniLM-L6-v2 was trained on; the rest of a longer passage counts for words alone
BATCH = 32
WEIGHTS, TOKENIZER = "model.onnx", "tokenizer.json"


class OnnxEmbedder:
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
        self._session = onnxruntime.InferenceSession(str(folder / WEIGHTS), options,
                                                     providers=["CPUExecutionProvider"])
        self._inputs = {given.name for given in self._session.get_inputs()}
        self.tokenizer = Tokenizer.from_file(str(folder / TOKENIZER))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.enable_padding()

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
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
        summed = (hidden * mask[:, :, None]).sum(axis=1)
        means = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        return means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-9)
